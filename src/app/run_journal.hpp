#pragma once
// The point journal of `rmtsweep run` (include/rmtsweep/sweep/journal.hpp): what a run does with an
// existing FILE.h5.journal before it writes, and the journal writer it attaches to the sweep file.
#include <mpi.h>

#include <string>

#include "rmtsweep/sweep/sweep_file.hpp"

namespace rmtsweep::app {

/// Whether this run keeps a journal: yes unless RMTSWEEP_JOURNAL=off in rank 0's environment, a switch
/// for measuring the journal's cost only (docs/reliability.md): a file written without one cannot
/// be recovered.
bool journal_enabled(MPI_Comm comm);

/// `run --resume` where FILE.h5 is missing or cannot be read as a sweep file (cut short, damaged) and its
/// journal holds points: rank 0 rebuilds it first with sweep::recover_sweep (before the run takes the
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

/// Creates FILE.h5.journal (rank 0) and attaches to `file` this rank's journal writer (collective:
/// the head is read from the open file); rank 0's journal file is created at once, a group leader's
/// other than rank 0 with its first point.
void attach_journal(sweep::SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm);

}  // namespace rmtsweep::app
