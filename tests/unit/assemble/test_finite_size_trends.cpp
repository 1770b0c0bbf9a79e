// Residuals against the finite-T thresholds, the finite-T target's constancy and the detection trend along d
// (include/rmtsweep/assemble/finite_size_trends.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "rmtsweep/assemble/finite_size_trends.hpp"

using namespace rmtsweep::assemble;

namespace {
constexpr double missing = std::numeric_limits<double>::quiet_NaN();
constexpr double never = std::numeric_limits<double>::infinity();
}  // namespace

// --- the paired residual ---

TEST(PairedResidual, IsTheMedianOfTheTrialsDifferencesWithTheBootstrapOfThatMedian) {
  const std::vector<double> measured{1.0, 1.3, 0.9, 1.6, 1.2}, finite_t{0.9, 1.0, 0.5, 1.1, 1.0};
  const MedianEstimate residual = paired_residual(measured, finite_t, 7);
  // Differences 0.1, 0.3, 0.4, 0.5, 0.2: median 0.3, where the medians' difference is 1.2 - 1.0 = 0.2.
  EXPECT_NEAR(residual.median, 0.3, 1e-15);
  const MedianEstimate same = bootstrap_median({1.0 - 0.9, 1.3 - 1.0, 0.9 - 0.5, 1.6 - 1.1, 1.2 - 1.0}, 7);
  EXPECT_EQ(residual.median_err, same.median_err);
  EXPECT_GT(residual.median_err, 0.0);
}

TEST(PairedResidual, LeavesOutTrialsWithoutEitherThresholdAndKeepsANeverDetectedTrialAsLargest) {
  const std::vector<double> measured{1.0, missing, 1.2, never}, finite_t{0.8, 1.0, missing, 1.0};
  // Pairs: 0.2 and +inf: median of two is their mean, +inf; of the pair left out, none counts.
  EXPECT_EQ(paired_residual(measured, finite_t, 1).median, never);
  const std::vector<double> three{1.0, 1.1, never}, targets{0.9, 0.9, 0.9};
  EXPECT_NEAR(paired_residual(three, targets, 1).median, 0.2, 1e-15);
}

TEST(PairedResidual, IsNaNWithoutAPairAndRefusesVectorsOfDifferentLengths) {
  EXPECT_TRUE(std::isnan(paired_residual({1.0, 1.1}, {missing, missing}, 0).median));
  EXPECT_THROW(paired_residual({1.0, 1.1}, {1.0}, 0), std::invalid_argument);
}

// --- does the finite-T target hold still? ---

TEST(TargetConstancy, IsWelchsTestOfTheSizesMeansAgainstTheirWeightedMean) {
  // Means 2 and 4, each of three values with sd 1: weights 3 and 3, the constant 3, chi2 = 3 + 3 = 6. Two
  // sizes: lambda = 2 (1/2)^2 / 2 = 1/4, F = 6 on (1, 4) degrees of freedom (Welch's t-test squared), whose
  // tail is I_{4/10}(2, 1/2) = (4/3 - 2 sqrt(0.6) + (2/3) 0.6^(3/2)) / (4/3) = 0.0705: not moving at 5 %,
  // where plain chi^2 on one degree of freedom (p = erfc(sqrt(3)) = 0.014) would have said it does.
  const TargetConstancy t = target_constancy({{1.0, 2.0, 3.0}, {3.0, 4.0, 5.0}});
  EXPECT_NEAR(t.mean, 3.0, 1e-15);
  EXPECT_NEAR(t.chi2, 6.0, 1e-12);
  EXPECT_NEAR(t.f, 6.0, 1e-12);
  EXPECT_NEAR(t.dof2, 4.0, 1e-12);
  EXPECT_EQ(t.sizes, 2);
  EXPECT_NEAR(t.p_value, (4.0 / 3.0 - 2.0 * std::sqrt(0.6) + 2.0 / 3.0 * std::pow(0.6, 1.5)) / (4.0 / 3.0),
              1e-12);
  EXPECT_EQ(t.converges, target_holds);
}

TEST(TargetConstancy, HoldsForDrawsOfOneLawAndMovesForALawThatClimbsWithD) {
  std::mt19937_64 engine(37);
  std::normal_distribution<double> normal(0.0, 0.15);
  std::vector<double> draws;
  for (int t = 0; t < 32; ++t) draws.push_back(normal(engine));
  // The same 32 draws at every size, in another order: the means agree exactly. Climbing by 0.1 a size (as
  // `last`'s target grows with its largest token count) against a standard error of 0.027 a size: it moves.
  std::vector<std::vector<double>> still(4), climbing(4);
  for (std::size_t n = 0; n < 4; ++n) {
    for (std::size_t t = 0; t < draws.size(); ++t) {
      const double noise = draws[(t + 7 * n) % draws.size()];
      still[n].push_back(1.8 + noise);
      climbing[n].push_back(1.7 + 0.1 * static_cast<double>(n) + noise);
    }
  }
  const TargetConstancy holds = target_constancy(still), moves = target_constancy(climbing);
  std::printf("measured: p = %.3g (one set of draws), %.3g (climbing by 0.1 a size)\n", holds.p_value,
              moves.p_value);
  EXPECT_NEAR(holds.chi2, 0.0, 1e-20);
  EXPECT_EQ(holds.converges, target_holds);
  EXPECT_EQ(moves.converges, target_moves);
}

TEST(TargetConstancy, IsUnknownWithFewerThanTwoSizesOfTwoValuesWithASpread) {
  EXPECT_EQ(target_constancy({{1.0, 1.2}, {1.1}}).converges, target_unknown);
  EXPECT_EQ(target_constancy({{1.0, 1.2}, {1.1, 1.1}}).converges, target_unknown);  // no spread: no weight
  EXPECT_EQ(target_constancy({{missing, missing}, {1.0, 1.2}, {}}).converges, target_unknown);
  EXPECT_TRUE(std::isnan(target_constancy({}).p_value));
}

// --- does a rule's detection without signal grow with d? ---

TEST(DetectionTrend, GivesTheExactHypergeometricTailForSmallTables) {
  // Three sizes of 4 trials. Two detections both at the largest size: T = 2 * 2 = 4, the largest possible,
  // with probability C(4, 2) / C(12, 2) = 6/66 given two detections in all.
  const DetectionTrend two = detection_trend({400, 800, 1600}, {0, 0, 2}, {4, 4, 4});
  EXPECT_TRUE(two.exact);
  EXPECT_EQ(two.statistic, 4.0);
  EXPECT_NEAR(two.p_value, 6.0 / 66.0, 1e-12);
  EXPECT_EQ(two.consistent, rule_consistent);
  // Three there: C(4, 3) / C(12, 3) = 4/220 < 5 %.
  const DetectionTrend three = detection_trend({400, 800, 1600}, {0, 0, 3}, {4, 4, 4});
  EXPECT_NEAR(three.p_value, 4.0 / 220.0, 1e-12);
  EXPECT_EQ(three.consistent, rule_inconsistent);
}

TEST(DetectionTrend, OrdersTheSizesByDAndSkipsSizesWithoutTrials) {
  const DetectionTrend shuffled = detection_trend({1600, 400, 3200, 800}, {3, 0, 0, 0}, {4, 4, 0, 4});
  EXPECT_NEAR(shuffled.p_value, 4.0 / 220.0, 1e-12);
}

TEST(DetectionTrend, MarksTheEdgeRuleOfIssue18InconsistentAndItsMirrorImageConsistent) {
  // Harmonic pooling, d = 300 ... 4800, 16 trials: trials detected at snr 0 (exact threshold 0) 0, 3, 4,
  // 3, 7.
  const std::vector<double> d{300, 600, 1200, 2400, 4800};
  const std::vector<std::int64_t> trials(5, 16);
  const DetectionTrend growing = detection_trend(d, {0, 3, 4, 3, 7}, trials);
  const DetectionTrend falling = detection_trend(d, {7, 3, 4, 3, 0}, trials);
  std::printf("measured: p = %.3g (growing), %.3g (falling)\n", growing.p_value, falling.p_value);
  EXPECT_TRUE(growing.exact);
  EXPECT_EQ(growing.consistent, rule_inconsistent);
  EXPECT_EQ(falling.consistent, rule_consistent);
  EXPECT_GT(falling.p_value, 0.5);
}

TEST(DetectionTrend, IsConsistentWhenNothingOrEverythingIsDetectedAndUnknownForOneSize) {
  EXPECT_EQ(detection_trend({400, 800}, {0, 0}, {16, 16}).consistent, rule_consistent);
  EXPECT_EQ(detection_trend({400, 800}, {16, 16}, {16, 16}).p_value, 1.0);
  EXPECT_EQ(detection_trend({400, 800}, {0, 3}, {0, 16}).consistent, rule_consistency_unknown);
}

TEST(DetectionTrend, UsesTheNormalApproximationForLargeTables) {
  // 5 sizes of 5000 trials: far past max_exact_trend_work. Z by hand: ranks 0..4, p = 1300/25000 = 0.052,
  // T - E T = (0 + 250 + 2*260 + 3*270 + 4*280) - 0.052 * 5000 * 10, var = p (1 - p) 5000 (30 - 100/5).
  const std::vector<std::int64_t> detected{240, 250, 260, 270, 280}, trials(5, 5000);
  const DetectionTrend trend = detection_trend({1, 2, 4, 8, 16}, detected, trials);
  EXPECT_FALSE(trend.exact);
  const double p = 1300.0 / 25000.0, excess = 2700.0 - p * 50000.0, variance = p * (1 - p) * 5000.0 * 10.0;
  EXPECT_NEAR(trend.p_value, 0.5 * std::erfc(excess / std::sqrt(variance) / std::sqrt(2.0)), 1e-12);
}

TEST(DetectionTrend, AgreesWithTheNormalApproximationWhereBothApply) {
  // 4 sizes of 200 trials, 10 % detected with a slight climb: exact and normal p-values within 0.02 (the
  // normal approximation is good at these counts; a continuity correction of half a score step is the
  // difference).
  const std::vector<std::int64_t> detected{16, 20, 22, 26}, trials(4, 200);
  const DetectionTrend exact = detection_trend({1, 2, 4, 8}, detected, trials);
  ASSERT_TRUE(exact.exact);
  const double p = 84.0 / 800.0, excess = (20.0 + 44.0 + 78.0) - p * 200.0 * 6.0,
               variance = p * (1 - p) * 200.0 * (14.0 - 36.0 / 4.0);
  const double normal = 0.5 * std::erfc(excess / std::sqrt(variance) / std::sqrt(2.0));
  std::printf("measured: exact p = %.4f, normal %.4f\n", exact.p_value, normal);
  EXPECT_NEAR(exact.p_value, normal, 0.02);
}

TEST(DetectionTrend, RefusesCountsOutsideTheTrialsAndLengthsThatDiffer) {
  EXPECT_THROW(detection_trend({400, 800}, {5, 0}, {4, 4}), std::invalid_argument);
  EXPECT_THROW(detection_trend({400, 800}, {-1, 0}, {4, 4}), std::invalid_argument);
  EXPECT_THROW(detection_trend({400, 800}, {0}, {4, 4}), std::invalid_argument);
}
