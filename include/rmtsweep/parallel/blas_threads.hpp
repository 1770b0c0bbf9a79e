#pragma once
/// How many threads OpenBLAS may use beside MPI ranks on the same node.
#include <mpi.h>

#include <string>

namespace rmtsweep::parallel {

/// When OPENBLAS_NUM_THREADS is unset, gives each rank (cores on this node) / (ranks of
/// `comm` on this node) BLAS threads, at least 1, so ranks do not oversubscribe the cores
/// (collective: MPI_Comm_split_type shared). Returns the thread count set, or 0 when the
/// environment variable decides.
int configure_blas_threads(MPI_Comm comm);

/// The number of threads OpenBLAS uses on this rank (at least 1): the cores this rank may also
/// use for its own threaded work, e.g. data generation.
int blas_threads() noexcept;

/// When OpenBLAS runs its generic Prescott (SSE3) kernels on a CPU that has AVX2 or AVX-512 —
/// Debian 12's OpenBLAS 0.3.21 does so on CPUs newer than it knows, at a third to a quarter
/// of the speed — the OPENBLAS_CORETYPE setting that selects its fast kernels ("SkylakeX" or
/// "Haswell"); otherwise empty. OpenBLAS reads the variable when it loads, so it must be set
/// before the program starts (the scripts in jobs/ do).
std::string faster_blas_coretype();

/// Sets this rank's OpenBLAS threads (at least 1), e.g. to compare thread counts in tests.
void set_blas_threads(int threads) noexcept;

}  // namespace rmtsweep::parallel
