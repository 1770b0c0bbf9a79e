#pragma once
// The point journal of `rmtsweep run` (include/rmtsweep/sweep/journal.hpp): what a run does with an
// existing FILE.h5.journal before it writes, and the journal writer it attaches to the sweep file.
#include <mpi.h>

#include <string>

#include "rmtsweep/sweep/sweep_file.hpp"

namespace rmtsweep::app {

/// Whether this run keeps a journal: yes unless RMTSWEEP_JOURNAL=off in rank 0's environment, a switch
/// for measuring the journal's cost only (README "Reliability"): a file written without one cannot
/// be recovered.
bool journal_enabled(MPI_Comm comm);

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
