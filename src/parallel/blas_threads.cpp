#include "rmtsweep/parallel/blas_threads.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {

int configure_blas_threads(MPI_Comm comm) {
  const int on_node = ranks_on_this_node(comm);  // collective: before the early return
  if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return 0;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threads = std::max(1, cores / std::max(1, on_node));
  openblas_set_num_threads(threads);
  return threads;
}

int blas_threads() noexcept { return std::max(1, openblas_get_num_threads()); }

std::string faster_blas_coretype() {
  const char* core = openblas_get_corename();
  if (core == nullptr || std::string(core) != "Prescott") return {};
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2")) return "Haswell";
#endif
  return {};
}

void set_blas_threads(int threads) noexcept { openblas_set_num_threads(std::max(1, threads)); }

void release_blas_threads() noexcept {
  if (blas_thread_shutdown_ != nullptr && blas_threads() > 1) blas_thread_shutdown_();
}

SingleThreadedBlas::SingleThreadedBlas() noexcept : threads_(blas_threads()) {
  if (threads_ == 1) return;
  release_blas_threads();
  openblas_set_num_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() {
  if (threads_ > 1) openblas_set_num_threads(threads_);
}

}  // namespace rmtsweep::parallel
