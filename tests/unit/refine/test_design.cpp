// The round design of `rmtsweep refine` on synthetic lines with known per-trial thresholds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/refine/design.hpp"

using namespace rmtsweep::refine;
using rmtsweep::assemble::Detection;
using rmtsweep::assemble::estimate_line;
using rmtsweep::assemble::LineEstimate;
using rmtsweep::assemble::trial_brackets;

namespace {

/// Common random numbers: trial t is detected at snr s exactly when s >= tau[t].
std::vector<Detection> observe(const std::vector<double>& snr, const std::vector<double>& tau) {
  std::vector<Detection> out;
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
  std::vector<Detection> seen = observe(grid, first);
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
  EXPECT_LE(points, 4u * 6u);                                          // 0.5 -> 0.02 in 5 halvings per trial
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

namespace {

/// Runs exact rounds to the end against thresholds drawn from N(mean, sd): each round's estimate the median
/// of the thresholds so far with its bootstrap error (as refine computes it); returns the last one.
ExactEstimate exact_to_end(double mean, double sd, const DesignOptions& options, int grid_trials, int& trials,
                           int& rounds, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(mean, sd);
  std::vector<double> tau;
  for (int t = 0; t < options.max_trials; ++t) tau.push_back(normal(engine));
  trials = grid_trials;
  ExactEstimate e;
  for (rounds = 0; rounds < 100; ++rounds) {
    const std::vector<double> values(tau.begin(), tau.begin() + trials);
    const auto median = rmtsweep::assemble::bootstrap_median(values, 3);
    e = {median.median, median.median_err, trials};
    const int after = exact_trials_after(e, trials, options);
    if (after == trials) break;
    EXPECT_GT(after, trials);
    EXPECT_LE(after, std::max(2 * trials, min_exact_trials)) << "at most doubling, or up to the minimum";
    trials = after;
  }
  return e;
}

}  // namespace

TEST(RefineDesign, AnExactLineGetsTrialsUntilItsBootstrapErrorMeetsTheTolerance) {
  DesignOptions options;
  options.tolerance = 0.02;
  options.max_trials = 4000;
  // The median of K normal values has standard error 1.2533 sd / sqrt(K): about 39 trials for sd 0.1 at 0.02.
  const double needed = std::pow(1.2533141373155003 * 0.1 / 0.02, 2.0);
  const int lines = 40;
  double mean_trials = 0.0;
  int within = 0;
  for (int seed = 0; seed < lines; ++seed) {
    int trials = 0, rounds = 0;
    const ExactEstimate e =
        exact_to_end(1.0, 0.1, options, 8, trials, rounds, static_cast<std::uint64_t>(seed));
    EXPECT_LE(e.err, 0.02);
    EXPECT_LE(rounds, 6) << "the trials the error needs are added at once, not one at a time";
    mean_trials += trials / static_cast<double>(lines);
    // Within three true standard errors of the true median 1.
    within += std::abs(e.threshold - 1.0) <= 3 * 1.2533141373155003 * 0.1 / std::sqrt(trials) ? 1 : 0;
  }
  // The bootstrap error scatters around the true one (the stop picks its low draws): on average the lines end
  // with about as many trials as the error needs, and nearly every median within three standard errors.
  EXPECT_GT(mean_trials, 0.6 * needed);
  EXPECT_LT(mean_trials, 1.6 * needed);
  EXPECT_GE(within, lines - 2);
}

TEST(RefineDesign, AnExactLineMeetingTheToleranceWithFewTrialsStillGetsTheMinimum) {
  DesignOptions options;
  options.tolerance = 0.5;
  options.max_trials = 100;
  const ExactEstimate few{1.0, 0.01, 4};  // a small error from four trials is itself too uncertain to stop on
  EXPECT_FALSE(exact_line_finished(few, 4, options));
  EXPECT_EQ(exact_trials_after(few, 4, options), min_exact_trials);
  const ExactEstimate enough{1.0, 0.01, min_exact_trials};
  EXPECT_TRUE(exact_line_finished(enough, min_exact_trials, options));
  EXPECT_EQ(exact_trials_after(enough, min_exact_trials, options), min_exact_trials);
}

TEST(RefineDesign, AnExactLineStopsAtMaxTrialsAndDoublesWithoutAFiniteError) {
  DesignOptions options;
  options.tolerance = 0.01;
  options.max_trials = 20;
  EXPECT_TRUE(exact_line_finished({1.0, 0.5, 20}, 20, options));
  EXPECT_EQ(exact_trials_after({1.0, 0.5, 18}, 18, options), 20);  // capped
  options.max_trials = 1000;
  // No finite error (fewer than two values, or replicates with infinite medians): the trials double.
  EXPECT_EQ(exact_trials_after({1.0, NAN, 40}, 40, options), 80);
  EXPECT_EQ(exact_trials_after({NAN, NAN, 0}, 0, options), min_exact_trials);
  // Failed trials count among the indices given, not among the exact values.
  EXPECT_EQ(exact_trials_after({1.0, NAN, 40}, 43, options), 83);
}
