// The round design of `rmtsweep refine` on synthetic lines with known per-trial thresholds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "rmtsweep/refine/design.hpp"

using namespace rmtsweep::refine;

namespace {

/// Common random numbers: trial t is detected at snr s exactly when s >= tau[t].
std::vector<Observation> observe(const std::vector<double>& snr, const std::vector<double>& tau) {
  std::vector<Observation> out;
  for (const double s : snr) {
    for (std::size_t t = 0; t < tau.size(); ++t) out.push_back({s, static_cast<int>(t), s >= tau[t]});
  }
  return out;
}

/// Runs design rounds to the end against thresholds drawn from N(mean, sd); returns the final estimate.
LineEstimate refine_to_end(double mean, double sd, const DesignOptions& options, int grid_trials,
                           std::vector<double> grid, std::size_t& points, int& trials) {
  std::mt19937_64 engine(7);
  std::normal_distribution<double> normal(mean, sd);
  std::vector<double> tau;
  for (int t = 0; t < options.max_trials; ++t) tau.push_back(normal(engine));
  std::vector<double> first(tau.begin(), tau.begin() + grid_trials);
  std::vector<Observation> seen = observe(grid, first);
  trials = grid_trials;
  points = 0;
  for (int round = 0; round < 200; ++round) {
    int after = trials;
    const auto proposals = design_line(seen, trials, options, after);
    trials = after;
    if (proposals.empty()) break;
    for (const Proposal& p : proposals) {
      seen.push_back({p.snr, p.trial, p.snr >= tau[static_cast<std::size_t>(p.trial)]});
      ++points;
    }
  }
  return estimate_line(trial_brackets(seen, trials));
}

}  // namespace

TEST(RefineDesign, BracketOfATrialIsItsHighestMissBelowItsLowestDetection) {
  const std::vector<Observation> seen{{0.5, 0, false}, {1.0, 0, true}, {1.5, 0, false}, {2.0, 0, true}, {0.2, 0, false}};
  const auto b = trial_brackets(seen, 1);
  EXPECT_EQ(b[0].lo, 0.5);  // the miss at 1.5, above the first detection, is noise and ignored
  EXPECT_EQ(b[0].hi, 1.0);
}

TEST(RefineDesign, EstimateIsTheMiddleOfTheMedianBracketsAndItsErrorCombinesBothParts) {
  // Four trials with brackets [0, 1], [1, 2], [2, 3], [3, 4]: medians of lo and hi 1.5 and 2.5.
  std::vector<TrialBracket> b{{0, 0, 1}, {1, 1, 2}, {2, 2, 3}, {3, 3, 4}};
  const LineEstimate e = estimate_line(b);
  EXPECT_DOUBLE_EQ(e.threshold, 2.0);
  EXPECT_DOUBLE_EQ(e.resolution_err, 1.0 / std::sqrt(12.0));
  const double sd = std::sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3.0);  // midpoints 0.5 .. 3.5
  EXPECT_NEAR(e.spread_err, 1.2533141373155003 * sd / 2.0, 1e-12);
  EXPECT_NEAR(e.err, std::hypot(e.resolution_err, e.spread_err), 1e-15);
}

TEST(RefineDesign, AnOpenBracketMakesTheEstimateUndefined) {
  std::vector<TrialBracket> b{{0, 0, 1}, {1, 1, NAN}};
  EXPECT_TRUE(std::isnan(estimate_line(b).threshold));
}

TEST(RefineDesign, ALineWithIdenticalTrialsIsBisectedToTheTolerance) {
  // Spread 0: only resolution matters, so no trial is added and each bisection halves the bracket.
  DesignOptions options;
  options.tolerance = 0.01;
  options.max_trials = 4;
  std::size_t points = 0;
  int trials = 0;
  const LineEstimate e = refine_to_end(1.2345, 0.0, options, 4, {0.0, 0.5, 1.0, 1.5, 2.0}, points, trials);
  EXPECT_EQ(trials, 4);
  EXPECT_LE(e.err, 0.01);
  EXPECT_NEAR(e.threshold, 1.2345, 0.6 * std::sqrt(12.0) * 0.01 / 2);  // inside the final median bracket
  EXPECT_LE(points, 4u * 6u);  // 0.5 -> 0.02 in 5 halvings per trial
}

TEST(RefineDesign, ASpreadLineGetsTrialsUntilTheMedianIsKnownToTheTolerance) {
  DesignOptions options;
  options.tolerance = 0.02;
  options.max_trials = 400;
  std::size_t points = 0;
  int trials = 0;
  const LineEstimate e = refine_to_end(1.0, 0.1, options, 8, {0.0, 0.5, 1.0, 1.5, 2.0}, points, trials);
  // 1.2533 sd / sqrt(K) <= 0.8 tolerance needs K >= 62 for sd = 0.1.
  EXPECT_GE(trials, 50);
  EXPECT_LE(e.err, 0.02);
  EXPECT_NEAR(e.threshold, 1.0, 3 * 0.02);  // three standard errors
  // Far fewer points than a uniform 0.02 grid over [0, 2] with as many trials (101 per trial).
  EXPECT_LT(points, static_cast<std::size_t>(trials) * 101 / 5);
}

TEST(RefineDesign, WithoutAnyDataTheFirstPointsAreAtTheTheorysThreshold) {
  DesignOptions options;
  options.start_snr = 0.7;
  int after = 0;
  const auto p = design_line({}, 2, options, after);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NEAR(p[0].snr, 0.7, snr_quantum(options.tolerance) / 2);  // rounded to the lattice
  EXPECT_EQ(p[1].trial, 1);
}

TEST(RefineDesign, AFinishedLineProposesNothing) {
  DesignOptions options;
  options.tolerance = 0.5;
  int after = 0;
  EXPECT_TRUE(design_line(observe({0.0, 0.1, 0.2, 2.0}, {0.05, 0.15}), 2, options, after).empty());
}
