#pragma once
/// RAII for MPI_Init / MPI_Finalize (Arbor's with_mpi): MPI_Finalize is skipped while an
/// exception unwinds, because the handler in main calls MPI_Abort instead.
#include <mpi.h>

#include <exception>

namespace rmtsweep::parallel {

class MpiEnvironment {
 public:
  MpiEnvironment(int& argc, char**& argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  MpiEnvironment(const MpiEnvironment&) = delete;
  MpiEnvironment& operator=(const MpiEnvironment&) = delete;
  ~MpiEnvironment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && std::uncaught_exceptions() == 0) MPI_Finalize();
  }
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
