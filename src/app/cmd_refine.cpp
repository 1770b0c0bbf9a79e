// `rmtsweep refine FILE.h5 [--tolerance 0.01] [--trials K] [--max-points M] [--detection RULE]`:
// adaptive refinement of every line's threshold (issue 19; docs/refinement.md).
//
// Rounds. Rank 0 reads the grid's done points (and its lines' secular forms) once and, each round, the
// refined rows; it decides the round's work (refine/design.hpp) from done results only: whole new trials,
// each a line over the grid's snr values, on lines whose trials have exact thresholds, points bisecting the
// trials' brackets elsewhere (refine_replay.hpp). It broadcasts them, writes them as pending
// (refine_file.hpp, refined_line_store.hpp), and every rank computes them with the sweep's dynamic schedule
// (sweep::run_batch). Round r's decision uses the grid and the results of the points rounds 0..r-1 proposed,
// never other rows of the file: a rerun after a kill replays the rounds from the start, finds their points
// done (or pending: then computes them), and continues exactly where an uninterrupted refine would be. Exit
// status: 0 finished (tolerance reached, or the budget spent: the summary says which lines); 2 invalid
// option; 3 some refined points failed; 128 + signal. Rank 0's view of the lines is refine_lines.hpp's, the
// rounds' replay refine_replay.hpp's.
#include <mpi.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "output_path.hpp"
#include "point_options.hpp"
#include "refine_lines.hpp"
#include "refine_replay.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/refine/design.hpp"
#include "rmtsweep/sweep/refine_file.hpp"
#include "rmtsweep/sweep/refined_line_store.hpp"
#include "rmtsweep/sweep/runner.hpp"
#include "rmtsweep/sweep/sweep_file.hpp"
#include "rmtsweep/sweep/sweep_reader.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {
namespace {

RefineOptions parse_refine_options(int argc, char** argv, bool& help) {
  RefineOptions o;
  std::string tolerance = "0.01", trials = "64", max_points = "20000", detection = "edge", rounds = "60";
  po::options_description options;
  options.add_options()("file", po::value<std::string>(&o.path), "the sweep file")(
      "tolerance", po::value<std::string>(&tolerance)->default_value(tolerance),
      "target standard error of every line's threshold [snr]")(
      "trials", po::value<std::string>(&trials)->default_value(trials),
      "trials per line at most (the grid's included): more are added where the spread between trials "
      "dominates (on lines with exact thresholds always: each a line over the grid's snr)")(
      "max-points", po::value<std::string>(&max_points)->default_value(max_points),
      "refined points in the file at most (over every refine of it)")(
      "max-rounds", po::value<std::string>(&rounds)->default_value(rounds), "rounds at most")(
      "detection", po::value<std::string>(&detection)->default_value(detection),
      "the rule whose threshold is refined: edge, eigengap, null or finite_t_edge")(
      "help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(argc, argv, options, "refine", help, o.path, "rmtsweep refine FILE.h5 [options]",
                          "Adds trials (where every trial's threshold is exact) or points near each line's "
                          "threshold until its standard error is below --tolerance (docs/refinement.md); "
                          "under MPI: mpirun -np P rmtsweep refine ..."))
    return o;
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

/// The summary per line on rank 0: each line's estimate after the refinement, as the replay sees it.
void print_summary(const Replay& replay, const std::vector<LineSummary>& summaries,
                   const RefineOptions& options) {
  const assemble::Axes& a = replay.lines().axes;
  std::printf("%-18s %9s %9s %8s %6s %8s %9s %9s %9s %9s\n", "weighting", "delta", "gamma", "d", "how",
              "trials", "threshold", "err", "res_err", "spread");
  std::size_t unmet = 0;
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t n = 0; n < a.d.size(); ++n) {
      for (std::size_t i = 0; i < a.delta.size(); ++i) {
        for (std::size_t j = 0; j < a.gamma.size(); ++j) {
          const LineSummary& e = summaries[a.line(w, n, i, j)];
          if (!(e.err <= options.tolerance)) ++unmet;
          std::printf("%-18s %9.4g %9.4g %8d %6s %8d %9.4f %9.4f %9.4f %9.4f%s\n", a.weighting[w].c_str(),
                      a.delta[i], a.gamma[j], a.d[n], e.exact ? "exact" : "bisect", e.trials, e.threshold,
                      e.err, e.resolution_err, e.spread_err,
                      e.err <= options.tolerance ? "" : "  (tolerance not reached)");
        }
      }
    }
  }
  std::printf("rmtsweep refine: %lld refined points in all; %zu of %zu lines above the tolerance %g%s\n",
              static_cast<long long>(replay.used()), unmet, a.lines(), options.tolerance,
              replay.budget_spent() ? " (budget --max-points spent)" : "");
}

/// The round's units of work in hand-out order, as for the grid: costliest first, the units of one noise
/// table together. A unit is a point alone (bisection) or a new trial's line over the grid's snr (exact
/// lines).
struct RoundBatch {
  std::vector<model::PointParams> points;
  std::vector<std::int64_t> rows;      ///< per point: its /refine row
  std::vector<char> wanted;            ///< per point: whether it is written
  std::vector<std::size_t> units;      ///< unit starts, then the number of points
  std::vector<std::int64_t> line_row;  ///< per point: its unit's /refine/lines row (-1 for a point alone)
};

RoundBatch round_batch(const RoundPlan& plan, const sweep::Grid& grid, const Lines& geometry) {
  const sweep::SweepConfig& config = grid.config();
  struct Unit {
    std::size_t begin, end;
    std::tuple<double, int, double, int, double, std::size_t> key;
  };
  std::vector<Unit> units;
  std::vector<model::PointParams> params(plan.compute_rows.size());
  for (std::size_t p = 0; p < params.size(); ++p) {
    params[p] = refined_point(grid, geometry, static_cast<std::size_t>(plan.compute_line[p]),
                              plan.compute_snr[p], static_cast<int>(plan.compute_trial[p]))
                    .params;
  }
  for (std::size_t u = 0; u + 1 < plan.unit_starts.size(); ++u) {
    const auto begin = static_cast<std::size_t>(plan.unit_starts[u]),
               end = static_cast<std::size_t>(plan.unit_starts[u + 1]);
    const model::PointParams& q = params[begin];
    const double cost =
        end - begin > 1 ? sweep::line_cost(q, end - begin, config) : sweep::point_cost(q, config);
    units.push_back({begin, end, std::make_tuple(-cost, q.d, q.delta, q.trial, q.snr, u)});
  }
  std::sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) { return x.key < y.key; });
  RoundBatch batch;
  for (const Unit& unit : units) {
    batch.units.push_back(batch.points.size());
    const std::int64_t line_row = plan.unit_line_row[static_cast<std::size_t>(std::get<5>(unit.key))];
    for (std::size_t p = unit.begin; p < unit.end; ++p) {
      batch.points.push_back(params[p]);
      batch.rows.push_back(plan.compute_rows[p]);
      batch.wanted.push_back(static_cast<char>(plan.compute_wanted[p] != 0));
      batch.line_row.push_back(line_row);
    }
  }
  batch.units.push_back(batch.points.size());
  return batch;
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
  const parallel::Communicator io_comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const std::string stored = sweep::SweepFile::stored_config(path, io_comm, "file");  // refuses other files
  // Rank 0 tries to open it for writing (a read-only file system, a permission) before the collective open,
  // whose failure on every rank would end in MPI_Abort's banner.
  const std::string unwritable =
      parallel::decided_on_root(MPI_COMM_WORLD, [&] { return output_write_problem(path, true, path); });
  if (!unwritable.empty()) throw InvalidOption("file", path, unwritable);
  io::FileLock lock = lock_for_refine(path, MPI_COMM_WORLD);
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
  sweep::RefineFile refined(file.handle(), config, file.k(), file.run_index(), file.messages());
  sweep::RefinedLineStore refined_lines(file.handle(), config);
  const FormReader read_form = [&](std::int64_t row, std::int64_t count) {
    return refined_lines.read(row, count);
  };
  if (rank == 0) {
    std::fprintf(stderr, "rmtsweep refine: %s: tolerance %g, at most %d trials per line and %lld refined points, rule %s\n",
                 path.c_str(), options.tolerance, options.trials, static_cast<long long>(options.max_points),
                 assemble::to_string(options.rule));
  }
  std::int64_t computed = 0, failed = 0;
  int stopped = 0, round = 0;
  for (; round < options.max_rounds; ++round) {
    RoundPlan plan;
    if (rank == 0) {
      plan = replay->next(sweep::read_refined_rows(file.handle()), refined.capacity(),
                          sweep::read_refined_line_rows(file.handle()), refined_lines.capacity(), read_form);
    }
    plan = broadcast_plan(std::move(plan), MPI_COMM_WORLD);
    if (plan.stop) break;
    if (plan.block_rows > 0) refined.add_block(plan.block_rows);
    for (std::size_t b = 0; b < plan.line_block_d.size(); ++b)
      refined_lines.add_block(static_cast<std::size_t>(plan.line_block_d[b]), plan.line_block_rows[b]);
    if (rank == 0) {
      std::vector<sweep::RefinedPoint> points;
      for (std::size_t p = 0; p < plan.new_rows.size(); ++p) {
        points.push_back(refined_point(grid, geometry, static_cast<std::size_t>(plan.new_line[p]), plan.new_snr[p],
                                       static_cast<int>(plan.new_trial[p])));
      }
      refined.write_pending(plan.new_rows, points);
      std::vector<sweep::GridCoordinates> at;
      for (std::size_t i = 0; i < plan.new_line_rows.size(); ++i) {
        at.push_back(line_coordinates(geometry, static_cast<std::size_t>(plan.new_line_line[i]),
                                      static_cast<int>(plan.new_line_trial[i])));
      }
      refined_lines.write_pending(plan.new_line_rows, at);
    }
    const RoundBatch work = round_batch(plan, grid, geometry);
    sweep::PointBatch batch;
    batch.label = "rmtsweep refine";
    batch.total = std::count(work.wanted.begin(), work.wanted.end(), 1);
    batch.points = work.points;
    batch.units = work.units;
    batch.wanted = work.wanted;
    batch.id_of = [&](std::size_t at) { return work.rows[at]; };
    batch.write_done = [&](std::size_t at, const simulate::PointResult& result, double seconds) {
      refined.write_done(work.rows[at], result, seconds);
    };
    batch.write_failed = [&](std::size_t at, const std::string& message, double seconds) {
      refined.write_failed(work.rows[at], message, seconds);
    };
    // A new trial's secular form before its points: a done point's trial has its exact threshold.
    batch.write_line = [&](std::size_t first, const simulate::LineResult& line) {
      if (work.line_row[first] >= 0)
        refined_lines.write(work.line_row[first], line.secular, line.recomputed_alone.empty());
    };
    const sweep::RunOutcome outcome = sweep::run_batch(batch, config, MPI_COMM_WORLD, nullptr);
    if (outcome.write_failed) throw AgreedFailure(outcome.write_error);  // a full disk: every rank ends alike
    io::flush(file.handle());  // the round's raw data reach the file before rank 0 reads them back
    computed += outcome.computed;
    failed += outcome.failed;
    if (rank == 0) {
      std::fprintf(
          stderr,
          "rmtsweep refine: round %d: %lld new points (%zu new trials as whole lines), %lld computed (%lld "
          "failed), %.2f s\n",
          round, static_cast<long long>(plan.new_rows.size()), plan.new_line_rows.size(),
          static_cast<long long>(outcome.computed), static_cast<long long>(outcome.failed),
          outcome.wall_seconds);
    }
    if (outcome.stop_signal != 0) {
      stopped = outcome.stop_signal;
      break;
    }
  }
  if (rank == 0 && stopped == 0) {
    print_summary(*replay,
                  replay->summaries(sweep::read_refined_rows(file.handle()),
                                    sweep::read_refined_line_rows(file.handle()), read_form),
                  options);
  }
  refined_lines.close();
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
