#pragma once
/// How a new sweep file is created ("the creation window", docs/reliability.md): atomically, so that a
/// creation killed at any moment leaves either nothing at the file's path or a complete, resumable file.
/// Both the file and its journal are built under temporary names and renamed into place (io::StagedPath):
///
/// 1. rank 0 removes what an earlier creation killed before its end left: FILE.h5.creating and
///    FILE.h5.journal.creating (temporary names nothing else uses; the run holds FILE.h5.lock);
/// 2. the file is created, collectively, as FILE.h5.creating: every dataset, the grid, the parameter and
///    theory columns, then `schema_version` last (sweep_file.hpp), flushed;
/// 3. with a journal, rank 0 builds it as FILE.h5.journal.creating/ with its head (synced);
/// 4. rank 0 renames the journal to FILE.h5.journal, then the file to FILE.h5 (rename(2) is atomic; it
///    replaces an old file under --force), and syncs the directory.
///
/// A kill before step 4 leaves no FILE.h5 (and no journal): `run --resume` then starts the sweep, and the
/// next creation removes the leftovers; a kill between the two renames leaves a journal without a point
/// (moved aside by the next creation, as any old journal); after step 4 the file is complete and its
/// journal holds its head.
#include <mpi.h>

#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/store/provenance.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::store {

/// "FILE.h5.creating": where the new sweep file `output` is built (a file found there is a creation's that
/// was killed before its end: SweepReader says so).
std::string creating_name(const std::string& output);

/// Creates the sweep file `output` by the steps above on every rank of `comm` and returns it open (its
/// journal attached when `journal`). A failure of the collective create (a full disk) removes the partial
/// file and ends the job; a failure of rank 0's journal or rename ends every rank alike (AgreedFailure).
SweepFile create_sweep_file(const std::string& output, MPI_Comm comm, const config::Grid& grid,
                            const std::vector<theory::Prediction>& predictions, const RunInfo& run,
                            bool journal);

}  // namespace rmtsweep::store
