// The most-expensive-first schedule: the points' costs, their order, and the tasks handed to groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/sweep/schedule.hpp"
#include "small_grid.hpp"

namespace sweep = rmtsweep::sweep;
namespace config = rmtsweep::config;

namespace {

using rmtsweep::test::ordering_grid;

/// Every point of the grid, 0 .. size - 1.
std::vector<std::int64_t> every_point(const config::Grid& grid) {
  std::vector<std::int64_t> todo;
  for (std::int64_t i = 0; i < grid.size(); ++i) todo.push_back(i);
  return todo;
}

TEST(SweepSchedule, MoreSequencesCostMoreAndOrderingPutsThemFirst) {
  const config::Grid grid = ordering_grid();
  // gamma = 0.25 means N = 4d sequences, gamma = 1 means N = d: the former is costlier.
  EXPECT_GT(sweep::point_cost(grid.params(0), grid.config()),
            sweep::point_cost(grid.params(12), grid.config()));
  const std::vector<std::int64_t> todo = every_point(grid);
  const std::vector<std::int64_t> order = sweep::order_by_cost(grid, todo);
  ASSERT_EQ(order.size(), todo.size());
  for (std::size_t i = 1; i < order.size(); ++i) {
    EXPECT_GE(sweep::point_cost(grid.params(order[i - 1]), grid.config()),
              sweep::point_cost(grid.params(order[i]), grid.config()));
  }
  EXPECT_EQ(grid.coordinates(order.front()).gamma, 0u);
  std::vector<std::int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, todo);
}

// Among points of equal cost, those of one noise table (delta, trial) come one after the other,
// so that a group's next point reuses the table it holds: each (delta, trial, cost) forms one run.
// gamma sets the cost, and so does the weighting (the finite-T theory's share counts the pooling's
// nonzero weights, which mean and optimal pooling differ in here), so a run is 2 points (2 snr).
TEST(SweepSchedule, PointsSharingANoiseTableAreHandedOutTogether) {
  const config::Grid grid = ordering_grid();
  const std::vector<std::int64_t> order = sweep::order_by_cost(grid, every_point(grid));
  std::set<std::tuple<std::size_t, int, double>> keys;
  int runs = 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto b = grid.coordinates(order[i]);
    keys.emplace(b.delta, b.trial, sweep::point_cost(grid.params(order[i]), grid.config()));
    if (i == 0) continue;
    const auto a = grid.coordinates(order[i - 1]);
    if (a.delta != b.delta || a.trial != b.trial || a.gamma != b.gamma || a.weighting != b.weighting) ++runs;
  }
  EXPECT_EQ(keys.size(), 3u * 3u * 2u * 2u);       // delta x trial x gamma x weighting: four costs per table
  EXPECT_EQ(runs, static_cast<int>(keys.size()));  // one run each
}

// A task is a run of consecutive points of one noise table and one cost: every point of the
// order is in exactly one task, in order; no task mixes tables or costs or exceeds its cap,
// max(1, points left / (4 groups)), which shrinks towards the end; and a run is only cut by the
// cap or by a change of table or cost.
TEST(SweepSchedule, TasksAreRunsOfOneNoiseTableAndCostThatShrinkTowardsTheEnd) {
  const config::Grid grid = ordering_grid();
  const std::vector<std::int64_t> order = sweep::order_by_cost(grid, every_point(grid));
  const auto n = static_cast<std::int64_t>(order.size());
  const auto table_and_cost = [&](std::int64_t position) {
    const std::int64_t i = order[static_cast<std::size_t>(position)];
    const auto at = grid.coordinates(i);
    return std::tuple(at.delta, at.trial, sweep::point_cost(grid.params(i), grid.config()));
  };
  for (const int groups : {1, 2, 3, 100}) {
    const std::vector<std::int64_t> starts = sweep::table_runs(grid, order, groups);
    ASSERT_GE(starts.size(), 2u);
    EXPECT_EQ(starts.front(), 0);
    EXPECT_EQ(starts.back(), n);
    for (std::size_t t = 0; t + 1 < starts.size(); ++t) {
      const std::int64_t begin = starts[t], end = starts[t + 1];
      const std::int64_t cap = std::max<std::int64_t>(1, (n - begin) / (4 * groups));
      ASSERT_LT(begin, end);
      EXPECT_LE(end - begin, cap) << groups << " groups, task " << t;
      for (std::int64_t p = begin + 1; p < end; ++p) EXPECT_EQ(table_and_cost(p), table_and_cost(begin));
      if (end < n && end - begin < cap) {
        EXPECT_NE(table_and_cost(end), table_and_cost(begin)) << groups << " groups, task " << t;
      }
    }
    EXPECT_EQ(starts[starts.size() - 2], n - 1) << "the last task is one point";
  }
  // One group, 72 points: the first tasks are whole runs of one table and cost (2 snr); with 100
  // groups every task is one point.
  EXPECT_EQ(sweep::table_runs(grid, order, 1)[1], 2);
  EXPECT_EQ(sweep::table_runs(grid, order, 100).size(), order.size() + 1);
  EXPECT_EQ(sweep::table_runs(grid, {}, 2), std::vector<std::int64_t>{0});
}

}  // namespace

namespace {

// The schedule orders points by what they will cost on the engine that computes them: at d = 4000
// the Krylov engine's modelled cost is below the dense path's d^2 N + 5 d^3.
TEST(SweepSchedule, APointsCostFollowsTheEngineThatComputesIt) {
  const config::Grid dense(config::parse_sweep_config({{"d", "4000"}, {"eigensolver", "dense"}}));
  const config::Grid krylov(
      config::parse_sweep_config({{"d", "4000"}, {"eigensolver", "krylov"}, {"store_spectra", "false"}}));
  EXPECT_LT(sweep::point_cost(krylov.params(0), krylov.config()),
            sweep::point_cost(dense.params(0), dense.config()));
}

}  // namespace

namespace {

using rmtsweep::test::sizes_grid;

TEST(SweepSchedule, TheLargestSizeIsComputedFirstAndTheSmallestLast) {
  const config::Grid grid = sizes_grid();
  const std::vector<std::int64_t> order = sweep::order_by_cost(grid, every_point(grid));
  for (std::size_t p = 1; p < order.size(); ++p) {
    EXPECT_GE(grid.params(order[p - 1]).d, grid.params(order[p]).d) << "position " << p;
  }
  EXPECT_EQ(grid.params(order.front()).d, 400);
  EXPECT_EQ(grid.params(order.back()).d, 100);
}

TEST(SweepSchedule, RunsOfOneTableNeverSpanTwoSizes) {
  const config::Grid grid = sizes_grid();
  const std::vector<std::int64_t> order = sweep::order_by_cost(grid, every_point(grid));
  const std::vector<std::int64_t> starts = sweep::table_runs(grid, order, 1);
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    const auto first = static_cast<std::size_t>(starts[r]), end = static_cast<std::size_t>(starts[r + 1]);
    for (std::size_t p = first; p < end; ++p) EXPECT_EQ(grid.params(order[p]).d, grid.params(order[first]).d);
  }
}

}  // namespace
