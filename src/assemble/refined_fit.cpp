// Refined thresholds of a sweep (include/rmtsweep/assemble/refined_fit.hpp).
#include "rmtsweep/assemble/refined_fit.hpp"

#include <cmath>
#include <limits>
#include <map>

#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/assemble/trial_brackets.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

namespace rmtsweep::assemble {

namespace {

/// The exact thresholds of the trials of `line` (in trial order), or none unless each has its secular form
/// and the rule a level on lambda_1 for it.
std::vector<double> exact_thresholds(const ExactForms& exact, std::size_t line,
                                     const std::map<int, int>& trials) {
  std::vector<double> out;
  for (const auto& [trial, number] : trials) {
    const std::pair<std::size_t, int> key{line, trial};
    const spectral::RankOneLine* form = nullptr;
    for (const TrialSecular* forms : {exact.grid, exact.refined}) {
      if (forms == nullptr) continue;
      const auto found = forms->find(key);
      if (found != forms->end()) form = &found->second;
    }
    const double level = exact.level ? exact.level(line, trial) : std::numeric_limits<double>::quiet_NaN();
    if (form == nullptr || std::isnan(level)) return {};
    const spectral::LevelCrossing crossing = spectral::level_crossing(*form, level);
    out.push_back(crossing.r_from * crossing.r_from);
  }
  return out;
}

}  // namespace

RefinedTable refined_table(const Axes& axes, const std::vector<PointRecord>& grid,
                           const std::vector<RefinedRecord>& refined, const RuleTable& table,
                           const ExactForms* exact) {
  const std::size_t lines = axes.lines();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RefinedTable out;
  out.rule = table.rule;
  out.threshold.assign(lines, nan);
  out.threshold_err.assign(lines, nan);
  out.exact.assign(lines, 0);
  out.resolution_err.assign(lines, nan);
  out.spread_err.assign(lines, nan);
  out.trials.assign(lines, 0);
  out.fit_threshold.assign(lines, nan);
  out.fit_threshold_err.assign(lines, nan);
  out.width.assign(lines, nan);
  out.width_err.assign(lines, nan);
  out.refined_points.assign(lines, 0);
  std::vector<std::vector<Detection>> seen(lines);
  const auto detector = [&](std::size_t line) { return Detector{table.rule, table.threshold[line]}; };
  for (const PointRecord& p : grid) {
    const std::size_t line = axes.line(p.weighting, p.d, p.delta, p.gamma);
    seen[line].push_back({axes.snr[p.snr], p.trial, detector(line).detects(p.top_eigenvalues)});
  }
  for (const RefinedRecord& r : refined) {
    seen[r.line].push_back({r.snr, r.trial, detector(r.line).detects(r.top_eigenvalues)});
    ++out.refined_points[r.line];
  }
  for (std::size_t line = 0; line < lines; ++line) {
    if (!(table.threshold[line] == table.threshold[line])) continue;  // the rule has no threshold here
    const ProbitFit fit = fit_probit(seen[line]);
    out.fit_threshold[line] = fit.mu;
    out.fit_threshold_err[line] = fit.mu_err;
    // The per-trial estimate over the trials present (numbered 0..K-1 in order of their index).
    std::map<int, int> number;
    for (const Detection& o : seen[line]) number.try_emplace(o.trial, 0);
    int k = 0;
    for (auto& [trial, n] : number) n = k++;
    std::vector<Detection> renumbered;
    for (const Detection& o : seen[line]) renumbered.push_back({o.snr, number[o.trial], o.detected});
    out.trials[line] = k;
    out.width[line] = fit.sigma;
    out.width_err[line] = fit.sigma_err;
    const std::vector<double> values =
        exact != nullptr ? exact_thresholds(*exact, line, number) : std::vector<double>{};
    if (!values.empty()) {
      // Every trial's threshold is known exactly: the median's error is the spread between trials alone.
      const MedianEstimate median = bootstrap_median(values, line);
      out.threshold[line] = median.median;
      out.threshold_err[line] = median.median_err;
      out.resolution_err[line] = 0.0;
      out.spread_err[line] = median.median_err;
      out.exact[line] = 1;
      continue;
    }
    const LineEstimate e = estimate_line(trial_brackets(renumbered, k));
    out.threshold[line] = e.threshold;
    out.threshold_err[line] = e.err;
    out.resolution_err[line] = e.resolution_err;
    out.spread_err[line] = e.spread_err;
  }
  return out;
}

void extrapolate_with_refined(const Axes& axes, const RefinedTable& refined, RuleTable& table) {
  const std::vector<double> sizes(axes.d.begin(), axes.d.end());
  table.extrapolation.resize(axes.size_lines());
  for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
    for (std::size_t i = 0; i < axes.delta.size(); ++i) {
      for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
        std::vector<double> threshold(sizes.size()), error(sizes.size());
        for (std::size_t n = 0; n < sizes.size(); ++n) {
          const std::size_t line = axes.line(w, n, i, j);
          const bool use = refined.refined_points[line] > 0 && std::isfinite(refined.threshold_err[line]);
          threshold[n] = use ? refined.threshold[line] : table.empirical_threshold_snr[line];
          error[n] = use ? refined.threshold_err[line] : table.empirical_threshold_snr_err[line];
        }
        table.extrapolation[axes.size_line(w, i, j)] = extrapolate_threshold(sizes, threshold, error);
      }
    }
  }
}

}  // namespace rmtsweep::assemble
