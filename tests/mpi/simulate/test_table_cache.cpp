// The noise-table cache of a sweep: points that share a table (model.md section 7: draws are
// common across snr and weighting) draw it once, and every point's results are exactly those it
// has without the cache.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "point_fixture.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

using namespace rmtsweep;

namespace {

void expect_same_result(const simulate::PointResult& a, const simulate::PointResult& b) {
  EXPECT_EQ(a.top_eigenvalues, b.top_eigenvalues);
  EXPECT_EQ(a.overlaps, b.overlaps);
  EXPECT_EQ(a.ridge_accuracy, b.ridge_accuracy);
  EXPECT_EQ(a.eigenvalues, b.eigenvalues);
}

}  // namespace

// A sequence of points as a sweep visits them: two along snr and weighting (one table), then
// another trial, then another delta. Bitwise the same results with and without the cache.
TEST(TableCache, PointsComputedFromTheCacheEqualPointsThatDrawTheirOwnTable) {
  const std::vector<model::PointParams> points{
      test::make_point(64, 0.5, 0.5, 1.0, "mean", "prefix:3", "centered", 0),
      test::make_point(64, 0.5, 0.5, 3.0, "optimal", "prefix:3", "centered", 0),
      test::make_point(64, 0.5, 0.5, 3.0, "optimal", "prefix:3", "centered", 1),
      test::make_point(64, 1.0, 0.5, 3.0, "causal:1", "prefix:3", "centered", 1),
  };
  simulate::SimulationOptions own, cached;
  own.spectrum = cached.spectrum = true;
  simulate::TableCache tables;
  cached.tables = &tables;
  for (const auto& params : points) {
    const auto with_cache = simulate::simulate_point(params, cached, MPI_COMM_WORLD);
    const auto without = simulate::simulate_point(params, own, MPI_COMM_WORLD);
    expect_same_result(with_cache, without);
  }
}

// get() returns the table it holds when the point has the same draws (snr, weighting, gamma do
// not enter the table) and draws a new one otherwise, releasing the old one first.
TEST(TableCache, ReusesTheTableOnlyForTheSameSeedTrialDeltaAndTableKind) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const parallel::DistributedMatrix layout(grid, 64, 1);
  simulate::TableCache tables;
  const auto base = test::make_point(64, 0.5, 0.5, 1.0, "mean", "prefix:3", "iid", 0);
  const auto first = tables.get(base, layout);
  auto along = test::make_point(64, 0.5, 2.0, 4.0, "harmonic", "prefix:3", "iid", 0);
  EXPECT_EQ(tables.get(along, layout), first);

  const std::weak_ptr<const simulate::NoiseTable> old = first;
  auto other_trial = base;
  other_trial.trial = 1;
  auto other_seed = base;
  other_seed.seed += 1;
  auto other_kind = base;
  other_kind.table = model::Table::centered;
  const auto other_delta = test::make_point(64, 1.0, 0.5, 1.0, "mean", "prefix:3", "iid", 0);
  const parallel::DistributedMatrix other_blocks(grid, 64, 1, 16, 16);
  for (const auto& params : {other_trial, other_seed, other_kind, other_delta}) {
    const auto next = tables.get(params, layout);
    EXPECT_NE(next, first);
    EXPECT_TRUE(next->same_draws(params, layout));
    EXPECT_FALSE(next->same_draws(base, layout));
  }
  // With several process rows, other row blocks are other local rows: not the same table.
  if (grid->rows() > 1) {
    EXPECT_FALSE(tables.get(base, layout)->same_draws(base, other_blocks));
  }
}

// A table drawn for one point cannot be given to a point it was not drawn for.
TEST(TableCache, PooledSequencesRefuseATableOfAnotherPoint) {
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const parallel::DistributedMatrix layout(grid, 64, 1);
  const auto params = test::make_point(64, 0.5, 0.5, 1.0, "mean", "prefix:3", "iid", 0);
  auto other = params;
  other.trial = 3;
  const auto table = std::make_shared<const simulate::NoiseTable>(other, layout);
  EXPECT_THROW(simulate::PooledSequences(params, layout, table), std::invalid_argument);
}
