#pragma once
/// The detection rules of detection.hpp applied to a whole sweep: per rule, the detected fraction of
/// every (weighting, d, delta, gamma, snr) cell, and per (weighting, d, delta, gamma) line the empirical
/// threshold and the false-detection rate at snr = 0 (what `rmtsweep assemble` stores under
/// /phase/detection/<rule>). Pure functions of numbers.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

namespace rmtsweep::assemble {

/// The rules in the order /phase/detection lists them, and their names there.
inline constexpr Rule all_rules[] = {Rule::edge, Rule::eigengap, Rule::null, Rule::finite_t_edge};
/// The rule the figures draw and refine refines unless --detection says otherwise.
inline constexpr Rule default_detection_rule = Rule::edge;
const char* to_string(Rule rule) noexcept;
/// The rule called `name` ("edge", "eigengap", "null", "finite_t_edge"); InvalidArgument("detection", name,
/// ...) otherwise.
Rule parse_rule(const std::string& name);

/// One rule over the grid (arrays row-major as in PhaseTable).
struct RuleTable {
  Rule rule = Rule::edge;
  std::vector<double> detected_fraction;                  ///< per cell; NaN without done trials
  std::vector<double> empirical_threshold_snr;            ///< per line; NaN unless bracketed
  std::vector<std::int64_t> empirical_threshold_bracket;  ///< per line, as Crossing::bracket
  /// Per line: the fraction of its snr = 0 trials the rule detects (NaN without such a cell). For the
  /// null rule, each null trial is judged by the threshold of the other null trials (leave one out):
  /// judged by a threshold it helped set, the rate would be at most alpha by construction.
  std::vector<double> false_detection_rate;
  std::vector<double> threshold;  ///< per line: lambda_1 for edge and null, the ratio R for eigengap
  /// Per line: the bootstrap standard error of empirical_threshold_snr over the line's trials, resampled
  /// jointly across its snr cells (finite_size.hpp; NaN unless bracketed and stable under resampling).
  std::vector<double> empirical_threshold_snr_err;
  /// Per (weighting, delta, gamma) size line: the weighted fit of the per-d thresholds to d -> infinity
  /// (extrapolate_threshold of finite_size.hpp).
  std::vector<Extrapolation> extrapolation;
  /// Per (line, trial), row-major (lines x trials): the snr beyond which the trial stays detected, exact
  /// from its line's secular form (docs/model.md section 9); NaN where the line has none or the rule no level
  /// on lambda_1 (eigengap), +infinity for a trial no snr detects.
  std::vector<double> trial_threshold_snr;
  /// Per line: 1 where empirical_threshold_snr (and its error) is the median of the exact per-trial
  /// thresholds (with a bootstrap error, no grid resolution in it), 0 where it is the grid's half crossing.
  std::vector<std::int64_t> empirical_threshold_exact;

  // Along d (finite_size_tables.hpp fills these after the thresholds and their extrapolation):
  /// Per line: the threshold less the trials' finite-T thresholds (the median of the paired differences where
  /// the line's thresholds are exact, else the threshold less their trial mean) and its error; NaN where the
  /// line's points carry no finite-T threshold.
  std::vector<double> residual_snr, residual_snr_err;
  /// Per size line: the residual extrapolated to d -> infinity (extrapolate_threshold).
  std::vector<Extrapolation> residual_extrapolation;
  /// Per size line: whether the rule's detections without signal stay put as d grows (detection_trend:
  /// rule_consistent, rule_inconsistent, rule_consistency_unknown) and the trend test's p-value.
  std::vector<std::int64_t> consistent;
  std::vector<double> consistency_p_value;
  /// Per line: the threshold_flag bits of phase_schema.hpp (what a reader should know before trusting it).
  std::vector<std::int64_t> threshold_flags;
};

/// The secular forms of a sweep's lines by (Axes::line, trial): what exact per-trial thresholds need. A
/// line counts only where every trial with a done point at that line has one.
using TrialSecular = std::map<std::pair<std::size_t, int>, spectral::RankOneLine>;

/// Every rule over the done points. right_edge holds the theory's right bulk edge per (weighting, d,
/// delta, gamma) line, whose d the rules' scales take, finite_t_edge the finite-T edge per line
/// (finite_t_edges.hpp; NaN where not computed: that rule's entries of the line stay NaN); margin the
/// edge rules' c; alpha the null rule's level. finite_t_points, when given, are the points as the
/// finite_t_edge rule judges them (finite_t_edges.hpp's scaled_by_trial_edge: each trial's top
/// eigenvalues scaled by the line's edge over the trial's own, so that the line's threshold is each
/// trial's); otherwise that rule judges `points` against the line's edge. With `secular` (and `trials`, the
/// sweep's trial count), the rules with a level on lambda_1 take each trial's exact threshold where every
/// done trial of a line has its secular form; `finite_t_scale` (lines x trials, as FiniteTEdges::scale) then
/// turns the finite-T rule's threshold into each trial's own level (1 where absent).
std::vector<RuleTable> detection_tables(const Axes& axes, const std::vector<PointRecord>& points,
                                        const std::vector<double>& right_edge,
                                        const std::vector<double>& finite_t_edge, double margin,
                                        double alpha = default_null_alpha,
                                        const std::vector<PointRecord>* finite_t_points = nullptr,
                                        const TrialSecular* secular = nullptr, int trials = 0,
                                        const std::vector<double>* finite_t_scale = nullptr);

/// The null rule's leave-one-out false-detection rate over null values (lambda_1 of snr = 0 trials):
/// the fraction i with value_i > null_quantile_threshold(the others, alpha); NaN for fewer than 2. Without
/// ties it depends on the count n alone, (n - k)/n with k the order statistic for n - 1 values: by
/// exchangeability it is the rule's exact level for a fresh null trial, not an estimate from the data.
double null_false_detection_rate(const std::vector<double>& null_values, double alpha);

}  // namespace rmtsweep::assemble
