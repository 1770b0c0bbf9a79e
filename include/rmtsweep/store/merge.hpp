#pragma once
/// `rmtsweep merge OUT.h5 SHARD.h5...`: the files of the shards of one sweep (`run --shard i/n`,
/// shard.hpp) combined into one sweep file, as a single run of the whole sweep would have written it.
///
/// The shards must hold the same sweep: the same stored config (config.hpp same_sweep), schema, draws and
/// rmtsweep version, and shards of one split (the same n, each i once). A point done or failed in two files
/// is refused (an overlap: two copies of one shard, or a shard and a whole sweep), whether or not their
/// values are equal: which to keep is for the user to say, by giving one. A point done in none (a gap: a
/// shard missing or unfinished) is refused unless `allow_partial`, the message naming the shards missing and
/// the files with points of their own pending; with it those points are pending in the output, where `run
/// --resume` computes them.
///
/// The output is created as `run` creates a file (SweepFile::create: every dataset, the grid, the parameter
/// and theory columns from the config), then each point is written from the file that holds it (its
/// measurement cells and spectrum row bit for bit, status last; recover.hpp writes a journal's records
/// alike), each /lines row from the file whose points it belongs to, before its points. Its provenance: a new
/// sweep_id, the shards' versions, their runs one after the other (run_<i>_shard saying which shard each
/// computed; /points/run renumbered to match) and `merged`, naming the files. No journal: it is built as
/// OUT.h5.merging and renamed to OUT.h5 only when complete, so nothing half-written is ever at OUT.h5. An
/// existing OUT.h5 is replaced only with `force`.
#include <cstdint>
#include <string>
#include <vector>

namespace rmtsweep::store {

struct MergeOptions {
  std::string output;
  std::vector<std::string> inputs;  ///< the shards' files
  bool allow_partial = false;       ///< write the output even where points are done in no file
  bool force = false;               ///< replace an existing output (its journal moved aside)
  std::string command_line;         ///< recorded in the output's `merged` attribute
};

struct MergeOutcome {
  std::int64_t points = 0, done = 0, failed = 0, pending = 0;
  std::vector<std::string> notes;  ///< lines for the user: the shards missing, a journal moved aside
};

/// Writes options.output (serial: one process, its own MPI_COMM_SELF file). Throws InvalidArgument (exit 2)
/// for refused arguments (an output that exists: `force` would replace it; overlaps; gaps: `allow_partial`),
/// InvalidFile (exit 2) for a file that is not a shard of the same sweep, FileIoError when the output cannot
/// be written (then nothing at OUT.h5 changed).
MergeOutcome merge_sweeps(const MergeOptions& options);

}  // namespace rmtsweep::store
