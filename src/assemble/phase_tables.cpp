// /phase's tables from a sweep's data, and assemble's plan for a damaged sweep file
// (include/rmtsweep/assemble/phase_tables.hpp).
#include "rmtsweep/assemble/phase_tables.hpp"

#include <cmath>
#include <set>
#include <utility>

#include "rmtsweep/assemble/finite_size_tables.hpp"
#include "rmtsweep/assemble/finite_t_edges.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"

namespace rmtsweep::assemble {

PhaseTables build_phase_tables(const SweepData& data, double margin, int threads,
                               const std::function<void(const EdgeWork&)>& before_edges) {
  model::PointParams base;
  base.d = data.axes.d.back();  // the fine theory curves (d -> infinity limits) record the largest
  base.T = data.config.T;
  base.correlation = data.config.correlation;
  base.table = data.config.table;
  base.seed = data.config.seed;

  PhaseTables out{theory_tables(base, data.config.weighting, data.axes, margin), {}, {}, {}, {}, {}};
  out.table = tabulate(data.axes, data.points, out.theory.detection_threshold);
  out.finite_t = finite_t_table(data.axes, data.points);
  // The finite-T rule judges each trial by its own edge: stored with its points where the sweep computed the
  // finite-T theory, else one values-only eigenvalue problem per trial here.
  const FiniteTEdges finite_t(base, data.config.weighting, data.axes, &data.points);
  {
    std::vector<std::pair<std::size_t, int>> keys = edges_asked_for(data.axes, data.points);
    for (const auto& r : data.refined) keys.emplace_back(r.line, r.trial);
    // The trials of the secular forms, which a partial file's done points need not name.
    for (const auto* forms : {&data.secular, &data.refined_secular}) {
      for (const auto& [key, secular] : *forms) keys.push_back(key);
    }
    std::set<std::pair<std::size_t, int>> own;  // (line, trial) whose edge is not stored
    for (const auto& [line, trial] : keys) {
      if (!finite_t.stored(line, trial)) own.emplace(line, trial);
    }
    EdgeWork work{own.size(), 0.0, threads};
    for (const auto& [line, trial] : own) work.seconds += finite_t.edge_seconds(line);
    if (before_edges) before_edges(work);
    finite_t.compute(keys, threads);
  }
  const auto finite_t_points = scaled_by_trial_edge(data.axes, data.points, finite_t);
  const auto finite_t_refined = scaled_by_trial_edge(data.refined, finite_t);
  // Each trial's own finite-T edge as a scale of the line's reference (1 where the line has no edge).
  const auto trials = static_cast<std::size_t>(data.config.trials);
  std::vector<double> finite_t_scale(data.axes.lines() * trials, 1.0);
  for (const auto& [key, secular] : data.secular) {
    const auto [line, trial] = key;
    const double scale = finite_t.scale(line, trial);
    if (std::isfinite(scale)) finite_t_scale[line * trials + static_cast<std::size_t>(trial)] = scale;
  }
  out.rules = detection_tables(data.axes, data.points, out.theory.bulk_edge_right, finite_t.references(),
                               margin, default_null_alpha, &finite_t_points, &data.secular,
                               data.config.trials, &finite_t_scale);
  // Refined thresholds (probit fits over grid and /refine points); the extrapolation to d -> infinity
  // takes them where a line has refined points.
  for (auto& rule : out.rules) {
    const bool scaled = rule.rule == Rule::finite_t_edge;
    // Exact thresholds where every trial has its line's secular form: the rule's level on lambda_1 (the
    // finite-T rule's divided by the trial's own edge scale where each trial has its own edge; none for
    // eigengap).
    ExactForms exact{&data.secular, &data.refined_secular, [&](std::size_t line, int trial) {
                       if (rule.rule == Rule::eigengap) return std::nan("");
                       const double scale = scaled ? finite_t.scale(line, trial) : 1.0;
                       return rule.threshold[line] / (std::isfinite(scale) ? scale : 1.0);
                     }};
    out.refined.push_back(refined_table(data.axes, scaled ? finite_t_points : data.points,
                                        scaled ? finite_t_refined : data.refined, rule, &exact));
    if (!data.refined.empty()) extrapolate_with_refined(data.axes, out.refined.back(), rule);
  }
  // Along d: residuals against the finite-T thresholds, consistency, flags, and per (weighting, delta, gamma)
  // the default rule, whose detected fractions and thresholds the top level carries.
  out.defaults.along_d = finite_size_tables(
      data.axes, out.table, finite_t_trial_thresholds(data.axes, data.points, data.config.trials),
      out.finite_t, out.rules, data.config.trials);
  out.defaults.rules = default_rule_table(data.axes, out.rules, out.defaults.along_d.default_rule);
  out.defaults.refined = default_refined_table(data.axes, out.refined, out.defaults.along_d.default_rule);
  out.table.detected_fraction = out.defaults.rules.detected_fraction;
  out.table.empirical_threshold_snr = out.defaults.rules.empirical_threshold_snr;
  out.table.empirical_threshold_bracket = out.defaults.rules.empirical_threshold_bracket;
  return out;
}

bool read_whole_by_tables(const std::string& path) {
  if (path.starts_with("/lines/")) return true;
  return path.starts_with("/points/") && path != "/points/error" && path != "/points/point" &&
         path != "/points/k";
}

LeftOut DamagePlan::left_out() const {
  LeftOut out;
  out.points.insert(points.begin(), points.end());
  out.lines.insert(lines.begin(), lines.end());
  return out;
}

DamagePlan plan_for_damage(const store::ChecksumReport& report) {
  DamagePlan plan;
  for (const std::string& dataset : report.damaged_datasets) {
    if (dataset.starts_with("/phase/"))
      plan.phase.push_back(dataset);
    else
      (read_whole_by_tables(dataset) ? plan.read_whole : plan.unread).push_back(dataset);
  }
  plan.points = report.damaged_points;
  plan.lines = report.damaged_lines;
  plan.refined_points = report.damaged_refined_points;
  plan.refined_lines = report.damaged_refined_lines;
  return plan;
}

}  // namespace rmtsweep::assemble
