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

/// Stops OpenBLAS's idle worker threads from taking cores from the threads of this program that
/// run next. After every threaded call OpenBLAS's workers wait for more work spinning (with
/// sched_yield) for 2^28 cycles, about 0.1 s: measured, 0.13 s of CPU after one DGEMM on
/// 2 threads. With one worker per core, every threaded stage of ours that follows a BLAS call
/// (the data of the next panel after each dsyrk, the eigenvalues after dsytrd) then shares its
/// cores with a spinning thread: at d = 2000 on 2 cores, filling and streaming the 16 panels
/// took 0.36 s instead of 0.40 s (median of 8 alternating runs) with this after each dsyrk.
/// It ends the workers (OpenBLAS's blas_thread_shutdown_); the next threaded BLAS call starts
/// them again, which costs about 0.1 ms. Does nothing with one BLAS thread, or with a BLAS
/// without that function. Call it only from the thread that calls BLAS, between BLAS calls.
/// After it, do not raise the thread count above the largest count used so far
/// (set_blas_threads): OpenBLAS 0.3.21 would start the extra workers at once and again at the
/// next call. Lowering it and restoring it, as SingleThreadedBlas does, is safe.
void release_blas_threads() noexcept;

/// For its lifetime, BLAS calls made by this rank run on the calling thread only (OpenBLAS set
/// to 1 thread, and its idle workers released); the previous thread count is restored at the
/// end. For sequential BLAS work beside threads of our own that already use the other cores.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas() noexcept;
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int threads_;
};

}  // namespace rmtsweep::parallel
