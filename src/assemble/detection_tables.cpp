// The detection rules over a sweep (include/rmtsweep/assemble/detection_tables.hpp).
#include "rmtsweep/assemble/detection_tables.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::assemble {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

using Cells = std::vector<std::vector<std::vector<double>>>;  // [snr][trial] -> top eigenvalues

/// What `detector` decides for each trial of a line: [snr][trial number], NaN where the trial is not done.
/// Trial t is one column at every snr (its noise is the same there), as the bootstrap resamples it.
DetectionMatrix detection_matrix(const Cells& cells, const std::vector<std::vector<int>>& trials,
                                 const Detector& detector) {
  int count = 0;
  for (const auto& cell : trials) {
    for (const int trial : cell) count = std::max(count, trial + 1);
  }
  DetectionMatrix detected(cells.size(), std::vector<double>(static_cast<std::size_t>(count), nan));
  for (std::size_t s = 0; s < cells.size(); ++s) {
    for (std::size_t k = 0; k < cells[s].size(); ++k)
      detected[s][static_cast<std::size_t>(trials[s][k])] = detector.detects(cells[s][k]) ? 1.0 : 0.0;
  }
  return detected;
}

/// Each done trial's exact threshold for the rule's level, into t.trial_threshold_snr, and the line's
/// empirical threshold as their median with a bootstrap error, where every done trial of the line has its
/// secular form.
template <class Level>
void exact_thresholds(const TrialSecular& secular, std::size_t line,
                      const std::vector<std::vector<int>>& cell_trials, int trials, const Level& level,
                      RuleTable& t) {
  std::vector<int> done;
  for (const auto& cell : cell_trials) done.insert(done.end(), cell.begin(), cell.end());
  std::sort(done.begin(), done.end());
  done.erase(std::unique(done.begin(), done.end()), done.end());
  if (done.empty() || std::isnan(level(done.front()))) return;
  std::vector<double> thresholds;
  for (const int trial : done) {
    const auto found = secular.find({line, trial});
    if (found == secular.end() || trial >= trials)
      return;  // a trial without its line's form: the grid decides
    const spectral::LevelCrossing crossing = spectral::level_crossing(found->second, level(trial));
    thresholds.push_back(crossing.r_from * crossing.r_from);
  }
  for (std::size_t k = 0; k < done.size(); ++k)
    t.trial_threshold_snr[line * static_cast<std::size_t>(trials) + static_cast<std::size_t>(done[k])] =
        thresholds[k];
  const MedianEstimate median = bootstrap_median(thresholds, line);
  t.empirical_threshold_snr[line] = median.median;
  t.empirical_threshold_snr_err[line] = median.median_err;
  t.empirical_threshold_bracket[line] = std::isfinite(median.median) ? bracket_found : bracket_above_grid;
  t.empirical_threshold_exact[line] = 1;
}

}  // namespace

const char* to_string(Rule rule) noexcept {
  switch (rule) {
    case Rule::edge:
      return "edge";
    case Rule::eigengap:
      return "eigengap";
    case Rule::null:
      return "null";
    case Rule::finite_t_edge:
      return "finite_t_edge";
  }
  return "edge";
}

Rule parse_rule(const std::string& name) {
  for (const Rule rule : all_rules) {
    if (name == to_string(rule)) return rule;
  }
  throw InvalidArgument(
      "detection", name,
      "allowed: edge (top eigenvalue above the theory's bulk edge by c d^(-2/3)), eigengap "
      "(Onatski's ratio above its calibrated 95 % value), null (top eigenvalue above the 95 % "
      "quantile of the line's snr = 0 trials) or finite_t_edge (top eigenvalue above the "
      "finite-T bulk edge of the line's own token draws by c d^(-2/3))");
}

double null_false_detection_rate(const std::vector<double>& null_values, double alpha) {
  if (null_values.size() < 2) return nan;
  std::size_t detected = 0;
  for (std::size_t i = 0; i < null_values.size(); ++i) {
    std::vector<double> others = null_values;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    detected += null_values[i] > null_quantile_threshold(std::move(others), alpha) ? 1 : 0;
  }
  return static_cast<double>(detected) / static_cast<double>(null_values.size());
}

std::vector<RuleTable> detection_tables(const Axes& axes, const std::vector<PointRecord>& points,
                                        const std::vector<double>& right_edge,
                                        const std::vector<double>& finite_t_edge, double margin, double alpha,
                                        const std::vector<PointRecord>* finite_t_points,
                                        const TrialSecular* secular, int trials,
                                        const std::vector<double>* finite_t_scale) {
  const std::size_t lines = axes.lines();
  if (right_edge.size() != lines || finite_t_edge.size() != lines)
    throw std::invalid_argument("detection_tables: one right edge and one finite-T edge per line needed");
  if (finite_t_points != nullptr && finite_t_points->size() != points.size())
    throw std::invalid_argument("detection_tables: the finite-T rule's points must be the points, rescaled");
  // Every line's cells, trials in point order (the file's flattened order), and each one's trial number.
  const auto cells_of = [&](const std::vector<PointRecord>& records) {
    std::vector<Cells> line_cells(lines, Cells(axes.snr.size()));
    for (const PointRecord& p : records)
      line_cells[axes.line(p.weighting, p.d, p.delta, p.gamma)][p.snr].push_back(p.top_eigenvalues);
    return line_cells;
  };
  const std::vector<Cells> all_cells = cells_of(points);
  const std::vector<Cells> finite_t_cells =
      finite_t_points != nullptr ? cells_of(*finite_t_points) : std::vector<Cells>{};
  std::vector<std::vector<std::vector<int>>> line_trials(lines,
                                                         std::vector<std::vector<int>>(axes.snr.size()));
  for (const PointRecord& p : points)
    line_trials[axes.line(p.weighting, p.d, p.delta, p.gamma)][p.snr].push_back(p.trial);
  std::vector<RuleTable> tables;
  for (const Rule rule : all_rules) {
    const std::vector<Cells>& line_cells =
        rule == Rule::finite_t_edge && finite_t_points != nullptr ? finite_t_cells : all_cells;
    RuleTable t;
    t.rule = rule;
    t.detected_fraction.assign(axes.cells(), nan);
    t.empirical_threshold_snr.assign(lines, nan);
    t.empirical_threshold_bracket.assign(lines, bracket_no_data);
    t.false_detection_rate.assign(lines, nan);
    t.threshold.assign(lines, nan);
    t.empirical_threshold_snr_err.assign(lines, nan);
    t.trial_threshold_snr.assign(lines * static_cast<std::size_t>(std::max(trials, 0)), nan);
    t.empirical_threshold_exact.assign(lines, 0);
    for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
      for (std::size_t n = 0; n < axes.d.size(); ++n) {
        const int d = axes.d[n];
        for (std::size_t i = 0; i < axes.delta.size(); ++i) {
          for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
            const std::size_t line = axes.line(w, n, i, j);
            const Cells& cells = line_cells[line];
            if (rule == Rule::finite_t_edge && std::isnan(finite_t_edge[line])) continue;  // not computed
            const Detector detector = rule == Rule::edge       ? edge_detector(right_edge[line], d, margin)
                                      : rule == Rule::eigengap ? eigengap_detector(d)
                                      : rule == Rule::finite_t_edge
                                          ? finite_t_edge_detector(finite_t_edge[line], d, margin)
                                          : null_detector(axes.snr, cells, alpha);
            const LineDetection found = detect_line(axes.snr, cells, detector);
            for (std::size_t s = 0; s < axes.snr.size(); ++s)
              t.detected_fraction[axes.cell(w, n, i, j, s)] = found.fraction[s];
            t.empirical_threshold_snr[line] = found.threshold.snr;
            t.empirical_threshold_bracket[line] = found.threshold.bracket;
            t.empirical_threshold_snr_err[line] =
                bootstrap_threshold(axes.snr, detection_matrix(cells, line_trials[line], detector), line)
                    .snr_err;
            t.threshold[line] = detector.threshold;
            t.false_detection_rate[line] = found.false_detection;
            if (secular != nullptr && rule != Rule::eigengap) {
              // The trial's level on lambda_1: the detector's, or for the finite-T rule the trial's own
              // edge's.
              const auto level = [&](int trial) {
                const double scale = rule == Rule::finite_t_edge && finite_t_scale != nullptr
                                         ? (*finite_t_scale)[line * static_cast<std::size_t>(trials) +
                                                             static_cast<std::size_t>(trial)]
                                         : 1.0;
                return detector.threshold / (std::isnan(scale) ? 1.0 : scale);
              };
              exact_thresholds(*secular, line, line_trials[line], trials, level, t);
            }
            if (rule == Rule::null) {
              std::vector<double> null_top;
              for (std::size_t s = 0; s < axes.snr.size(); ++s) {
                if (axes.snr[s] != 0.0) continue;
                for (const auto& top : cells[s])
                  null_top.push_back(*std::max_element(top.begin(), top.end()));
              }
              t.false_detection_rate[line] = null_false_detection_rate(null_top, alpha);
            }
          }
        }
      }
    }
    // Along d, per (weighting, delta, gamma): the thresholds of the sizes, extrapolated to d -> infinity.
    const std::vector<double> sizes(axes.d.begin(), axes.d.end());
    t.extrapolation.resize(axes.size_lines());
    for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
      for (std::size_t i = 0; i < axes.delta.size(); ++i) {
        for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
          std::vector<double> threshold(sizes.size()), error(sizes.size());
          for (std::size_t n = 0; n < sizes.size(); ++n) {
            threshold[n] = t.empirical_threshold_snr[axes.line(w, n, i, j)];
            error[n] = t.empirical_threshold_snr_err[axes.line(w, n, i, j)];
          }
          t.extrapolation[axes.size_line(w, i, j)] = extrapolate_threshold(sizes, threshold, error);
        }
      }
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace rmtsweep::assemble
