#include "rmtsweep/assemble/phase.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "rmtsweep/assemble/finite_size.hpp"

namespace rmtsweep::assemble {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

double detection_threshold(double right_edge, int d, double c) {
  return right_edge * (1.0 + c * std::pow(static_cast<double>(d), -2.0 / 3.0));
}

Crossing half_crossing(const std::vector<double>& snr, const std::vector<double>& fraction) {
  if (snr.size() != fraction.size())
    throw std::invalid_argument("half_crossing: snr and fraction differ in length");
  // Every cell up to the first one at or above 1/2 decides the answer, so a missing one there
  // leaves it undetermined; cells above the crossing do not matter.
  for (std::size_t s = 0; s < snr.size(); ++s) {
    if (std::isnan(fraction[s])) return {nan, bracket_no_data};
    if (fraction[s] >= 0.5) {
      if (s == 0) return {nan, bracket_below_grid};
      const double t = (0.5 - fraction[s - 1]) / (fraction[s] - fraction[s - 1]);
      return {snr[s - 1] + t * (snr[s] - snr[s - 1]), bracket_found};
    }
  }
  return {nan, bracket_above_grid};
}

const char* bracket_label(std::int64_t bracket) {
  switch (bracket) {
    case bracket_found:
      return "";
    case bracket_below_grid:
      return "< grid";
    case bracket_above_grid:
      return "> grid";
    default:
      return "no data";
  }
}

Moments moments(const std::vector<double>& values) {
  Moments m;
  m.count = static_cast<std::int64_t>(values.size());
  if (values.empty()) return {nan, nan, 0};
  double sum = 0.0;
  for (double v : values) sum += v;
  m.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0.0;
    for (double v : values) squares += (v - m.mean) * (v - m.mean);
    m.std = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return m;
}

PhaseTable tabulate(const Axes& axes, const std::vector<PointRecord>& points,
                    const std::vector<double>& detection) {
  const std::size_t cells = axes.cells();
  if (detection.size() != cells)
    throw std::invalid_argument("tabulate: one detection threshold per cell needed");
  // Gather each cell's trials in point order (the flattened order of the sweep), so the sums,
  // and with them the file, are the same however often assemble runs.
  std::vector<std::vector<double>> top(cells), overlap(cells), ridge(cells);
  for (const auto& p : points) {
    if (p.weighting >= axes.weighting.size() || p.d >= axes.d.size() || p.delta >= axes.delta.size() ||
        p.gamma >= axes.gamma.size() || p.snr >= axes.snr.size()) {
      throw std::out_of_range("tabulate: a point lies outside the grid");
    }
    const std::size_t c = axes.cell(p.weighting, p.d, p.delta, p.gamma, p.snr);
    top[c].push_back(p.top_eigenvalue);
    overlap[c].push_back(p.overlap);
    ridge[c].push_back(p.ridge_accuracy);
  }

  PhaseTable table;
  table.trials_done.resize(cells);
  for (auto* column :
       {&table.overlap_mean, &table.overlap_std, &table.top_eigenvalue_mean, &table.top_eigenvalue_std,
        &table.ridge_accuracy_mean, &table.ridge_accuracy_std, &table.detected_fraction}) {
    column->resize(cells);
  }
  for (std::size_t c = 0; c < cells; ++c) {
    const Moments o = moments(overlap[c]), t = moments(top[c]), r = moments(ridge[c]);
    table.trials_done[c] = o.count;
    table.overlap_mean[c] = o.mean;
    table.overlap_std[c] = o.std;
    table.top_eigenvalue_mean[c] = t.mean;
    table.top_eigenvalue_std[c] = t.std;
    table.ridge_accuracy_mean[c] = r.mean;
    table.ridge_accuracy_std[c] = r.std;
    std::int64_t detected = 0;
    for (double value : top[c]) detected += value > detection[c] ? 1 : 0;
    table.detected_fraction[c] =
        o.count > 0 ? static_cast<double>(detected) / static_cast<double>(o.count) : nan;
  }

  const std::size_t lines = axes.lines(), S = axes.snr.size();
  table.empirical_threshold_snr.resize(lines);
  table.empirical_threshold_bracket.resize(lines);
  for (std::size_t line = 0; line < lines; ++line) {
    const std::vector<double> fraction(
        table.detected_fraction.begin() + static_cast<std::ptrdiff_t>(line * S),
        table.detected_fraction.begin() + static_cast<std::ptrdiff_t>((line + 1) * S));
    const Crossing crossing = half_crossing(axes.snr, fraction);
    table.empirical_threshold_snr[line] = crossing.snr;
    table.empirical_threshold_bracket[line] = crossing.bracket;
  }

  // The overlap at each snr along d, extrapolated as the thresholds are: it shows the curves converging.
  const std::vector<double> sizes(axes.d.begin(), axes.d.end());
  table.extrapolated_overlap.assign(axes.size_lines() * S, nan);
  table.extrapolated_overlap_err.assign(axes.size_lines() * S, nan);
  for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
    for (std::size_t i = 0; i < axes.delta.size(); ++i) {
      for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
        for (std::size_t s = 0; s < S; ++s) {
          std::vector<double> mean(sizes.size()), error(sizes.size());
          for (std::size_t n = 0; n < sizes.size(); ++n) {
            const std::size_t c = axes.cell(w, n, i, j, s);
            mean[n] = table.overlap_mean[c];
            error[n] = table.trials_done[c] > 1
                           ? table.overlap_std[c] / std::sqrt(static_cast<double>(table.trials_done[c]))
                           : nan;
          }
          const Extrapolation fit = extrapolate_threshold(sizes, mean, error);
          table.extrapolated_overlap[axes.size_line(w, i, j) * S + s] = fit.thr_inf;
          table.extrapolated_overlap_err[axes.size_line(w, i, j) * S + s] = fit.thr_inf_err;
        }
      }
    }
  }
  return table;
}

}  // namespace rmtsweep::assemble
