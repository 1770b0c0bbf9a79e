#pragma once
// The point journal of `rmtsweep run` (include/rmtsweep/store/journal.hpp): what a run does with an
// existing FILE.h5.journal before it writes, and the journal writer it attaches to the sweep file.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/verify.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {

/// Whether this run keeps a journal: yes unless RMTSWEEP_JOURNAL=off in rank 0's environment, a switch
/// for measuring the journal's cost only (docs/reliability.md): a file written without one cannot
/// be recovered.
bool journal_enabled(MPI_Comm comm);

/// `run --resume` where FILE.h5 is missing or cannot be read as a sweep file (cut short, damaged) and its
/// journal holds points: rank 0 rebuilds it first with store::recover_sweep (before the run takes the
/// lock, which recover takes and releases), keeping the file that was there as FILE.h5.damaged-<UTC>,
/// and says so; the run then resumes the rebuilt file. Nothing happens otherwise. A rebuild that fails
/// (another sweep's journal, a full disk) refuses the run on every rank (InvalidOption "resume").
void recover_before_resume(const std::string& output, MPI_Comm comm);

/// Decided on rank 0 with the sweep's lock held, before the sweep file is created or opened; every rank
/// returns or throws alike. A new sweep (`resuming` false): an existing journal is moved aside, to
/// FILE.h5.journal.replaced-<UTC>, with --force or when it holds no point; without --force a journal
/// holding points is refused (InvalidOption): `rmtsweep recover` rebuilds its file from it. A resume
/// refuses a journal of another sweep (its sweep_id) or one holding runs the file does not record.
void prepare_journal(const std::string& output, bool resuming, bool force, MPI_Comm comm);

/// The journal files of earlier runs as a run begins (rank 0): name and size, so that the run can tell at
/// its end whether another process removed or cut one meanwhile (a file this run writes checks itself:
/// store::JournalWriter). Empty elsewhere.
using JournalSnapshot = std::map<std::string, std::uintmax_t>;
JournalSnapshot snapshot_journal(const std::string& output, MPI_Comm comm);

/// Says (stderr, rank 0) which files of `before` are gone or shorter now: their points are lost to
/// `rmtsweep recover` (the sweep file still holds them).
void report_journal_losses(const std::string& output, const JournalSnapshot& before);

/// `run --resume`: rank 0 compares the file with its journal (when `journal`) and its config
/// (store/verify.hpp) before the file is opened in parallel: the points whose stored values differ from
/// what was written (flipped bytes), on rank 0; empty on the others.
std::vector<store::DamagedPoint> find_damage(const std::string& output, bool journal, MPI_Comm comm);

/// Rank 0 restores the points `damaged` in the open `file` and says so: a point its journal record vouches
/// for is written again from it, the creation-time cells from the grid and `predictions`, and a point no
/// record vouches for is made pending, so that this run computes it again. Collective: a failed write ends
/// every rank alike (AgreedFailure).
void repair_damage(store::SweepFile& file, const std::string& output, const config::Grid& grid,
                   const std::vector<theory::Prediction>& predictions,
                   const std::vector<store::DamagedPoint>& damaged, MPI_Comm comm);

/// Creates FILE.h5.journal (rank 0) and attaches to `file` this rank's journal writer (collective:
/// the head is read from the open file); rank 0's journal file is created at once, a group leader's
/// other than rank 0 with its first point. With `building`, rank 0 creates that directory instead (a new
/// sweep's journal built under a temporary name, sweep_creation.hpp), which the caller renames to
/// FILE.h5.journal before any other leader writes. A failure on rank 0 ends every rank (AgreedFailure).
void attach_journal(store::SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm,
                    const std::string& building = {});

}  // namespace rmtsweep::app
