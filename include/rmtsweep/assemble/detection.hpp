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

/// The 95 % critical value of R under no spike for REAL data (beta = 1): one value for every d and shape,
/// the inverse-variance weighted mean of the rows of eigengap_critical_table. The null law of R is that of
/// the top three points of the Tracy-Widom (beta = 1) edge, which does not depend on d, on the aspect ratio
/// or on the bulk (a soft edge is all it needs), and the rows agree with one value within their Monte-Carlo
/// error (d = 100 ... 3200, d/n = 1/16 ... 1, and no trend in d): interpolating between rows would only add
/// their noise (+- 0.12-0.18 each, i.e. +- 0.4 percentage points of level). `d` is kept so that a calibration
/// that does depend on d can replace this one without changing callers. Onatski's Table I value, 4.52, is
/// for complex data (beta = 2, his frequency-domain setting) and is far too small for real data: the weaker
/// level repulsion of beta = 1 makes a small second gap likelier. The value is calibrated, not cited; the
/// calibration reproduces 4.52 at beta = 2.
double eigengap_critical_value(int d);

/// The Monte-Carlo standard error of eigengap_critical_value: 1/sqrt(sum of 1/se^2 over the rows).
double eigengap_critical_standard_error();

/// One calibration row: the 95 % quantile of R over `draws` real Wishart d x n null matrices (d/n = gamma),
/// drawn exactly (Dumitriu-Edelman tridiagonal Laguerre model) by studies/calibrate_eigengap.py, with its
/// bootstrap standard error.
struct EigengapCritical {
  int d;
  double gamma;
  int draws;
  double q95;
  double se;
};
/// The rows behind eigengap_critical_value (provenance in src/assemble/detection.cpp and
/// studies/results/eigengap_calibration.txt).
std::span<const EigengapCritical> eigengap_critical_table();

/// The (1 - alpha) quantile of n null values as a detection threshold (the rule detects lambda_1 above it):
/// the order statistic x_(k), k = min(n, ceil((1 - alpha)(n + 1))) (1-based, ascending). For null values
/// and a fresh null trial that are exchangeable (iid trials at snr = 0), the fresh one exceeds x_(k) with
/// probability exactly (n + 1 - k)/(n + 1), which this k keeps at or below alpha (the conformal quantile;
/// Vovk, Gammerman & Shafer 2005). The plain empirical quantile, k = ceil((1 - alpha) n), gives up to
/// alpha + 1/(n + 1): 6.2 % at n = 64. With n < (1 - alpha)/alpha null values (19 at 5 %) no order statistic
/// reaches alpha and the threshold is their maximum, at level 1/(n + 1). NaN for an empty set; alpha must
/// be in (0, 1).
double null_quantile_threshold(std::vector<double> null_values, double alpha);

/// Default alpha of the null-calibrated rule.
inline constexpr double default_null_alpha = 0.05;

/// What a rule decides for one trial.
enum class Rule {
  edge,      ///< lambda_1 > detection_threshold(right_edge, d, c) (phase.hpp)
  eigengap,  ///< eigengap_ratio > critical value
  null,      ///< lambda_1 > null_quantile_threshold of the line's snr = 0 trials
  /// lambda_1 > detection_threshold(finite-T right edge of the line's own token draws, d, c)
  /// (finite_t_edges.hpp): the edge rule on the bulk law that few pooled tokens do not bend
  finite_t_edge,
};

/// A rule with its threshold: lambda_1 for `edge`, `null` and `finite_t_edge`, R for `eigengap`.
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

/// The finite-T edge rule as a Detector: the edge rule's threshold on the finite-T right edge.
inline Detector finite_t_edge_detector(double finite_t_edge, int d, double c = default_detection_margin) {
  return {Rule::finite_t_edge, detection_threshold(finite_t_edge, d, c)};
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
                          const std::vector<std::vector<std::vector<double>>>& cells,
                          const Detector& detector);

/// The null-calibrated detector of a line: the threshold is null_quantile_threshold of lambda_1 over the
/// trials of its snr = 0 cell (NaN, detecting nothing, when there is none). Applied to the same trials, the
/// false-detection rate is at most alpha by construction; an honest estimate needs null trials that did
/// not set the threshold: null_false_detection_rate (detection_tables.hpp) leaves each one out.
Detector null_detector(const std::vector<double>& snr,
                       const std::vector<std::vector<std::vector<double>>>& cells,
                       double alpha = default_null_alpha);

}  // namespace rmtsweep::assemble
