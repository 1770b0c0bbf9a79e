// MpiError's message: the call and MPI's own text for the code.
#include <mpi.h>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
    std::string fallback = "MPI error ";  // appended, not operator+: GCC 12 warns falsely (-Wrestrict)
    fallback += std::to_string(code);
    return fallback;
  }
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace

MpiError::MpiError(int code, const std::string& call)
    : Error(call + ": " + mpi_error_text(code)), code_(code) {}

}  // namespace rmtsweep
