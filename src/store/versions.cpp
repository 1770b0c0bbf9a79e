// Versions of the libraries a sweep runs with, for the file's root attributes.
#include <dlfcn.h>
#include <hdf5.h>
#include <mpi.h>

#include <filesystem>

#include "rmtsweep/common/lapack.hpp"
#include "rmtsweep/store/sweep_file.hpp"

extern "C" void pdsyevr_();  // only its address is taken, to find the ScaLAPACK library file

namespace rmtsweep::store {

LibraryVersions library_versions() {
  LibraryVersions versions;
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(mpi, &length) == MPI_SUCCESS) {
    versions.mpi.assign(mpi, static_cast<std::size_t>(length));
    while (!versions.mpi.empty() && (versions.mpi.back() == '\n' || versions.mpi.back() == '\0')) {
      versions.mpi.pop_back();
    }
  }
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  versions.hdf5 = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
  const char* blas = openblas_get_config();
  versions.blas = blas ? blas : "OpenBLAS (unknown)";
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&pdsyevr_), &info) != 0 && info.dli_fname) {
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(info.dli_fname, ec);
    versions.scalapack = ec ? std::string(info.dli_fname) : resolved.filename().string();
  } else {
    versions.scalapack = "(unknown)";
  }
  return versions;
}

}  // namespace rmtsweep::store
