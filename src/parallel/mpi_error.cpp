#include <mpi.h>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep {
namespace {

class MpiErrorCategory : public std::error_category {
 public:
  const char* name() const noexcept override { return "MPI"; }
  std::string message(int code) const override {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
      std::string fallback = "MPI error ";  // appended, not operator+: GCC 12 warns falsely (-Wrestrict)
      fallback += std::to_string(code);
      return fallback;
    }
    return std::string(text, static_cast<std::size_t>(length));
  }
};

}  // namespace

const std::error_category& mpi_error_category() noexcept {
  static const MpiErrorCategory category;
  return category;
}

}  // namespace rmtsweep
