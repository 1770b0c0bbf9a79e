// `rmtsweep refine FILE.h5 [--tolerance 0.01] [--trials K] [--max-points M] [--detection RULE]`:
// adaptive refinement of every line's threshold (docs/refinement.md).
//
// The rounds are the refine library's (include/rmtsweep/refine/refinement.hpp); this command checks the file
// and the ranks, holds the file's lock, checks the file's checksums and prints the summary. Exit status: 0
// every line within the tolerance; 2 invalid option; 3 some refined points failed; 4 some lines' error still
// above the tolerance when the budget is spent, or checksums failing in rows refine would read (nothing
// computed); 128 + signal.
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "command_options.hpp"
#include "commands.hpp"
#include "damage_text.hpp"
#include "output_path.hpp"
#include "point_options.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/phase_tables.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/refine/refinement.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/writer_lock.hpp"
#include "rmtsweep/sweep/runner.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {
namespace {

refine::RefineOptions parse_refine_options(int argc, char** argv, bool& help) {
  refine::RefineOptions o;
  std::string tolerance, trials, max_points, detection,
      rounds;  // as typed; the defaults are refine::RefineOptions'
  po::options_description options;
  options.add_options()("file", po::value<std::string>(&o.path), "the sweep file");
  add_command_option(options, config::in_refine, "tolerance", &tolerance);
  add_command_option(options, config::in_refine, "trials", &trials);
  add_command_option(options, config::in_refine, "max-points", &max_points);
  add_command_option(options, config::in_refine, "max-rounds", &rounds);
  add_command_option(options, config::in_refine, "detection", &detection);
  add_command_option(options, config::in_refine, "skip-damaged", &o.skip_damaged);
  options.add_options()("help,h", po::bool_switch(&help), "this help");
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
  if (o.max_points < 1 || o.max_points > 100000000)
    throw InvalidOption("max-points", max_points, points_allowed);
  const std::string rounds_allowed = "allowed: an integer 1 <= max-rounds <= 10000";
  const std::int64_t r = model::parse_integer(rounds, "max-rounds", rounds_allowed);
  if (r < 1 || r > 10000) throw InvalidOption("max-rounds", rounds, rounds_allowed);
  o.max_rounds = static_cast<int>(r);
  o.rule = assemble::parse_rule(detection);
  return o;
}

io::FileLock lock_for_refine(const std::string& path, MPI_Comm comm) {
  io::FileLock lock;
  const auto outcome = parallel::decided_on_root(comm, [&] {
    lock = io::FileLock::for_writing(path);
    if (lock.outcome() == io::FileLock::Outcome::unsupported) {
      std::fprintf(stderr, "rmtsweep refine: note: cannot lock %s (%s): run nothing else on %s meanwhile\n",
                   io::lock_path(path).c_str(), lock.reason().c_str(), path.c_str());
    }
    return lock.outcome();
  });
  if (outcome == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidOption("file", path, store::held_elsewhere_text(path));
  }
  return lock;
}

std::string joined_command_line(int argc, char** argv) {
  std::string text = "rmtsweep";
  for (int i = 0; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

/// The summary per line on rank 0: each line's estimate after the refinement, as the replay sees it.
/// Returns the lines whose error is still above the tolerance.
std::size_t print_summary(const refine::RefineOutcome& outcome, const refine::RefineOptions& options) {
  const assemble::Axes& a = outcome.axes;
  std::printf("%-18s %9s %9s %8s %6s %8s %9s %9s %9s %9s\n", "weighting", "delta", "gamma", "d", "how",
              "trials", "threshold", "err", "res_err", "spread");
  std::size_t unmet = 0;
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t n = 0; n < a.d.size(); ++n) {
      for (std::size_t i = 0; i < a.delta.size(); ++i) {
        for (std::size_t j = 0; j < a.gamma.size(); ++j) {
          const refine::LineSummary& e = outcome.summaries[a.line(w, n, i, j)];
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
              static_cast<long long>(outcome.used), unmet, a.lines(), options.tolerance,
              outcome.budget_spent ? " (budget --max-points spent)" : "");
  return unmet;
}

/// What the checksums found that refine goes on with (rank 0, stderr): damaged datasets it does not read, and
/// the rows --skip-damaged leaves out.
void print_damage_left(const std::string& path, const assemble::DamagePlan& damage) {
  std::string names;
  for (const auto* datasets : {&damage.unread, &damage.phase})
    for (const std::string& dataset : *datasets) names += " " + dataset;
  if (!names.empty())
    std::fprintf(stderr,
                 "rmtsweep refine: warning: %s: checksums fail in%s, which refine does not read; `rmtsweep "
                 "status %s` names the damage and what repairs it\n",
                 path.c_str(), names.c_str(), path.c_str());
  if (damage.points.empty() && damage.lines.empty()) return;
  std::fprintf(stderr,
               "rmtsweep refine: warning: %s: left out as damaged (--skip-damaged): %zu done points (%s) and "
               "%zu lines' secular forms (%s); refine again once `rmtsweep status %s` finds them repaired\n",
               path.c_str(), damage.points.size(),
               damage.points.empty() ? "none" : listed(damage.points).substr(1).c_str(), damage.lines.size(),
               damage.lines.empty() ? "none" : listed(damage.lines).substr(1).c_str(), path.c_str());
}

}  // namespace

int command_refine(int argc, char** argv) {
  int rank = 0, size = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  bool help = false;
  const refine::RefineOptions options = parse_refine_options(argc, argv, help);
  if (help) return 0;
  const std::string& path = options.path;
  const bool is_sweep = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) && io::is_hdf5_file(path);
  });
  if (!is_sweep) throw InvalidOption("file", path, "an existing rmtsweep HDF5 sweep file");
  const parallel::Communicator io_comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const std::string stored = store::SweepFile::stored_config(path, io_comm, "file");  // refuses other files
  // Rank 0 tries to open it for writing (a read-only file system, a permission) before the collective open,
  // whose failure on every rank would end in MPI_Abort's banner.
  const std::string unwritable =
      parallel::decided_on_root(MPI_COMM_WORLD, [&] { return output_write_problem(path, true, path); });
  if (!unwritable.empty()) throw InvalidOption("file", path, unwritable);
  io::FileLock lock = lock_for_refine(path, MPI_COMM_WORLD);
  // Every checksum of the sweep file before anything is read or computed (rank 0; a file of schema_version 3
  // or older has none): damaged rows are refused, or left out with --skip-damaged (assemble::plan_for_damage,
  // phase_tables.hpp).
  assemble::DamagePlan damage;  // rank 0's
  const std::string refusal = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    try {
      const store::SweepReader reader(path);
      damage = assemble::plan_for_damage(store::check_checksums(reader.file()));
    } catch (const Hdf5Error& e) {
      throw io::file_error(path, "read the sweep file", e);
    }
    return damage_refusal(path, damage, options.skip_damaged, refine_words);
  });
  if (!refusal.empty()) {
    if (rank == 0) std::fprintf(stderr, "rmtsweep refine: %s: %s\n", path.c_str(), refusal.c_str());
    return 4;
  }
  if (rank == 0) print_damage_left(path, damage);
  // A config edited by hand no longer describes the points: refused, with the difference.
  const std::string mismatches = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    std::string text;
    for (const auto& line : refine::stored_config_mismatches(path)) text += "  " + line + "\n";
    return text;
  });
  if (!mismatches.empty()) {
    if (rank == 0) {
      std::fprintf(stderr, "rmtsweep refine: the config stored in %s does not describe its points:\n%s",
                   path.c_str(), mismatches.c_str());
    }
    throw InvalidOption(
        "file", path,
        "a sweep file whose stored config describes its points (was the config attribute edited?)");
  }
  config::Grid grid(config::parse_sweep_config(store::config_lines(stored)));
  const config::SweepConfig& config = grid.config();
  if (size % config.ranks_per_point != 0) {
    throw InvalidOption(
        "ranks_per_point", std::to_string(config.ranks_per_point),
        "an integer >= 1 that divides the number of MPI ranks (" + std::to_string(size) + ")");
  }
  parallel::configure_blas_threads(MPI_COMM_WORLD);

  // Rank 0 reads the grid's done points before the file is opened in parallel.
  refine::Refinement refinement(path, grid, options, MPI_COMM_WORLD, damage.left_out());
  store::RunInfo run;
  run.command_line = parallel::broadcast(joined_command_line(argc, argv), MPI_COMM_WORLD);
  run.started = parallel::broadcast(utc_now(), MPI_COMM_WORLD);
  run.mpi_ranks = size;
  run.ranks_per_point = config.ranks_per_point;
  run.eigensolver = config.eigensolver;
  sweep::install_stop_handlers();
  const refine::RefineOutcome outcome = refinement.run(run, stderr);
  const auto unmet = parallel::broadcast(
      static_cast<std::int64_t>(rank == 0 && outcome.stop_signal == 0 ? print_summary(outcome, options) : 0),
      MPI_COMM_WORLD);
  lock.release();
  if (outcome.stop_signal != 0) {
    if (rank == 0)
      std::fprintf(stderr, "rmtsweep refine: stopped by signal %d; the same command continues\n",
                   outcome.stop_signal);
    return 128 + outcome.stop_signal;
  }
  if (rank == 0 && outcome.rounds == options.max_rounds)
    std::fprintf(stderr, "rmtsweep refine: --max-rounds %d reached\n", options.max_rounds);
  if (outcome.failed > 0) return 3;
  if (unmet > 0) {
    if (rank == 0)
      std::fprintf(stderr,
                   "rmtsweep refine: the tolerance %g is not reached on %lld line(s) and the budget is spent "
                   "(exit status %d): a larger --max-points or --max-rounds, or a larger --tolerance\n",
                   options.tolerance, static_cast<long long>(unmet), tolerance_not_met_exit);
    return tolerance_not_met_exit;
  }
  return 0;
}

}  // namespace rmtsweep::app
