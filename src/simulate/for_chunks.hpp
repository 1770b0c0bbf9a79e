#pragma once
// Threaded loops of the generation code (private to src/simulate).
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "rmtsweep/parallel/blas_threads.hpp"

namespace rmtsweep::simulate::detail {

/// Runs body(chunk, begin, end) on `threads` contiguous chunks of [0, count), chunk = 0, 1, ...
/// in order along [0, count), the calling thread taking chunk 0. Generation is pure
/// (counter-based draws into disjoint outputs), so the generated data do not depend on the
/// number of threads (fill's fused sums do, to rounding: they are added per chunk); a rank that
/// owns several cores (1 rank with 2 BLAS threads) generates its data that much faster. Before
/// starting threads it releases OpenBLAS's idle workers, which would otherwise spin on the same
/// cores after the BLAS call before (parallel::release_blas_threads). No MPI call inside; call
/// it from the thread that calls BLAS.
template <class Body>
void for_chunks(std::int64_t count, int threads, const Body& body) {
  const std::int64_t chunks = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(count, 1));
  if (chunks == 1) {
    body(std::int64_t{0}, std::int64_t{0}, count);
    return;
  }
  parallel::release_blas_threads();
  const auto bound = [&](std::int64_t c) { return count * c / chunks; };
  // An exception in any chunk (out of memory, say) is caught where it happens and rethrown here
  // after every thread has joined, so that it reaches the caller instead of std::terminate.
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(chunks));
  const auto run = [&](std::int64_t c) {
    try {
      body(c, bound(c), bound(c + 1));
    } catch (...) {
      errors[static_cast<std::size_t>(c)] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> workers;
    for (std::int64_t c = 1; c < chunks; ++c) workers.emplace_back(run, c);
    run(0);
  }  // joined
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace rmtsweep::simulate::detail
