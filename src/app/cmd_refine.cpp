// `rmtsweep refine FILE.h5 [--tolerance 0.01] [--trials K] [--max-points M] [--detection RULE]`:
// adaptive refinement of every line's threshold (issue 19; docs/refinement.md).
//
// Rounds. Rank 0 reads the grid's done points once and, each round, the refined rows; it decides
// the round's points (refine/design.hpp) from done results only, broadcasts them, writes them as
// pending (refine_file.hpp), and every rank computes them with the sweep's dynamic schedule
// (sweep::run_batch). Round r's decision uses the grid and the results of the points rounds 0..r-1
// proposed, never other rows of the file: a rerun after a kill replays the rounds from the start,
// finds their points done (or pending: then computes them), and continues exactly where an
// uninterrupted refine would be. Exit status: 0 finished (tolerance reached, or the budget spent:
// the summary says which lines); 2 invalid option; 3 some refined points failed; 128 + signal.
// Rank 0's view of the lines is refine_lines.hpp's, the rounds' replay refine_replay.hpp's.
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
#include <variant>
#include <vector>

#include "commands.hpp"
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
#include "rmtsweep/sweep/runner.hpp"
#include "rmtsweep/sweep/sweep_file.hpp"
#include "rmtsweep/sweep/sweep_reader.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {
namespace {

RefineOptions parse_refine_options(int argc, char** argv, bool& help) {
  RefineOptions o;
  std::string tolerance = "0.01", trials = "64", max_points = "20000", detection = "edge", rounds = "60";
  po::options_description options(
      "Usage: mpirun -np P rmtsweep refine FILE.h5 [options]\n\nAdds points near each line's threshold until "
      "its "
      "standard error is below --tolerance (docs/refinement.md)");
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
