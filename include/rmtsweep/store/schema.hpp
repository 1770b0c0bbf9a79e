#pragma once
/// The sweep file's schema: every /points column once, with its name, type, shape, description and
/// the function that extracts its value from a point (HighFive's "one compound type per struct, for
/// reading and writing"). The writer (SweepFile), the reader (SweepReader), `status`, `assemble`, the
/// h5py schema test and docs/schema.md (`rmtsweep schema --markdown`) all derive from this table; adding a
/// column is one entry in the table of schema.cpp. The names are a contract with users' h5py scripts: never
/// rename one.
///
/// Layout of a file (schema_version 3):
///   /grid/<axis>        the sweep's axes in config order (grid_axes): d, delta, gamma, snr, weighting, trial
///   /points/<column>    one row per point in the flattened order of grid.hpp (point_columns)
///   /spectra/d<d>/eigenvalues  (points of size d) x d, all eigenvalues ascending, for each size d
///                       whose spectra are stored (config store_spectra); /spectra/d<d>/point gives
///                       each row's /points row (the points of a size are contiguous in grid order)
///   /phase/...          written by `rmtsweep assemble` (docs/schema.md)
/// Every dataset carries named dimensions (netCDF-4 dimension scales, io/dimension_scale.hpp), so
/// that xarray opens each group labelled: /points/point (0..points-1) and /points/k label the columns,
/// each /grid dataset is the coordinate of its own axis, /spectra/d<d>/point and
/// /spectra/d<d>/eigenvalue_index label that size's eigenvalues. Files written before dimension
/// scales (same schema_version, nothing else differs) are read, resumed and assembled alike.
/// Older files are read, assembled and resumed in their own layout: schema_version 2 differs only in
/// /points/error (and each /refine block's error), fixed 1024 bytes per row (256 in files written before
/// that width) where version 3 stores a variable-length string (failure_messages.hpp); schema_version 1
/// also has no d axis (one size: the config's d, no /grid/d, no /points/d_index) and its spectra as one
/// dataset /spectra/eigenvalues, points x d.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::store {

/// The schema_version this rmtsweep writes.
inline constexpr std::int64_t schema_version = 3;
/// The oldest schema_version this rmtsweep reads, assembles and resumes.
inline constexpr std::int64_t oldest_schema_version = 1;

/// A point's state in /points/status (and /refine/block_<i>/status). The values are stored: never
/// renumber them. `unused` (-1) is the fill value of the refined points' preallocated rows
/// (refine_file.hpp): a row not yet given to a point; /points never holds it.
enum class PointStatus : std::int64_t { unused = -1, pending = 0, done = 1, failed = 2 };

/// "unused", "pending", "done", "failed".
const char* to_string(PointStatus status) noexcept;

/// The codes of a flag variable, as CF's flag_values and flag_meanings (io::write_flag_attributes): its
/// stored values, ascending, and one word per value, blank-separated; with `masks`, bits of a mask (CF's
/// flag_masks): a value holds the sum of the bits that apply.
struct Flags {
  std::span<const std::int64_t> values;
  std::string_view meanings;
  bool masks = false;
  constexpr bool empty() const noexcept { return values.empty(); }
};
namespace flag_values {
inline constexpr std::int64_t status[] = {-1, 0, 1, 2};  ///< PointStatus
inline constexpr std::int64_t no_yes[] = {0, 1};
}  // namespace flag_values
/// /points/status (and each /refine block's): PointStatus, named by to_string(PointStatus).
inline constexpr Flags status_flags{flag_values::status, "unused pending done failed"};
/// theory_detectable of /points and /phase: F(s) > 0 (model.md 5.2).
inline constexpr Flags detectable_flags{flag_values::no_yes, "not_detectable detectable"};

enum class ColumnType { real, integer, text };
enum class ColumnShape {
  scalar,  ///< one value per point
  top_k,   ///< k values per point (the sweep's k): points x k
};
/// When a column is written: at creation, from the grid and the theory, or when the point ends.
enum class ColumnPhase { parameter, measurement };

/// What a parameter column is computed from (known before any point runs).
struct PointFacts {
  const model::PointParams& params;
  const config::GridCoordinates& at;
  const theory::Prediction& prediction;
};

/// What a measurement column is computed from (when the point has ended).
struct PointOutcome {
  const simulate::PointResult* result;  ///< null for a failed point
  PointStatus status;
  double seconds;          ///< wall-clock seconds the point took on its group
  std::int64_t run;        ///< which invocation computed it (0 = first run)
  std::string_view error;  ///< a failed point's message, else empty
  int k;                   ///< values per top_k column
};

/// One cell of a column: a real, an integer, a text or the k values of a top_k column.
using Cell = std::variant<double, std::int64_t, std::string, std::vector<double>>;

struct Column {
  std::string_view name;
  ColumnType type;
  ColumnShape shape;
  ColumnPhase phase;
  std::string_view description;
  Cell (*parameter)(const PointFacts&) = nullptr;      ///< for ColumnPhase::parameter
  Cell (*measurement)(const PointOutcome&) = nullptr;  ///< for ColumnPhase::measurement
  std::int64_t integer_fill = 0;                       ///< value of an integer cell not written yet
  /// Width of a text column: fixed (bytes), 0: the longest value at creation, variable_length: a
  /// variable-length string (written serially, failure_messages.hpp).
  std::size_t text_width = 0;
  std::string_view units = "1";  ///< CF units of a numeric column ("1": dimensionless); texts have none
  Flags flags{};                 ///< the codes of a flag column (CF flag_values, flag_meanings), else empty
};

/// A named dimension of the file's datasets (an HDF5 dimension scale, io/dimension_scale.hpp): the
/// name xarray shows, and the CF attributes long_name and units of its coordinate (units "" for none:
/// texts, indices). The /phase tables take the axes' dimensions from here (assemble/phase_schema.hpp).
struct Dimension {
  std::string_view name;
  std::string_view long_name;
  std::string_view units;
};

namespace dimension {
inline constexpr Dimension point{"point", "point index: the row in /points (flattened grid order)", ""};
inline constexpr Dimension k{"k", "position among the k largest eigenvalues (0: the largest)", ""};
inline constexpr Dimension d{"d", "embedding dimension d", "1"};
inline constexpr Dimension delta{"delta", "delta = d/V", "1"};
inline constexpr Dimension gamma{"gamma", "gamma = d/N", "1"};
inline constexpr Dimension snr{"snr", "snr = ||mu||^2", "1"};
inline constexpr Dimension weighting{"weighting", "pooling weighting", ""};
inline constexpr Dimension trial{"trial", "trial: independent draw (0-based)", ""};
inline constexpr Dimension eigenvalue_index{"eigenvalue_index", "position of the eigenvalue, ascending", ""};
inline constexpr Dimension line{"line", "grid line: a point's flattened index without its snr position", ""};
inline constexpr Dimension pole_index{"pole_index", "position of the pole (snr-free eigenvalue), ascending",
                                      ""};
}  // namespace dimension

/// The dimensions of a column's dataset: (point), or (point, k) for a top_k column.
std::vector<const Dimension*> dimensions_of(const Column& column);

/// Every /points column, in the order the file creates them.
std::span<const Column* const> point_columns();

/// The column called `name`, or nullptr.
const Column* find_column(std::string_view name) noexcept;

/// The columns that code outside the table reads by name: references into point_columns().
namespace column {
extern const Column &delta, &gamma, &snr, &weighting, &trial;
extern const Column &delta_index, &gamma_index, &snr_index, &weighting_index, &d_index, &d;
extern const Column &top_eigenvalue, &overlap, &ridge_accuracy, &seconds, &run, &status;
extern const Column &top_eigenvalues, &overlaps, &error;
extern const Column &solver, &operator_products, &solver_fell_back;
extern const Column &theory_finite_t_top_eigenvalue, &theory_finite_t_overlap, &theory_finite_t_threshold_snr,
    &theory_finite_t_bulk_edge_right;
}  // namespace column

/// The text_width of a variable-length text column (/points/error since schema_version 3).
inline constexpr std::size_t variable_length = std::numeric_limits<std::size_t>::max();

/// The width a text column's dataset is created with by this rmtsweep: as a journal's head and the
/// columns of a record state it (journal.hpp: 0 for a variable-length text, and for a number).
std::size_t stored_width(const Column& column);

/// A dataset of the file outside /points: its path and description.
struct DatasetEntry {
  std::string_view path;
  std::string_view description;
};

/// The /grid datasets, in the order the file creates them (d: integers; delta, gamma, snr: doubles in
/// config order; weighting: texts; trial: integers 0..trials-1). /grid/d is new in schema_version 2.
namespace grid_axis {
extern const DatasetEntry d, delta, gamma, snr, weighting, trial;
}
/// The scales of /points: its coordinate `point` (0..points-1) and its dimension `k` (no values).
namespace points_dimension {
extern const DatasetEntry point, k;
}
/// The dimension of a size's eigenvalues: /spectra/d<d>/eigenvalue_index (no values; the rows are
/// labelled by /spectra/d<d>/point, the coordinate of dimension `point` there).
std::string spectra_eigenvalue_index_path(int d);
extern const std::string_view spectra_eigenvalue_index_description;
/// /spectra/eigenvalues: points x d, ascending (schema_version 1 only).
extern const DatasetEntry spectra_eigenvalues;
/// /spectra/d<d>: the group of one size's spectra (schema_version 2), its datasets and their descriptions.
std::string spectra_group_of(int d);
std::string spectra_eigenvalues_path(int d);
std::string spectra_points_path(int d);
extern const std::string_view spectra_eigenvalues_description, spectra_points_description;

/// Group names.
inline constexpr std::string_view points_group = "points", grid_group = "grid", spectra_group = "spectra";

/// The root attribute that marks a phase file (`rmtsweep assemble FILE --output PHASE.h5`: /phase alone,
/// with the sweep's config): the absolute path of the sweep file it was assembled from.
inline constexpr std::string_view phase_file_source = "sweep_file";

/// The root attribute `Conventions` of the files rmtsweep writes: their /phase follows CF (docs/schema.md
/// lists the rules), the rest is netCDF-4 (named dimensions) with CF's attributes where they apply.
inline constexpr std::string_view cf_conventions = "CF-1.10";

/// The root attribute holding the config as typed JSON (config::resolved_config_json), beside `config`, its
/// text.
inline constexpr std::string_view config_json_attribute = "config_json";

/// "points/<name>": a column's path from the file's root.
std::string path_of(const Column& column);

}  // namespace rmtsweep::store
