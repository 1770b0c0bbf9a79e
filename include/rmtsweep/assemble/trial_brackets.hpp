#pragma once
/// A line's threshold from its trials' brackets: the estimate `rmtsweep assemble` stores as a
/// refined line's threshold (refined_fit.hpp) and `rmtsweep refine` drives below its tolerance
/// (refine/design.hpp). Pure functions of numbers (no MPI, no HDF5): the same detections give the same
/// estimate on every machine and for any number of ranks.
///
/// Per-trial thresholds. Trial t shares its noise draws along snr (common random numbers, model.md
/// section 7), so its detection is (nearly) a step in snr at its own threshold tau_t. Its bracket is
/// [lo_t, hi_t]: hi_t the lowest snr detected, lo_t the highest snr below hi_t not detected (a
/// non-detection above hi_t, rare noise, is ignored). Open ends are NaN.
///
/// The line's threshold is the median of tau over trials: the detected fraction at snr s is the
/// fraction of trials with tau_t <= s, so its half crossing is that median (the grid's interpolated
/// crossing and the probit fit's location estimate the same thing). Since lo_t <= tau_t <= hi_t for
/// every trial, the sample median of the tau_t lies in [median(lo), median(hi)] exactly:
///   estimate       = (median(lo) + median(hi)) / 2
///   resolution_err = (median(hi) - median(lo)) / sqrt(12)     (uniform within that interval)
///   spread_err     = 1.2533 sd(midpoints) / sqrt(K)           (the median of K normal values)
///   err            = sqrt(resolution_err^2 + spread_err^2)
#include <limits>
#include <vector>

namespace rmtsweep::assemble {

/// One done point of a line: its snr, its trial and whether the rule detected the outlier.
struct Detection {
  double snr = 0.0;
  int trial = 0;
  bool detected = false;
};

/// 1.2533 = sqrt(pi / 2): the standard error of the median of K normal values is 1.2533 sd / sqrt(K).
inline constexpr double median_factor = 1.2533141373155003;

/// A trial's bracket of its own threshold; NaN for an open end.
struct TrialBracket {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  int trial = 0;
  double lo = nan;  ///< highest snr below hi not detected
  double hi = nan;  ///< lowest snr detected
  bool closed() const noexcept { return lo == lo && hi == hi; }
};

/// The brackets of trials 0..trials-1 (a trial without detections has both ends open).
std::vector<TrialBracket> trial_brackets(const std::vector<Detection>& detections, int trials);

/// A line's threshold from its per-trial brackets (see the header comment); every value NaN unless
/// every trial's bracket is closed and there are at least two trials.
struct LineEstimate {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double threshold = nan;
  double err = nan;
  double resolution_err = nan;
  double spread_err = nan;
  double median_lo = nan, median_hi = nan;
  double spread_sd = nan;  ///< sample sd (n - 1) of the bracket midpoints
  int trials = 0;
};
LineEstimate estimate_line(const std::vector<TrialBracket>& brackets);

}  // namespace rmtsweep::assemble
