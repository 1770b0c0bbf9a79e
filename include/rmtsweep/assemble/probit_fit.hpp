#pragma once
/// The detection curve of one line fitted along snr (issue 19), by maximum likelihood over every done
/// point of the line, grid and refined together:
///   P(detected | snr) = guess + (1 - guess - lapse) Phi((snr - mu) / sigma)
/// mu and sigma locate the transition and give its width. The guess rate takes the trials that detect at
/// every snr (a noise outlier above the edge: the false detections of optimal and harmonic pooling at
/// finite d) and the lapse rate those that stay undetected far above: without them a plain probit widens
/// its sigma to cover such trials and moves mu off the bulk of the transition. The threshold stored,
/// /phase/refined_threshold_snr, is the curve's half crossing P = 1/2 (mu when guess = lapse = 0), the
/// quantity the grid's interpolated crossing and refine's per-trial median estimate. guess and lapse are
/// profiled on the grid 0, 0.02, ..., 0.3 (guess) x 0, 0.02, ..., 0.1 (lapse), (a, b) fitted at each, the
/// largest likelihood kept; the errors are those of (a, b) at the chosen rates (the rates' own
/// uncertainty is not propagated). Pure functions of numbers (no MPI, no HDF5).
///
/// Errors. The points of one trial share their noise along snr (common random numbers), so they are
/// not independent observations: a trial is one cluster. The covariance of (a, b) = (-mu/sigma,
/// 1/sigma) is the cluster-robust sandwich H^-1 (sum_t g_t g_t^T) H^-1 K/(K - 1), H the Fisher
/// information at the maximum, g_t the score summed over trial t's points, K the trials (Liang and
/// Zeger 1986); the errors of mu and sigma follow by the delta method. This is the variance of the
/// fit under resampling whole trials, what the bootstrap of finite_size.hpp measures for the grid's
/// crossing; the naive binomial errors would count a trial bisected at many snr values many times.
#include <cstdint>
#include <limits>
#include <vector>

namespace rmtsweep::assemble {

/// One done point: its snr, its trial (the cluster) and whether it was detected.
struct Detection {
  double snr = 0.0;
  int trial = 0;
  bool detected = false;
};

/// The profile grid of the guess and lapse rates.
inline constexpr double rate_step = 0.02;
inline constexpr int max_rate_steps_guess = 15, max_rate_steps_lapse = 5;

struct ProbitFit {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double threshold = nan, threshold_err = nan;  ///< half crossing P = 1/2 [snr] and its error
  double guess = 0.0, lapse = 0.0;              ///< the chosen rates
  double log_likelihood = nan;
  double mu = nan, mu_err = nan;        ///< threshold [snr] and its cluster-robust standard error
  double sigma = nan, sigma_err = nan;  ///< width [snr] and its error
  std::int64_t points = 0, trials = 0;  ///< observations and distinct trials used
  int iterations = 0;
  bool converged = false;  ///< false: no maximum (too few points, all alike, or separated data); all NaN
};

/// Fits the probit curve to `points` by Fisher scoring on (a, b) (at most 100 iterations, converged
/// when the step changes mu by less than 1e-10 relative). Needs both outcomes, two trials and two
/// distinct snr values; separated data (a perfect step: sigma -> 0 at the maximum) give no fit.
ProbitFit fit_probit(const std::vector<Detection>& points);

}  // namespace rmtsweep::assemble
