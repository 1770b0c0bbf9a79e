// The detection rules over a sweep (include/rmtsweep/assemble/detection_tables.hpp).
#include "rmtsweep/assemble/detection_tables.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::assemble {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

using Cells = std::vector<std::vector<std::vector<double>>>;  // [snr][trial] -> top eigenvalues

}  // namespace

const char* to_string(Rule rule) noexcept {
  switch (rule) {
    case Rule::edge: return "edge";
    case Rule::eigengap: return "eigengap";
    case Rule::null: return "null";
  }
  return "edge";
}

Rule parse_rule(const std::string& name) {
  for (const Rule rule : all_rules) {
    if (name == to_string(rule)) return rule;
  }
  throw InvalidOption("detection", name,
                      "allowed: edge (top eigenvalue above the theory's bulk edge by c d^(-2/3)), eigengap "
                      "(Onatski's ratio above its calibrated 95 % value) or null (top eigenvalue above the 95 % "
                      "quantile of the line's snr = 0 trials)");
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
                                        const std::vector<double>& right_edge, double margin, double alpha) {
  const std::size_t lines = axes.lines();
  if (right_edge.size() != lines) throw std::invalid_argument("detection_tables: one right edge per line needed");
  // Every line's cells, trials in point order (the file's flattened order).
  std::vector<Cells> line_cells(lines, Cells(axes.snr.size()));
  for (const PointRecord& p : points) {
    line_cells[axes.line(p.weighting, p.d, p.delta, p.gamma)][p.snr].push_back(p.top_eigenvalues);
  }
  std::vector<RuleTable> tables;
  for (const Rule rule : all_rules) {
    RuleTable t;
    t.rule = rule;
    t.detected_fraction.assign(axes.cells(), nan);
    t.empirical_threshold_snr.assign(lines, nan);
    t.empirical_threshold_bracket.assign(lines, bracket_no_data);
    t.false_detection_rate.assign(lines, nan);
    t.threshold.assign(lines, nan);
    for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
      for (std::size_t n = 0; n < axes.d.size(); ++n) {
      const int d = axes.d[n];
      for (std::size_t i = 0; i < axes.delta.size(); ++i) {
        for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
          const std::size_t line = axes.line(w, n, i, j);
          const Cells& cells = line_cells[line];
          const Detector detector = rule == Rule::edge       ? edge_detector(right_edge[line], d, margin)
                                    : rule == Rule::eigengap ? eigengap_detector(d)
                                                             : null_detector(axes.snr, cells, alpha);
          const LineDetection found = detect_line(axes.snr, cells, detector);
          for (std::size_t s = 0; s < axes.snr.size(); ++s) t.detected_fraction[axes.cell(w, n, i, j, s)] = found.fraction[s];
          t.empirical_threshold_snr[line] = found.threshold.snr;
          t.empirical_threshold_bracket[line] = found.threshold.bracket;
          t.threshold[line] = detector.threshold;
          t.false_detection_rate[line] = found.false_detection;
          if (rule == Rule::null) {
            std::vector<double> null_top;
            for (std::size_t s = 0; s < axes.snr.size(); ++s) {
              if (axes.snr[s] != 0.0) continue;
              for (const auto& top : cells[s]) null_top.push_back(*std::max_element(top.begin(), top.end()));
            }
            t.false_detection_rate[line] = null_false_detection_rate(null_top, alpha);
          }
        }
      }
      }
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace rmtsweep::assemble
