#pragma once
/// The detection curve of one line fitted along snr from every done point of the line, grid
/// and refined together. Pure functions of numbers (no MPI, no HDF5).
///
/// The model. A trial shares its noise along snr (common random numbers), so its detection is a step at
/// its own threshold tau_t, and its points say only that tau_t lies in its bracket (lo_t, hi_t] (hi_t the
/// lowest snr detected, lo_t the highest below it not detected; an open end is -inf or +inf). The
/// thresholds are modelled as tau ~ N(mu, sigma^2), so that the detected fraction is the probit curve
///   P(detected | snr) = Phi((snr - mu) / sigma),
/// and (mu, sigma) are fitted by maximum likelihood of the interval-censored brackets,
///   log L = sum_t log(Phi((hi_t - mu)/sigma) - Phi((lo_t - mu)/sigma)).
/// Each trial counts once, however many points bisected it: a binomial likelihood over the points would
/// count a trial bisected at many snr values many times, and under refine's adaptive design (points
/// placed inside each trial's own bracket) the points near the median come from the trials whose
/// thresholds lie there, so their detected fraction is about 1/2 whatever the curve; a pooled fit of them
/// is biased. mu is the curve's half crossing (the threshold), sigma its width.
///
/// Errors: the sandwich H^-1 (sum_t g_t g_t^T) H^-1 K/(K - 1) over the trials' scores g_t (H the observed
/// information; robust when the normal model is off), by the delta method for sigma = exp(log sigma).
#include <cstdint>
#include <limits>
#include <vector>

#include "rmtsweep/assemble/trial_brackets.hpp"

namespace rmtsweep::assemble {

struct ProbitFit {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double mu = nan, mu_err = nan;        ///< threshold (half crossing) [snr] and its standard error
  double sigma = nan, sigma_err = nan;  ///< width [snr] and its error
  double log_likelihood = nan;
  std::int64_t points = 0, trials = 0;  ///< observations and trials used
  int iterations = 0;
  bool converged = false;  ///< false: no maximum (fewer than two trials, no closed end on one side, or every
                           ///< bracket of zero width); every value NaN
};

/// Fits the curve by Newton's method on (mu, log sigma) with step halving (at most 200 iterations,
/// converged when a step changes both by less than 1e-10).
ProbitFit fit_probit(const std::vector<Detection>& points);

}  // namespace rmtsweep::assemble
