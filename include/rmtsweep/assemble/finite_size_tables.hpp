#pragma once
/// The rules along d, after each line has its thresholds (docs/finite_size.md, docs/detection.md):
/// per rule the residual against the trials' finite-T thresholds and its extrapolation, whether the rule
/// stays consistent as d grows, and the flags of each line's threshold; per (weighting, delta, gamma) whether
/// the finite-T target holds still and which rule the top level of /phase carries (the default rule). Pure
/// functions of numbers.
#include <cstdint>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_size_trends.hpp"
#include "rmtsweep/assemble/finite_t_table.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"

namespace rmtsweep::assemble {

/// The fewest snr = 0 trials with which the null rule reaches its 5 % level: below (1 - alpha)/alpha = 19 its
/// threshold is their maximum, at level 1/(n + 1) (detection.hpp, null_quantile_threshold).
inline constexpr std::int64_t min_null_trials = 19;

/// The share of a line's trials with exact threshold 0 (without exact thresholds: detected at snr = 0) above
/// which its threshold is flagged (threshold_flag::many_zero_thresholds).
inline constexpr double max_zero_threshold_share = 0.25;

/// Each trial's finite-T threshold, lines x trials row-major: the first finite value among the trial's points
/// on that line (/points theory_finite_t_threshold_snr, one value per trial), NaN where none carries one.
std::vector<double> finite_t_trial_thresholds(const Axes& axes, const std::vector<PointRecord>& points,
                                              int trials);

/// What the sweep gives along d beyond the rules.
struct SizeLineTables {
  std::vector<TargetConstancy> target;  ///< per size line: do the trials' finite-T thresholds hold still?
  std::vector<std::int64_t>
      default_rule;  ///< per size line: position in `rules` of the default rule, -1 none
};

/// Fills every rule's residual_snr (+ err), residual_extrapolation, consistent, consistency_p_value and
/// threshold_flags, and chooses the default rule of each (weighting, delta, gamma). `table` gives the trials
/// per cell; `finite_t_trials` is finite_t_trial_thresholds(axes, points, trials); `finite_t` the lines'
/// trial means. The rules' extrapolations must be final (after extrapolate_with_refined). The default rule is
/// the first of finite_t_edge, null (where every size with done trials has at least min_null_trials at
/// snr = 0) and edge whose thresholds exist at some size and whose `consistent` is not
/// rule_inconsistent; where each is inconsistent, the first that has thresholds, with its extrapolation
/// withheld by default_rule_table.
SizeLineTables finite_size_tables(const Axes& axes, const PhaseTable& table,
                                  const std::vector<double>& finite_t_trials, const FiniteTTable& finite_t,
                                  std::vector<RuleTable>& rules, int trials);

/// The rule table the top level of /phase carries: per line and size line, the values of its default rule
/// (`default_rule`, from finite_size_tables); NaN, bracket_no_data and 0 where that is -1. Where the default
/// rule is inconsistent its extrapolations are left out (terms 0): an inconsistent rule is not used to
/// extrapolate.
RuleTable default_rule_table(const Axes& axes, const std::vector<RuleTable>& rules,
                             const std::vector<std::int64_t>& default_rule);

/// The same for the refined tables (one per rule of `rules`, same order).
RefinedTable default_refined_table(const Axes& axes, const std::vector<RefinedTable>& refined,
                                   const std::vector<std::int64_t>& default_rule);

}  // namespace rmtsweep::assemble
