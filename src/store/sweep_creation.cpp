// Creating a new sweep file atomically (include/rmtsweep/store/sweep_creation.hpp).
#include "rmtsweep/store/sweep_creation.hpp"

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/run_journal.hpp"

namespace rmtsweep::store {
namespace {

/// SweepFile::create at `staged`; when it fails (a full disk, a quota), the partly written file is removed
/// by every rank that saw the failure (its creation never completed, no point is in it), so that the same
/// command starts it again once there is room. Then main aborts the job.
SweepFile create_or_remove(io::StagedPath& staged, MPI_Comm comm, const config::Grid& grid,
                           const std::vector<theory::Prediction>& predictions, const RunInfo& run) {
  try {
    return SweepFile::create(staged.path(), comm, grid, predictions, run);
  } catch (const Hdf5Error& e) {
    // Told before the removal frees the file system's space (file_error looks at it).
    const FileIoError told =
        io::file_error(staged.target(), "create the sweep file", e,
                       "the partly written file was removed: once there is room, run the same command again");
    if (const std::error_code ec = staged.discard())
      throw told.with_note(" -- but removing it failed (" + ec.message() + "): remove it first");
    throw told;
  }
}

}  // namespace

std::string creating_name(const std::string& output) {
  return io::StagedPath::fixed_name(output, "creating");
}

SweepFile create_sweep_file(const std::string& output, MPI_Comm comm, const config::Grid& grid,
                            const std::vector<theory::Prediction>& predictions, const RunInfo& run,
                            bool journal) {
  const bool root = parallel::rank_of(comm) == 0;
  io::StagedPath staged = io::StagedPath::fixed(output, "creating");
  io::StagedPath staged_log = io::StagedPath::fixed(journal_directory(output), "creating");
  if (!root) {  // rank 0 alone clears them, puts them in place, or removes them when a later step fails
    staged.release();
    staged_log.release();
  }
  parallel::agreed(comm, [&] {
    if (!root) return;
    staged.remove_leftover();
    staged_log.remove_leftover(".jrnl");
  });
  SweepFile file = create_or_remove(staged, comm, grid, predictions, run);
  if (journal) attach_journal(file, output, grid.size(), comm, staged_log.path());
  parallel::agreed(comm, [&] {
    if (!root) return;
    if (journal) {
      staged_log.put_in_place("put the new sweep's journal in place");
      file.journal()->moved_to(journal_directory(output));
    }
    staged.put_in_place("put the new sweep file in place");
  });
  file.moved_to(output);
  return file;
}

}  // namespace rmtsweep::store
