// The rules along d: residuals, consistency, flags and the default rule
// (include/rmtsweep/assemble/finite_size_tables.hpp).
#include "rmtsweep/assemble/finite_size_tables.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "rmtsweep/assemble/phase_schema.hpp"

namespace rmtsweep::assemble {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// A line's exact per-trial thresholds (NaN-free: the trials that have one).
std::vector<double> exact_trial_thresholds(const RuleTable& rule, std::size_t line, std::size_t trials) {
  std::vector<double> values;
  for (std::size_t t = 0; t < trials; ++t) {
    const double value = rule.trial_threshold_snr[line * trials + t];
    if (!std::isnan(value)) values.push_back(value);
  }
  return values;
}

/// The residual of one line (RuleTable::residual_snr).
MedianEstimate line_residual(const RuleTable& rule, std::size_t line, std::size_t trials,
                             const std::vector<double>& finite_t_trials, const FiniteTTable& finite_t) {
  if (rule.empirical_threshold_exact[line] == 1) {
    const auto begin = static_cast<std::ptrdiff_t>(line * trials),
               end = begin + static_cast<std::ptrdiff_t>(trials);
    return paired_residual(
        std::vector<double>(rule.trial_threshold_snr.begin() + begin, rule.trial_threshold_snr.begin() + end),
        std::vector<double>(finite_t_trials.begin() + begin, finite_t_trials.begin() + end), line);
  }
  const double threshold = rule.empirical_threshold_snr[line];
  if (!std::isfinite(threshold) || !std::isfinite(finite_t.threshold_snr[line])) return {nan, nan};
  return {threshold - finite_t.threshold_snr[line], rule.empirical_threshold_snr_err[line]};
}

/// How a size line counts a rule's detections without signal (docs/detection.md, "Consistent rules"): the snr
/// = 0 cell where the grid has one; else, where every size's thresholds are exact, the trials of threshold 0;
/// else the grid's first snr. One way for all sizes of a size line, so that no trend comes from mixing them.
enum class NullCount { snr_zero, exact_zero, first_snr };

struct Counts {
  std::vector<std::int64_t> detected, trials;
};

Counts null_counts(const Axes& axes, const PhaseTable& table, const RuleTable& rule, std::size_t w,
                   std::size_t i, std::size_t j, std::size_t trials) {
  const std::size_t sizes = axes.d.size();
  NullCount how = NullCount::first_snr;
  if (!axes.snr.empty() && axes.snr.front() == 0.0) {
    how = NullCount::snr_zero;
  } else {
    bool every_exact = true, any = false;
    for (std::size_t n = 0; n < sizes; ++n) {
      const std::size_t line = axes.line(w, n, i, j);
      if (std::isnan(rule.threshold[line])) continue;
      any = true;
      every_exact = every_exact && rule.empirical_threshold_exact[line] == 1;
    }
    if (any && every_exact) how = NullCount::exact_zero;
  }
  Counts counts{std::vector<std::int64_t>(sizes, 0), std::vector<std::int64_t>(sizes, 0)};
  for (std::size_t n = 0; n < sizes; ++n) {
    const std::size_t line = axes.line(w, n, i, j);
    if (std::isnan(rule.threshold[line]) || axes.snr.empty()) continue;  // no level: nothing to count
    if (how == NullCount::exact_zero) {
      const std::vector<double> values = exact_trial_thresholds(rule, line, trials);
      counts.trials[n] = static_cast<std::int64_t>(values.size());
      counts.detected[n] = std::count(values.begin(), values.end(), 0.0);
      continue;
    }
    const std::size_t cell = axes.cell(w, n, i, j, 0);
    const std::int64_t done = table.trials_done[cell];
    // The null rule's rate at snr = 0 is leave-one-out (each null trial judged by the others' level).
    const double rate =
        how == NullCount::snr_zero ? rule.false_detection_rate[line] : rule.detected_fraction[cell];
    if (done == 0 || std::isnan(rate)) continue;
    counts.trials[n] = done;
    counts.detected[n] = static_cast<std::int64_t>(std::llround(rate * static_cast<double>(done)));
  }
  return counts;
}

std::int64_t line_flags(const Axes& axes, const PhaseTable& table, const RuleTable& rule, std::size_t line,
                        std::int64_t consistent, std::size_t trials) {
  std::int64_t flags = 0;
  const bool exact = rule.empirical_threshold_exact[line] == 1;
  if (!axes.snr.empty() && ((exact && rule.empirical_threshold_snr[line] < axes.snr.front()) ||
                            rule.empirical_threshold_bracket[line] == bracket_below_grid))
    flags |= threshold_flag::below_grid;
  if (exact) {
    const std::vector<double> values = exact_trial_thresholds(rule, line, trials);
    const auto zeros = static_cast<double>(std::count(values.begin(), values.end(), 0.0));
    if (zeros > max_zero_threshold_share * static_cast<double>(values.size()))
      flags |= threshold_flag::many_zero_thresholds;
  } else if (!axes.snr.empty() && axes.snr.front() == 0.0 &&
             rule.false_detection_rate[line] > max_zero_threshold_share) {
    flags |= threshold_flag::many_zero_thresholds;  // without exact thresholds: the share detected at snr 0
  }
  if (consistent == rule_inconsistent) flags |= threshold_flag::inconsistent_rule;
  if (rule.rule == Rule::null && !axes.snr.empty() && axes.snr.front() == 0.0) {
    const std::int64_t null_trials = table.trials_done[line * axes.snr.size()];
    if (null_trials > 0 && null_trials < min_null_trials) flags |= threshold_flag::few_null_trials;
  }
  return flags;
}

/// Whether every size of a size line with done trials has at least min_null_trials at snr = 0.
bool enough_null_trials(const Axes& axes, const PhaseTable& table, std::size_t w, std::size_t i,
                        std::size_t j) {
  if (axes.snr.empty() || axes.snr.front() != 0.0) return false;
  bool any = false;
  for (std::size_t n = 0; n < axes.d.size(); ++n) {
    std::int64_t done = 0;
    for (std::size_t s = 0; s < axes.snr.size(); ++s) done += table.trials_done[axes.cell(w, n, i, j, s)];
    if (done == 0) continue;
    any = true;
    if (table.trials_done[axes.cell(w, n, i, j, 0)] < min_null_trials) return false;
  }
  return any;
}

/// Copies, per line, `count` values starting at line * count from the line's default rule.
template <class Table, class Value>
void take_per_line(const Axes& axes, const std::vector<Table>& tables,
                   const std::vector<std::int64_t>& default_rule, std::vector<Value> Table::*member,
                   Table& out, Value missing) {
  const std::size_t lines = axes.lines();
  const std::size_t count =
      tables.empty() ? 0 : (tables.front().*member).size() / std::max<std::size_t>(lines, 1);
  (out.*member).assign(lines * count, missing);
  for (std::size_t line = 0; line < lines; ++line) {
    const LineIndex x = axes.unravel(line);
    const std::int64_t r = default_rule[axes.size_line(x.w, x.i, x.j)];
    if (r < 0) continue;
    const auto& from = tables[static_cast<std::size_t>(r)].*member;
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(line * count), count,
                (out.*member).begin() + static_cast<std::ptrdiff_t>(line * count));
  }
}

}  // namespace

std::vector<double> finite_t_trial_thresholds(const Axes& axes, const std::vector<PointRecord>& points,
                                              int trials) {
  const auto t_count = static_cast<std::size_t>(std::max(trials, 0));
  std::vector<double> out(axes.lines() * t_count, nan);
  for (const PointRecord& p : points) {
    if (p.trial < 0 || static_cast<std::size_t>(p.trial) >= t_count ||
        !std::isfinite(p.finite_t_threshold_snr))
      continue;
    double& value =
        out[axes.line(p.weighting, p.d, p.delta, p.gamma) * t_count + static_cast<std::size_t>(p.trial)];
    if (std::isnan(value)) value = p.finite_t_threshold_snr;
  }
  return out;
}

SizeLineTables finite_size_tables(const Axes& axes, const PhaseTable& table,
                                  const std::vector<double>& finite_t_trials, const FiniteTTable& finite_t,
                                  std::vector<RuleTable>& rules, int trials) {
  const std::size_t lines = axes.lines(), size_lines = axes.size_lines();
  const auto t_count = static_cast<std::size_t>(std::max(trials, 0));
  if (finite_t_trials.size() != lines * t_count || finite_t.threshold_snr.size() != lines ||
      table.trials_done.size() != axes.cells())
    throw std::invalid_argument("finite_size_tables: tables of another grid");
  const std::vector<double> sizes(axes.d.begin(), axes.d.end());
  for (RuleTable& rule : rules) {
    if (rule.trial_threshold_snr.size() != lines * t_count)
      throw std::invalid_argument("finite_size_tables: a rule's trial thresholds of another trial count");
    rule.residual_snr.assign(lines, nan);
    rule.residual_snr_err.assign(lines, nan);
    for (std::size_t line = 0; line < lines; ++line) {
      const MedianEstimate residual = line_residual(rule, line, t_count, finite_t_trials, finite_t);
      rule.residual_snr[line] = residual.median;
      rule.residual_snr_err[line] = residual.median_err;
    }
    rule.residual_extrapolation.assign(size_lines, Extrapolation{});
    rule.consistent.assign(size_lines, rule_consistency_unknown);
    rule.consistency_p_value.assign(size_lines, nan);
    rule.threshold_flags.assign(lines, 0);
    for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
      for (std::size_t i = 0; i < axes.delta.size(); ++i) {
        for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
          const std::size_t size_line = axes.size_line(w, i, j);
          std::vector<double> residual(sizes.size()), error(sizes.size());
          for (std::size_t n = 0; n < sizes.size(); ++n) {
            residual[n] = rule.residual_snr[axes.line(w, n, i, j)];
            error[n] = rule.residual_snr_err[axes.line(w, n, i, j)];
          }
          rule.residual_extrapolation[size_line] = extrapolate_threshold(sizes, residual, error);
          const Counts counts = null_counts(axes, table, rule, w, i, j, t_count);
          const DetectionTrend trend = detection_trend(sizes, counts.detected, counts.trials);
          rule.consistent[size_line] = trend.consistent;
          rule.consistency_p_value[size_line] = trend.p_value;
          for (std::size_t n = 0; n < sizes.size(); ++n) {
            const std::size_t line = axes.line(w, n, i, j);
            rule.threshold_flags[line] = line_flags(axes, table, rule, line, trend.consistent, t_count);
          }
        }
      }
    }
  }

  SizeLineTables out;
  out.target.resize(size_lines);
  out.default_rule.assign(size_lines, -1);
  const auto position = [&](Rule rule) -> std::int64_t {
    for (std::size_t r = 0; r < rules.size(); ++r) {
      if (rules[r].rule == rule) return static_cast<std::int64_t>(r);
    }
    return -1;
  };
  for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
    for (std::size_t i = 0; i < axes.delta.size(); ++i) {
      for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
        const std::size_t size_line = axes.size_line(w, i, j);
        std::vector<std::vector<double>> targets(sizes.size());
        for (std::size_t n = 0; n < sizes.size(); ++n) {
          const std::size_t line = axes.line(w, n, i, j);
          targets[n].assign(finite_t_trials.begin() + static_cast<std::ptrdiff_t>(line * t_count),
                            finite_t_trials.begin() + static_cast<std::ptrdiff_t>((line + 1) * t_count));
        }
        out.target[size_line] = target_constancy(targets);

        // finite_t_edge first: each trial judged by its own edge. The null rule pools the line's null trials,
        // whose edges differ by the token draws (3 % for `last`), into one level, and its bootstrap error
        // leaves out that level's own spread (docs/detection.md, "The default rule").
        std::vector<std::int64_t> candidates{position(Rule::finite_t_edge)};
        if (enough_null_trials(axes, table, w, i, j)) candidates.push_back(position(Rule::null));
        candidates.push_back(position(Rule::edge));
        std::int64_t first_with_thresholds = -1;
        for (const std::int64_t r : candidates) {
          if (r < 0) continue;
          const RuleTable& rule = rules[static_cast<std::size_t>(r)];
          bool has = false;
          for (std::size_t n = 0; n < sizes.size(); ++n)
            has = has || !std::isnan(rule.threshold[axes.line(w, n, i, j)]);
          if (!has) continue;
          if (first_with_thresholds < 0) first_with_thresholds = r;
          if (rule.consistent[size_line] != rule_inconsistent) {
            out.default_rule[size_line] = r;
            break;
          }
        }
        if (out.default_rule[size_line] < 0) out.default_rule[size_line] = first_with_thresholds;
      }
    }
  }
  return out;
}

RuleTable default_rule_table(const Axes& axes, const std::vector<RuleTable>& rules,
                             const std::vector<std::int64_t>& default_rule) {
  if (default_rule.size() != axes.size_lines())
    throw std::invalid_argument("default_rule_table: one rule per size line");
  RuleTable out;
  out.rule = rules.empty() ? Rule::edge : rules.front().rule;  // mixed: default_rule says whose
  take_per_line(axes, rules, default_rule, &RuleTable::detected_fraction, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::empirical_threshold_snr, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::empirical_threshold_bracket, out,
                static_cast<std::int64_t>(bracket_no_data));
  take_per_line(axes, rules, default_rule, &RuleTable::false_detection_rate, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::threshold, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::empirical_threshold_snr_err, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::trial_threshold_snr, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::empirical_threshold_exact, out, std::int64_t{0});
  take_per_line(axes, rules, default_rule, &RuleTable::residual_snr, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::residual_snr_err, out, nan);
  take_per_line(axes, rules, default_rule, &RuleTable::threshold_flags, out, std::int64_t{0});
  const std::size_t size_lines = axes.size_lines();
  out.extrapolation.assign(size_lines, Extrapolation{});
  out.residual_extrapolation.assign(size_lines, Extrapolation{});
  out.consistent.assign(size_lines, rule_consistency_unknown);
  out.consistency_p_value.assign(size_lines, nan);
  for (std::size_t s = 0; s < size_lines; ++s) {
    if (default_rule[s] < 0) continue;
    const RuleTable& rule = rules.at(static_cast<std::size_t>(default_rule[s]));
    out.consistent[s] = rule.consistent.at(s);
    out.consistency_p_value[s] = rule.consistency_p_value.at(s);
    if (rule.consistent[s] == rule_inconsistent) continue;  // not used to extrapolate
    out.extrapolation[s] = rule.extrapolation.at(s);
    out.residual_extrapolation[s] = rule.residual_extrapolation.at(s);
  }
  return out;
}

RefinedTable default_refined_table(const Axes& axes, const std::vector<RefinedTable>& refined,
                                   const std::vector<std::int64_t>& default_rule) {
  if (default_rule.size() != axes.size_lines())
    throw std::invalid_argument("default_refined_table: one rule per size line");
  RefinedTable out;
  out.rule = refined.empty() ? Rule::edge : refined.front().rule;
  for (auto member : {&RefinedTable::threshold, &RefinedTable::threshold_err, &RefinedTable::resolution_err,
                      &RefinedTable::spread_err, &RefinedTable::fit_threshold,
                      &RefinedTable::fit_threshold_err, &RefinedTable::width, &RefinedTable::width_err})
    take_per_line(axes, refined, default_rule, member, out, nan);
  for (auto member : {&RefinedTable::exact, &RefinedTable::trials, &RefinedTable::refined_points})
    take_per_line(axes, refined, default_rule, member, out, std::int64_t{0});
  return out;
}

}  // namespace rmtsweep::assemble
