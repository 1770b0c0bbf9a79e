// The grid's order: trial fastest, then weighting, snr, gamma, delta, and d slowest, so that each size's
// points are contiguous; a point's parameters from its coordinates.
#include <gtest/gtest.h>

#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "small_grid.hpp"

namespace config = rmtsweep::config;

namespace {

TEST(SweepGrid, PointsAreFlattenedWithTrialFastestAndDeltaSlowest) {
  const config::Grid grid = rmtsweep::test::ordering_grid();
  ASSERT_EQ(grid.size(), 3 * 2 * 2 * 2 * 3);
  const config::GridCoordinates at = grid.coordinates(1);
  EXPECT_EQ(at.trial, 1);
  EXPECT_EQ(at.weighting, 0u);
  EXPECT_EQ(grid.coordinates(3).weighting, 1u);
  EXPECT_EQ(grid.coordinates(6).snr, 1u);
  EXPECT_EQ(grid.coordinates(12).gamma, 1u);
  EXPECT_EQ(grid.coordinates(24).delta, 1u);
  for (std::int64_t i = 0; i < grid.size(); ++i) EXPECT_EQ(grid.index(grid.coordinates(i)), i);
}

TEST(SweepGrid, ParamsCarryTheAxisValuesAndTheSharedKeys) {
  const config::Grid grid = rmtsweep::test::ordering_grid();
  const auto p = grid.params(24 + 12 + 6 + 3 + 2);
  EXPECT_EQ(p.delta, 1.0);
  EXPECT_EQ(p.gamma, 1.0);
  EXPECT_EQ(p.snr, 1.0);
  EXPECT_EQ(p.weighting.kind, rmtsweep::model::Weighting::Kind::optimal);
  EXPECT_EQ(p.trial, 2);
  EXPECT_EQ(p.d, 100);
}

TEST(SweepGrid, DIsTheSlowestAxisSoEachSizesPointsAreContiguous) {
  const config::Grid grid = rmtsweep::test::sizes_grid();
  ASSERT_EQ(grid.size(), 3 * 2 * 2 * 2 * 2);
  const std::int64_t per_d = grid.config().points_per_d();
  ASSERT_EQ(per_d, 16);
  for (std::int64_t i = 0; i < grid.size(); ++i) {
    EXPECT_EQ(grid.coordinates(i).d, static_cast<std::size_t>(i / per_d)) << i;
    EXPECT_EQ(grid.params(i).d, (std::vector<int>{100, 400, 200})[static_cast<std::size_t>(i / per_d)]) << i;
    EXPECT_EQ(grid.index(grid.coordinates(i)), i);
  }
  // Within a size, the order of a one-size grid (schema_version 1's): delta slowest, trial fastest.
  EXPECT_EQ(grid.coordinates(per_d + 8).delta, 1u);
  EXPECT_EQ(grid.coordinates(per_d + 1).trial, 1);
}

}  // namespace
