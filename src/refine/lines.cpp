// Rank 0's view of a sweep's lines for refine (include/rmtsweep/refine/lines.hpp).
#include "rmtsweep/refine/lines.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::refine {
namespace {

/// For each value of an axis (grid order), its position in the ascending axis (as /phase and
/// assemble::Axes order it).
std::vector<std::size_t> ascending_positions(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<std::size_t> position(values.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  return position;
}

}  // namespace

Lines read_lines(const std::string& path, const RefineOptions& options, const assemble::LeftOut& left_out) {
  const assemble::SweepData data = assemble::read_sweep(path, left_out);
  const config::SweepConfig& c = data.config;
  Lines lines;
  lines.axes = data.axes;
  const assemble::Axes& a = lines.axes;
  model::PointParams base;
  base.d = a.d.back();
  base.T = c.T;
  base.correlation = c.correlation;
  base.table = c.table;
  base.seed = c.seed;
  const auto theory = assemble::theory_tables(base, c.weighting, a, options.margin, {2, 2, 2});
  // The finite-T edges cost an eigenvalue problem per trial (unless stored with its points): only when
  // that rule is refined.
  if (options.rule == assemble::Rule::finite_t_edge) {
    lines.finite_t = std::make_shared<const assemble::FiniteTEdges>(base, c.weighting, a, &data.points);
    double slowest = 0.0;
    for (std::size_t l = 0; l < a.lines(); ++l) slowest = std::max(slowest, lines.finite_t->edge_seconds(l));
    std::fprintf(
        stderr,
        "rmtsweep refine: finite_t_edge judges each trial of %zu line(s) by its own edge: every new trial "
        "costs an eigenvalue problem on rank 0 (up to about %.2g s of one core)\n",
        a.lines(), slowest);
    lines.finite_t->compute(assemble::edges_asked_for(a, data.points), parallel::blas_threads());
  }
  const auto finite_t = lines.finite_t
                            ? lines.finite_t->references()
                            : std::vector<double>(a.lines(), std::numeric_limits<double>::quiet_NaN());
  const auto finite_t_points = lines.finite_t
                                   ? assemble::scaled_by_trial_edge(a, data.points, *lines.finite_t)
                                   : std::vector<assemble::PointRecord>{};
  const auto rules =
      assemble::detection_tables(a, data.points, theory.bulk_edge_right, finite_t, options.margin,
                                 assemble::default_null_alpha, lines.finite_t ? &finite_t_points : nullptr);
  const auto& rule =
      *std::find_if(rules.begin(), rules.end(), [&](const auto& t) { return t.rule == options.rule; });
  lines.detector.resize(a.lines());
  for (std::size_t l = 0; l < a.lines(); ++l) lines.detector[l] = {options.rule, rule.threshold[l]};
  lines.start_snr = theory.sample_threshold_snr;
  lines.grid.resize(a.lines());
  for (const assemble::PointRecord& p : data.points) {
    const std::size_t line = a.line(p.weighting, p.d, p.delta, p.gamma);
    lines.grid[line].push_back({a.snr[p.snr], p.trial, lines.detected(line, p.trial, p.top_eigenvalues)});
  }
  for (std::size_t l = 0; l < a.lines(); ++l) {
    for (const double s : a.snr) {
      for (int t = 0; t < c.trials; ++t) lines.grid_keys[{l, s, t}] = true;
    }
  }
  // Exact thresholds where the rule has a level on lambda_1 and /lines holds the done trials' secular forms.
  lines.snr = a.snr;
  lines.rule_has_level = options.rule != assemble::Rule::eigengap;
  lines.line_capable.assign(a.lines(), 0);
  const bool has_lines = io::exists(store::SweepReader(path).file(), std::string(store::lines_group));
  for (std::size_t l = 0; l < a.lines(); ++l) {
    const auto weighting = c.weighting.at(a.unravel(l).w);
    lines.line_capable[l] = has_lines && c.lines_apply(weighting) ? 1 : 0;
  }
  if (lines.rule_has_level) {
    for (const auto& [key, secular] : data.secular) {
      const auto [l, trial] = key;
      if (trial < c.trials) lines.grid_exact[key] = lines.exact_threshold(l, trial, secular);
    }
  }
  lines.d_position = ascending_positions(std::vector<double>(c.d.begin(), c.d.end()));
  lines.delta_position = ascending_positions(c.delta);
  lines.gamma_position = ascending_positions(c.gamma);
  const auto invert = [](const std::vector<std::size_t>& position) {
    std::vector<std::size_t> index(position.size());
    for (std::size_t i = 0; i < position.size(); ++i) index[position[i]] = i;
    return index;
  };
  lines.d_index = invert(lines.d_position);
  lines.delta_index = invert(lines.delta_position);
  lines.gamma_index = invert(lines.gamma_position);
  return lines;
}

double Lines::level(std::size_t line, int trial) const {
  const double threshold = detector[line].threshold;
  if (!rule_has_level || !finite_t) return rule_has_level ? threshold : nan;
  // lambda_1 scale > threshold  <=>  lambda_1 > threshold / scale: the trial's own edge (1 where none).
  const double scale = finite_t->scale(line, trial);
  return threshold / (std::isfinite(scale) ? scale : 1.0);
}

double Lines::exact_threshold(std::size_t line, int trial, const spectral::RankOneLine& secular) const {
  const double at = level(line, trial);
  if (std::isnan(at)) return nan;
  const spectral::LevelCrossing crossing = spectral::level_crossing(secular, at);
  return crossing.r_from * crossing.r_from;
}

std::size_t line_at(const Lines& lines, std::int64_t weighting, std::int64_t d, std::int64_t delta,
                    std::int64_t gamma) {
  return lines.axes.line(static_cast<std::size_t>(weighting),
                         lines.d_position.at(static_cast<std::size_t>(d)),
                         lines.delta_position.at(static_cast<std::size_t>(delta)),
                         lines.gamma_position.at(static_cast<std::size_t>(gamma)));
}

/// The line of a refined row (its stored grid indices).
std::size_t line_of(const Lines& lines, const store::RefinedRows& rows, std::size_t r) {
  return line_at(lines, rows.weighting_index[r], rows.d_index[r], rows.delta_index[r], rows.gamma_index[r]);
}

config::GridCoordinates line_coordinates(const Lines& lines, std::size_t line, int trial) {
  const assemble::LineIndex x = lines.axes.unravel(line);
  config::GridCoordinates at;
  at.weighting = x.w;
  at.d = lines.d_index[x.n];
  at.delta = lines.delta_index[x.i];
  at.gamma = lines.gamma_index[x.j];
  at.trial = trial;
  return at;
}

/// The point (line, snr, trial) of the grid's sweep: the grid's parameters of its line with this snr and
/// trial.
store::RefinedPoint refined_point(const config::Grid& grid, const Lines& lines, std::size_t line, double snr,
                                  int trial) {
  config::GridCoordinates at = line_coordinates(lines, line, 0);
  store::RefinedPoint point{grid.params(grid.index(at)), at};
  point.params.snr = snr;
  point.params.trial = trial;
  return point;
}

/// Every rank's copy of the lines' geometry (what refined_point needs), from rank 0's.
Lines geometry_everywhere(const Lines& on_root, MPI_Comm comm) {
  Lines lines;
  const auto sizes = [&](const std::vector<std::size_t>& v) {
    std::vector<std::int64_t> out(v.begin(), v.end());
    out = parallel::broadcast(std::move(out), comm);
    return std::vector<std::size_t>(out.begin(), out.end());
  };
  lines.d_index = sizes(on_root.d_index);
  lines.delta_index = sizes(on_root.delta_index);
  lines.gamma_index = sizes(on_root.gamma_index);
  std::vector<std::int64_t> shape{static_cast<std::int64_t>(on_root.axes.weighting.size()),
                                  static_cast<std::int64_t>(on_root.axes.d.size()),
                                  static_cast<std::int64_t>(on_root.axes.delta.size()),
                                  static_cast<std::int64_t>(on_root.axes.gamma.size())};
  shape = parallel::broadcast(std::move(shape), comm);
  lines.axes.weighting.resize(static_cast<std::size_t>(shape[0]));
  lines.axes.d.resize(static_cast<std::size_t>(shape[1]));
  lines.axes.delta.resize(static_cast<std::size_t>(shape[2]));
  lines.axes.gamma.resize(static_cast<std::size_t>(shape[3]));
  return lines;
}

}  // namespace rmtsweep::refine
