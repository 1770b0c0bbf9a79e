#pragma once
/// What a sweep file's root attributes record of how it was made, beside its config: its identity
/// (`sweep_id`), the versions that created it, and every run since: `run_table`, a JSON array of one object
/// per run ({"run", "started", "command_line", "mpi_ranks", "ranks_per_point", "eigensolver", "shard"}), with
/// their count `runs` and the CF attribute `history` (a line per run: "<started>: <command line>"). Files
/// written before the table hold attributes run_<i>_started, ... instead, which read alike and which a resume
/// continues (a file keeps its layout). One owner:
/// SweepFile writes and reads these attributes through this struct only, the point journal
/// (journal.hpp) carries it in its head, and `rmtsweep recover` writes it back into the rebuilt file.
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rmtsweep/config/option_values.hpp"
#include "rmtsweep/config/shard.hpp"

namespace rmtsweep::store {

/// Who runs this invocation; identical on every rank (rank 0's values are broadcast).
struct RunInfo {
  std::string command_line;
  std::string started;  ///< ISO 8601 UTC
  int mpi_ranks = 1;
  int ranks_per_point = 1;
  config::EigenSetting eigensolver = config::EigenSetting::automatic;  ///< the run's eigensolver setting
  /// The shard it computed ("2/3", `run --shard`; attribute run_<i>_shard), empty for a whole sweep.
  config::Shard shard;
};

/// Library versions recorded in the root attributes.
struct LibraryVersions {
  std::string mpi, hdf5, blas, scalapack;
};

/// Versions of the libraries this process runs with (MPI_Get_library_version,
/// H5get_libversion, openblas_get_config, the ScaLAPACK shared object's file name).
LibraryVersions library_versions();

/// The root attributes of a sweep file but for its config, point_count, point_order and
/// schema_version (which follow from the grid and the schema).
struct Provenance {
  /// A random 128-bit identity given at creation (32 hex digits): the journal of this file carries
  /// it, so that a journal is never applied to another sweep's file. Empty in files written before it.
  std::string sweep_id;
  std::string rmtsweep_version;
  std::int64_t draws_version = 0;
  std::string draws_library;
  LibraryVersions versions;
  bool fault_injection = false;  ///< fail_points was set at creation
  /// Which shard of how many the file holds (`run --shard i/n`, shard.hpp; root attributes shard_index,
  /// shard_count), 0 and 0 for a whole sweep (a merged file among them).
  config::Shard shard;
  /// Every run, in order: runs[0] created the file (root `created`, `command_line`, `mpi_ranks`, ...).
  std::vector<RunInfo> runs;
};

/// A new random sweep_id (from the system's random device), 32 lowercase hex digits.
std::string new_sweep_id();

/// The provenance of a file created now by `run` (this rmtsweep's versions, rank 0's library texts
/// broadcast on `comm`, a new sweep_id decided on rank 0); collective.
Provenance new_provenance(const RunInfo& run, bool fault_injection, MPI_Comm comm);

/// The root attribute holding the run table (JSON).
inline constexpr const char* run_table_attribute = "run_table";

namespace detail {
/// Writes every attribute of `p` on the root of `file` (collective in parallel HDF5).
void write_provenance(hid_t file, const Provenance& p);
/// Records run `index` (the run table's row, or a file's run_<i>_* of before it) and `runs` = index + 1.
void write_run_attributes(hid_t file, std::size_t index, const RunInfo& run);
/// Reads them back (a missing attribute reads as empty, 0 or the default).
Provenance read_provenance(hid_t file);
}  // namespace detail

}  // namespace rmtsweep::store
