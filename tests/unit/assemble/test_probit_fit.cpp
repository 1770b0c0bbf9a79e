// The probit fit of a line's detections on synthetic data with known answers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "rmtsweep/assemble/probit_fit.hpp"

using namespace rmtsweep::assemble;

namespace {

/// K trials with thresholds tau_t ~ N(mu, sigma) (common random numbers: trial t is detected at snr s
/// iff s >= tau_t), each observed on the same snr values.
std::vector<Detection> synthetic(double mu, double sigma, int trials, const std::vector<double>& snr,
                                 unsigned seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(mu, sigma);
  std::vector<Detection> out;
  for (int t = 0; t < trials; ++t) {
    const double tau = normal(engine);
    for (const double s : snr) out.push_back({s, t, s >= tau});
  }
  return out;
}

std::vector<double> axis(double lo, double hi, int n) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(lo + (hi - lo) * k / (n - 1));
  return v;
}

}  // namespace

TEST(ProbitFit, RecoversTheThresholdAndWidthOfKnownData) {
  const ProbitFit fit = fit_probit(synthetic(1.3, 0.2, 400, axis(0.5, 2.1, 33), 1));
  ASSERT_TRUE(fit.converged);
  // 400 trials: the median of tau is known to about 1.25 0.2 / 20 = 0.0125; 4 standard errors.
  EXPECT_NEAR(fit.mu, 1.3, 0.05);
  EXPECT_NEAR(fit.sigma, 0.2, 0.04);
  EXPECT_NEAR(fit.mu_err, 0.2 / 20.0, 0.006);  // the error of a mean of 400 thresholds, roughly
}

TEST(ProbitFit, ErrorsAreHonestOverRepeatedExperiments) {
  // The sandwich error should match the spread of mu over independent repetitions (within 30 %,
  // the sampling error of an sd from 40 repetitions being about 11 %).
  std::vector<double> mus, errs;
  for (unsigned seed = 0; seed < 40; ++seed) {
    const ProbitFit fit = fit_probit(synthetic(1.0, 0.15, 40, axis(0.4, 1.6, 25), seed + 10));
    ASSERT_TRUE(fit.converged);
    mus.push_back(fit.mu);
    errs.push_back(fit.mu_err);
  }
  double mean = 0, err = 0;
  for (std::size_t i = 0; i < mus.size(); ++i) {
    mean += mus[i] / static_cast<double>(mus.size());
    err += errs[i] / static_cast<double>(errs.size());
  }
  double ss = 0;
  for (const double m : mus) ss += (m - mean) * (m - mean);
  const double sd = std::sqrt(ss / static_cast<double>(mus.size() - 1));
  EXPECT_NEAR(err / sd, 1.0, 0.3);
}

TEST(ProbitFit, ATrialCountsOnceHoweverManyPointsBisectedIt) {
  // The same brackets, once from a coarse axis and once with many more points inside one trial's
  // bracket on both sides of its threshold: the fit depends on the brackets only.
  std::vector<Detection> coarse = synthetic(1.0, 0.3, 30, axis(0.0, 2.0, 21), 4);
  std::vector<Detection> dense = coarse;
  double lo = -1, hi = 9;
  for (const Detection& p : coarse) {
    if (p.trial != 0) continue;
    if (p.detected)
      hi = std::min(hi, p.snr);
    else
      lo = std::max(lo, p.snr);
  }
  for (int k = 1; k < 50; ++k) dense.push_back({lo - 0.01 * k, 0, false});  // below lo: nothing new
  const ProbitFit a = fit_probit(coarse), b = fit_probit(dense);
  ASSERT_TRUE(a.converged && b.converged);
  EXPECT_NEAR(a.mu, b.mu, 1e-9);
  EXPECT_NEAR(a.sigma, b.sigma, 1e-9);
}

TEST(ProbitFit, AnAdaptiveDesignInsideEachTrialsBracketDoesNotBiasTheFit) {
  // Bisect every trial to a width of 0.01 (what refine does): points then crowd each trial's own
  // threshold, and a pooled binomial fit would see a fraction near 1/2 everywhere in the middle.
  std::mt19937_64 engine(9);
  std::normal_distribution<double> normal(1.2, 0.25);
  std::vector<Detection> points;
  for (int t = 0; t < 300; ++t) {
    const double tau = normal(engine);
    double lo = 0.0, hi = 2.4;
    points.push_back({lo, t, lo >= tau});
    points.push_back({hi, t, hi >= tau});
    while (hi - lo > 0.01) {
      const double mid = 0.5 * (lo + hi);
      const bool detected = mid >= tau;
      points.push_back({mid, t, detected});
      (detected ? hi : lo) = mid;
    }
  }
  const ProbitFit fit = fit_probit(points);
  ASSERT_TRUE(fit.converged);
  // 300 trials: mu known to about 0.25 / sqrt(300) = 0.014; four errors.
  EXPECT_NEAR(fit.mu, 1.2, 0.06);
  EXPECT_NEAR(fit.sigma, 0.25, 0.05);
  EXPECT_NEAR(fit.mu_err, 0.25 / std::sqrt(300.0), 0.005);
}

TEST(ProbitFit, BracketsOfZeroWidthHaveNoFit) {
  // Every trial is detected and not detected at the same snr: a step of no width.
  std::vector<Detection> step;
  for (int t = 0; t < 4; ++t) {
    step.push_back({1.0, t, true});
    step.push_back({1.0 - 1e-15, t, false});
  }
  EXPECT_FALSE(fit_probit(step).converged);
}

TEST(ProbitFit, IdenticalBracketsHaveNoWidthToFit) {
  // Every trial between 1.0 and 1.1: the likelihood grows as the curve narrows inside the bracket.
  std::vector<Detection> step;
  for (int t = 0; t < 4; ++t) {
    for (const double s : {0.5, 1.0, 1.1, 1.5}) step.push_back({s, t, s > 1.05});
  }
  EXPECT_FALSE(fit_probit(step).converged);
}

TEST(ProbitFit, OneOutcomeOnlyHasNoFit) {
  EXPECT_FALSE(fit_probit({{0.5, 0, false}, {1.0, 1, false}}).converged);
}
