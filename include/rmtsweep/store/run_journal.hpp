#pragma once
/// The point journal around a run (journal.hpp): what a run does with an existing FILE.h5.journal before it
/// writes, the journal writer it attaches to the sweep file, and the damage the journal finds and repairs.
/// Collective functions decide on rank 0 and return or throw on every rank alike; what the user should hear
/// is returned (on rank 0), for the program to print.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/store/recover.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/verify.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::store {

/// Whether this run keeps a journal: yes unless RMTSWEEP_JOURNAL=off in rank 0's environment, a switch
/// for measuring the journal's cost only (docs/reliability.md): a file written without one cannot
/// be recovered.
bool journal_enabled(MPI_Comm comm);

/// What recover_before_resume did (on rank 0; nothing elsewhere).
struct ResumeRebuild {
  bool missing = false;    ///< the file was missing (else it could not be read as a sweep file)
  RecoverOutcome outcome;  ///< recover_sweep's
};

/// A resume where FILE.h5 is missing or cannot be read as a sweep file (cut short, damaged) and its journal
/// holds points: rank 0 rebuilds it first with recover_sweep (under the run's lock, `held` on rank 0),
/// keeping the file that was there as FILE.h5.damaged-<UTC>. Returns what it did on rank 0 (nothing when
/// nothing was to be done, and on the other ranks). A rebuild that fails (another sweep's journal, a full
/// disk) refuses the resume on every rank (InvalidArgument "resume").
std::optional<ResumeRebuild> recover_before_resume(const std::string& output, MPI_Comm comm,
                                                   const io::FileLock* held = nullptr);

/// Decided on rank 0 with the sweep's lock held, before the sweep file is created or opened; every rank
/// returns or throws alike. A new sweep (`resuming` false): an existing journal is moved aside, to
/// FILE.h5.journal.replaced-<UTC>, when `replace` or when it holds no point (the name it went to is
/// returned on rank 0); without `replace` a journal holding points is refused (InvalidArgument "output",
/// naming the switch `force`): `rmtsweep recover` rebuilds its file from it. A resume refuses
/// (InvalidArgument "resume") a journal of another sweep (its sweep_id) or one holding runs the file does not
/// record.
std::string prepare_journal(const std::string& output, bool resuming, bool replace, MPI_Comm comm);

/// The journal files of earlier runs as a run begins (rank 0): name and size, so that the run can tell at
/// its end whether another process removed or cut one meanwhile (a file this run writes checks itself:
/// JournalWriter). Empty elsewhere.
using JournalSnapshot = std::map<std::string, std::uintmax_t>;
JournalSnapshot snapshot_journal(const std::string& output, MPI_Comm comm);

/// A journal file of an earlier run removed or cut short while this run ran: the points of its lost records
/// are lost to recover (the sweep file still holds them).
struct JournalLoss {
  std::string path;
  std::uintmax_t bytes_before = 0;
  std::optional<std::uintmax_t> bytes_now;  ///< absent: removed
};

/// The files of `before` gone or shorter now.
std::vector<JournalLoss> journal_losses(const std::string& output, const JournalSnapshot& before);

/// A resume: rank 0 compares the file with its journal (when `journal`) and its config (verify.hpp) before
/// the file is opened in parallel: the points whose stored values differ from what was written (flipped
/// bytes), on rank 0; empty on the others.
std::vector<DamagedPoint> find_damage(const std::string& output, bool journal, MPI_Comm comm);

/// What repair_damage did.
struct Repair {
  std::int64_t restored = 0;  ///< points written again from their journal records
  std::int64_t again = 0;     ///< points made pending, computed again by this run
};

/// Rank 0 restores the points `damaged` in the open `file`: a point its journal record vouches for is written
/// again from it, the creation-time cells from the grid and `predictions`, and a point no record vouches for
/// is made pending, so that this run computes it again. Collective: a failed write ends every rank alike
/// (AgreedFailure).
Repair repair_damage(SweepFile& file, const config::Grid& grid,
                     const std::vector<theory::Prediction>& predictions,
                     const std::vector<DamagedPoint>& damaged, MPI_Comm comm);

/// Creates FILE.h5.journal (rank 0) and attaches to `file` this rank's journal writer (collective:
/// the head is read from the open file); rank 0's journal file is created at once, a group leader's
/// other than rank 0 with its first point. With `building`, rank 0 creates that directory instead (a new
/// sweep's journal built under a temporary name, sweep_creation.hpp), which the caller renames to
/// FILE.h5.journal before any other leader writes. A failure on rank 0 ends every rank (AgreedFailure).
void attach_journal(SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm,
                    const std::string& building = {});

}  // namespace rmtsweep::store
