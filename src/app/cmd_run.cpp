// `rmtsweep run`: a whole sweep into one shared HDF5 file, resumable.
//
// Exit status: 0 every point done; 2 invalid option (nothing written); 3 some points failed
// (recorded in the file); 128 + signal when stopped by SIGTERM/SIGINT (resume with --resume);
// 1 any other error (main prints it and aborts).
#include <mpi.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "feasibility.hpp"
#include "output_path.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/config/shard.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/run_journal.hpp"
#include "rmtsweep/store/sweep_creation.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/writer_lock.hpp"
#include "rmtsweep/sweep/plan.hpp"
#include "rmtsweep/sweep/runner.hpp"
#include "run_plan.hpp"
#include "sweep_options.hpp"

namespace rmtsweep::app {

std::string utc_now() { return io::utc_time("%Y-%m-%dT%H:%M:%SZ"); }

namespace {

/// Rank 0 reads the config file and broadcasts its text: every rank parses the same text, and
/// a file that only some ranks could read cannot send them down different branches (a hang).
std::optional<std::string> read_on_rank_zero(const std::string& path, MPI_Comm comm) {
  std::optional<std::string> text;
  const bool readable = parallel::decided_on_root(comm, [&] {
    text = read_local_file(path);
    return text.has_value();
  });
  if (!readable) return std::nullopt;
  return parallel::broadcast(text.value_or(""), comm);
}

enum class OutputPath : int { missing = 0, regular_file = 1, not_a_file = 2, no_directory = 3 };

/// What rank 0 sees at the output path, broadcast so that every rank takes the same branch.
OutputPath inspect_output(const std::string& path, MPI_Comm comm) {
  return parallel::decided_on_root(comm, [&] {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status))
      return std::filesystem::is_regular_file(status) ? OutputPath::regular_file : OutputPath::not_a_file;
    if (!std::filesystem::is_directory(std::filesystem::absolute(path).parent_path(), ec))
      return OutputPath::no_directory;
    return OutputPath::missing;
  });
}

/// The lock of the sweep file this run writes (io::FileLock, on FILE.h5.lock), taken on rank 0:
/// refused on every rank when another process (a run or an assemble) holds it; held until the
/// file is closed. Where nothing can be locked, the run goes on and says so.
io::FileLock lock_for_writing(const std::string& path, MPI_Comm comm) {
  io::FileLock lock;
  const auto outcome = parallel::decided_on_root(comm, [&] {
    lock = io::FileLock::for_writing(path);
    std::error_code ec;
    const bool directory = std::filesystem::is_directory(std::filesystem::absolute(path).parent_path(), ec);
    if (lock.outcome() == io::FileLock::Outcome::unsupported && directory) {
      std::fprintf(stderr,
                   "rmtsweep run: note: cannot lock %s (%s): do not run `rmtsweep assemble` or another run "
                   "on %s until this run ends\n",
                   io::lock_path(path).c_str(), lock.reason().c_str(), path.c_str());
    }
    return lock.outcome();
  });
  if (outcome == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidOption("output", path, store::held_elsewhere_text(path));
  }
  return lock;
}

/// Refuses an --output that is the file --config names (or any file given to read): `--force` would
/// overwrite what the run reads.
void refuse_reading_output(const RunArguments& args, MPI_Comm comm) {
  const bool same = parallel::decided_on_root(comm, [&] {
    return !args.config_path.empty() && !args.output.empty() && io::same_file(args.output, args.config_path);
  });
  if (same) {
    throw InvalidOption("output", args.output,
                        "a file other than the config it reads (--config " + args.config_path +
                            "): give the sweep file another name");
  }
}

void print_summary(const sweep::RunOutcome& outcome, const std::string& output) {
  std::fprintf(stderr,
               "rmtsweep run: %lld of %lld points computed in this run (%lld failed); %lld/%lld done in %s; "
               "wall %.2f s; load imbalance %.2f (max/mean busy time of the groups)\n",
               static_cast<long long>(outcome.computed), static_cast<long long>(outcome.todo),
               static_cast<long long>(outcome.failed), static_cast<long long>(outcome.done_total),
               static_cast<long long>(outcome.total), output.c_str(), outcome.wall_seconds,
               outcome.load_imbalance);
  if (outcome.krylov > 0) {
    std::fprintf(
        stderr, "rmtsweep run: S never formed (Krylov engine) in %lld of the %lld points done in this run\n",
        static_cast<long long>(outcome.krylov), static_cast<long long>(outcome.computed - outcome.failed));
  }
  if (outcome.elpa > 0) {
    std::fprintf(stderr, "rmtsweep run: S reduced by ELPA in %lld of the %lld points done in this run\n",
                 static_cast<long long>(outcome.elpa),
                 static_cast<long long>(outcome.computed - outcome.failed));
  }
  if (outcome.stop_signal != 0) {
    std::fprintf(stderr, "rmtsweep run: stopped by signal %d; continue with: rmtsweep run ... --resume\n",
                 outcome.stop_signal);
  } else if (outcome.failed > 0) {
    std::fprintf(stderr,
                 "rmtsweep run: some points failed: see `rmtsweep status %s`; --resume retries them\n",
                 output.c_str());
  }
}

/// Refuses (on every rank, before anything is written) a new file whose data and journal need more than
/// the free space rank 0 sees in its directory (statvfs: a quota is not seen; with --force the old file
/// stays until the new one replaces it, store/sweep_creation.hpp, so its blocks do not count as free), unless
/// --force-space.
void check_space(const RunArguments& args, const config::Grid& grid, bool journal) {
  const double file = sweep::file_data_bytes(grid), log = journal ? sweep::journal_data_bytes(grid) : 0.0;
  const double needed = file + log;
  const std::string directory = std::filesystem::absolute(args.output).parent_path().string();
  // Free space, and free inodes (-1: no count, as btrfs has none): a file system out of inodes says "No
  // space left on device" to a new file while df -h shows room.
  double free_inodes = -1.0;
  const double available = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    struct statvfs fs {};
    if (::statvfs(directory.c_str(), &fs) != 0) return -1.0;
    if (fs.f_files > 0) free_inodes = static_cast<double>(std::min(fs.f_favail, fs.f_ffree));
    return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
  });
  free_inodes = parallel::broadcast(free_inodes, MPI_COMM_WORLD);
  // The file, and with a journal its directory and a file per writing rank (a group's leader).
  const double inodes =
      1.0 + (journal ? 1.0 + static_cast<double>(std::max(
                                 1, parallel::size_of(MPI_COMM_WORLD) / grid.config().ranks_per_point))
                     : 0.0);
  if (!args.force_space && free_inodes >= 0.0 && free_inodes < inodes) {
    throw InvalidOption(
        "output", args.output,
        "its file system has no free inodes for it (df -i " + directory +
            "): " + model::format_double(free_inodes) + " free, and the file" +
            (journal ? ", its journal's directory and a journal file per writing rank" : std::string()) +
            " take " + model::format_double(inodes) +
            "; allowed: a file system with free inodes (remove files there, or choose another --output)");
  }
  if (args.force_space || available < 0.0 || needed <= available) return;
  throw InvalidOption(
      "output", args.output,
      "its " + std::to_string(grid.size()) + " points take at least " + sweep::memory_text(needed) +
          (journal ? " (" + sweep::memory_text(file) + " in the file, " + sweep::memory_text(log) +
                         " in its journal)"
                   : std::string()) +
          " and its file system has " + sweep::memory_text(available) +
          " free; allowed: a file that fits (free space there, or choose another --output), or "
          "--force-space to try anyway");
}

/// What `run` refuses before it writes anything, and `run --plan` alike (with the same messages): a
/// config a new file could not take (k), and the output (where --output is given; `run` requires it) that
/// is no regular file in an existing directory, exists without --resume or --force, cannot be written, or
/// does not fit. Returns whether the output exists. Every rank refuses alike.
bool check_run(const RunArguments& args, const config::Grid& grid) {
  if (args.output.empty()) {
    config::require_top_four(grid.config());
    return false;
  }
  const OutputPath output = inspect_output(args.output, MPI_COMM_WORLD);
  if (output == OutputPath::no_directory) {
    throw InvalidOption("output", args.output, "a file in an existing directory");
  }
  if (output == OutputPath::not_a_file) {
    throw InvalidOption("output", args.output, "a regular file (this path is a directory or a special file)");
  }
  const bool exists = output == OutputPath::regular_file;
  if (!(exists && args.resume)) config::require_top_four(grid.config());  // a resumed file keeps its own k
  if (exists && !args.resume && !args.force) {
    throw InvalidOption("output", args.output,
                        "exists; pass --resume to continue it or --force to overwrite it");
  }
  // Rank 0 tries the path as this run will write it (a dangling link, a directory it cannot write in,
  // a file it cannot open), before any collective create or open; every rank refuses alike.
  // A new file is built beside it under a temporary name and renamed (store/sweep_creation.hpp): its
  // directory must take new files even under --force.
  const std::string unwritable = parallel::decided_on_root(MPI_COMM_WORLD, [&] {
    const std::string building = store::creating_name(args.output);
    const std::string problem = output_write_problem(args.output, exists, building);
    return problem.empty() && exists && !args.resume ? output_write_problem(building, false, building)
                                                     : problem;
  });
  if (!unwritable.empty()) throw InvalidOption("output", args.output, unwritable);
  if (!(exists && args.resume)) check_space(args, grid, store::journal_enabled(MPI_COMM_WORLD));
  return exists;
}

/// SweepFile::open_for_resume, its failure said as the file's (an open of a damaged file, a full
/// disk when the run's attributes are recorded).
store::SweepFile open_for_resume(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                                 const store::RunInfo& run) {
  try {
    return store::SweepFile::open_for_resume(path, comm, grid, run);
  } catch (const Hdf5Error& e) {
    throw io::file_error(
        path, "open the sweep file to resume it", e,
        "once that is mended, run the same command again (`rmtsweep status` shows what it holds)");
  }
}

/// Refuses (on every rank) to resume `path` as another shard than the one it holds (its root attributes
/// shard_index and shard_count, shard.hpp): its pending points of other shards would be computed into it.
void check_resumed_shard(const std::string& path, const config::Shard& given, MPI_Comm comm) {
  const std::string stored = parallel::decided_on_root(comm, [&] {
    const store::SweepReader reader(path);
    const std::int64_t index = reader.integer_attribute("shard_index").value_or(0);
    const std::int64_t count = reader.integer_attribute("shard_count").value_or(0);
    return count > 0 ? std::to_string(index) + "/" + std::to_string(count) : std::string();
  });
  if (stored == given.text()) return;
  if (stored.empty()) {
    throw InvalidOption("shard", given.text(),
                        "none: " + path + " holds the whole sweep; resume it without --shard");
  }
  throw InvalidOption("shard", given.whole() ? std::string("(none)") : given.text(),
                      stored + ", the shard " + path + " holds: resume it with --shard " + stored +
                          " (`rmtsweep merge` combines finished shards into one file)");
}

/// What `--resume` rebuilt from the journal before it ran (store::recover_before_resume).
void print_rebuild(const std::string& output, const store::ResumeRebuild& rebuilt) {
  const store::RecoverOutcome& o = rebuilt.outcome;
  std::fprintf(stderr,
               "rmtsweep run: %s %s: rebuilt from its journal (%lld records, as `rmtsweep recover` does): "
               "%lld of %lld points done, %lld failed; resuming the rest\n",
               output.c_str(), rebuilt.missing ? "is missing" : "could not be read as a sweep file",
               static_cast<long long>(o.records), static_cast<long long>(o.done),
               static_cast<long long>(o.points), static_cast<long long>(o.failed));
  if (!o.damaged.empty())
    std::fprintf(stderr, "rmtsweep run: the file that was there is kept as %s\n", o.damaged.c_str());
  for (const std::string& note : o.notes) std::fprintf(stderr, "rmtsweep run: note: %s\n", note.c_str());
}

/// What `--resume` restored of the damaged points (store::repair_damage).
void print_repair(const std::string& output, const std::vector<store::DamagedPoint>& damaged,
                  const store::Repair& repair) {
  store::Verification said;
  for (const store::DamagedPoint& point : damaged)
    said.damaged.push_back({point.index, point.columns, std::nullopt});
  std::fprintf(
      stderr,
      "rmtsweep run: %s: %zu points held values other than those written (damaged bytes: %s): %lld restored "
      "from the journal, %lld to compute again, their damaged creation-time values rewritten from the "
      "config\n",
      output.c_str(), damaged.size(), store::describe_damage(said).c_str(),
      static_cast<long long>(repair.restored), static_cast<long long>(repair.again));
}

/// The journal files of earlier runs that another process removed or cut while this run ran.
void print_journal_losses(const std::vector<store::JournalLoss>& lost) {
  for (const store::JournalLoss& loss : lost) {
    std::fprintf(
        stderr,
        "rmtsweep run: warning: %s (of an earlier run) was %s while this run ran: the points of its "
        "lost records are lost to `rmtsweep recover` (the sweep file holds them; `rmtsweep status` counts "
        "them as without a record)\n",
        loss.path.c_str(),
        loss.bytes_now ? ("cut short (" + std::to_string(*loss.bytes_now) + " of its " +
                          std::to_string(loss.bytes_before) + " bytes left)")
                             .c_str()
                       : "removed");
  }
}

}  // namespace

int command_run(int argc, char** argv) {
  int rank = 0, size = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const RunArguments args = parse_run_arguments(
      argc, argv, [&](const std::string& path) { return read_on_rank_zero(path, MPI_COMM_WORLD); });
  if (args.help) {
    if (rank == 0) std::printf("%s", args.usage.c_str());
    return 0;
  }
  // Everything is validated, on every rank alike, before any file is touched.
  const config::Shard shard = args.shard.empty() ? config::Shard{} : config::parse_shard(args.shard);
  config::Grid grid(config::parse_sweep_config(args.values));  // with --resume, takes the file's axis values
  const config::SweepConfig& config = grid.config();
  if (args.plan_ranks == 0 && size % config.ranks_per_point != 0) {  // with --ranks, check_plan checks N
    throw InvalidOption(
        "ranks_per_point", std::to_string(config.ranks_per_point),
        "an integer >= 1 that divides the number of MPI ranks (" + std::to_string(size) + ")");
  }
  parallel::configure_blas_threads(MPI_COMM_WORLD);  // cores / ranks per node, unless set
  if (args.resume && args.force)
    throw InvalidOption("force", "with --resume", "either --resume or --force, not both");
  refuse_reading_output(args, MPI_COMM_WORLD);
  // Locked before anything reads, rebuilds, truncates or creates the file: whatever else holds it (a run,
  // refine, recover, merge or assemble, through any name of the file) is refused, --force or not. A resume
  // locks before the rebuild of a file that does not open; a new sweep after the checks of its values.
  io::FileLock lock;
  const bool journal = store::journal_enabled(MPI_COMM_WORLD);
  if (!args.plan) {
    if (args.output.empty()) throw InvalidOption("output", "", "required: the HDF5 file of the sweep");
    // A resume locks, then rebuilds an unreadable file from its journal before it is looked at (this writes:
    // not for --plan).
    if (args.resume) lock = lock_for_writing(args.output, MPI_COMM_WORLD);
    if (args.resume && journal) {
      if (const auto rebuilt = store::recover_before_resume(args.output, MPI_COMM_WORLD, &lock)) {
        (void)lock.hold_data_file(args.output);  // the rebuilt file, now at the path (rank 0)
        print_rebuild(args.output, *rebuilt);
      }
    }
  }
  // --plan refuses what the run would, by the same checks: nothing is written before they pass.
  const bool exists = check_run(args, grid);
  if (check_plan(args, grid, size)) return 0;  // --plan: printed, nothing written
  if (!args.resume) lock = lock_for_writing(args.output, MPI_COMM_WORLD);
  const parallel::Communicator io_comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const std::string resolved = config::resolved_config_text(config);
  if (exists && args.resume) {
    const bool is_hdf5 =
        parallel::decided_on_root(MPI_COMM_WORLD, [&] { return io::is_hdf5_file(args.output); });
    if (!is_hdf5) throw InvalidOption("resume", args.output, "an existing rmtsweep HDF5 sweep file");
    const std::string stored = store::SweepFile::stored_config(args.output, io_comm);
    if (!config::same_sweep(stored, resolved)) {
      if (rank == 0) {
        std::fprintf(stderr,
                     "rmtsweep run: the config differs from the one stored in %s (- stored, + given):\n",
                     args.output.c_str());
        for (const auto& line : config::config_differences(stored, resolved))
          std::fprintf(stderr, "  %s\n", line.c_str());
      }
      throw InvalidOption("resume", args.output,
                          "only with the same config as stored in the file (differences above)");
    }
    check_resumed_shard(args.output, shard, MPI_COMM_WORLD);
    // Axis values equal up to rounding (a file from before log ranges were exact at decades): the
    // points are computed with the values the file holds.
    if (stored != resolved) grid = config::Grid(config::with_stored_axes(config, stored));
  }
  if (!exists && args.resume && rank == 0) {
    std::fprintf(stderr, "rmtsweep run: %s does not exist yet: starting a new sweep\n", args.output.c_str());
  }

  // The theory of every point, of the grid the points are computed with (a resumed file's own axis values).
  const std::vector<theory::Prediction> predictions = config::grid_predictions(grid);
  if (journal) {
    const std::string moved_to =
        store::prepare_journal(args.output, exists && args.resume, args.force, MPI_COMM_WORLD);
    if (!moved_to.empty())
      std::fprintf(stderr,
                   "rmtsweep run: note: the old journal %s was moved to %s (remove it when not needed)\n",
                   store::journal_directory(args.output).c_str(), moved_to.c_str());
  }
  const store::JournalSnapshot journal_before =
      journal ? store::snapshot_journal(args.output, MPI_COMM_WORLD) : store::JournalSnapshot{};

  store::RunInfo run;
  run.command_line = parallel::broadcast(args.command_line, MPI_COMM_WORLD);
  run.started = parallel::broadcast(utc_now(), MPI_COMM_WORLD);
  run.mpi_ranks = size;
  run.ranks_per_point = config.ranks_per_point;
  run.eigensolver = config.eigensolver;
  run.shard = shard;
  sweep::install_stop_handlers();
  const bool resuming = exists && args.resume;  // with --force an existing file is recreated
  // Flipped bytes (a disk, a copy) are found before the file is opened and restored once it is.
  const std::vector<store::DamagedPoint> damaged =
      resuming ? store::find_damage(args.output, journal, MPI_COMM_WORLD)
               : std::vector<store::DamagedPoint>{};
  store::SweepFile file =
      resuming ? open_for_resume(args.output, io_comm, grid, run)
               : store::create_sweep_file(args.output, io_comm, grid, predictions, run, journal);
  // A new file is a new inode at the path: its writer's lock moves to it.
  if (!resuming && rank == 0) (void)lock.hold_data_file(args.output);
  if (journal && resuming) store::attach_journal(file, args.output, grid.size(), MPI_COMM_WORLD);
  if (resuming) {
    const store::Repair repair = store::repair_damage(file, grid, predictions, damaged, MPI_COMM_WORLD);
    if (!damaged.empty()) print_repair(args.output, damaged, repair);
  }
  if (rank == 0) {
    if (!args.quiet) {
      std::fprintf(stderr, "rmtsweep run: %s: %lld points (run %d) on %d ranks in groups of %d\n",
                   args.output.c_str(), static_cast<long long>(grid.size()), file.run_index(), size,
                   config.ranks_per_point);
    }
    if (!args.quiet && !shard.whole()) {
      const std::vector<char> mine = config::shard_points(grid, shard);
      std::fprintf(stderr,
                   "rmtsweep run: shard %s: %lld of the %lld lines, %lld points; the others stay pending "
                   "(`rmtsweep merge` combines the shards)\n",
                   shard.text().c_str(),
                   static_cast<long long>(grid.line_count() >= shard.index
                                              ? (grid.line_count() - shard.index) / shard.count + 1
                                              : 0),
                   static_cast<long long>(grid.line_count()),
                   static_cast<long long>(std::count(mine.begin(), mine.end(), 1)));
    }
    const std::string coretype = parallel::faster_blas_coretype();
    if (!coretype.empty()) {
      std::fprintf(stderr,
                   "rmtsweep run: note: OpenBLAS runs its generic Prescott kernels on this CPU; "
                   "OPENBLAS_CORETYPE=%s in the environment (jobs/*.sh set it) makes the linear algebra "
                   "3-4x faster\n",
                   coretype.c_str());
    }
  }
  const sweep::RunOutcome outcome =
      sweep::run_sweep(grid, file, MPI_COMM_WORLD, args.quiet ? nullptr : stderr, args.progress_seconds,
                       shard, args.progress_terminal);
  if (outcome.write_failed) {
    // A group leader's write of a point failed (a full disk): every rank ends alike, the file resumable
    // (its points written before are kept; the point whose record did not fit is pending).
    std::exception_ptr told = outcome.write_error;
    if (told) {
      try {
        std::rethrow_exception(told);
      } catch (const Hdf5Error& e) {
        told = std::make_exception_ptr(io::file_error(
            args.output, "write a point's results into the sweep file", e,
            "the points written before are kept and the file is resumable: once there is room, run "
            "the same command with --resume"));
      } catch (...) {
      }
    }
    throw AgreedFailure(told);
  }
  try {
    file.close();
  } catch (const Hdf5Error& e) {  // its metadata not flushed: a full disk or a quota
    throw io::file_error(args.output, "close the sweep file", e,
                         "once there is room, the same command with --resume checks what it holds");
  }
  lock.release();
  if (rank == 0) print_journal_losses(store::journal_losses(args.output, journal_before));
  if (rank == 0) print_summary(outcome, args.output);
  if (outcome.stop_signal != 0) return 128 + outcome.stop_signal;
  return outcome.failed > 0 ? 3 : 0;
}

}  // namespace rmtsweep::app
