#pragma once
/// What assemble asks of a quantity measured at several sizes d before it extrapolates
/// (docs/finite_size.md): the residual of a line's threshold against the trials' own finite-T thresholds,
/// whether those finite-T thresholds hold still as d grows (Welch's test of equal means), and whether a
/// rule's detections without signal grow with d (the Cochran-Armitage trend test). Pure functions of numbers.
#include <cstdint>
#include <limits>
#include <vector>

#include "rmtsweep/assemble/finite_size.hpp"

namespace rmtsweep::assemble {

/// The residual of one line: the median over trials of tau_t - tau_t^FT, the trial's measured threshold
/// (exact, docs/model.md section 9) less its finite-T threshold (the theory of its own token draws), with the
/// bootstrap error of that median (bootstrap_median: the same replicates as the line's threshold). Trials
/// where either is NaN are left out; a trial no snr detects (+infinity) counts as larger than any other. Both
/// vectors are indexed by trial; invalid_argument when their lengths differ.
MedianEstimate paired_residual(const std::vector<double>& trial_thresholds,
                               const std::vector<double>& finite_t_thresholds, std::uint64_t line);

/// The level of target_constancy: the finite-T target counts as moving with d when a constant is rejected at
/// 5 %.
inline constexpr double target_constancy_level = 0.05;

/// Values of TargetConstancy::converges and of /phase/target_converges.
inline constexpr std::int64_t target_moves = 0, target_holds = 1, target_unknown = -1;

/// Welch's test of equal means (the chi^2 of the sizes' means against their weighted mean, corrected for the
/// variances being estimated from the trials): do the finite-T thresholds of the trials hold still across
/// sizes?
struct TargetConstancy {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double mean = nan;       ///< the constant: the inverse-variance weighted mean of the sizes' means
  double chi2 = nan;       ///< sum over sizes of ((m_n - mean) / se_n)^2, se_n = sd_n / sqrt(k_n)
  double f = nan;          ///< Welch's F = chi2 / (g - 1) / (1 + 2 (g - 2) / (g^2 - 1) lambda), g sizes
  double dof2 = nan;       ///< its denominator degrees of freedom (g^2 - 1) / (3 lambda)
  std::int64_t sizes = 0;  ///< sizes used (g)
  double p_value = nan;    ///< P(F(g - 1, dof2) > f)
  std::int64_t converges =
      target_unknown;  ///< target_holds, target_moves (p < target_constancy_level), unknown
};

/// `values[n]` holds the finite-T thresholds of the trials of size n (NaN entries skipped). A size enters
/// with at least 2 finite values and a spread > 0 (weight w_n = k_n / sd_n^2); fewer than 2 such sizes:
/// target_unknown. Trials at different sizes are independent draws, so the sizes' means are independent.
/// Plain chi^2 on g - 1 degrees of freedom would reject too often, the sd being estimated from few trials
/// (measured on normal draws, 4 sizes: 7.8 % at 16 trials, 11 % at 8, at a nominal 5 %); Welch's correction
/// (Welch 1951, Biometrika 38, 330, lambda = sum_n (1 - w_n / W)^2 / (k_n - 1)) keeps it at 4.7-5.4 % from 8
/// trials on, equal spreads or not.
TargetConstancy target_constancy(const std::vector<std::vector<double>>& values);

/// The level of detection_trend (one-sided): a rule is inconsistent when its share of detections without
/// signal grows with d at 5 %.
inline constexpr double detection_trend_level = 0.05;

/// Values of DetectionTrend::consistent and of /phase/detection/<rule>/consistent.
inline constexpr std::int64_t rule_inconsistent = 0, rule_consistent = 1, rule_consistency_unknown = -1;

/// The Cochran-Armitage test for a trend in binomial proportions, one-sided (growing with d).
struct DetectionTrend {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double statistic = nan;  ///< T = sum_n s_n x_n, scores s_n the ranks 0, 1, ... of the sizes used
  double p_value = nan;    ///< P(T >= observed | total detections), exact or normal (see detection_trend)
  bool exact = false;      ///< whether p_value is the exact conditional one
  std::int64_t consistent =
      rule_consistency_unknown;  ///< rule_inconsistent iff p_value < detection_trend_level
};

/// The largest enumeration (sum over sizes of (count states) x (score states) x (n_n + 1)) for which
/// detection_trend computes the exact conditional p-value; above it, the normal approximation.
inline constexpr double max_exact_trend_work = 5e7;

/// detected[n] of trials[n] trials at size d[n] were detected without signal (or at the grid's first snr).
/// Sizes with no trials are left out; fewer than 2 left: unknown. The scores are the ranks of the sizes used
/// in ascending d (for sizes that double, the same test as scores log d). Under no trend the detections are
/// exchangeable across sizes, so given their total the table's law is multivariate hypergeometric: the
/// p-value is the exact P(T >= T_obs) under it (a permutation test, right at 16 trials per size where the
/// normal approximation is not) while the enumeration stays below max_exact_trend_work, else 1 - Phi(Z) of
/// the classic Z = (T - E T) / sd(T), E T = p sum s_n k_n, var T = p (1 - p) (sum k_n s_n^2 - (sum k_n s_n)^2
/// / K). Without a detection or without a miss no trend can show: p = 1, consistent. invalid_argument for
/// lengths that differ or counts outside 0 <= detected <= trials.
DetectionTrend detection_trend(const std::vector<double>& d, const std::vector<std::int64_t>& detected,
                               const std::vector<std::int64_t>& trials);

}  // namespace rmtsweep::assemble
