// Handing the cores between OpenBLAS's threads and ours: SingleThreadedBlas runs BLAS on the
// calling thread for its lifetime and restores the thread count; release_blas_threads ends
// OpenBLAS's idle workers, and threaded BLAS calls after it start them again and compute the
// same numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "rmtsweep/parallel/blas_threads.hpp"

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc, std::size_t, std::size_t);

namespace rp = rmtsweep::parallel;

namespace {

/// C = A A^T for a fixed 400 x 400 A, through OpenBLAS (threaded when it has 2 threads).
std::vector<double> product() {
  const int n = 400;
  std::vector<double> a(static_cast<std::size_t>(n) * n), c(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i));
  const double one = 1.0, zero = 0.0;
  dgemm_("N", "T", &n, &n, &n, &one, a.data(), &n, a.data(), &n, &zero, c.data(), &n, 1, 1);
  return c;
}

}  // namespace

TEST(SingleThreadedBlas, RunsBlasOnOneThreadForItsLifetimeAndRestoresTheCount) {
  rp::set_blas_threads(2);
  {
    const rp::SingleThreadedBlas guard;
    EXPECT_EQ(rp::blas_threads(), 1);
  }
  EXPECT_EQ(rp::blas_threads(), 2);
  rp::set_blas_threads(1);
  {
    const rp::SingleThreadedBlas guard;
    EXPECT_EQ(rp::blas_threads(), 1);
  }
  EXPECT_EQ(rp::blas_threads(), 1);
}

// OpenBLAS splits a DGEMM the same way for the same thread count, so the products before and
// after the workers were ended (twice; and with one thread, where it does nothing) are
// bitwise equal; entry (0, 0) is also checked against its sum, to 1e-12 relative.
TEST(ReleaseBlasThreads, LeavesLaterThreadedCallsWorkingWithTheSameResults) {
  rp::set_blas_threads(2);
  const std::vector<double> before = product();
  rp::release_blas_threads();
  rp::release_blas_threads();
  const std::vector<double> after = product();
  EXPECT_EQ(rp::blas_threads(), 2);
  EXPECT_EQ(before, after);
  double expected = 0.0;
  for (int j = 0; j < 400; ++j) {
    const double x = std::sin(0.37 * 400.0 * j);
    expected += x * x;
  }
  EXPECT_NEAR(after[0], expected, 1e-12 * expected);
  rp::set_blas_threads(1);
  const std::vector<double> single = product();
  rp::release_blas_threads();
  EXPECT_EQ(product(), single);
}
