#pragma once
/// The messages of failed points: where a run keeps them and how they reach the sweep file.
///
/// Since schema_version 3, /points/error and each /refine block's error are variable-length strings: a
/// row takes a 16-byte descriptor, and a message the file's global heap, instead of the 1024 bytes every
/// row of the fixed-length column took (about 60 of the 176 MiB of
/// jobs/configs/phase_transitions_cluster.ini), and a message is kept whole. Parallel HDF5 1.10 creates such
/// a dataset but cannot write it, so a failed point's message goes, in this order, into
///  1. its journal record (journal.hpp), before the point's status reaches the file;
///  2. the memory of the rank that wrote the point (DeferredMessages), while the file is open in parallel;
///  3. the file, when it is closed (SweepFile::close): every rank's messages go to rank 0, which opens the
///     file serially after the parallel close and settles each table.
/// The rule that settles a table: a row's error is its message when its status is failed, else empty; where
/// that changes /points/error, the root attribute `messages_run` then records the run whose close wrote it.
/// (The file is read first, and opened for writing only where a message changes, without HDF5's file lock,
/// beside readers, as the parallel writer writes it: io::open_file_beside_readers.) A run killed before its
/// close leaves the messages of the points it failed in its journal only (its rows' /points/run is later
/// than messages_run: `status` shows their messages from the journal, `recover` rebuilds the file with
/// them, `--resume` computes those points again and writes their new outcome), and the message of an
/// earlier failure on a point it then computed, which the next close empties (`status` and
/// rmtsweep.read_points show the messages of failed points only); the next close that changes /points
/// writes such messages from the journal before it moves messages_run past their run (where the journal has
/// none, messages_run stops before it). Files of schema_version 1 and 2 keep their fixed-length /points
/// column, written in place as before (the /refine blocks a refine adds to them are variable-length).
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::store {

/// The messages a rank wrote into variable-length error columns while their file is open in parallel.
class DeferredMessages {
 public:
  /// Keeps `message` for row `row` of the table `table` ("points", or a /refine block "refine/block_<i>"),
  /// cut at its first NUL as the file stores a text; a later message for the same row replaces it.
  void add(const std::string& table, std::int64_t row, std::string_view message);
  bool empty() const noexcept { return tables_.empty(); }

  /// Collective on `comm`, once every rank closed the file at `path`: every rank's messages go to rank 0,
  /// which opens the file serially and settles /points and each table that has messages; then they are
  /// forgotten. A failure on rank 0 (a full disk) ends every rank alike: AgreedFailure, whose cause is the
  /// FileIoError naming the file.
  void write(const std::string& path, MPI_Comm comm);

 private:
  std::map<std::string, std::map<std::int64_t, std::string>> tables_;
};

/// The root attribute: the latest run (index) whose close wrote into /points/error.
inline constexpr std::string_view messages_run_attribute = "messages_run";

/// Per point whether /points/error holds what the run that wrote the point wrote: a fixed-length column
/// (written with the point), or a variable-length one last written by that run's close or a later one's
/// (its /points/run, `run`, no later than messages_run; a close that changed nothing leaves it unsaid).
std::vector<char> messages_settled(const SweepReader& reader, const std::vector<std::int64_t>& run);

/// Per point of the sweep file: the message of a failed point, empty for the others. A failed point whose
/// message the file does not hold yet (messages_settled false: its run was killed before its close, or still
/// runs) takes the message of its latest record in `journal` (the file's own; null: none) when that record
/// is a failure.
std::vector<std::string> failure_messages(const SweepReader& reader, const Journal* journal);

}  // namespace rmtsweep::store
