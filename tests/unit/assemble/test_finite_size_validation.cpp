// The levels and powers of the tests assemble makes along d (docs/finite_size.md and
// docs/detection.md quote these numbers), measured on many synthetic draws: ctest label `validation` (a few
// seconds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/assemble/finite_size_trends.hpp"

using namespace rmtsweep::assemble;

namespace {

/// The binomial band of a rate measured over n draws: p +- 3 sd.
double low_band(double p, int n) { return p - 3.0 * std::sqrt(p * (1.0 - p) / n); }
double high_band(double p, int n) { return p + 3.0 * std::sqrt(p * (1.0 - p) / n); }

const std::vector<double> five_sizes{300, 600, 1200, 2400, 4800};  // a finite-size study's sweep

struct FitRun {
  double quadratic_share = 0.0;  ///< draws where the F-test added b x^2
  double coverage = 0.0;         ///< draws whose chosen thr_inf lies within 2 errors of the truth
  double error_ratio = 0.0;      ///< median over draws of the chosen error / the always-quadratic error
};

/// `draws` fits of 1.3 + 0.8 x + b x^2 + N(0, (0.02 x)^2) at five sizes.
FitRun fit_run(double b, int draws) {
  std::mt19937_64 engine(2605);
  std::normal_distribution<double> normal(0.0, 1.0);
  FitRun run;
  std::vector<double> ratio;
  for (int k = 0; k < draws; ++k) {
    std::vector<double> y, e;
    for (const double d : five_sizes) {
      const double x = std::cbrt(1.0 / d);
      e.push_back(0.02 * x);
      y.push_back(1.3 + 0.8 * x + b * x * x + e.back() * normal(engine));
    }
    const Extrapolation fit = extrapolate_threshold(five_sizes, y, e);
    run.quadratic_share += fit.terms == 2 ? 1.0 : 0.0;
    run.coverage += std::abs(fit.thr_inf - 1.3) <= 2.0 * fit.thr_inf_err ? 1.0 : 0.0;
    ratio.push_back(fit.thr_inf_err / fit_threshold(five_sizes, y, e, 2).thr_inf_err);
  }
  std::nth_element(ratio.begin(), ratio.begin() + draws / 2, ratio.end());
  run.error_ratio = ratio[static_cast<std::size_t>(draws / 2)];
  run.quadratic_share /= draws;
  run.coverage /= draws;
  return run;
}

}  // namespace

TEST(FTestValidation, AddsTheQuadraticTermToAStraightTruthAtItsLevelAndKeepsTheCoverage) {
  constexpr int draws = 4000;
  const FitRun run = fit_run(0.0, draws);
  std::printf(
      "measured: b x^2 added in %.2f %% of %d straight draws; coverage %.3f; median error %.2f of the "
      "always-quadratic fit's\n",
      100.0 * run.quadratic_share, draws, run.coverage, run.error_ratio);
  EXPECT_GE(run.quadratic_share, low_band(quadratic_term_level, draws));
  EXPECT_LE(run.quadratic_share, high_band(quadratic_term_level, draws));
  EXPECT_GE(run.coverage, low_band(0.9544997361036416, draws));
}

TEST(FTestValidation, FindsACurvatureTheSizesResolve) {
  constexpr int draws = 1000;
  const FitRun run = fit_run(-40.0, draws);
  std::printf("measured: b x^2 added in %.2f %% of %d draws with b = -40; coverage %.3f\n",
              100.0 * run.quadratic_share, draws, run.coverage);
  EXPECT_GE(run.quadratic_share, 0.95);
  EXPECT_GE(run.coverage, low_band(0.9544997361036416, draws));
}

TEST(TrendValidation, TheExactTestRejectsAtMostItsLevelWithoutATrend) {
  // Five sizes of 16 trials, each detected without signal with probability 0.1 at every size.
  constexpr int tables = 4000;
  std::mt19937_64 engine(3701);
  std::binomial_distribution<std::int64_t> binomial(16, 0.1);
  const std::vector<std::int64_t> trials(5, 16);
  int rejected = 0;
  for (int k = 0; k < tables; ++k) {
    std::vector<std::int64_t> detected;
    for (int n = 0; n < 5; ++n) detected.push_back(binomial(engine));
    rejected += detection_trend(five_sizes, detected, trials).consistent == rule_inconsistent ? 1 : 0;
  }
  const double rate = static_cast<double>(rejected) / tables;
  std::printf("measured: %.2f %% of %d tables without a trend marked inconsistent\n", 100.0 * rate, tables);
  EXPECT_LE(rate, high_band(detection_trend_level, tables));
}

TEST(TrendValidation, TheExactTestFindsATrendLikeIssue18sEdgeRule) {
  // The rates of the issue's harmonic edge rule, 0, 3, 4, 3, 7 of 16, as probabilities.
  constexpr int tables = 2000;
  std::mt19937_64 engine(3702);
  const double rate[] = {0.0, 3.0 / 16, 4.0 / 16, 3.0 / 16, 7.0 / 16};
  const std::vector<std::int64_t> trials(5, 16);
  int found = 0;
  for (int k = 0; k < tables; ++k) {
    std::vector<std::int64_t> detected;
    for (const double p : rate) detected.push_back(std::binomial_distribution<std::int64_t>(16, p)(engine));
    found += detection_trend(five_sizes, detected, trials).consistent == rule_inconsistent ? 1 : 0;
  }
  const double power = static_cast<double>(found) / tables;
  std::printf("measured: power %.3f over %d tables\n", power, tables);
  EXPECT_GE(power, 0.8);
}

TEST(WelchValidation, TheTargetTestHoldsItsLevelAtSixteenTrials) {
  constexpr int draws = 4000;
  std::mt19937_64 engine(3703);
  int moved = 0;
  for (int k = 0; k < draws; ++k) {
    std::vector<std::vector<double>> values(4);
    const double spread[] = {0.05, 0.1, 0.2, 0.3};  // the trials' spread may differ between sizes
    for (std::size_t n = 0; n < 4; ++n) {
      std::normal_distribution<double> normal(0.83, spread[n]);
      for (int t = 0; t < 16; ++t) values[n].push_back(normal(engine));
    }
    moved += target_constancy(values).converges == target_moves ? 1 : 0;
  }
  const double rate = static_cast<double>(moved) / draws;
  std::printf("measured: %.2f %% of %d still targets said to move\n", 100.0 * rate, draws);
  EXPECT_GE(rate, low_band(target_constancy_level, draws));
  EXPECT_LE(rate, high_band(target_constancy_level, draws));
}
