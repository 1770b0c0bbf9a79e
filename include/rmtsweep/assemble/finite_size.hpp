#pragma once
/// Finite-size scaling of the empirical threshold: a bootstrap error of one line's
/// half crossing, and the extrapolation of thresholds measured at several embedding dimensions d
/// to d -> infinity. Pure functions of numbers (no MPI, no HDF5).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"

namespace rmtsweep::assemble {

/// Per-trial detections of one line: detected[s][t] is 1.0 (detected) or 0.0 (not) for snr cell s and
/// trial index t, NaN when that trial was not done at that cell. Rows may differ in length: an index
/// past the end of a row is missing too.
using DetectionMatrix = std::vector<std::vector<double>>;

/// The detected fraction of every cell over its present trials; NaN for a cell without any (the
/// convention of PhaseTable::detected_fraction, which half_crossing reads as bracket_no_data).
std::vector<double> detected_fraction(const DetectionMatrix& detected);

/// Default number of bootstrap replicates B.
inline constexpr std::size_t default_bootstrap_replicates = 400;

/// When more than this fraction of the replicates has no crossing inside the grid, the error is NaN.
/// Replicates without a crossing cannot be placed, and dropping them cuts a tail of the replicate
/// distribution: a one-sided cut of 5 % of a normal shrinks its sd by about 10 %, which is tolerated;
/// beyond that the grid, not the data, sets the spread.
inline constexpr double max_unbracketed_replicate_fraction = 0.05;

/// The seed of the bootstrap of line `line`: the splitmix64 finaliser of
/// 0x726d747377656570 ("rmtsweep") + line * 0x9e3779b97f4a7c15, fed to std::mt19937_64. The same
/// line gives the same replicates on every run and every machine.
std::uint64_t bootstrap_seed(std::uint64_t line);

/// The half crossings of B bootstrap replicates of a line. A replicate draws T trial indices with
/// replacement, T = the longest row, and takes them at EVERY cell: trial t shares its noise draws
/// across snr (common random numbers), so cells are not independent and must not be resampled
/// independently. A replicate's fraction at cell s is the mean of detected[s][t] over the drawn
/// indices present at s (with multiplicity); a cell with none present is NaN. Indices are drawn as
/// engine() % T from std::mt19937_64(bootstrap_seed(line)) (bias below T / 2^64; unlike
/// std::uniform_int_distribution the draws do not depend on the standard library).
std::vector<Crossing> bootstrap_crossings(const std::vector<double>& snr, const DetectionMatrix& detected,
                                          std::uint64_t line,
                                          std::size_t replicates = default_bootstrap_replicates);

/// The empirical threshold of a line with its bootstrap standard error.
struct ThresholdEstimate {
  double snr = 0.0;             ///< half_crossing of the full data's detected fraction (NaN unless bracketed)
  int bracket = bracket_found;  ///< its bracket code, exactly as half_crossing gives it
  double snr_err = 0.0;         ///< sample sd (n - 1) of the bracketed replicates' crossings; see below
  std::int64_t replicates = 0;  ///< replicates drawn (0 when the full data has no crossing)
  std::int64_t unbracketed_replicates = 0;  ///< of those, the ones without a crossing inside the grid
};

/// Threshold of a line (ascending `snr`, one row of `detected` per cell) and its bootstrap error.
/// snr and bracket are half_crossing(snr, detected_fraction(detected)). When that is not bracketed
/// no replicate is drawn and snr_err is NaN. Otherwise snr_err is the sd over the replicates that
/// cross inside the grid, or NaN when more than max_unbracketed_replicate_fraction of them do not
/// or fewer than two do.
ThresholdEstimate bootstrap_threshold(const std::vector<double>& snr, const DetectionMatrix& detected,
                                      std::uint64_t line,
                                      std::size_t replicates = default_bootstrap_replicates);

/// The median of a line's per-trial thresholds (exact ones: docs/model.md section 9) and its bootstrap
/// standard error: the sample sd (n - 1) of the medians of B replicates, each drawing as many trials with
/// replacement (engine() % n from std::mt19937_64(bootstrap_seed(line)), as bootstrap_crossings). The median
/// of an even count is the mean of the middle two. NaN for no values (error: for fewer than two); +infinity
/// values (a trial never detected) count as larger than any other.
struct MedianEstimate {
  double median = 0.0;
  double median_err = 0.0;
};
MedianEstimate bootstrap_median(const std::vector<double>& values, std::uint64_t line,
                                std::size_t replicates = default_bootstrap_replicates);

/// The finite-size variable x = d^{-1/3} of the extrapolation.
double finite_size_variable(double d);

/// Fewer usable sizes than this: no fit.
inline constexpr std::size_t min_sizes_for_extrapolation = 3;
/// From this many usable sizes on, the quadratic model thr_inf + a x + b x^2 (3 parameters, at least 2
/// degrees of freedom) is fitted beside the line thr_inf + a x, and chosen where the F-test asks for it
/// (quadratic_term_level); below it, 3 or 4 sizes fit the line alone.
inline constexpr std::size_t min_sizes_for_quadratic_term = 5;
/// The level of the nested-model F-test that adds b x^2 (docs/finite_size.md, "Which terms"): the quadratic
/// model is chosen when P(F(1, n - 3) > F) < 0.05, F = (chi2_line - chi2_quad) / (chi2_quad / (n - 3)).
inline constexpr double quadratic_term_level = 0.05;

/// One weighted least-squares model of thresholds against x = d^{-1/3}. Every double is NaN without a fit.
struct Fit {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double thr_inf = nan;         ///< the threshold at x = 0
  double thr_inf_err = nan;     ///< its error, times scale_factor
  double a = nan;               ///< coefficient of x
  double b = nan;               ///< coefficient of x^2; NaN for the 1-term model
  int terms = 0;                ///< 0: no fit, 1: thr_inf + a x, 2: thr_inf + a x + b x^2
  std::int64_t sizes_used = 0;  ///< entries with finite d > 0, finite threshold and finite error > 0
  double chi2 = nan;            ///< sum of squared weighted residuals
  std::int64_t dof = 0;         ///< sizes_used - (terms + 1); 0 without a fit
  double chi2_per_dof = nan;    ///< chi2 / dof
  /// The PDG scale factor applied to thr_inf_err: max(1, sqrt(chi2' / dof')) over the sizes whose leverage
  /// reaches min_scale_leverage (all of them in every fit measured so far); 1 without degrees of freedom.
  double scale_factor = nan;
};

/// The extrapolation stored per (weighting, delta, gamma): the chosen model, with the other beside it.
struct Extrapolation : Fit {
  Fit alternative;                 ///< the model not chosen (terms 0 below min_sizes_for_quadratic_term)
  double quadratic_f = nan;        ///< the F statistic of b x^2; NaN below min_sizes_for_quadratic_term
  double quadratic_p_value = nan;  ///< P(F(1, n - 3) > quadratic_f): the quadratic iff < quadratic_term_level
};

/// A size enters the PDG scale factor only where its leverage h_i = w_i x_i^T (X^T W X)^{-1} x_i is at least
/// this fraction of the mean leverage p/n. For a weighted mean (p = 1) it is the Particle Data Group's own
/// rule, "only those measurements with error < 3 sqrt(n) times the error of the average" (h_i > 1/(9n)); here
/// it is the same cut for p parameters. A size with too large an error to move the fit cannot inflate its
/// error.
inline constexpr double min_scale_leverage = 1.0 / 9.0;

/// Fits y = thr_inf + a x (terms = 1) or + b x^2 (terms = 2), x = d^{-1/3}, to thresholds y_i with errors e_i
/// at sizes d_i by weighted least squares (weights 1/e_i^2), skipping entries with non-finite d_i <= 0, y_i
/// or e_i, or e_i <= 0. No fit (terms = 0) with fewer usable sizes than min_sizes_for_extrapolation (the
/// line) or min_sizes_for_quadratic_term (the quadratic): at least 1 and 2 degrees of freedom. Other terms:
/// invalid_argument. thr_inf_err is sqrt of the (0, 0) entry of the inverse of the weighted normal matrix X^T
/// W X, times the PDG scale factor (Particle Data Group, Review of Particle Physics, "Introduction: averages
/// and fits"; see Fit::scale_factor), which inflates the error when the scatter exceeds the quoted errors and
/// never shrinks it. The normal equations are equilibrated (unit diagonal) and solved by Cholesky; a pivot
/// below 1e-12 (a singular design, e.g. repeated sizes) gives no fit (terms = 0, every value NaN, sizes_used
/// still counted).
Fit fit_threshold(const std::vector<double>& d, const std::vector<double>& thr,
                  const std::vector<double>& err, int terms);

/// The fits of both models and the choice between them: the line thr_inf + a x, and from
/// min_sizes_for_quadratic_term usable sizes the quadratic as well, chosen only when the nested-model F-test
/// (quadratic_term_level) rejects b = 0. The F statistic compares the fall of chi2 on the one added parameter
/// with the quadratic model's chi2 per degree of freedom, so it does not depend on a common scale of the
/// errors (bootstrap errors of 16-32 trials are estimates; docs/finite_size.md). Without a line (fewer than
/// min_sizes_for_extrapolation usable sizes, or a singular design) there is no fit at all.
Extrapolation extrapolate_threshold(const std::vector<double>& d, const std::vector<double>& thr,
                                    const std::vector<double>& err);

}  // namespace rmtsweep::assemble
