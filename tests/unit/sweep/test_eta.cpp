// The ETA that `run`'s progress line and `status` print (sweep/eta.hpp).
#include <gtest/gtest.h>

#include <numeric>

#include "rmtsweep/sweep/eta.hpp"
#include "small_grid.hpp"

namespace sweep = rmtsweep::sweep;

namespace {

TEST(SweepEta, BeforeAnyUnitHasFinishedThePlanGivesTheEtaSpreadOverTheGroups) {
  sweep::EtaInput eta;
  eta.planned_left = 120.0;
  eta.unit_seconds = 1.0;
  eta.elapsed = 5.0;
  eta.groups = 4;
  EXPECT_DOUBLE_EQ(sweep::eta_seconds(eta), 30.0);
}

TEST(SweepEta, TheFirstUnitFinishedCountsTheOtherGroupsUnitsInFlight) {
  // Ten units of 1 planned second that take 2 s each on 2 groups: at 2 s one has finished and the other
  // group is about to finish its own; 8 units are left for 2 groups, 8 s. Without the units in flight the
  // rate would be half, and the ETA 18 s.
  sweep::EtaInput eta;
  eta.planned_done = 1.0;
  eta.planned_left = 9.0;
  eta.unit_seconds = 1.0;
  eta.elapsed = 2.0;
  eta.groups = 2;
  EXPECT_DOUBLE_EQ(sweep::eta_seconds(eta), 8.0);
}

TEST(SweepEta, AMachineSlowerThanThePlanIsMeasuredOnceUnitsHaveFinished) {
  // One group, units of 1 planned second that take 3 s: after 6 units (18 s), 4 are left: 12 s.
  sweep::EtaInput eta;
  eta.planned_done = 6.0;
  eta.planned_left = 4.0;
  eta.elapsed = 18.0;
  eta.unit_seconds = 0.0;
  EXPECT_DOUBLE_EQ(sweep::eta_seconds(eta), 12.0);
}

TEST(SweepEta, ThePlannedWorkOfAGridIsItsPointsSecondsAndAUnitIsTheirMeanPerUnit) {
  const rmtsweep::config::Grid grid = rmtsweep::test::ordering_grid();
  const sweep::PlannedWork work = sweep::planned_work(grid, 1);
  ASSERT_EQ(work.point_seconds.size(), static_cast<std::size_t>(grid.size()));
  for (const double seconds : work.point_seconds) EXPECT_GT(seconds, 0.0);
  const double total = std::accumulate(work.point_seconds.begin(), work.point_seconds.end(), 0.0);
  EXPECT_GT(work.unit_seconds, 0.0);
  EXPECT_LE(work.unit_seconds, total);
}

}  // namespace
