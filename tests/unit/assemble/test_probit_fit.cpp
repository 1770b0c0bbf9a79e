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
std::vector<Detection> synthetic(double mu, double sigma, int trials, const std::vector<double>& snr, unsigned seed) {
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
  EXPECT_NEAR(fit.threshold, fit.mu, 0.01);      // no trial detected everywhere or never: rates near 0
}

TEST(ProbitFit, ErrorsAreHonestOverRepeatedExperiments) {
  // The cluster-robust error should match the spread of mu over independent repetitions (within 30 %,
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

TEST(ProbitFit, TrialsDetectedEverywhereAreTakenByTheGuessRateNotByTheWidth) {
  // 20 % of the trials detect at every snr (a noise outlier): the detected fraction is 0.2 + 0.8 Phi, whose
  // half crossing lies at 1.3 + 0.2 Phi^-1(0.375) = 1.2363.
  std::vector<Detection> points = synthetic(1.3, 0.2, 400, axis(0.0, 2.4, 49), 3);
  for (Detection& p : points) {
    if (p.trial % 5 == 0) p.detected = true;
  }
  const ProbitFit fit = fit_probit(points);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.guess, 0.2, 0.03);  // 80 trials of 400: binomial sd 0.02, profiled in steps of 0.02
  EXPECT_NEAR(fit.sigma, 0.2, 0.05);
  EXPECT_NEAR(fit.threshold, 1.2363, 0.05);
}

TEST(ProbitFit, SeparatedDataHaveNoFit) {
  // Every trial switches between 1.0 and 1.1: a perfect step, no finite width.
  std::vector<Detection> step;
  for (int t = 0; t < 4; ++t) {
    for (const double s : {0.5, 1.0, 1.1, 1.5}) step.push_back({s, t, s > 1.05});
  }
  EXPECT_FALSE(fit_probit(step).converged);
}

TEST(ProbitFit, OneOutcomeOnlyHasNoFit) {
  EXPECT_FALSE(fit_probit({{0.5, 0, false}, {1.0, 1, false}}).converged);
}
