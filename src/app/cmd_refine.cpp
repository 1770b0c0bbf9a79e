// `rmtsweep refine FILE.h5 [--tolerance 0.01] [--trials K] [--max-points M] [--detection RULE]`:
// adaptive refinement of every line's threshold (issue 19; README "Adaptive refinement").
//
// Rounds. Rank 0 reads the grid's done points once and, each round, the refined rows; it decides
// the round's points (refine/design.hpp) from done results only, broadcasts them, writes them as
// pending (refine_file.hpp), and every rank computes them with the sweep's dynamic schedule
// (sweep::run_batch). Round r's decision uses the grid and the results of the points rounds 0..r-1
// proposed, never other rows of the file: a rerun after a kill replays the rounds from the start,
// finds their points done (or pending: then computes them), and continues exactly where an
// uninterrupted refine would be. Exit status: 0 finished (tolerance reached, or the budget spent:
// the summary says which lines); 2 invalid option; 3 some refined points failed; 128 + signal.
#include <mpi.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_t_edges.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/refine/design.hpp"
#include "rmtsweep/sweep/refine_file.hpp"
#include "rmtsweep/sweep/runner.hpp"
#include "rmtsweep/sweep/sweep_file.hpp"
#include "rmtsweep/sweep/sweep_reader.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {
namespace {

/// The options of refine, validated once.
struct RefineOptions {
  std::string path;
  double tolerance = 0.01;
  int trials = 64;
  std::int64_t max_points = 20000;
  assemble::Rule rule = assemble::Rule::edge;
  double margin = assemble::default_detection_margin;
  int max_rounds = 60;
};

RefineOptions parse_refine_options(int argc, char** argv, bool& help) {
  RefineOptions o;
  std::string tolerance = "0.01", trials = "64", max_points = "20000", detection = "edge", rounds = "60";
  po::options_description options(
      "Usage: mpirun -np P rmtsweep refine FILE.h5 [options]\n\nAdds points near each line's threshold until its "
      "standard error is below --tolerance (README, Adaptive refinement)");
  options.add_options()("file", po::value<std::string>(&o.path), "the sweep file")(
      "tolerance", po::value<std::string>(&tolerance)->default_value(tolerance),
      "target standard error of every line's threshold [snr]")(
      "trials", po::value<std::string>(&trials)->default_value(trials),
      "trials per line at most (the grid's included): more are added where the spread between trials dominates")(
      "max-points", po::value<std::string>(&max_points)->default_value(max_points),
      "refined points in the file at most (over every refine of it)")(
      "max-rounds", po::value<std::string>(&rounds)->default_value(rounds), "rounds at most")(
      "detection", po::value<std::string>(&detection)->default_value(detection),
      "the rule whose threshold is refined: edge, eigengap, null or finite_t_edge")("help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(argc, argv, options, "refine", help, o.path)) return o;
  const std::string tolerance_allowed = "allowed: a number 0 < tolerance <= 10 [snr]";
  o.tolerance = model::parse_double(tolerance, "tolerance", tolerance_allowed);
  if (!(o.tolerance > 0 && o.tolerance <= 10)) throw InvalidOption("tolerance", tolerance, tolerance_allowed);
  const std::string trials_allowed = "allowed: an integer 2 <= trials <= 100000";
  const std::int64_t k = model::parse_integer(trials, "trials", trials_allowed);
  if (k < 2 || k > 100000) throw InvalidOption("trials", trials, trials_allowed);
  o.trials = static_cast<int>(k);
  const std::string points_allowed = "allowed: an integer 1 <= max-points <= 100000000";
  o.max_points = model::parse_integer(max_points, "max-points", points_allowed);
  if (o.max_points < 1 || o.max_points > 100000000) throw InvalidOption("max-points", max_points, points_allowed);
  const std::string rounds_allowed = "allowed: an integer 1 <= max-rounds <= 10000";
  const std::int64_t r = model::parse_integer(rounds, "max-rounds", rounds_allowed);
  if (r < 1 || r > 10000) throw InvalidOption("max-rounds", rounds, rounds_allowed);
  o.max_rounds = static_cast<int>(r);
  o.rule = assemble::parse_rule(detection);
  return o;
}

/// For each value of an axis (grid order), its position in the ascending axis (as /phase and
/// assemble::Axes order it).
std::vector<std::size_t> ascending_positions(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<std::size_t> position(values.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  return position;
}

/// The rows a new /refine block preallocates at most beyond what its round needs.
constexpr std::int64_t block_chunk = 65536;

/// A refined point's identity: (line, snr, trial). Points are never duplicated on it.
using Key = std::tuple<std::size_t, double, int>;

/// Rank 0's view of the lines: the grid's observations (fixed during a refine) and its detectors.
struct Lines {
  assemble::Axes axes;
  std::vector<assemble::Detector> detector;                      ///< per line
  std::vector<std::vector<refine::Observation>> grid;            ///< per line, done grid points
  std::vector<double> start_snr;                                 ///< theory's sample threshold per line
  std::map<Key, bool> grid_keys;                                 ///< every grid point (any status)
  // grid index of each ascending axis position, per axis
  std::vector<std::size_t> w_index, d_index, delta_index, gamma_index;
  std::vector<std::size_t> d_position, delta_position, gamma_position;
  /// The finite-T edges where that rule is refined: its trials are judged by their own edges.
  std::shared_ptr<const assemble::FiniteTEdges> finite_t;

  /// Whether the line's detector counts the trial with these top eigenvalues as detected.
  bool detected(std::size_t line, int trial, std::span<const double> top) const {
    if (!finite_t || !finite_t->per_trial(line)) return detector[line].detects(top);
    std::vector<double> scaled(top.begin(), top.end());
    for (double& x : scaled) x *= finite_t->scale(line, trial);
    return detector[line].detects(scaled);
  }
};

Lines read_lines(const std::string& path, const RefineOptions& options) {
  const assemble::SweepData data = assemble::read_sweep(path);
  const sweep::SweepConfig& c = data.config;
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
  // The finite-T edges cost an eigenvalue problem per line (per trial where they move from draw to
  // draw): only when that rule is refined.
  if (options.rule == assemble::Rule::finite_t_edge) {
    lines.finite_t = std::make_shared<const assemble::FiniteTEdges>(base, c.weighting, a);
    std::int64_t largest = 0;
    std::size_t own = 0;
    for (std::size_t l = 0; l < a.lines(); ++l) {
      if (!lines.finite_t->per_trial(l)) continue;
      ++own;
      largest = std::max(largest, lines.finite_t->gram_size(l));
    }
    if (own > 0)
      std::fprintf(stderr,
                   "rmtsweep refine: finite_t_edge judges each trial of %zu line(s) with few pooled tokens by its own "
                   "edge: every trial there costs one eigenvalue problem of size up to %lld on rank 0 (about 2.5 s "
                   "at 3200 on a 2-core machine, as the cube of the size)\n",
                   own, static_cast<long long>(largest));
  }
  const auto finite_t = lines.finite_t ? lines.finite_t->references()
                                       : std::vector<double>(a.lines(), std::numeric_limits<double>::quiet_NaN());
  const auto finite_t_points =
      lines.finite_t ? assemble::scaled_by_trial_edge(a, data.points, *lines.finite_t) : std::vector<assemble::PointRecord>{};
  const auto rules = assemble::detection_tables(a, data.points, theory.bulk_edge_right, finite_t, options.margin,
                                                assemble::default_null_alpha, lines.finite_t ? &finite_t_points : nullptr);
  const auto& rule = *std::find_if(rules.begin(), rules.end(), [&](const auto& t) { return t.rule == options.rule; });
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

/// The line of a refined row (its stored grid indices).
std::size_t line_of(const Lines& lines, const sweep::RefinedRows& rows, std::size_t r) {
  return lines.axes.line(static_cast<std::size_t>(rows.weighting_index[r]),
                         lines.d_position.at(static_cast<std::size_t>(rows.d_index[r])),
                         lines.delta_position.at(static_cast<std::size_t>(rows.delta_index[r])),
                         lines.gamma_position.at(static_cast<std::size_t>(rows.gamma_index[r])));
}

/// The point (line, snr, trial) of the grid's sweep: the grid's parameters of its line with this snr and trial.
sweep::RefinedPoint refined_point(const sweep::Grid& grid, const Lines& lines, std::size_t line, double snr, int trial) {
  const assemble::Axes& a = lines.axes;
  const std::size_t j = line % a.gamma.size(), i = (line / a.gamma.size()) % a.delta.size();
  const std::size_t n = (line / (a.gamma.size() * a.delta.size())) % a.d.size();
  const std::size_t w = line / (a.gamma.size() * a.delta.size() * a.d.size());
  sweep::GridCoordinates at;
  at.weighting = w;
  at.d = lines.d_index[n];
  at.delta = lines.delta_index[i];
  at.gamma = lines.gamma_index[j];
  sweep::RefinedPoint point{grid.params(grid.index(at)), at};
  point.params.snr = snr;
  point.params.trial = trial;
  return point;
}

/// What rank 0 decided for a round, broadcast: rows to give (with their points) and rows to compute.
struct RoundPlan {
  std::vector<std::int64_t> new_rows;  ///< rows given to new points this round
  std::vector<double> new_snr;
  std::vector<std::int64_t> new_line, new_trial;
  std::vector<std::int64_t> compute_rows;  ///< new rows and pending ones of this round's points
  std::vector<double> compute_snr;
  std::vector<std::int64_t> compute_line, compute_trial;
  std::int64_t block_rows = 0;  ///< > 0: first add a block of this many rows
  bool stop = false;
};

/// Replays the refinement on rank 0 and returns the next round's plan (see the header comment).
class Replay {
 public:
  Replay(Lines lines, const RefineOptions& options, int grid_trials)
      : lines_(std::move(lines)), options_(options), trials_(lines_.axes.lines(), grid_trials) {}

  RoundPlan next(const sweep::RefinedRows& rows, std::int64_t capacity) {
    RoundPlan plan;
    std::map<Key, std::size_t> stored;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows.status[r] == static_cast<std::int64_t>(sweep::PointStatus::unused)) continue;
      stored[{line_of(lines_, rows, r), rows.snr[r], static_cast<int>(rows.trial[r])}] = r;
    }
    std::vector<refine::Proposal> round;
    std::vector<std::size_t> round_line;
    bool anything_new = false;
    for (std::size_t l = 0; l < lines_.axes.lines(); ++l) {
      if (!(lines_.detector[l].threshold == lines_.detector[l].threshold)) continue;  // no rule here
      std::vector<refine::Observation> seen = lines_.grid[l];
      for (const auto& [key, row] : stored) {
        if (std::get<0>(key) != l || !proposed_.count(key)) continue;
        if (rows.status[row] != static_cast<std::int64_t>(sweep::PointStatus::done)) continue;
        const std::span<const double> top(rows.top_eigenvalues.data() + row * static_cast<std::size_t>(rows.k),
                                          static_cast<std::size_t>(rows.k));
        seen.push_back({std::get<1>(key), std::get<2>(key), lines_.detected(l, std::get<2>(key), top)});
      }
      refine::DesignOptions design;
      design.tolerance = options_.tolerance;
      design.max_trials = std::max(options_.trials, trials_[l]);
      design.start_snr = lines_.start_snr[l];
      int after = trials_[l];
      const auto proposals = refine::design_line(seen, trials_[l], design, after);
      trials_[l] = after;
      for (const auto& p : proposals) {
        const Key key{l, p.snr, p.trial};
        if (p.snr > model::max_snr || lines_.grid_keys.count(key) || proposed_.count(key)) continue;
        if (used_ >= options_.max_points) {
          budget_spent_ = true;
          break;
        }
        proposed_.insert(key);
        ++used_;
        anything_new = true;
        round.push_back(p);
        round_line.push_back(l);
      }
    }
    if (!anything_new) {
      plan.stop = true;
      return plan;
    }
    // Rows: the stored ones of this round's points; unused rows for the others, in ascending order.
    std::vector<std::int64_t> unused;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows.status[r] == static_cast<std::int64_t>(sweep::PointStatus::unused)) unused.push_back(static_cast<std::int64_t>(r));
    }
    std::size_t next_unused = 0;
    std::int64_t next_new = capacity;
    for (std::size_t p = 0; p < round.size(); ++p) {
      const Key key{round_line[p], round[p].snr, round[p].trial};
      const auto found = stored.find(key);
      if (found != stored.end()) {
        if (rows.status[found->second] != static_cast<std::int64_t>(sweep::PointStatus::pending)) continue;
        plan.compute_rows.push_back(static_cast<std::int64_t>(found->second));
      } else {
        const std::int64_t row = next_unused < unused.size() ? unused[next_unused++] : next_new++;
        plan.new_rows.push_back(row);
        plan.new_snr.push_back(round[p].snr);
        plan.new_line.push_back(static_cast<std::int64_t>(round_line[p]));
        plan.new_trial.push_back(round[p].trial);
        plan.compute_rows.push_back(row);
      }
      plan.compute_snr.push_back(round[p].snr);
      plan.compute_line.push_back(static_cast<std::int64_t>(round_line[p]));
      plan.compute_trial.push_back(round[p].trial);
    }
    // A new block holds what this round needs and room for more, up to the budget, at most 65536 rows
    // beyond the need: preallocated rows cost their bytes even when never used.
    if (next_new > capacity) {
      const std::int64_t room = std::min<std::int64_t>(options_.max_points - capacity, block_chunk);
      plan.block_rows = std::max(next_new - capacity, room);
    }
    return plan;
  }

  const Lines& lines() const noexcept { return lines_; }
  std::int64_t used() const noexcept { return used_; }
  bool budget_spent() const noexcept { return budget_spent_; }
  const std::vector<int>& trials() const noexcept { return trials_; }

 private:
  Lines lines_;
  RefineOptions options_;
  std::vector<int> trials_;
  std::set<Key> proposed_;
  std::int64_t used_ = 0;
  bool budget_spent_ = false;
};

RoundPlan broadcast_plan(RoundPlan plan, MPI_Comm comm) {
  plan.new_rows = parallel::broadcast(std::move(plan.new_rows), comm);
  plan.new_snr = parallel::broadcast(std::move(plan.new_snr), comm);
  plan.new_line = parallel::broadcast(std::move(plan.new_line), comm);
  plan.new_trial = parallel::broadcast(std::move(plan.new_trial), comm);
  plan.compute_rows = parallel::broadcast(std::move(plan.compute_rows), comm);
  plan.compute_snr = parallel::broadcast(std::move(plan.compute_snr), comm);
  plan.compute_line = parallel::broadcast(std::move(plan.compute_line), comm);
  plan.compute_trial = parallel::broadcast(std::move(plan.compute_trial), comm);
  plan.block_rows = parallel::broadcast(plan.block_rows, comm);
  plan.stop = parallel::broadcast(plan.stop, comm);
  return plan;
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

/// Mismatches between the stored config and the points' parameter columns (rank 0): a config
/// edited by hand no longer describes the file's points.
std::vector<std::string> config_mismatches(const std::string& path) {
  const sweep::SweepReader reader(path);
  const sweep::Grid grid(reader.config());
  std::vector<std::string> out;
  if (reader.points() != grid.size()) {
    out.push_back("the stored config gives " + std::to_string(grid.size()) + " points, /points holds " +
                  std::to_string(reader.points()));
    return out;
  }
  std::vector<theory::Prediction> predictions;
  for (std::int64_t i = 0; i < grid.size(); ++i) predictions.push_back(theory::predict(grid.params(i)));
  for (const sweep::Column* column : sweep::point_columns()) {
    if (column->phase != sweep::ColumnPhase::parameter || column->type == sweep::ColumnType::text ||
        !reader.has(*column))
      continue;
    const std::vector<double> stored = reader.reals(*column);
    for (std::int64_t i = 0; i < grid.size(); ++i) {
      const model::PointParams params = grid.params(i);
      const sweep::GridCoordinates at = grid.coordinates(i);
      const sweep::Cell cell = column->parameter({params, at, predictions[static_cast<std::size_t>(i)]});
      const double expected = std::holds_alternative<double>(cell) ? std::get<double>(cell)
                                                                  : static_cast<double>(std::get<std::int64_t>(cell));
      const double x = stored[static_cast<std::size_t>(i)];
      const bool same = (std::isnan(x) && std::isnan(expected)) ||
                        std::abs(x - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
      if (!same) {
        out.push_back("/points/" + std::string(column->name) + " of point " + std::to_string(i) + " holds " +
                      model::format_double(x) + ", the stored config gives " + model::format_double(expected));
        break;
      }
    }
  }
  return out;
}

io::FileLock lock_for_refine(const std::string& path, MPI_Comm comm) {
  io::FileLock lock;
  const auto outcome = parallel::decided_on_root(comm, [&] {
    lock = io::FileLock::try_exclusive(io::lock_path(path));
    if (lock.outcome() == io::FileLock::Outcome::unsupported) {
      std::fprintf(stderr, "rmtsweep refine: note: cannot lock %s (%s): run nothing else on %s meanwhile\n",
                   io::lock_path(path).c_str(), lock.reason().c_str(), path.c_str());
    }
    return lock.outcome();
  });
  if (outcome == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidOption("file", path,
                        "a file no other process is writing: a running `rmtsweep run`, `refine` or `assemble` holds "
                        "its lock (" + io::lock_path(path) + ")");
  }
  return lock;
}

std::string joined_command_line(int argc, char** argv) {
  std::string text = "rmtsweep";
  for (int i = 0; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

/// The summary per line on rank 0: the per-trial estimate of each line after the refinement.
void print_summary(const Replay& replay, const sweep::RefinedRows& rows, const RefineOptions& options) {
  const Lines& lines = replay.lines();
  const assemble::Axes& a = lines.axes;
  std::vector<std::vector<refine::Observation>> seen = lines.grid;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] != static_cast<std::int64_t>(sweep::PointStatus::done)) continue;
    const std::size_t l = line_of(lines, rows, r);
    const std::span<const double> top(rows.top_eigenvalues.data() + r * static_cast<std::size_t>(rows.k),
                                      static_cast<std::size_t>(rows.k));
    seen[l].push_back({rows.snr[r], static_cast<int>(rows.trial[r]), lines.detected(l, static_cast<int>(rows.trial[r]), top)});
  }
  std::printf("%-18s %9s %9s %8s %8s %9s %9s %9s %9s\n", "weighting", "delta", "gamma", "d", "trials", "threshold",
              "err", "res_err", "spread");
  std::size_t unmet = 0;
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t n = 0; n < a.d.size(); ++n) {
      for (std::size_t i = 0; i < a.delta.size(); ++i) {
        for (std::size_t j = 0; j < a.gamma.size(); ++j) {
          const std::size_t l = a.line(w, n, i, j);
          const auto e = refine::estimate_line(refine::trial_brackets(seen[l], replay.trials()[l]));
          if (!(e.err <= options.tolerance)) ++unmet;
          std::printf("%-18s %9.4g %9.4g %8d %8d %9.4f %9.4f %9.4f %9.4f%s\n", a.weighting[w].c_str(), a.delta[i],
                      a.gamma[j], a.d[n], e.trials, e.threshold, e.err, e.resolution_err, e.spread_err,
                      e.err <= options.tolerance ? "" : "  (tolerance not reached)");
        }
      }
    }
  }
  std::printf("rmtsweep refine: %lld refined points in all; %zu of %zu lines above the tolerance %g%s\n",
              static_cast<long long>(replay.used()), unmet, a.lines(), options.tolerance,
              replay.budget_spent() ? " (budget --max-points spent)" : "");
}

}  // namespace

int command_refine(int argc, char** argv) {
  int rank = 0, size = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  bool help = false;
  const RefineOptions options = parse_refine_options(argc, argv, help);
  if (help) return 0;
  const std::string& path = options.path;
  const bool is_sweep = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) && io::is_hdf5_file(path);
  });
  if (!is_sweep) throw InvalidOption("file", path, "an existing rmtsweep HDF5 sweep file");
  io::FileLock lock = lock_for_refine(path, MPI_COMM_WORLD);
  const parallel::Communicator io_comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const std::string stored = sweep::SweepFile::stored_config(path, io_comm);  // refuses other files
  // A config edited by hand no longer describes the points: refused, with the difference.
  const std::string mismatches = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    std::string text;
    for (const auto& line : config_mismatches(path)) text += "  " + line + "\n";
    return text;
  });
  if (!mismatches.empty()) {
    if (rank == 0) {
      std::fprintf(stderr, "rmtsweep refine: the config stored in %s does not describe its points:\n%s", path.c_str(),
                   mismatches.c_str());
    }
    throw InvalidOption("file", path,
                        "a sweep file whose stored config describes its points (was the config attribute edited?)");
  }
  sweep::Grid grid(sweep::parse_sweep_config(sweep::config_lines(stored)));
  const sweep::SweepConfig& config = grid.config();
  if (size % config.ranks_per_point != 0) {
    throw InvalidOption("ranks_per_point", std::to_string(config.ranks_per_point),
                        "an integer >= 1 that divides the number of MPI ranks (" + std::to_string(size) + ")");
  }
  parallel::configure_blas_threads(MPI_COMM_WORLD);

  // Rank 0 reads the grid's done points before the file is opened in parallel.
  std::unique_ptr<Replay> replay;
  Lines lines_root;
  if (rank == 0) lines_root = read_lines(path, options);
  const Lines geometry = geometry_everywhere(lines_root, MPI_COMM_WORLD);
  if (rank == 0) replay = std::make_unique<Replay>(std::move(lines_root), options, config.trials);

  sweep::RunInfo run;
  run.command_line = parallel::broadcast(joined_command_line(argc, argv), MPI_COMM_WORLD);
  run.started = parallel::broadcast(utc_now(), MPI_COMM_WORLD);
  run.mpi_ranks = size;
  run.ranks_per_point = config.ranks_per_point;
  run.eigensolver = config.eigensolver;
  sweep::install_stop_handlers();
  sweep::SweepFile file = sweep::SweepFile::open_for_resume(path, io_comm, grid, run);
  sweep::RefineFile refined(file.handle(), config, file.k(), file.run_index());
  if (rank == 0) {
    std::fprintf(stderr, "rmtsweep refine: %s: tolerance %g, at most %d trials per line and %lld refined points, rule %s\n",
                 path.c_str(), options.tolerance, options.trials, static_cast<long long>(options.max_points),
                 assemble::to_string(options.rule));
  }
  std::int64_t computed = 0, failed = 0;
  int stopped = 0, round = 0;
  for (; round < options.max_rounds; ++round) {
    RoundPlan plan;
    if (rank == 0) plan = replay->next(sweep::read_refined_rows(file.handle()), refined.capacity());
    plan = broadcast_plan(std::move(plan), MPI_COMM_WORLD);
    if (plan.stop) break;
    if (plan.block_rows > 0) refined.add_block(plan.block_rows);
    if (rank == 0) {
      std::vector<sweep::RefinedPoint> points;
      for (std::size_t p = 0; p < plan.new_rows.size(); ++p) {
        points.push_back(refined_point(grid, geometry, static_cast<std::size_t>(plan.new_line[p]), plan.new_snr[p],
                                       static_cast<int>(plan.new_trial[p])));
      }
      refined.write_pending(plan.new_rows, points);
    }
    sweep::PointBatch batch;
    batch.label = "rmtsweep refine";
    batch.total = static_cast<std::int64_t>(plan.compute_rows.size());
    for (std::size_t p = 0; p < plan.compute_rows.size(); ++p) {
      batch.points.push_back(refined_point(grid, geometry, static_cast<std::size_t>(plan.compute_line[p]),
                                           plan.compute_snr[p], static_cast<int>(plan.compute_trial[p]))
                                 .params);
    }
    // Hand-out order as for the grid: costliest first, the points of one noise table together.
    std::vector<std::size_t> order(batch.points.size());
    for (std::size_t p = 0; p < order.size(); ++p) order[p] = p;
    const auto key = [&](std::size_t p) {
      const model::PointParams& q = batch.points[p];
      return std::make_tuple(-sweep::point_cost(q, config), q.d, q.delta, q.trial, q.snr, p);
    };
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
    std::vector<model::PointParams> sorted;
    std::vector<std::int64_t> rows;
    for (const std::size_t p : order) {
      sorted.push_back(batch.points[p]);
      rows.push_back(plan.compute_rows[p]);
    }
    batch.points = std::move(sorted);
    batch.id_of = [&](std::size_t at) { return rows[at]; };
    batch.write_done = [&](std::size_t at, const simulate::PointResult& result, double seconds) {
      refined.write_done(rows[at], result, seconds);
    };
    batch.write_failed = [&](std::size_t at, const std::string& message, double seconds) {
      refined.write_failed(rows[at], message, seconds);
    };
    const sweep::RunOutcome outcome = sweep::run_batch(batch, config, MPI_COMM_WORLD, nullptr);
    io::flush(file.handle());  // the round's raw data reach the file before rank 0 reads them back
    computed += outcome.computed;
    failed += outcome.failed;
    if (rank == 0) {
      std::fprintf(stderr, "rmtsweep refine: round %d: %lld new points, %lld computed (%lld failed), %.2f s\n", round,
                   static_cast<long long>(plan.new_rows.size()), static_cast<long long>(outcome.computed),
                   static_cast<long long>(outcome.failed), outcome.wall_seconds);
    }
    if (outcome.stop_signal != 0) {
      stopped = outcome.stop_signal;
      break;
    }
  }
  if (rank == 0 && stopped == 0) print_summary(*replay, sweep::read_refined_rows(file.handle()), options);
  refined.close();
  file.close();
  lock.release();
  if (stopped != 0) {
    if (rank == 0) std::fprintf(stderr, "rmtsweep refine: stopped by signal %d; the same command continues\n", stopped);
    return 128 + stopped;
  }
  if (rank == 0 && round == options.max_rounds)
    std::fprintf(stderr, "rmtsweep refine: --max-rounds %d reached\n", options.max_rounds);
  return failed > 0 ? 3 : 0;
}

}  // namespace rmtsweep::app
