// Creating a new sweep file atomically (src/app/sweep_creation.hpp).
#include "sweep_creation.hpp"

#include <filesystem>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/journal.hpp"
#include "run_journal.hpp"

namespace rmtsweep::app {
namespace {

/// SweepFile::create; when it fails (a full disk, a quota), the partly written file is removed by
/// every rank that saw the failure (its creation never completed, no point is in it), so that the
/// same command starts it again once there is room. Then main aborts the job.
store::SweepFile create_or_remove(const std::string& path, const std::string& output, MPI_Comm comm,
                                  const config::Grid& grid, const std::vector<theory::Prediction>& predictions,
                                  const store::RunInfo& run) {
  try {
    return store::SweepFile::create(path, comm, grid, predictions, run);
  } catch (const Hdf5Error& e) {
    // Told before the removal frees the file system's space (file_error looks at it).
    const FileIoError told =
        io::file_error(output, "create the sweep file", e,
                       "the partly written file was removed: once there is room, run the same command again");
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) throw told.with_note(" -- but removing it failed (" + ec.message() + "): remove it first");
    throw told;
  }
}

/// Removes a leftover of a creation killed before its end (step 1): only under our own temporary names,
/// a regular file and a directory of journal files.
void remove_leftovers(const std::string& file, const std::string& journal) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::filesystem::symlink_status(file, ec)) &&
      !std::filesystem::remove(file, ec))
    throw io::os_file_error(file, "remove an interrupted creation's file", ec.value());
  if (std::filesystem::is_directory(std::filesystem::symlink_status(journal, ec))) {
    for (const auto& entry : std::filesystem::directory_iterator(journal, ec)) {
      if (entry.path().extension() != ".jrnl") {
        throw InvalidFile(journal,
                          "holds " + entry.path().filename().string() +
                              ", which no rmtsweep wrote there: move it out, then run the same command");
      }
    }
    std::filesystem::remove_all(journal, ec);
    if (ec) throw io::os_file_error(journal, "remove an interrupted creation's journal", ec.value());
  }
}

}  // namespace

std::string building_name(const std::string& output) { return output + ".creating"; }

store::SweepFile create_sweep_file(const std::string& output, MPI_Comm comm, const config::Grid& grid,
                                   const std::vector<theory::Prediction>& predictions,
                                   const store::RunInfo& run, bool journal) {
  const bool root = parallel::rank_of(comm) == 0;
  const std::string building = building_name(output);
  const std::string journal_building = store::journal_directory(output) + ".creating";
  parallel::agreed(comm, [&] {
    if (root) remove_leftovers(building, journal_building);
  });
  store::SweepFile file = create_or_remove(building, output, comm, grid, predictions, run);
  if (journal) attach_journal(file, output, grid.size(), comm, journal_building);
  parallel::agreed(comm, [&] {
    if (!root) return;
    if (journal) {
      io::rename_path(journal_building, store::journal_directory(output),
                      "put the new sweep's journal in place");
      file.journal()->moved_to(store::journal_directory(output));
    }
    io::rename_path(building, output, "put the new sweep file in place");
  });
  file.moved_to(output);
  return file;
}

}  // namespace rmtsweep::app
