// The pure functions of assemble: detection threshold, 1/2 crossing, trial moments, tabulation.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"

namespace {

using namespace rmtsweep::assemble;

TEST(DetectionThreshold, IsTheRightEdgeRaisedByCTimesDToTheMinusTwoThirds) {
  // d = 1000: d^(-2/3) = 0.01 exactly (up to rounding of pow).
  EXPECT_NEAR(detection_threshold(2.0, 1000, 1.5), 2.0 * (1.0 + 1.5 * 0.01), 1e-12);
  EXPECT_DOUBLE_EQ(detection_threshold(2.0, 1000, 0.0), 2.0);
}

TEST(HalfCrossing, InterpolatesLinearlyBetweenTheBracketingGridPoints) {
  const Crossing c = half_crossing({0.0, 1.0, 2.0, 3.0}, {0.0, 0.25, 0.75, 1.0});
  EXPECT_EQ(c.bracket, 0);
  EXPECT_DOUBLE_EQ(c.snr, 1.5);
}

TEST(HalfCrossing, ExactlyOneHalfCountsAsCrossed) {
  const Crossing c = half_crossing({0.0, 1.0, 2.0}, {0.0, 0.5, 1.0});
  EXPECT_EQ(c.bracket, 0);
  EXPECT_DOUBLE_EQ(c.snr, 1.0);
}

TEST(HalfCrossing, ReportsBelowTheGridWhenAlreadyDetectedAtTheSmallestSnr) {
  const Crossing c = half_crossing({0.5, 1.0}, {0.75, 1.0});
  EXPECT_EQ(c.bracket, -1);
  EXPECT_TRUE(std::isnan(c.snr));
}

TEST(HalfCrossing, ReportsAboveTheGridWhenNeverDetected) {
  const Crossing c = half_crossing({0.0, 1.0}, {0.0, 0.25});
  EXPECT_EQ(c.bracket, 1);
  EXPECT_TRUE(std::isnan(c.snr));
}

TEST(HalfCrossing, IsUndeterminedRatherThanInterpolatedAcrossACellWithoutTrials) {
  const Crossing c = half_crossing({0.0, 1.0, 2.0}, {0.0, std::nan(""), 1.0});
  EXPECT_EQ(c.bracket, bracket_no_data);
  EXPECT_TRUE(std::isnan(c.snr));
}

TEST(HalfCrossing, IsUndeterminedRatherThanAboveTheGridWhenACellBelowOneHalfLacksTrials) {
  const Crossing c = half_crossing({0.0, 1.0, 2.0}, {0.0, 0.25, std::nan("")});
  EXPECT_EQ(c.bracket, bracket_no_data);
  EXPECT_TRUE(std::isnan(c.snr));
}

TEST(HalfCrossing, IsUndeterminedWhenTheSmallestSnrLacksTrials) {
  // Had the smallest snr been measured, it might have been detected already (bracket -1).
  const Crossing c = half_crossing({0.0, 1.0}, {std::nan(""), 1.0});
  EXPECT_EQ(c.bracket, bracket_no_data);
  EXPECT_TRUE(std::isnan(c.snr));
}

TEST(HalfCrossing, IsUndeterminedWhenNoCellHasTrials) {
  const double none = std::nan("");
  EXPECT_EQ(half_crossing({0.0, 1.0, 2.0}, {none, none, none}).bracket, bracket_no_data);
}

TEST(HalfCrossing, IgnoresCellsWithoutTrialsAboveTheCrossing) {
  const Crossing c = half_crossing({0.0, 1.0, 2.0}, {0.0, 1.0, std::nan("")});
  EXPECT_EQ(c.bracket, bracket_found);
  EXPECT_DOUBLE_EQ(c.snr, 0.5);
  EXPECT_EQ(half_crossing({0.0, 1.0}, {0.75, std::nan("")}).bracket, bracket_below_grid);
}

TEST(BracketLabel, NamesAnUndeterminedLineNoDataAndKeepsTheGridWords) {
  EXPECT_STREQ(bracket_label(bracket_no_data), "no data");
  EXPECT_STREQ(bracket_label(bracket_above_grid), "> grid");
  EXPECT_STREQ(bracket_label(bracket_below_grid), "< grid");
}

TEST(Moments, AreTheMeanAndTheSampleStandardDeviation) {
  const Moments m = moments({1.0, 2.0, 3.0, 4.0});
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_NEAR(m.std, std::sqrt(5.0 / 3.0), 1e-15);
  EXPECT_EQ(m.count, 4);
  EXPECT_DOUBLE_EQ(moments({7.0}).std, 0.0);
  EXPECT_TRUE(std::isnan(moments({}).mean));
}

/// One weighting, delta and gamma, along snr 0, 1, 2.
Axes one_line_of_three_snr() {
  Axes axes;
  axes.weighting = {"mean"};
  axes.d = {400};
  axes.delta = {0.5};
  axes.gamma = {0.25};
  axes.snr = {0.0, 1.0, 2.0};
  return axes;
}

TEST(Tabulate, CountsDetectionsAgainstEachCellsThresholdAndFindsTheCrossing) {
  const Axes axes = one_line_of_three_snr();
  const std::vector<double> detection{1.0, 1.0, 1.0};
  // snr 0: no trial above 1; snr 1: one of two; snr 2: both.
  const std::vector<PointRecord> points{
      {0, 0, 0, 0, 0.9, 0.0, 0.5, {0.9}}, {0, 0, 0, 0, 0.95, 0.1, 0.5, {0.95}},
      {0, 0, 0, 1, 1.2, 0.4, 0.6, {1.2}}, {0, 0, 0, 1, 0.99, 0.2, 0.6, {0.99}},
      {0, 0, 0, 2, 1.5, 0.8, 0.7, {1.5}}, {0, 0, 0, 2, 1.6, 0.6, 0.9, {1.6}}};
  const PhaseTable t = tabulate(axes, points, detection);
  EXPECT_EQ(t.detected_fraction, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_DOUBLE_EQ(t.overlap_mean[2], 0.7);
  EXPECT_DOUBLE_EQ(t.ridge_accuracy_mean[2], 0.8);
  EXPECT_EQ(t.trials_done, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(t.empirical_threshold_bracket[0], 0);
  EXPECT_DOUBLE_EQ(t.empirical_threshold_snr[0], 1.0);
}

TEST(Tabulate, LeavesCellsWithoutDonePointsEmpty) {
  Axes axes;
  axes.weighting = {"mean", "optimal"};
  axes.d = {400};
  axes.delta = {0.5};
  axes.gamma = {0.25};
  axes.snr = {1.0};
  const PhaseTable t = tabulate(axes, {{1, 0, 0, 0, 2.0, 0.5, 0.7, {2.0}}}, {1.0, 1.0});
  EXPECT_EQ(t.trials_done[0], 0);
  EXPECT_TRUE(std::isnan(t.overlap_mean[0]));
  EXPECT_TRUE(std::isnan(t.detected_fraction[0]));
  EXPECT_EQ(t.trials_done[1], 1);
  EXPECT_EQ(t.empirical_threshold_bracket[1], -1);
}

TEST(Tabulate, MarksALineWhoseCellsHaveNoDonePointAsNoDataNotNeverDetected) {
  const Axes axes = one_line_of_three_snr();
  const PhaseTable t = tabulate(axes, {}, {1.0, 1.0, 1.0});
  EXPECT_EQ(t.trials_done, (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(t.empirical_threshold_bracket[0], bracket_no_data);
  EXPECT_TRUE(std::isnan(t.empirical_threshold_snr[0]));
}

// Overlaps that approach 0.6 as 0.6 - 2 d^(-1/3), two trials a cell at +-0.01: the extrapolation to
// d -> infinity recovers 0.6 (the fit is exact in the means), and one size alone gives none.
TEST(Tabulate, ExtrapolatesTheOverlapAtEachSnrAlongD) {
  Axes axes = one_line_of_three_snr();
  axes.snr = {1.0};
  axes.d = {125, 1000, 8000};
  std::vector<PointRecord> points;
  for (std::size_t n = 0; n < axes.d.size(); ++n) {
    const double mean = 0.6 - 2.0 * std::cbrt(1.0 / axes.d[n]);
    for (const double offset : {-0.01, 0.01}) {
      PointRecord p{0, 0, 0, 0, 2.0, mean + offset, 0.5, {2.0}};
      p.d = n;
      points.push_back(p);
    }
  }
  const PhaseTable t = tabulate(axes, points, std::vector<double>(3, 1.0));
  ASSERT_EQ(t.extrapolated_overlap.size(), 1u);
  EXPECT_NEAR(t.extrapolated_overlap[0], 0.6, 1e-12);
  EXPECT_GT(t.extrapolated_overlap_err[0], 0.0);
  axes.d = {400};
  EXPECT_TRUE(std::isnan(tabulate(axes, {points[0]}, {1.0}).extrapolated_overlap[0]));
}

TEST(FineAxis, SpansTheAxisRangeInclusively) {
  const auto fine = fine_axis({2.0, 0.5, 1.0}, 4);
  ASSERT_EQ(fine.size(), 4u);
  EXPECT_DOUBLE_EQ(fine.front(), 0.5);
  EXPECT_DOUBLE_EQ(fine.back(), 2.0);
  EXPECT_EQ(fine_axis({0.3}, 10), std::vector<double>{0.3});
}

}  // namespace
