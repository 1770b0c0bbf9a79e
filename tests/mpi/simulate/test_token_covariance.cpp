// S through the vocabulary (PooledSequences::covariance_by_tokens) against the panels of pooled
// vectors through dsyrk, entry by entry: on each rank alone, with 1 and 2 generation threads, and
// on the grid of all ranks (2 x 1, 3 x 1, 2 x 2), where each process copies or draws the table's
// rows for its columns of S.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
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

/// Both ways on the grid of all ranks: every local entry of the lower triangle to 1e-12 of S's
/// largest entry, zero above it, and the sums (added up over the ranks, as the point does) as
/// above.
void expect_same_distributed_covariance_both_ways(const model::PointParams& params) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const int d = params.d, N = static_cast<int>(params.sequences());
  const parallel::DistributedMatrix layout(grid, d, 1);
  const simulate::PooledSequences pooled(params, layout);
  parallel::DistributedMatrix panels(grid, d, d), tokens(grid, d, d), panel(grid, d, 512);
  std::vector<double> panel_sums(2 * static_cast<std::size_t>(d) + 1, 0.0), token_sums = panel_sums;
  std::vector<int> labels;
  for (int first = 0; first < N; first += panel.cols()) {
    const int count = std::min(panel.cols(), N - first);
    pooled.fill(panel, first, count, simulate::training_streams, labels, panel_sums);
    parallel::syrk_lower('N', count, 1.0 / N, panel, 1.0, panels);
  }
  pooled.covariance_by_tokens(tokens, N, simulate::training_streams, token_sums);
  for (auto* sums : {&panel_sums, &token_sums})
    MPI_Allreduce(MPI_IN_PLACE, sums->data(), static_cast<int>(sums->size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);

  double scale = 0.0;
  for (int lc = 0; lc < panels.local_cols(); ++lc)
    for (int lr = 0; lr < panels.local_rows(); ++lr) scale = std::max(scale, std::abs(panels.local(lr, lc)));
  MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  ASSERT_GT(scale, 0.0);
  for (int lc = 0; lc < panels.local_cols(); ++lc) {
    const int j = panels.col_map().to_global(lc);
    for (int lr = 0; lr < panels.local_rows(); ++lr) {
      const int i = panels.row_map().to_global(lr);
      if (i >= j) {
        ASSERT_NEAR(tokens.local(lr, lc), panels.local(lr, lc), 1e-12 * scale)
            << "S(" << i << ", " << j << ")";
      } else {
        ASSERT_EQ(tokens.local(lr, lc), 0.0) << "above the diagonal: S(" << i << ", " << j << ")";
      }
    }
  }
  const auto ud = static_cast<std::size_t>(d);
  for (std::size_t r = 0; r < 2 * ud; ++r) EXPECT_NEAR(token_sums[r], panel_sums[r], 1e-12 * N) << r;
  EXPECT_EQ(token_sums[2 * ud], panel_sums[2 * ud]);
}

}  // namespace

// On the grid of all ranks (64-row blocks): d = 530 with V = 132, so that a group of columns is
// several blocks (4 on 2 ranks, 2 on a 2 x 2 grid: runs of columns apart), the last block has 18
// rows; two full chunks of sequences, weights with zeros, the centred table (whose rows drawn for
// a group must be centred alike) and an outlier.
TEST(TokenCovariance, EqualsPanelsOnTheGridOfAllRanksWithGroupsOfSeveralBlocks) {
  const auto params = test::make_point(530, 530.0 / 132.0, 530.0 / 8192.0, 3.0, "custom:0,1,0,2,0,1,1,0,3,1",
                                       "prefix:3", "centered");
  ASSERT_EQ(params.vocabulary(), 132);
  expect_same_distributed_covariance_both_ways(params);
}

// d = 200, V = 200 (groups of one block), `mean` pooling, the iid table, snr 1.
TEST(TokenCovariance, EqualsPanelsOnTheGridOfAllRanksWithOneBlockPerGroup) {
  expect_same_distributed_covariance_both_ways(
      test::make_point(200, 1.0, 0.05, 1.0, "mean", "prefix:3", "iid"));
}

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

// S on another grid than the table's (here the table on this rank alone, S on all ranks) would
// count sum y on every process and skip the 16-row check: refused.
TEST(TokenCovariance, RefusesAnSOnAnotherGridThanTheTables) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks == 1) GTEST_SKIP() << "needs a grid of several ranks";
  const auto params = test::make_point(100, 1.0, 0.1, 1.0, "mean", "prefix:3", "iid");
  const auto self = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_SELF);
  const simulate::PooledSequences pooled(params, parallel::DistributedMatrix(self, params.d, 1));
  parallel::DistributedMatrix s(std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD), params.d,
                                params.d);
  std::vector<double> sums(2 * static_cast<std::size_t>(params.d) + 1, 0.0);
  EXPECT_THROW(pooled.covariance_by_tokens(s, params.sequences(), simulate::training_streams, sums),
               std::logic_error);
}

// The table's rows for a group of columns: increasing and below d, else refused (a row past d
// would index past the draws of its chunk).
TEST(TokenCovariance, TableRowsMustBeIncreasingAndBelowD) {
  const auto params = test::make_point(100, 1.0, 0.1, 1.0, "mean", "prefix:3", "iid");
  EXPECT_NO_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{0, 5, 99}));
  EXPECT_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{5, 3}), std::invalid_argument);
  EXPECT_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{0, 100}), std::invalid_argument);
}

// A table for some rows that copies those another table of the same draws holds and draws the
// rest has exactly the entries of one drawn whole: centred or not, with rows inside and outside
// the held ones, in chunks of 64 and not.
TEST(TokenCovariance, TableRowsCopiedFromAHeldTableEqualRowsDrawnAgain) {
  for (const char* kind : {"iid", "centered"}) {
    const auto params = test::make_point(200, 1.0, 0.5, 1.0, "mean", "prefix:3", kind);
    std::vector<std::size_t> held_rows, wanted;
    for (std::size_t i = 0; i < 200; ++i) {
      if (i % 64 < 40) held_rows.push_back(i);         // part of every chunk of 64
      if (i % 3 != 1 || i > 150) wanted.push_back(i);  // inside and outside them
    }
    const simulate::NoiseTable held(params, held_rows);
    const simulate::NoiseTable drawn(params, wanted), copied(params, wanted, held);
    ASSERT_EQ(copied.global_rows(), wanted);
    for (std::int64_t v = 0; v < params.vocabulary(); ++v) {
      for (std::size_t r = 0; r < wanted.size(); ++r)
        ASSERT_EQ(copied.column(v)[r], drawn.column(v)[r]) << kind << " row " << wanted[r] << " token " << v;
    }
  }
}

TEST(TokenCovariance, TableRowsAreNotCopiedFromATableOfOtherDraws) {
  const auto params = test::make_point(100, 1.0, 0.5, 1.0, "mean", "prefix:3", "iid");
  auto other_trial = params;
  other_trial.trial += 1;
  const simulate::NoiseTable held(other_trial, std::vector<std::size_t>{0, 1, 2});
  EXPECT_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{1, 2, 3}, held), std::invalid_argument);
  const simulate::NoiseTable same(params, std::vector<std::size_t>{0, 1, 2});
  EXPECT_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{3, 1}, same), std::invalid_argument);
  EXPECT_THROW(simulate::NoiseTable(params, std::vector<std::size_t>{1, 100}, same), std::invalid_argument);
}
