#pragma once
// For MPI tests of files every rank opens: a fresh directory that rank 0 makes, its path on every rank;
// rank 0 removes it, with what it holds, once every rank is done with it.
#include <mpi.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "rmtsweep/parallel/collectives.hpp"

namespace rmtsweep::test {

class SharedDir {
 public:
  SharedDir() {
    std::string made;
    if (parallel::rank_of(MPI_COMM_WORLD) == 0) {
      std::string pattern = (std::filesystem::temp_directory_path() / "rmtsweep_shared_XXXXXX").string();
      made = ::mkdtemp(pattern.data());
      owned_ = made;
    }
    path_ = parallel::broadcast(made, MPI_COMM_WORLD);
  }
  SharedDir(const SharedDir&) = delete;
  SharedDir& operator=(const SharedDir&) = delete;
  ~SharedDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    std::error_code ec;
    if (!owned_.empty()) std::filesystem::remove_all(owned_, ec);
  }
  /// The path of `name` inside the directory, the same on every rank.
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_, owned_;
};

}  // namespace rmtsweep::test
