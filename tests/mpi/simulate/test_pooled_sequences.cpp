// Generation on a 2-rank grid: common random numbers across snr (model.md section 7) and the
// signal on the first coordinate axis only (model.md section 1.1).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "point_fixture.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

using namespace rmtsweep;

namespace {

struct Panel {
  parallel::DistributedMatrix matrix;
  std::vector<int> labels;
};

Panel pooled_panel(const model::PointParams& params, const std::shared_ptr<const parallel::BlacsGrid>& grid,
                   int first, int count) {
  Panel panel{parallel::DistributedMatrix(grid, params.d, count, 16, 16), {}};
  const simulate::PooledSequences pooled(params, panel.matrix);
  pooled.fill(panel.matrix, first, count, simulate::training_streams, panel.labels);
  return panel;
}

}  // namespace

// Same seed and trial, snr 1 and 4: every draw is shared, so the pooled vectors differ only on
// the signal axis e_1, by (sqrt(4) - sqrt(1)) sum_t w_t xi_t. Exact up to one rounding.
TEST(PooledSequences, DrawsAreCommonAcrossSnrAndTheSignalIsOnTheFirstAxisOnly) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  for (const char* table : {"iid", "centered"}) {
    const auto weak = test::make_point(40, 0.5, 1.0, 1.0, "harmonic", "markov:0.3", table);
    auto strong = weak;
    strong.snr = 4.0;
    const Panel a = pooled_panel(weak, grid, 7, 50), b = pooled_panel(strong, grid, 7, 50);
    const auto w = model::pooling_weights(weak.weighting, weak.correlation, weak.T);
    const random::CounterRng rng(weak.seed, static_cast<std::uint64_t>(weak.trial));
    std::vector<int> xi(static_cast<std::size_t>(weak.T));
    for (int lc = 0; lc < a.matrix.local_cols(); ++lc) {
      const int n = 7 + a.matrix.col_map().to_global(lc);
      simulate::draw_signs(rng, simulate::training_streams.sign, weak.correlation, n, xi);
      EXPECT_EQ(a.labels[static_cast<std::size_t>(lc)], xi[0]);
      double signal = 0.0;
      for (std::size_t t = 0; t < xi.size(); ++t) signal += w[t] * xi[t];
      for (int lr = 0; lr < a.matrix.local_rows(); ++lr) {
        const double difference = b.matrix.local(lr, lc) - a.matrix.local(lr, lc);
        if (a.matrix.row_map().to_global(lr) == 0) {
          EXPECT_NEAR(difference, signal, 1e-12) << table;
        } else {
          EXPECT_EQ(difference, 0.0) << table;
        }
      }
    }
  }
}

// A column's content depends only on its sequence index, not on which panel or rank holds it.
TEST(PooledSequences, ASequenceGivesTheSameColumnInAnyPanel) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const auto params = test::make_point(40, 0.5, 1.0, 2.0, "causal:1", "prefix:3", "iid");
  const Panel whole = pooled_panel(params, grid, 0, 40), shifted = pooled_panel(params, grid, 13, 20);
  const auto all = whole.matrix.gather_leading(40, 40);
  const auto part = shifted.matrix.gather_leading(40, 20);
  // causal weights come from inner products summed over the process rows: equal to rounding.
  for (int j = 0; j < 20; ++j) {
    for (int i = 0; i < 40; ++i) {
      EXPECT_NEAR(part[static_cast<std::size_t>(j * 40 + i)],
                  all[static_cast<std::size_t>((13 + j) * 40 + i)], 1e-13);
    }
  }
}

// The sums fill adds on the way (sum c, sum y c, sum y) equal those of the gathered panel, once
// summed over the ranks; the panel's last columns are unused and add nothing. To rounding (the
// order of the additions differs): 1e-12 on sums of 30 entries of size about 1.
TEST(PooledSequences, FillAddsTheSumsOfItsColumnsAndLabels) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const auto params = test::make_point(40, 0.5, 1.0, 2.0, "mean", "prefix:3", "centered");
  parallel::DistributedMatrix panel(grid, params.d, 36, 16, 16);
  const simulate::PooledSequences pooled(params, panel);
  std::vector<int> labels;
  std::vector<double> sums(2 * 40 + 1, 0.0);
  pooled.fill(panel, 5, 30, simulate::training_streams, labels, sums);
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);

  const auto columns = panel.gather_leading(40, 36);
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  std::vector<int> xi(static_cast<std::size_t>(params.T));
  std::vector<double> expected(sums.size(), 0.0);
  for (int j = 0; j < 30; ++j) {
    simulate::draw_signs(rng, simulate::training_streams.sign, params.correlation, 5 + j, xi);
    for (int i = 0; i < 40; ++i) {
      const double c = columns[static_cast<std::size_t>(j * 40 + i)];
      expected[static_cast<std::size_t>(i)] += c;
      expected[static_cast<std::size_t>(40 + i)] += xi[0] * c;
    }
    expected[80] += xi[0];
  }
  for (int j = 30; j < 36; ++j)
    for (int i = 0; i < 40; ++i) EXPECT_EQ(columns[static_cast<std::size_t>(j * 40 + i)], 0.0);
  for (std::size_t i = 0; i < sums.size(); ++i) EXPECT_NEAR(sums[i], expected[i], 1e-12) << "entry " << i;
}

// A sums vector of the wrong length is a programming error, reported before anything is filled.
TEST(PooledSequences, FillRefusesSumsOfTheWrongLength) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const auto params = test::make_point(40, 0.5, 1.0, 2.0, "mean", "prefix:3", "iid");
  parallel::DistributedMatrix panel(grid, params.d, 8, 16, 16);
  const simulate::PooledSequences pooled(params, panel);
  std::vector<int> labels;
  std::vector<double> sums(80, 0.0);
  EXPECT_THROW(pooled.fill(panel, 0, 8, simulate::training_streams, labels, sums), std::invalid_argument);
}

// The table's draw map (counter_rng.hpp: entry (i, v) is draw i % 64 of the sequence
// (table_noise, v, i / 64)) holds whatever the row blocks: with blocks of 16 or 50 a process
// draws chunks of 64 rows that straddle its blocks through a buffer and keeps its rows only;
// with blocks of 64 (the default) or 150 (all rows on one process) it draws whole chunks
// straight into place; with d = 150 the last chunk is partial (22 rows). Entry (i, v) is read
// back as p_v for beta = e_i, a sum of one nonzero term over the process rows: exact, so
// compared bitwise.
TEST(PooledSequences, TableEntriesFollowTheDrawMapForAnyRowBlocks) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const auto params = test::make_point(150, 0.5, 1.0, 2.0, "mean", "prefix:3", "iid");
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  for (const int block : {16, 50, 64, 150}) {
    const parallel::DistributedMatrix like(grid, params.d, 1, block, block);
    const simulate::PooledSequences pooled(params, like);
    for (const int i : {0, 15, 16, 49, 50, 63, 64, 100, 127, 128, 149}) {
      std::vector<double> beta(static_cast<std::size_t>(params.d), 0.0);
      beta[static_cast<std::size_t>(i)] = 1.0;
      const auto p = pooled.token_projections(beta);
      ASSERT_EQ(p.size(), static_cast<std::size_t>(params.vocabulary()));
      for (std::size_t v = 0; v < p.size(); ++v) {
        const auto row = static_cast<std::uint64_t>(i);
        EXPECT_EQ(p[v], rng.gaussian(random::Stream::table_noise, v, row / 64, row % 64))
            << "block " << block << ", entry (" << i << ", " << v << ")";
      }
    }
  }
}

// model.md 1.1: the centred table is the iid draw with, row by row, its projections on 1 and on
// the class signs s removed (Z (I - 11^T/V - ss^T/V)): each row then sums to 0 over the
// vocabulary and has no class-mean difference. Checked against the iid table of the same draws.
TEST(PooledSequences, TheCenteredTableIsTheIidTableWithoutItsMeanAndClassMeanPerRow) {
  const auto iid = test::make_point(150, 0.5, 1.0, 2.0, "mean", "prefix:3", "iid");
  const auto centered = test::make_point(150, 0.5, 1.0, 2.0, "mean", "prefix:3", "centered");
  std::vector<std::size_t> rows(150);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  const simulate::NoiseTable raw(iid, rows), table(centered, rows);
  const std::int64_t V = iid.vocabulary(), half = V / 2;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double mean = 0.0, class_mean = 0.0, sum = 0.0, signed_sum = 0.0;
    for (std::int64_t v = 0; v < V; ++v) {
      const double s = v < half ? 1.0 : -1.0;
      mean += raw.column(v)[r] / static_cast<double>(V);
      class_mean += s * raw.column(v)[r] / static_cast<double>(V);
      sum += table.column(v)[r];
      signed_sum += s * table.column(v)[r];
    }
    EXPECT_NEAR(sum, 0.0, 1e-12) << "row " << r;
    EXPECT_NEAR(signed_sum, 0.0, 1e-12) << "row " << r;
    for (std::int64_t v = 0; v < V; ++v) {
      const double s = v < half ? 1.0 : -1.0;
      ASSERT_NEAR(table.column(v)[r], raw.column(v)[r] - mean - s * class_mean, 1e-14)
          << "entry (" << r << ", " << v << ")";
    }
  }
}

// The vocabulary path (S = H E^T / N) needs weights fixed in advance, and pays when V is well
// below N: on one process at d = 2000 it is chosen for delta = 0.5, gamma = 0.25 (V = 4000,
// N = 8000) but not for V = N (delta = gamma = 0.25), nor for causal weights. On this 2-rank grid
// (2 x 1), where each process also draws the table's rows for its columns of S that it does not
// hold and builds their H from every sequence, the cost model takes it at d = 2000 but not at
// d = 1000 (it switches near d = 1400; measured here, gamma 0.25: generation and covariance
// 0.11 s both ways at d = 1000, and through the vocabulary 0.27-0.49 s against 0.44-0.71 s
// through panels at d = 1500).
TEST(PooledSequences, TheVocabularyPathIsChosenOnlyWhereItAppliesAndPays) {
  const auto self = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_SELF);
  const auto all = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const auto pays = [](const model::PointParams& params,
                       const std::shared_ptr<const parallel::BlacsGrid>& grid) {
    const parallel::DistributedMatrix layout(grid, params.d, 1);
    return simulate::PooledSequences(params, layout).tokens_pay(params.sequences());
  };
  EXPECT_TRUE(pays(test::make_point(2000, 0.5, 0.25, 1.0, "mean", "prefix:3", "iid"), self));
  EXPECT_FALSE(pays(test::make_point(2000, 0.25, 0.25, 1.0, "mean", "prefix:3", "iid"), self));
  EXPECT_FALSE(pays(test::make_point(2000, 0.5, 0.25, 1.0, "causal:1", "prefix:3", "iid"), self));
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  ASSERT_EQ(ranks, 2) << "this test's expectations are for a 2 x 1 grid";
  EXPECT_TRUE(pays(test::make_point(2000, 0.5, 0.25, 1.0, "mean", "prefix:3", "iid"), all));
  EXPECT_FALSE(pays(test::make_point(1000, 0.5, 0.25, 1.0, "mean", "prefix:3", "iid"), all));
  EXPECT_FALSE(pays(test::make_point(2000, 0.25, 0.25, 1.0, "mean", "prefix:3", "iid"), all));
  EXPECT_FALSE(pays(test::make_point(2000, 0.5, 0.25, 1.0, "causal:1", "prefix:3", "iid"), all));
}
