#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/common/error.hpp"

using namespace rmtsweep::assemble;

namespace {

using Cell = std::vector<std::vector<double>>;

/// A trial whose top eigenvalues are l1 > l2 > l3 with gaps chosen to give eigengap ratio r.
std::vector<double> trial_with_ratio(double l1, double r) {
  // l2 - l3 = 1, l1 - l2 = r.
  return {l1, l1 - r, l1 - r - 1.0, l1 - r - 2.0};
}

}  // namespace

TEST(EigengapRatio, IsTheFirstGapOverTheSecond) {
  const std::vector<double> top{5.0, 3.0, 2.5, 1.0};
  EXPECT_DOUBLE_EQ(eigengap_ratio(top), 4.0);
}

TEST(EigengapRatio, DoesNotDependOnTheOrderOfTheEigenvalues) {
  const std::vector<double> ascending{1.0, 2.5, 3.0, 5.0};
  EXPECT_DOUBLE_EQ(eigengap_ratio(ascending), 4.0);
}

TEST(EigengapRatio, IsScaleAndShiftInvariant) {
  const std::vector<double> top{5.0, 3.0, 2.5}, moved{5.0 * 7.0 + 2.0, 3.0 * 7.0 + 2.0, 2.5 * 7.0 + 2.0};
  EXPECT_NEAR(eigengap_ratio(moved), eigengap_ratio(top), 1e-12);
}

TEST(EigengapRatio, NeedsThreeEigenvalues) {
  const std::vector<double> two{2.0, 1.0};
  EXPECT_THROW(eigengap_ratio(two), std::invalid_argument);
}

TEST(EigengapCriticalValue, IsTheInverseVarianceWeightedMeanOfTheCalibrationRows) {
  double weight = 0.0, sum = 0.0;
  for (const auto& row : eigengap_critical_table()) {
    weight += 1.0 / (row.se * row.se);
    sum += row.q95 / (row.se * row.se);
  }
  EXPECT_NEAR(eigengap_critical_value(400), sum / weight, 1e-12);
  EXPECT_NEAR(eigengap_critical_standard_error(), 1.0 / std::sqrt(weight), 1e-12);
}

TEST(EigengapCriticalValue, IsTheSameAtEveryDimension) {
  for (const int d : {1, 100, 400, 1000, 1600, 100000}) {
    EXPECT_EQ(eigengap_critical_value(d), eigengap_critical_value(400)) << d;
  }
}

TEST(EigengapCriticalTable, RowsAgreeWithOneValueWhateverTheirDimensionOrShape) {
  // The pooling is right only if the rows estimate one number: each must lie within 3 of its own standard
  // errors (plus the pooled one's) of the pooled value. 3 sigma: 14 rows, so a 2.2 sigma row is expected.
  const double pooled = eigengap_critical_value(400), pooled_se = eigengap_critical_standard_error();
  for (const auto& row : eigengap_critical_table()) {
    EXPECT_LT(std::abs(row.q95 - pooled), 3.0 * std::hypot(row.se, pooled_se)) << row.d << " " << row.gamma;
  }
}

TEST(EigengapCriticalTable, CoversTheSweepsDimensionsAndShapes) {
  bool small = false, large = false, square = false, tall = false;
  for (const auto& row : eigengap_critical_table()) {
    small = small || row.d <= 100;
    large = large || row.d >= 3200;
    square = square || row.gamma == 1.0;
    tall = tall || row.gamma <= 0.0625;
    EXPECT_GE(row.draws, 10000);
  }
  EXPECT_TRUE(small && large && square && tall);
}

TEST(EigengapCriticalValue, IsAboveOnatskisComplexDataValue) {
  // Onatski (2009) Table I gives 4.52 for beta = 2; real data (beta = 1) has smaller eigenvalue repulsion,
  // so a small second gap is likelier and the critical value larger at every d.
  for (const auto& row : eigengap_critical_table()) EXPECT_GT(row.q95, 4.52) << row.d;
}

TEST(NullQuantileThreshold, IsTheConformalOrderStatistic) {
  std::vector<double> values;
  for (int i = 1; i <= 20; ++i) values.push_back(i);
  // k = ceil(0.95 * 21) = 20: a fresh null trial exceeds x_(20) with probability 1/21 = 4.8 %.
  EXPECT_DOUBLE_EQ(null_quantile_threshold(values, 0.05), 20.0);
  values.push_back(21.0);  // k = ceil(0.95 * 22) = 21: 1/22
  EXPECT_DOUBLE_EQ(null_quantile_threshold(values, 0.05), 21.0);
}

TEST(NullQuantileThreshold, KeepsTheExactLevelForAFreshNullTrialAtOrBelowAlpha) {
  // On the values 1..n the threshold is its own rank k, and a fresh exchangeable null value exceeds it with
  // probability (n + 1 - k)/(n + 1). From n = 19 on that is at most alpha; below, the maximum, 1/(n + 1).
  for (const double alpha : {0.05, 0.1}) {
    for (int n = 1; n <= 600; ++n) {
      std::vector<double> values;
      for (int i = 1; i <= n; ++i) values.push_back(i);
      const double k = null_quantile_threshold(values, alpha);
      const double level = (n + 1 - k) / (n + 1.0);
      if ((n + 1) * alpha >= 1.0 - 1e-12) {
        EXPECT_LE(level, alpha + 1e-12) << n;
        EXPECT_GT(level + 1.0 / (n + 1), alpha) << n << ": the smallest such k, not a larger one";
      } else {
        EXPECT_DOUBLE_EQ(k, n) << n;
      }
    }
  }
}

TEST(NullQuantileThreshold, DoesNotDependOnTheOrderOfTheValues) {
  const std::vector<double> shuffled{7.0, 1.0, 9.0, 3.0, 10.0, 2.0, 8.0, 4.0, 6.0, 5.0};
  EXPECT_DOUBLE_EQ(null_quantile_threshold(shuffled, 0.2), 9.0);  // k = ceil(0.8 * 11) = 9
}

TEST(NullQuantileThreshold, IsNanWithoutNullValuesAndRejectsABadAlpha) {
  EXPECT_TRUE(std::isnan(null_quantile_threshold({}, 0.05)));
  EXPECT_THROW(null_quantile_threshold({1.0}, 0.0), std::invalid_argument);
  EXPECT_THROW(null_quantile_threshold({1.0}, 1.0), std::invalid_argument);
}

TEST(Detector, EdgeRuleComparesTheLargestEigenvalueWithTheMarginAboveTheEdge) {
  const Detector edge = edge_detector(2.0, 1000, 1.0);  // threshold 2 (1 + 1000^(-2/3)) = 2.02
  EXPECT_DOUBLE_EQ(edge.threshold, 2.02);
  EXPECT_TRUE(edge.detects(std::vector<double>{1.0, 2.03, 0.5}));
  EXPECT_FALSE(edge.detects(std::vector<double>{2.01, 1.0, 0.5}));
}

TEST(Detector, EigengapRuleComparesTheRatio) {
  const Detector gap{Rule::eigengap, 7.0};
  EXPECT_TRUE(gap.detects(trial_with_ratio(10.0, 7.5)));
  EXPECT_FALSE(gap.detects(trial_with_ratio(10.0, 6.5)));
}

TEST(Detector, WithANanThresholdDetectsNothing) {
  const Detector none{Rule::null, std::nan("")};
  EXPECT_FALSE(none.detects(std::vector<double>{1e300, 1.0, 0.5}));
}

TEST(DetectLine, GivesTheFractionPerCellTheFalseDetectionsAndTheHalfCrossing) {
  const std::vector<double> snr{0.0, 1.0, 2.0};
  // Ratios: at snr = 0 one of four above 7; at snr = 1 one of four; at snr = 2 all four.
  const std::vector<Cell> cells{
      {trial_with_ratio(3, 1), trial_with_ratio(3, 2), trial_with_ratio(3, 3), trial_with_ratio(3, 8)},
      {trial_with_ratio(3, 1), trial_with_ratio(3, 9), trial_with_ratio(3, 3), trial_with_ratio(3, 4)},
      {trial_with_ratio(3, 8), trial_with_ratio(3, 9), trial_with_ratio(3, 10), trial_with_ratio(3, 11)}};
  const LineDetection line = detect_line(snr, cells, Detector{Rule::eigengap, 7.0});
  EXPECT_EQ(line.fraction, (std::vector<double>{0.25, 0.25, 1.0}));
  EXPECT_DOUBLE_EQ(line.false_detection, 0.25);
  ASSERT_EQ(line.threshold.bracket, bracket_found);
  EXPECT_DOUBLE_EQ(line.threshold.snr, 1.0 + (0.5 - 0.25) / 0.75);  // linear between snr 1 and 2
}

TEST(DetectLine, MarksACellWithoutTrialsAndALineWithoutNullCell) {
  const std::vector<double> snr{1.0, 2.0};
  const std::vector<Cell> cells{{}, {{3.0, 2.0, 1.0}}};
  const LineDetection line = detect_line(snr, cells, Detector{Rule::edge, 2.5});
  EXPECT_TRUE(std::isnan(line.fraction[0]));
  EXPECT_DOUBLE_EQ(line.fraction[1], 1.0);
  EXPECT_TRUE(std::isnan(line.false_detection));
  EXPECT_EQ(line.threshold.bracket, bracket_no_data);
}

TEST(NullDetector, TakesTheQuantileOfTheLargestEigenvalueAtSnrZero) {
  const std::vector<double> snr{0.0, 3.0};
  Cell null_cell, signal_cell;
  for (int i = 1; i <= 20; ++i) null_cell.push_back({0.5, static_cast<double>(i), 0.1});  // lambda_1 = i
  signal_cell.push_back({25.0, 1.0, 0.5});
  const std::vector<Cell> cells{null_cell, signal_cell};
  const Detector rule = null_detector(snr, cells, 0.05);
  EXPECT_EQ(rule.rule, Rule::null);
  EXPECT_DOUBLE_EQ(rule.threshold, 20.0);  // k = ceil(0.95 * 21) = 20
  const LineDetection line = detect_line(snr, cells, rule);
  EXPECT_DOUBLE_EQ(line.false_detection, 0.0);  // in-sample: nothing lies above the largest
  EXPECT_DOUBLE_EQ(line.fraction[1], 1.0);
}

TEST(NullDetector, WithoutSnrZeroCellDetectsNothing) {
  const std::vector<double> snr{1.0};
  const std::vector<Cell> cells{{{5.0, 1.0, 0.5}}};
  const Detector rule = null_detector(snr, cells);
  EXPECT_TRUE(std::isnan(rule.threshold));
  EXPECT_DOUBLE_EQ(detect_line(snr, cells, rule).fraction[0], 0.0);
}

namespace {

namespace assemble = rmtsweep::assemble;

/// One line (mean pooling, d = 400, delta 0.5, gamma 0.25) along `snr`.
assemble::Axes one_line(std::vector<double> snr) {
  assemble::Axes axes;
  axes.weighting = {"mean"};
  axes.d = {400};
  axes.delta = {0.5};
  axes.gamma = {0.25};
  axes.snr = std::move(snr);
  return axes;
}

// detection_tables over a synthetic sweep of one line, snr 0 and 1, four trials each: at snr 0 the
// top eigenvalues sit at 1.0-1.3 with no gap, at snr 1 a clear outlier at 3.
TEST(DetectionTables, EachRuleDetectsTheOutlierAndReportsItsFalseDetections) {
  const assemble::Axes axes = one_line({0.0, 1.0});
  std::vector<assemble::PointRecord> points;
  const double null_tops[4] = {1.0, 1.1, 1.2, 1.3};
  for (int t = 0; t < 4; ++t) {
    const double l1 = null_tops[t];
    points.push_back({0, 0, 0, 0, l1, 0.0, 0.5, {l1, l1 - 0.05, l1 - 0.1, l1 - 0.15}});
    points.push_back({0, 0, 0, 1, 3.0, 0.5, 0.8, {3.0, 1.0, 0.99, 0.98}});
  }
  // Edge 1.15 with margin 0: the null trials at 1.2 and 1.3 count as false detections. The finite-T
  // edge (1.25) sits above the paper's, as it does for few pooled tokens.
  const auto tables = assemble::detection_tables(axes, points, {1.15}, {1.25}, 0.0);
  ASSERT_EQ(tables.size(), 4u);
  const auto& edge = tables[0];
  EXPECT_EQ(edge.detected_fraction, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(edge.false_detection_rate[0], 0.5);
  EXPECT_EQ(edge.empirical_threshold_bracket[0], assemble::bracket_below_grid);  // 1/2 already at snr 0
  const auto& gap = tables[1];  // R = 0.05/0.05 = 1 at snr 0, 2/0.01 = 200 at snr 1
  EXPECT_EQ(gap.detected_fraction, (std::vector<double>{0.0, 1.0}));
  EXPECT_DOUBLE_EQ(gap.empirical_threshold_snr[0], 0.5);
  const auto& null = tables[2];  // the 95 % quantile of {1.0, ..., 1.3} is 1.3: nothing above it at snr 0
  EXPECT_DOUBLE_EQ(null.threshold[0], 1.3);
  EXPECT_EQ(null.detected_fraction, (std::vector<double>{0.0, 1.0}));
  // Leave one out: 1.3 exceeds the others' quantile (1.2); 1.0, 1.1, 1.2 do not exceed theirs (1.3).
  EXPECT_DOUBLE_EQ(null.false_detection_rate[0], 0.25);
  const auto& finite_t = tables[3];  // only the null trial at 1.3 lies above the finite-T edge 1.25
  EXPECT_EQ(finite_t.rule, assemble::Rule::finite_t_edge);
  EXPECT_DOUBLE_EQ(finite_t.threshold[0], 1.25);
  EXPECT_EQ(finite_t.detected_fraction, (std::vector<double>{0.25, 1.0}));
  EXPECT_EQ(finite_t.false_detection_rate[0], 0.25);
}

// Where the finite-T edge was not computed (a line too large for its eigenvalue problem), that rule
// says nothing about the line: NaN, not "never detected".
TEST(DetectionTables, ALineWithoutAFiniteTEdgeHasNoFiniteTEdgeResults) {
  const assemble::Axes axes = one_line({0.0, 1.0});
  const std::vector<assemble::PointRecord> points{{0, 0, 0, 0, 1.0, 0.0, 0.5, {1.0, 0.9, 0.8}},
                                                  {0, 0, 0, 1, 3.0, 0.5, 0.8, {3.0, 1.0, 0.99}}};
  const auto tables = assemble::detection_tables(axes, points, {1.15}, {std::nan("")}, 1.0);
  const auto& finite_t = tables[3];
  EXPECT_TRUE(std::isnan(finite_t.threshold[0]));
  EXPECT_TRUE(std::isnan(finite_t.false_detection_rate[0]));
  EXPECT_TRUE(std::isnan(finite_t.detected_fraction[0]) && std::isnan(finite_t.detected_fraction[1]));
  EXPECT_EQ(tables[0].detected_fraction, (std::vector<double>{0.0, 1.0})) << "the edge rule is unaffected";
}

TEST(DetectionTables, ALineWithoutAnSnrZeroCellHasNoNullThresholdAndNoFalseDetectionRate) {
  const assemble::Axes axes = one_line({1.0});
  const std::vector<assemble::PointRecord> points{{0, 0, 0, 0, 3.0, 0.5, 0.8, {3.0, 1.0, 0.99}}};
  const auto tables = assemble::detection_tables(axes, points, {1.15}, {1.15}, 1.0);
  for (const auto& t : tables)
    EXPECT_TRUE(std::isnan(t.false_detection_rate[0])) << assemble::to_string(t.rule);
  EXPECT_TRUE(std::isnan(tables[2].threshold[0]));
  EXPECT_EQ(tables[2].detected_fraction, (std::vector<double>{0.0})) << "a NaN threshold detects nothing";
}

TEST(DetectionTables, RulesAreNamedAsTheFileNamesThem) {
  for (const auto rule : assemble::all_rules)
    EXPECT_EQ(assemble::parse_rule(assemble::to_string(rule)), rule);
  EXPECT_THROW(assemble::parse_rule("onatski"), rmtsweep::InvalidArgument);
}

}  // namespace
