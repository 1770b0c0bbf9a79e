#pragma once
/// RAII for MPI_Init_thread / MPI_Finalize (Arbor's with_mpi): MPI_Finalize is skipped while an
/// exception unwinds, because the handler in main calls MPI_Abort instead.
#include <mpi.h>

#include <exception>
#include <string>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::parallel {

/// "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", ... for a message.
inline std::string thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "thread level " + std::to_string(level);
  }
}

class MpiEnvironment {
 public:
  /// Initialises MPI asking for `required` threading: MPI_THREAD_FUNNELED, since OpenMP threads (the Krylov
  /// engine's table kernels) and threaded BLAS run beside MPI, which only the main thread calls. Throws
  /// Error, MPI finalised again, when the library provides less: its MPI calls would then be undefined.
  explicit MpiEnvironment(int& argc, char**& argv, int required = MPI_THREAD_FUNNELED) {
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(&argc, &argv, required, &provided) != MPI_SUCCESS)
      throw Error("MPI_Init_thread failed: MPI could not be started");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (provided < required) {
      MPI_Finalize();
      throw Error("this MPI library provides " + thread_level_name(provided) + ", rmtsweep needs " +
                  thread_level_name(required) +
                  " (its OpenMP kernels and BLAS threads run beside MPI, which only the main thread calls): "
                  "build against an MPI with thread support");
    }
    provided_ = provided;
  }
  MpiEnvironment(const MpiEnvironment&) = delete;
  MpiEnvironment& operator=(const MpiEnvironment&) = delete;
  ~MpiEnvironment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && std::uncaught_exceptions() == 0) MPI_Finalize();
  }
  /// The thread level MPI provides (at least the one asked for).
  int provided() const noexcept { return provided_; }

 private:
  int provided_ = MPI_THREAD_SINGLE;
};

/// Rank in MPI_COMM_WORLD, or 0 when MPI is not initialised.
inline int world_rank() noexcept {
  int initialized = 0, finalized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace rmtsweep::parallel
