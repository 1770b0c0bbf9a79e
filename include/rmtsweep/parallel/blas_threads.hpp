#pragma once
/// How many threads OpenBLAS may use beside MPI ranks on the same node.
#include <mpi.h>

namespace rmtsweep::parallel {

/// When OPENBLAS_NUM_THREADS is unset, gives each rank (cores on this node) / (ranks of
/// `comm` on this node) BLAS threads, at least 1, so ranks do not oversubscribe the cores
/// (collective: MPI_Comm_split_type shared). Returns the thread count set, or 0 when the
/// environment variable decides.
int configure_blas_threads(MPI_Comm comm);

}  // namespace rmtsweep::parallel
