#pragma once
/// CRC-32 checksums of the bytes a sweep file's readers read back (schema_version 4 on):
/// - a dataset written whole (the grid's axes, the columns of /points written at creation, /points/point,
///   each size's /spectra/d<d>/point, every /phase dataset) carries the attribute `checksum`, the CRC-32 of
///   its values, written with them by every rank alike (the values are the grid's, which every rank holds);
/// - a point's row, which its group's leader writes alone while the others compute, has its own CRC-32 in
///   /checksums/points, written by that leader with the row and before its status: over every measured
///   cell (the variable-length message excepted, written at the close), its status and its spectrum row;
/// - a line's row of /lines has its own in /checksums/lines/d<d>;
/// - a dimension without values (`k`, `eigenvalue_index`) must read all zeros;
/// - each /refine/block_<i> (refine_file.hpp) has two per row, written by whoever writes that part of the
///   row: `parameters_checksum` over its parameter cells (rank 0, when it gives the row to a point, before
///   its status) and `checksum` over its measured cells (the variable-length message excepted) and its
///   status (the group leader that computed it, before the status; rank 0 for the pending row it gives); a
///   row not given yet must hold the datasets' fill values; each /refine/lines/block_<b>
///   (refined_line_store.hpp) has `checksum` over each row's secular form, as /lines, and
///   `identity_checksum` over its grid positions and trial (rank 0, before the trial). A block written by an
///   rmtsweep before these has none: its datasets are listed as not checksummed.
/// The values are encoded as stored: a real or an integer as its 8 bytes (little-endian), a fixed-length
/// text as its stored bytes (cut to its width, padded with NULs). Files of earlier schema versions have
/// none of these: `status` says "not checksummed" for them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/journal.hpp"

namespace rmtsweep::store {

/// The CRC-32 of values as readers read them back.
class Checksum {
 public:
  void add(double value);
  void add(std::int64_t value);
  /// A text as a dataset of `width` bytes stores it: cut to `width` and padded with NULs (0: whole, then a
  /// NUL).
  void add(std::string_view text, std::size_t width = 0);
  /// Bytes as stored.
  void add_raw(const char* data, std::size_t size);
  void add(const std::vector<double>& values);
  void add(const std::vector<std::int64_t>& values);
  void add(const std::vector<std::string>& values, std::size_t width = 0);
  /// A cell of a /points column (width: its text's stored width).
  void add(const Cell& cell, std::size_t width);
  /// Its low 31 bits: a value every netCDF reader holds (xarray casts int64 to int32 for netCDF-3), -1 free
  /// for "none yet".
  std::int64_t value() const noexcept { return static_cast<std::int64_t>(crc_ & 0x7fffffffUL); }

 private:
  void bytes(const void* data, std::size_t size);
  unsigned long crc_ = 0;
};

/// The name of the attribute a dataset's checksum is kept in.
inline constexpr const char* checksum_attribute = "checksum";
/// The row checksums of /points and of each size's /lines (schema_version 4 on).
inline constexpr const char* checksums_group = "/checksums";
inline constexpr const char* point_checksums_path = "/checksums/points";
std::string line_checksums_path(int d);
/// A row checksum not written yet (a pending point, a line not computed).
inline constexpr std::int64_t no_checksum = -1;
/// The row checksums of a /refine block (refine_file.hpp) and of a /refine/lines block's grid positions.
inline constexpr const char* refined_parameters_checksum = "parameters_checksum";
inline constexpr const char* refined_identity_checksum = "identity_checksum";

/// Writes the integer attribute `name` of `object`, in place where it exists (its header unmoved).
void write_number_in_place(hid_t object, const std::string& name, std::int64_t value);

/// Writes `checksum` as the attribute of `set` (collective in parallel HDF5: every rank, the same value).
void stamp(hid_t set, const Checksum& checksum);

/// Stamps `set` with the checksum of what it holds now (serial: a dataset rewritten by one process, such as
/// the failed points' messages at a run's close).
void stamp_content(hid_t set);

/// What check_checksums found.
struct ChecksumReport {
  bool checksummed = false;                          ///< the file has checksums (schema_version 4 on)
  std::int64_t datasets = 0;                         ///< datasets checked whole
  std::int64_t rows = 0;                             ///< rows checked by their row checksum
  std::vector<std::string> damaged_datasets;         ///< checked whole and differing ("/grid/snr")
  std::vector<std::int64_t> damaged_points;          ///< /points rows whose row checksum differs
  std::vector<std::int64_t> damaged_lines;           ///< grid lines whose /lines row checksum differs
  std::vector<std::int64_t> damaged_refined_points;  ///< /refine rows (over all blocks) that differ
  std::vector<std::int64_t> damaged_refined_lines;   ///< /refine/lines rows (over all blocks) that differ
  std::vector<std::string> not_checksummed;  ///< datasets nothing checks (a file of an earlier version)
  bool damaged() const noexcept {
    return !damaged_datasets.empty() || !damaged_points.empty() || !damaged_lines.empty() ||
           !damaged_refined_points.empty() || !damaged_refined_lines.empty();
  }
};

/// Whether a run may write the file while it is checked (another process holds its lock): then a row not
/// complete yet (a /lines row without its count, a /refine row not given, a /refine/lines row without its
/// trial) is in flight, not damage, and is not checked. A complete row is checked either way: each is read
/// after the dataset its writer writes last, so its bytes were all written before they are read.
enum class Writer { absent, live };

/// Checks every checksum of the open file `file` (serial), and under `prefix` only where given ("/phase").
ChecksumReport check_checksums(hid_t file, const std::string& prefix = {}, Writer writer = Writer::absent);

/// /phase's attributes saying what it was built from: the checksum of /points/status then, and its counts.
inline constexpr std::string_view phase_built_from_status = "built_from_status";
inline constexpr std::string_view phase_built_from = "built_from";

/// Whether the /phase of `file` (serial) was built from the points the file holds now.
struct PhaseStaleness {
  bool present = false;    ///< the file has /phase
  bool recorded = false;   ///< /phase says what it was built from (assembled by a version that records it)
  bool stale = false;      ///< the points' status changed since /phase was built
  std::string built_from;  ///< "168 done, 0 failed, 312 pending of 480 points"
};
PhaseStaleness phase_staleness(hid_t file);

/// What repairs a dataset that fails its checksum: `run --resume` rewrites one that creation wrote whole
/// from the config (a /grid axis, a /points column of parameters, /points/point, /checksums/point,
/// /spectra/d<d>/point, /lines/d<d>/line: SweepFile::restore_created); `assemble` writes /phase again;
/// `recover` rebuilds the file from its journal for any other (the failed points' messages, a dimension).
enum class Repairer { resume, assemble, recover };
Repairer repairer_of(std::string_view path);

/// What repairs each kind of damage `report` found, for the file `path`: "`rmtsweep run ... --resume`
/// restores points 5 and lines 3 from the journal (or computes them again) and /grid/snr from the config;
/// `rmtsweep recover FILE` rebuilds /points/error from the journal", or empty where nothing is damaged.
std::string describe_repairs(const ChecksumReport& report, const std::string& path);

/// One line saying `report` ("checksums: 41 datasets and 64 rows checked: no damage found", or what differs).
std::string describe(const ChecksumReport& report);

}  // namespace rmtsweep::store
