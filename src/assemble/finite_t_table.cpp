#include "rmtsweep/assemble/finite_t_table.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

namespace rmtsweep::assemble {

FiniteTTable finite_t_table(const Axes& axes, const std::vector<PointRecord>& points) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t cells = axes.cells(), lines = axes.lines();
  std::vector<std::vector<double>> top(cells), overlap(cells), threshold(lines), edge(lines);
  std::set<std::pair<std::size_t, int>> seen;  // (line, trial) already counted
  for (const PointRecord& p : points) {
    if (p.weighting >= axes.weighting.size() || p.d >= axes.d.size() || p.delta >= axes.delta.size() ||
        p.gamma >= axes.gamma.size() || p.snr >= axes.snr.size()) {
      throw std::out_of_range("finite_t_table: a point lies outside the grid");
    }
    if (std::isnan(p.finite_t_top_eigenvalue)) continue;
    const std::size_t line = axes.line(p.weighting, p.d, p.delta, p.gamma);
    top[line * axes.snr.size() + p.snr].push_back(p.finite_t_top_eigenvalue);
    overlap[line * axes.snr.size() + p.snr].push_back(p.finite_t_overlap);
    if (seen.emplace(line, p.trial).second) {
      threshold[line].push_back(p.finite_t_threshold_snr);
      edge[line].push_back(p.finite_t_bulk_edge_right);
    }
  }
  FiniteTTable table;
  const auto mean_or_nan = [&](const std::vector<double>& values) {
    return values.empty() ? nan : moments(values).mean;
  };
  for (std::size_t c = 0; c < cells; ++c) {
    table.top_eigenvalue.push_back(mean_or_nan(top[c]));
    table.overlap.push_back(mean_or_nan(overlap[c]));
  }
  for (std::size_t line = 0; line < lines; ++line) {
    const Moments m = moments(threshold[line]);
    table.threshold_snr.push_back(threshold[line].empty() ? nan : m.mean);
    table.threshold_snr_std.push_back(threshold[line].size() > 1 ? m.std : nan);
    table.bulk_edge_right.push_back(mean_or_nan(edge[line]));
    table.trials.push_back(static_cast<std::int64_t>(threshold[line].size()));
  }
  return table;
}

}  // namespace rmtsweep::assemble
