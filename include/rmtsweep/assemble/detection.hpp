#pragma once
/// Rules that decide from a trial's top eigenvalues whether S has a signal outlier, and their detected
/// fractions along a line of snr cells. Pure functions of numbers (no MPI, no HDF5).
///
/// The edge rule of phase.hpp compares lambda_1 with the paper's bulk edge, which few pooled tokens move
/// (model.md 5.5, theory/finite_t_bulk.hpp): its false detections at snr = 0 grow as T_eff falls. The two
/// rules here do not lean on the bulk law: Onatski's eigengap ratio is scale free and only assumes the top
/// of the spectrum is a soft (Tracy-Widom) edge; the null-calibrated rule takes its threshold from trials
/// of the same cell line at snr = 0.
#include <cstddef>
#include <span>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"

namespace rmtsweep::assemble {

/// Onatski's statistic for 0 against 1 spike: R = (lambda_1 - lambda_2)/(lambda_2 - lambda_3), from the
/// top eigenvalues in any order (at least three; the three largest are used). +infinity when
/// lambda_2 = lambda_3 < lambda_1. Onatski (2009), "Testing hypotheses about the number of factors in
/// large factor models", Econometrica 77(5), 1447-1479, statistic max R with k0 = 0, k1 = 1.
double eigengap_ratio(std::span<const double> top_eigenvalues);

/// The 95 % critical value of R under no spike for REAL data of dimension d (beta = 1), interpolated
/// linearly in log d in the table eigengap_critical_table (d below its first entry takes the first
/// value, above its last the last). Onatski's Table I value, 4.52, is for complex data (beta = 2, his
/// frequency-domain setting) and is far too small for real data: real Wishart null matrices give 6.9
/// (the weaker level repulsion of beta = 1 makes a small second gap likelier). The table is calibrated,
/// not cited; the calibration reproduces 4.52 at beta = 2.
double eigengap_critical_value(int d);

/// One row of the calibration: the 95 % quantile of R over 20000 real Wishart d x (4 d) null matrices,
/// drawn exactly (Dumitriu-Edelman tridiagonal Laguerre model) by scripts/calibrate_eigengap.py.
struct EigengapCritical {
  int d;
  double q95;
};
/// The table behind eigengap_critical_value (provenance in scripts/calibrate_eigengap.py).
std::span<const EigengapCritical> eigengap_critical_table();

/// The (1 - alpha) empirical quantile of null values as a detection threshold: the order statistic
/// x_(k), k = ceil((1 - alpha) n) (1-based, ascending), so that at most alpha n of the null values lie
/// strictly above it (the rule detects lambda_1 > threshold). NaN for an empty set; alpha in (0, 1).
double null_quantile_threshold(std::vector<double> null_values, double alpha);

/// Default alpha of the null-calibrated rule.
inline constexpr double default_null_alpha = 0.05;

/// What a rule decides for one trial.
enum class Rule {
  edge,      ///< lambda_1 > detection_threshold(right_edge, d, c) (phase.hpp)
  eigengap,  ///< eigengap_ratio > critical value
  null,      ///< lambda_1 > null_quantile_threshold of the line's snr = 0 trials
};

/// A rule with its threshold: lambda_1 for `edge` and `null`, R for `eigengap`.
struct Detector {
  Rule rule = Rule::edge;
  double threshold = 0.0;
  /// True iff the trial whose top eigenvalues are `top` counts as detected. NaN thresholds detect nothing.
  bool detects(std::span<const double> top) const;
};

/// The edge rule as a Detector: threshold detection_threshold(right_edge, d, c) on lambda_1.
inline Detector edge_detector(double right_edge, int d, double c = default_detection_margin) {
  return {Rule::edge, detection_threshold(right_edge, d, c)};
}

/// The eigengap rule as a Detector: threshold eigengap_critical_value(d) on R.
inline Detector eigengap_detector(int d) { return {Rule::eigengap, eigengap_critical_value(d)}; }

/// Detected fractions along one (weighting, delta, gamma) line.
struct LineDetection {
  std::vector<double> fraction;  ///< per snr cell; NaN for a cell without trials
  Crossing threshold;            ///< half_crossing of `fraction` (phase.hpp)
  double false_detection = 0.0;  ///< fraction at the snr = 0 cell; NaN when the line has none
};

/// Applies `detector` to every trial of every cell of a line: cells[s][trial] holds that trial's top
/// eigenvalues (descending or not), snr ascending and one cell per snr value.
LineDetection detect_line(const std::vector<double>& snr,
                          const std::vector<std::vector<std::vector<double>>>& cells, const Detector& detector);

/// The null-calibrated detector of a line: the threshold is null_quantile_threshold of lambda_1 over the
/// trials of its snr = 0 cell (NaN, detecting nothing, when there is none). Applied to the same trials, the
/// false-detection rate is at most alpha by construction; an honest estimate needs null trials that did
/// not set the threshold (e.g. split the trials, as scripts/detection_rates.py does).
Detector null_detector(const std::vector<double>& snr, const std::vector<std::vector<std::vector<double>>>& cells,
                       double alpha = default_null_alpha);

}  // namespace rmtsweep::assemble
