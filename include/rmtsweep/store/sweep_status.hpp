#pragma once
/// What a sweep file's state is beyond its own columns (`rmtsweep status` reports it): the journal beside the
/// file compared with it, whether a run holds the file's lock now, the latest run's rate and ETA, the
/// progress of each size and the failed points with their messages.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/verify.hpp"

namespace rmtsweep::store {

/// The point journal beside a sweep file (journal.hpp), compared with the file's statuses.
struct JournalState {
  enum class Kind { agrees, in_flight, disagrees, missing, other_sweep, unreadable };
  Kind kind = Kind::missing;
  std::string directory;
  /// missing: what is at the directory's path ("is missing", "is a regular file, ..."); unreadable: the
  /// error; other_sweep: the journal's sweep_id.
  std::string problem;
  std::optional<Journal> journal;  ///< when it was read
  JournalAgreement agreement;      ///< agrees, in_flight, disagrees
};

/// "agrees", "in_flight" (agrees but for points in flight: the journal holds them and the file does not yet),
/// "disagrees", "missing", "other_sweep", "unreadable".
const char* to_string(JournalState::Kind kind);

/// Reads the journal of the sweep file `path` (sweep_id: the file's) and compares it with `status`.
/// Points the journal holds and the file marks pending are in flight, not a disagreement: while a run
/// holds the file's lock (`run_writes`), every such point of the latest run's records (the file catches up
/// with its records as the run's writes reach it); otherwise only the last record of each of the latest
/// run's writers (a killed run's last point). agreement.in_flight counts them. Never throws for the
/// journal: a journal that cannot be read is Kind::unreadable.
JournalState journal_state(const std::string& path, const std::string& sweep_id,
                           const std::vector<std::int64_t>& status, bool run_writes = false);

/// Whether a run writes the file now (it holds the file's lock, io::FileLock), and how far its latest
/// run has come: the points it finished (/points/run), and while it runs, its rate since it started
/// (run_N_started). Its ETA is sweep::running_eta's (sweep/eta.hpp), which weighs the points by the plan.
struct Activity {
  std::string lock_path;
  io::LockHolder lock = io::LockHolder::none;
  std::string lock_problem;           ///< why the lock's state is unknown
  std::int64_t latest_run = -1;       ///< the index of the latest run (-1: none recorded)
  std::string latest_started;         ///< its run_N_started, ISO 8601 UTC
  std::int64_t latest_mpi_ranks = 0;  ///< its run_N_mpi_ranks (0: unrecorded)
  std::int64_t finished_by_latest =
      -1;  ///< points it finished (done or failed); -1 where /points/run is missing
  std::optional<double> elapsed_seconds, points_per_second;  ///< while a run holds the lock
  bool running() const noexcept { return lock == io::LockHolder::another_process; }
};

/// The activity of the sweep file `reader` reads, its statuses `status`.
Activity activity_of(const SweepReader& reader, const std::vector<std::int64_t>& status);

/// How far one size of a sweep is: its done points of all.
struct SizeProgress {
  int d = 0;
  std::int64_t done = 0, total = 0;
};

/// Per size of the sweep `reader` reads (its config's d, in order), the points done of `status`.
std::vector<SizeProgress> progress_by_size(const SweepReader& reader,
                                           const std::vector<std::int64_t>& status);

/// A failed point of a sweep file: where it is and why.
struct FailedPoint {
  std::size_t point = 0;
  std::int64_t d = 0, trial = 0;
  double delta = 0, gamma = 0, snr = 0;
  std::string weighting;
  /// /points/error, or the journal's record where the run that failed the point did not close the file
  /// (failure_messages); empty where neither holds one.
  std::string message;
};

/// The failed points of `status`, in file order, with their messages (the journal's read where `journal`
/// holds this sweep's).
std::vector<FailedPoint> failed_points(const SweepReader& reader, const std::vector<std::int64_t>& status,
                                       const JournalState& journal);

/// verify_sweep (verify.hpp) against the file's own journal, where it is this sweep's and reads; else
/// against none (the creation-time columns and the status only).
Verification verify_with_journal(const SweepReader& reader);

/// Where a sweep stands, as `status` ends (its exit status, docs/commands.md): every point done or failed;
/// points pending (a run holds them, or `--resume` computes them); damage found (verify_sweep, or a status
/// that is none of pending, done and failed), whatever else holds.
enum class SweepState { done, pending, damaged };

/// Points pending in the file whose journal holds a result for them and that no writer has in flight: a
/// status flipped from done or failed (damage, which `run --resume` restores from the records).
std::int64_t flipped_statuses(const JournalState& journal) noexcept;

/// The state of a sweep of `counts`, with `verification` and `checksums` where it was verified (null:
/// --no-verify) and its `journal` where it was read: damaged too where a status flipped (flipped_statuses).
SweepState sweep_state(const StatusCounts& counts, const Verification* verification,
                       const ChecksumReport* checksums = nullptr,
                       const JournalState* journal = nullptr) noexcept;

/// "done", "pending", "damaged".
const char* to_string(SweepState state) noexcept;

}  // namespace rmtsweep::store
