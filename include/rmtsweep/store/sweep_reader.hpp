#pragma once
/// A typed, serial, read-only view of a sweep file: what `status`, `assemble`, the plots' loaders
/// and the tests read, by schema entry (schema.hpp), never by literal dataset names.
///
/// Opening checks that the path is an HDF5 file written completely by rmtsweep (the
/// schema_version attribute is written last at creation) with a schema this rmtsweep reads;
/// anything else is an InvalidFile naming the path and what is wrong. Files of every earlier
/// schema_version read as well: version 1 had no d axis (d_indices() gives zeros, its config one
/// size) and its spectra in one dataset /spectra/eigenvalues (schema.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/provenance.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {

/// The random draws a sweep file's points were made with (root attributes draws_version and
/// draws_library; files written before they were recorded drew version 1, library unrecorded).
struct StoredDraws {
  std::int64_t version = 1;
  std::string library;  ///< empty when unrecorded
};

/// Points per status, and values that are none of them (a damaged or edited file).
struct StatusCounts {
  std::int64_t pending = 0, done = 0, failed = 0, other = 0;
  std::int64_t total() const noexcept { return pending + done + failed + other; }
};
StatusCounts count_status(const std::vector<std::int64_t>& status) noexcept;

/// The key = value lines of a resolved config text (what a sweep stores in `config`), for
/// parse_sweep_config.
std::map<std::string, std::string> config_lines(const std::string& text);

class SweepReader {
 public:
  /// Opens `path` read-only (serial HDF5). Throws InvalidFile (see above).
  explicit SweepReader(const std::string& path);

  /// Whether `path` is an HDF5 file rmtsweep wrote: a sweep file, or one whose creation by an rmtsweep
  /// before creation was atomic (sweep_creation.hpp) was interrupted (its /grid/delta, created first,
  /// carries rmtsweep's description). Never throws; false for another program's file, which no advice
  /// may offer to overwrite.
  static bool written_by_rmtsweep(const std::string& path);

  const std::string& path() const noexcept { return path_; }
  std::int64_t schema_version() const noexcept { return schema_version_; }
  /// The resolved config text stored at creation (root attribute `config`).
  const std::string& config_text() const noexcept { return config_text_; }
  /// That text parsed (InvalidFile when it does not parse).
  config::SweepConfig config() const;
  StoredDraws draws() const;
  /// Rows of /points.
  std::int64_t points() const;

  /// Whether the file has a column (a column added in a later schema may be missing).
  bool has(const Column& column) const;
  /// A whole column: one value per point, or points x k row-major for a top_k column.
  std::vector<double> reals(const Column& column) const;
  std::vector<std::int64_t> integers(const Column& column) const;
  std::vector<std::string> texts(const Column& column) const;
  /// /points/d_index, or zeros for a schema_version 1 file (one size, no such column).
  std::vector<std::int64_t> d_indices() const;
  /// /points/status as stored (values outside PointStatus are kept, for count_status to report).
  std::vector<std::int64_t> status() const { return integers(column::status); }

  /// How the file was made: identity, versions and every run (the run table, or the run_<i>_* attributes
  /// of a file written before it).
  Provenance provenance() const;

  /// Root attributes by name: a text, an integer, or nullopt when absent.
  std::optional<std::string> text_attribute(const std::string& name) const;
  std::optional<std::int64_t> integer_attribute(const std::string& name) const;

  /// The open file, for readers of parts the schema table does not cover (/phase, /spectra).
  const io::File& file() const noexcept { return file_; }

 private:
  io::Dataset open(const Column& column) const;

  std::string path_;
  io::File file_;
  std::int64_t schema_version_ = 0;
  std::string config_text_;
};

}  // namespace rmtsweep::store
