#include <gtest/gtest.h>

#include <cmath>

#include "rmtsweep/theory/bulk.hpp"
#include "rmtsweep/theory/spike.hpp"

using namespace rmtsweep::theory;
using rmtsweep::model::Table;

TEST(Spike, CriticalSignalIsTheRootOfFAndExceedsSqrtDelta) {
  for (const auto& [delta, gamma] : {std::pair{0.5, 0.25}, {2.0, 3.0}, {0.01, 5.0}, {1.0, 1.0}}) {
    const double s = critical_signal(delta, gamma);
    // F(s*) = 0 to rounding of terms of size s*^3.
    EXPECT_NEAR(detectability(s, delta, gamma), 0.0, 1e-13 * s * s * s);
    EXPECT_GT(s, std::sqrt(delta));
    EXPECT_FALSE(sample_detectable(s * (1 - 1e-12), delta, gamma));
    EXPECT_TRUE(sample_detectable(s * (1 + 1e-12), delta, gamma));
  }
}

TEST(Spike, NegativeSignalsBetweenTheNegativeRootsOfFAreNotDetectable) {
  // F(-0.5) > 0 for delta = 0.5, gamma = 0.25, but s = -0.5 (theta = 0) has no outlier.
  ASSERT_GT(detectability(-0.5, 0.5, 0.25), 0.0);
  EXPECT_FALSE(sample_detectable(-0.5, 0.5, 0.25));
  EXPECT_EQ(sample_overlap(-0.5, 0.5, 0.25, 1.0), 0.0);
}

TEST(Spike, VanishingDeltaGivesClassicalBbp) {
  const double delta = 1e-10, gamma = 0.3, kappa = 0.2, snr = 1.3, g = 2.0;
  const auto signal = signal_strength(g, snr, delta, Table::iid);
  const double theta = signal.theta;  // = g snr + O(delta)
  // Every correction is O(delta) (F, cap) or O(sqrt(delta)) only in the population threshold:
  // 1e-8 is far above 1e-10 and far below the values (~0.5).
  ASSERT_TRUE(sample_detectable(signal.s, delta, gamma));
  EXPECT_NEAR(sample_outlier(signal.s, delta, gamma, kappa), kappa * (1 + theta) * (theta + gamma) / theta,
              1e-8);
  EXPECT_NEAR(sample_overlap(signal.s, delta, gamma, signal.cap),
              (1 - gamma / (theta * theta)) / (1 + gamma / theta), 1e-8);
  // The BBP threshold theta = sqrt(gamma).
  EXPECT_NEAR(critical_signal(delta, gamma), std::sqrt(gamma), 1e-8);
}

TEST(Spike, VanishingGammaGivesThePopulationResult) {
  const double delta = 0.4, gamma = 1e-10, kappa = 0.5;
  for (const double s : {0.7, 1.0, 2.5, 10.0}) {
    const auto population = population_outlier(s, delta, kappa);
    ASSERT_TRUE(population.has_value());
    ASSERT_TRUE(sample_detectable(s, delta, gamma));
    // Differences are O(gamma) = 1e-10 relative; 1e-8 leaves room for rounding.
    EXPECT_NEAR(sample_outlier(s, delta, gamma, kappa), *population, 1e-8 * *population);
    EXPECT_NEAR(sample_overlap(s, delta, gamma, 0.8), population_overlap(s, delta, 0.8), 1e-8);
  }
  // The sample threshold tends to the population one, sqrt(delta) (up to O(sqrt(gamma)) = 1e-5).
  EXPECT_NEAR(critical_signal(delta, gamma), std::sqrt(delta), 1e-4);
}

TEST(Spike, OverlapAndOutlierMeetTheBulkContinuouslyAtTheThreshold) {
  for (const auto& [delta, gamma] : {std::pair{0.5, 0.25}, {3.0, 0.7}, {0.2, 4.0}}) {
    const double s_star = critical_signal(delta, gamma);
    const double edge = bulk_edges(delta, gamma, 1.0).right;
    double previous = sample_overlap(s_star * 1.1, delta, gamma, 1.0);
    for (const double eps : {1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7}) {
      const double s = s_star * (1 + eps);
      const double overlap = sample_overlap(s, delta, gamma, 1.0);
      // F has a simple root at s*: the overlap falls linearly, F'(s*) eps s* / (s*^2 (s* + gamma)).
      const double slope =
          (3 * s_star * s_star - (delta + gamma + delta * gamma)) / (s_star * (s_star + gamma));
      EXPECT_GT(overlap, 0.0);
      EXPECT_LT(overlap, previous);
      EXPECT_NEAR(overlap, slope * eps, 2 * slope * eps * eps + 1e-12);
      // u(1/s) is stationary at s*: the outlier approaches the edge quadratically.
      EXPECT_NEAR(sample_outlier(s, delta, gamma, 1.0), edge, 1e-6 * edge + 10 * edge * eps * eps);
      previous = overlap;
    }
    EXPECT_EQ(sample_overlap(s_star * (1 - 1e-9), delta, gamma, 1.0), 0.0);
  }
}

TEST(Spike, PopulationOverlapVanishesContinuouslyAtItsThreshold) {
  const double delta = 0.5;
  const double s_pop = std::sqrt(delta);
  EXPECT_FALSE(population_outlier(s_pop, delta, 1.0).has_value());
  EXPECT_EQ(population_overlap(s_pop, delta, 1.0), 0.0);
  // 1 - delta/s^2 = 2 eps + O(eps^2) just above s = sqrt(delta).
  EXPECT_NEAR(population_overlap(s_pop * (1 + 1e-6), delta, 1.0), 2e-6, 1e-11);
}

TEST(Spike, SignalStrengthFollowsTheTable) {
  const auto iid = signal_strength(1.6, 1.0, 0.5, Table::iid);
  EXPECT_DOUBLE_EQ(iid.theta, 2.4);
  EXPECT_DOUBLE_EQ(iid.s, 1.9);
  EXPECT_DOUBLE_EQ(iid.cap, 1.0 / 1.5);
  const auto centered = signal_strength(1.6, 1.0, 0.5, Table::centered);
  EXPECT_DOUBLE_EQ(centered.theta, 1.6);
  EXPECT_DOUBLE_EQ(centered.s, 1.1);
  EXPECT_EQ(centered.cap, 1.0);
}

TEST(Spike, ThresholdsInSnrInvertTheTransitionsAndArePopulationFirst) {
  for (const auto table : {Table::iid, Table::centered}) {
    const double g = 1.6, delta = 0.5, gamma = 0.25;
    const double pop = population_threshold_snr(g, delta, table);
    const double sample = sample_threshold_snr(g, delta, gamma, table);
    EXPECT_LT(pop, sample);
    EXPECT_NEAR(signal_strength(g, pop, delta, table).s, std::sqrt(delta), 1e-14);
    EXPECT_NEAR(signal_strength(g, sample, delta, table).s, critical_signal(delta, gamma), 1e-14);
  }
}
