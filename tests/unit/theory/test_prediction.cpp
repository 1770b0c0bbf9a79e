#include <gtest/gtest.h>

#include <cmath>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/prediction.hpp"

using namespace rmtsweep;

namespace {

model::PointParams worked_point(const std::string& weighting) {
  model::PointParams p;  // T = 10, prefix:3, delta = 0.5, gamma = 0.25, snr = 1, iid (model.md 5.3)
  p.weighting = model::parse_weighting(weighting, p.T);
  p.correlation = model::parse_correlation("prefix:3", p.T);
  return p;
}

// model.md 5.3 prints six decimals: a correct value is within 5e-7 of the printed one, so 1e-6.
constexpr double table_tolerance = 1e-6;

}  // namespace

TEST(Prediction, MatchesTheWorkedValuesForMeanPooling) {
  const auto p = theory::predict(worked_point("mean"));
  EXPECT_NEAR(p.alpha, 0.16, 1e-12);
  EXPECT_NEAR(p.kappa, 0.1, 1e-12);
  EXPECT_NEAR(p.theta, 2.4, 1e-12);
  EXPECT_NEAR(p.bulk_edge_right, 0.374669, table_tolerance);
  EXPECT_TRUE(p.detectable);
  EXPECT_NEAR(p.top_eigenvalue, 0.414515, table_tolerance);
  EXPECT_NEAR(p.overlap, 0.424875, table_tolerance);
}

TEST(Prediction, MatchesTheWorkedValuesForOptimalPooling) {
  const auto p = theory::predict(worked_point("optimal"));
  EXPECT_NEAR(p.alpha, 1.0, 1e-12);
  EXPECT_NEAR(p.kappa, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(p.theta, 4.5, 1e-12);
  EXPECT_NEAR(p.bulk_edge_right, 1.248897, table_tolerance);
  EXPECT_TRUE(p.detectable);
  EXPECT_NEAR(p.top_eigenvalue, 1.992188, table_tolerance);
  EXPECT_NEAR(p.overlap, 0.590686, table_tolerance);
}

TEST(Prediction, MatchesTheWorkedValuesForACenteredTable) {
  auto point = worked_point("mean");
  point.table = model::Table::centered;
  point.snr = 3.0;
  const auto p = theory::predict(point);
  EXPECT_NEAR(p.theta, 4.8, 1e-12);
  EXPECT_NEAR(p.top_eigenvalue, 0.626025, table_tolerance);
  EXPECT_NEAR(p.overlap, 0.897361, table_tolerance);
}

TEST(Prediction, BelowThePopulationThresholdThereIsNoOutlierAndTheTopEigenvalueIsTheEdge) {
  auto point = worked_point("mean");
  point.snr = 0.2;  // theta = 1.6 * 0.7 = 1.12, s = 0.62 < sqrt(0.5)
  const auto p = theory::predict(point);
  EXPECT_FALSE(p.pop_outlier.has_value());
  EXPECT_EQ(p.pop_overlap, 0.0);
  EXPECT_FALSE(p.detectable);
  EXPECT_EQ(p.top_eigenvalue, p.bulk_edge_right);
  EXPECT_EQ(p.overlap, 0.0);
  EXPECT_GT(p.pop_threshold_snr, 0.2);
  EXPECT_GT(p.sample_threshold_snr, p.pop_threshold_snr);
}

TEST(Prediction, DetectabilitySwitchesExactlyAtTheSampleThreshold) {
  for (const auto table : {model::Table::iid, model::Table::centered}) {
    auto point = worked_point("mean");
    point.table = table;
    point.snr = 0.0;
    const double threshold = theory::predict(point).sample_threshold_snr;
    ASSERT_GT(threshold, 0.0);
    point.snr = threshold * (1 + 1e-9);
    EXPECT_TRUE(theory::predict(point).detectable);
    point.snr = threshold * (1 - 1e-9);
    EXPECT_FALSE(theory::predict(point).detectable);
  }
}

TEST(Prediction, ThresholdsAreClippedAtZeroWhenTheOutlierExistsAtEverySnr) {
  // iid table, optimal pooling of a full prefix: g = 10, raw (delta + sqrt(delta))/g - delta < 0.
  model::PointParams point;
  point.weighting = model::parse_weighting("optimal", 10);
  point.correlation = model::parse_correlation("prefix:10", 10);
  point.snr = 0.0;
  const auto p = theory::predict(point);
  EXPECT_EQ(p.pop_threshold_snr, 0.0);
  EXPECT_EQ(p.sample_threshold_snr, 0.0);
  EXPECT_TRUE(p.detectable);
  // At snr = 0 the outlier is made of table noise alone: cap = 0, nothing aligned with mu.
  EXPECT_EQ(p.overlap, 0.0);
}

TEST(Prediction, EveryValueIsFiniteAtTheLargestAcceptedSnr) {
  // s^3 and (s + 1)(s + delta)(s + gamma) once overflowed from snr ~ 1e102 on (null in the JSON); the
  // largest g is T (all of R ones), so this is the largest signal a valid point can have.
  model::PointParams point;
  point.weighting = model::parse_weighting("optimal", 10);
  point.correlation = model::parse_correlation("prefix:10", 10);
  point.snr = model::max_snr;
  const auto p = theory::predict(point);
  ASSERT_TRUE(p.detectable);
  ASSERT_TRUE(p.pop_outlier.has_value());
  EXPECT_TRUE(std::isfinite(*p.pop_outlier));
  EXPECT_TRUE(std::isfinite(p.top_eigenvalue));
  // 1 - overlap = O(1/s) with s ~ 1e13: the overlaps are 1 to rounding.
  EXPECT_NEAR(p.overlap, 1.0, 1e-9);
  EXPECT_NEAR(p.pop_overlap, 1.0, 1e-9);
}

TEST(Prediction, CountsTheEffectiveTokensOfTheWeights) {
  // T_eff = (sum |w|)^2 / sum w^2: 10 for mean pooling over T = 10, 3 for optimal on prefix:3 (1/3 on t <=
  // 3), 1 for last; exact up to rounding of the normalised weights.
  EXPECT_NEAR(theory::predict(worked_point("mean")).effective_tokens, 10.0, 1e-12);
  EXPECT_NEAR(theory::predict(worked_point("optimal")).effective_tokens, 3.0, 1e-12);
  EXPECT_NEAR(theory::predict(worked_point("last")).effective_tokens, 1.0, 1e-12);
  EXPECT_FALSE(theory::predict(worked_point("mean")).finite_t_bulk_edge_right.has_value());
}
