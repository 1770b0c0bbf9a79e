// S through the vocabulary (PooledSequences::covariance_by_tokens) against the panels of pooled
// vectors through dsyrk, entry by entry, on each rank alone (the vocabulary path needs a 1 x 1
// grid), with 1 and 2 generation threads.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <vector>

#include "point_fixture.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

using namespace rmtsweep;

namespace {

struct Covariance {
  std::vector<double> s;     // d x d, column-major, as left in the matrix (upper part included)
  std::vector<double> sums;  // sum c, sum y c, sum y
};

Covariance by_panels(const simulate::PooledSequences& pooled, const model::PointParams& params,
                     const std::shared_ptr<const parallel::BlacsGrid>& grid) {
  const int d = params.d, N = static_cast<int>(params.sequences());
  parallel::DistributedMatrix s(grid, d, d), panel(grid, d, 512);
  Covariance out{{}, std::vector<double>(2 * static_cast<std::size_t>(d) + 1, 0.0)};
  std::vector<int> labels;
  for (int first = 0; first < N; first += panel.cols()) {
    const int count = std::min(panel.cols(), N - first);
    pooled.fill(panel, first, count, simulate::training_streams, labels, out.sums);
    parallel::syrk_lower('N', count, 1.0 / N, panel, 1.0, s);
  }
  out.s.assign(s.data(), s.data() + static_cast<std::size_t>(d) * static_cast<std::size_t>(d));
  return out;
}

Covariance by_tokens(const simulate::PooledSequences& pooled, const model::PointParams& params,
                     const std::shared_ptr<const parallel::BlacsGrid>& grid) {
  const int d = params.d;
  parallel::DistributedMatrix s(grid, d, d);
  Covariance out{{}, std::vector<double>(2 * static_cast<std::size_t>(d) + 1, 0.0)};
  pooled.covariance_by_tokens(s, params.sequences(), simulate::training_streams, out.sums);
  out.s.assign(s.data(), s.data() + static_cast<std::size_t>(d) * static_cast<std::size_t>(d));
  return out;
}

/// Both ways with `threads` generation threads: the lower triangles agree to 1e-12 of S's
/// largest entry (the same products summed in another order: over tokens instead of sequences),
/// nothing is left above the diagonal (S starts at zero, and the dgemms' upper parts of the
/// diagonal bands must be set back to zero), sum c and sum y c agree to 1e-12 of the largest
/// partial sum's size (N terms of order 1), and sum y, an integer, exactly.
void expect_same_covariance_both_ways(const model::PointParams& params, int threads) {
  parallel::set_blas_threads(threads);
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_SELF);
  ASSERT_EQ(grid->rows() * grid->cols(), 1);
  const parallel::DistributedMatrix layout(grid, params.d, 1);
  const simulate::PooledSequences pooled(params, layout);
  const Covariance panels = by_panels(pooled, params, grid), tokens = by_tokens(pooled, params, grid);
  parallel::set_blas_threads(1);

  const auto d = static_cast<std::size_t>(params.d);
  double scale = 0.0;
  for (const double x : panels.s) scale = std::max(scale, std::abs(x));
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = 0; i < d; ++i) {
      const double panel = panels.s[j * d + i], token = tokens.s[j * d + i];
      if (i >= j) {
        ASSERT_NEAR(token, panel, 1e-12 * scale) << "S(" << i << ", " << j << ")";
      } else {
        ASSERT_EQ(token, 0.0) << "above the diagonal: S(" << i << ", " << j << ")";
      }
    }
  }
  const double N = static_cast<double>(params.sequences());
  for (std::size_t r = 0; r < 2 * d; ++r) EXPECT_NEAR(tokens.sums[r], panels.sums[r], 1e-12 * N) << r;
  EXPECT_EQ(tokens.sums[2 * d], panels.sums[2 * d]);
}

}  // namespace

// d = 530 with V = 530: H in blocks of 128 rows (8 rows V bytes within a quarter of S), the last
// of 18 rows and a last strip of 2; N = 8192, two full chunks of 4096 sequences; weights with
// zeros (6 terms of 10), the centred table and an outlier (snr 3).
TEST(TokenCovariance, EqualsPanelsAcrossBlocksFullChunksAndZeroWeights) {
  const auto params =
      test::make_point(530, 1.0, 530.0 / 8192.0, 3.0, "custom:0,1,0,2,0,1,1,0,3,1", "prefix:3", "centered");
  ASSERT_EQ(params.sequences(), 8192);
  for (const int threads : {1, 2}) expect_same_covariance_both_ways(params, threads);
}

// d = 7: a single strip shorter than 16 rows; `last` pooling, one term per sequence; snr 0.
TEST(TokenCovariance, EqualsPanelsForATinyDimensionAndOneTerm) {
  const auto params = test::make_point(7, 0.25, 0.05, 0.0, "last", "markov:0.5", "iid");
  for (const int threads : {1, 2}) expect_same_covariance_both_ways(params, threads);
}

// d = 48, V = 96 (3 strips, one block), N = 4100: a chunk of 4096 and one of 4 sequences.
TEST(TokenCovariance, EqualsPanelsWithAShortLastChunk) {
  const auto params = test::make_point(48, 0.5, 48.0 / 4100.0, 2.0, "harmonic", "iid", "iid");
  ASSERT_EQ(params.sequences(), 4100);
  for (const int threads : {1, 2}) expect_same_covariance_both_ways(params, threads);
}
