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

/// What a resume finds damaged in the file before it opens it (find_damage), on rank 0.
struct Damage {
  /// Points whose stored values differ from their journal record or the config, or whose row fails its
  /// checksum (verify_sweep), each with the record that vouches for it where one does.
  std::vector<DamagedPoint> points;
  /// Points pending in the file whose latest record holds them done or failed (Verification).
  std::vector<DamagedPoint> pending;
  /// Rows of /lines that fail their checksum, as the journal's latest line records hold them.
  std::vector<LineRecord> lines;
  /// Lines whose row fails its checksum and that no record holds: their points are computed again.
  std::vector<std::int64_t> lines_without_record;
  /// Datasets written whole at creation that fail their checksum: rewritten from the config.
  std::vector<std::string> datasets;
  /// Datasets that fail their checksum and that a resume cannot restore (Repairer::recover, ::assemble).
  std::vector<std::string> unrepaired;
  bool empty() const noexcept {
    return points.empty() && pending.empty() && lines.empty() && lines_without_record.empty() &&
           datasets.empty() && unrepaired.empty();
  }
};

/// A resume: rank 0 compares the file with its journal (when `journal`) and its config (verify.hpp), and
/// checks its checksums (checksums.hpp), before the file is opened in parallel: what differs from what was
/// written (flipped bytes), on rank 0; empty on the others.
Damage find_damage(const std::string& output, bool journal, MPI_Comm comm);

/// What repair_damage did.
struct Repair {
  std::int64_t restored = 0;          ///< damaged points written again from their journal records
  std::int64_t again = 0;             ///< points made pending, computed again by this run
  std::int64_t pending_restored = 0;  ///< pending points written from their done or failed records
  std::int64_t lines_restored = 0;    ///< /lines rows written again from their records
  std::int64_t lines_again = 0;       ///< points of lines without a record made pending
  std::int64_t datasets = 0;          ///< datasets rewritten from the config
};

/// Restores `damaged` in the open `file`: rank 0 writes a point its journal record vouches for again from
/// it, its creation-time cells from the grid and `predictions`, a pending point whose record holds it done
/// or failed from that record, and a line's row from its record, each with its checksum; a point no record
/// vouches for, and the points of a line no record holds, are made pending, so that this run computes them
/// again. Then every rank rewrites the damaged datasets written at creation from the config (their checksum
/// attributes are written collectively). Collective: a failed write ends every rank alike (AgreedFailure).
Repair repair_damage(SweepFile& file, const config::Grid& grid,
                     const std::vector<theory::Prediction>& predictions, const Damage& damaged,
                     MPI_Comm comm);

/// Creates FILE.h5.journal (rank 0) and attaches to `file` this rank's journal writer (collective:
/// the head is read from the open file); rank 0's journal file is created at once, a group leader's
/// other than rank 0 with its first point. With `building`, rank 0 creates that directory instead (a new
/// sweep's journal built under a temporary name, sweep_creation.hpp), which the caller renames to
/// FILE.h5.journal before any other leader writes. A failure on rank 0 ends every rank (AgreedFailure).
void attach_journal(SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm,
                    const std::string& building = {});

}  // namespace rmtsweep::store
