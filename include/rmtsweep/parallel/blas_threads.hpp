#pragma once
/// How many threads OpenBLAS may use beside MPI ranks on the same node.
#include <mpi.h>

namespace rmtsweep::parallel {

/// When OPENBLAS_NUM_THREADS is unset, gives each rank (cores on this node) / (ranks of
/// `comm` on this node) BLAS threads, at least 1, so ranks do not oversubscribe the cores
/// (collective: MPI_Comm_split_type shared). Returns the thread count set, or 0 when the
/// environment variable decides.
int configure_blas_threads(MPI_Comm comm);

/// The number of threads OpenBLAS uses on this rank (at least 1): the cores this rank may also
/// use for its own threaded work, e.g. data generation.
int blas_threads() noexcept;

/// Sets this rank's OpenBLAS threads (at least 1), e.g. to compare thread counts in tests.
void set_blas_threads(int threads) noexcept;

}  // namespace rmtsweep::parallel
