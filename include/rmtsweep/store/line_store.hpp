#pragma once
/// /lines: the secular form of every line a sweep computed with the line engine (simulate/line.hpp), from
/// which assemble gets each trial's exact detection threshold for any level on lambda_1 (docs/model.md
/// section 9, spectral::level_crossing). Per size d, /lines/d<d> holds one row per grid line of that size
/// (Grid::line_of; the lines of a size are contiguous):
///   line       the grid line index of the row
///   count      how many poles the row holds: 0 where the line was not computed as a line (yet)
///   poles      eigenvalues of the snr-free part, ascending (rows x width, NaN past count)
///   signal     g: the update's vector per unit r = sqrt(snr) in that eigenbasis
///   offset     a: the update's vector at r = 0
///   rho        the update's scale: M(r) = diag(poles) + rho (r g + a)(r g + a)^T
///   form       0 direct (S itself), 1 Gram (N < d: K = C^T C / N)
///   converged  1 when the Krylov basis (whose Ritz values the row holds) converged at every snr; 1 for dense
/// The width is d where a line of the size may take the dense engine, else the Krylov budget's vectors.
/// A row is written before its line's points (a done point's line has its row, except after `recover`,
/// which rebuilds /points from the journal alone: its lines' thresholds then come from the grid).
#include <hdf5.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

namespace rmtsweep::store {

inline constexpr std::string_view lines_group = "lines";
std::string lines_group_of(int d);

/// One dataset of /lines/d<d>: its name, its shape in words and its description (the file's and the docs').
struct LineDatasetEntry {
  std::string_view name, shape, description;
};
/// Every dataset of /lines/d<d>, in the order the file creates them.
std::span<const LineDatasetEntry> line_datasets();

/// Whether a new sweep file gets /lines: some weighting's points can be computed as lines (weights that do
/// not depend on the data, an snr axis of 2 or more values), whatever the run's `lines` setting, which is not
/// part of the stored config: so that a file rebuilt from it (`recover`) has the same layout, and a later run
/// with lines fills rows that a run without them left empty.
bool stores_lines(const config::SweepConfig& config);

/// The bytes /lines allocates when a sweep file of `grid` is created (0 where it gets none).
double line_data_bytes(const config::Grid& grid);

/// Creates /lines/d<d> for every size (collective, early allocation; `writer` writes the line indices).
void create_line_datasets(hid_t file, const config::Grid& grid, bool writer);

/// The poles a row of size config.d[n] holds at most: d where a line of the size may take the dense engine
/// (its poles are S0''s d eigenvalues, or the Gram matrix's N < d), else the Krylov basis's most vectors (the
/// budget, at most d). Whatever the run's `lines` setting.
hsize_t line_row_width(const config::SweepConfig& config, std::size_t n);

/// A line's secular form and whether it may be trusted for thresholds.
struct StoredLine {
  spectral::RankOneLine secular;
  bool converged = true;
};

/// A table of secular forms, one row per line, in a group: count, poles, signal, offset, rho, form and
/// converged as described above. /lines/d<d> holds one per size; /refine/lines/block_<b>
/// (refined_line_store.hpp) those of the trials `rmtsweep refine` adds.
class SecularTable {
 public:
  SecularTable() = default;
  /// Creates the datasets under `group` (collective, early allocation) with `rows` rows of `width` poles,
  /// with the dimension scale `row_scale` (a dataset of the group or above, `rows` long) on their first axis
  /// and a dimension-only scale pole_index of the group on the second.
  static SecularTable create(hid_t group, hsize_t rows, hsize_t width, hid_t row_scale);
  /// Opens the datasets under `group`.
  static SecularTable open(hid_t group);
  hsize_t width() const noexcept { return width_; }
  /// Writes row `row` (count last: the row is then complete); false, writing nothing, where the form has more
  /// poles than the table's width.
  bool write(hsize_t row, const spectral::RankOneLine& secular, bool converged) const;
  /// Per row the poles it holds: 0 where it is not written.
  std::vector<std::int64_t> counts() const;
  /// The written row `row` (count > 0).
  StoredLine read(hsize_t row, std::int64_t count) const;
  /// Every written row, by row.
  std::map<hsize_t, StoredLine> read_all() const;

 private:
  io::Dataset count_, poles_, signal_, offset_, rho_, form_, converged_;
  hsize_t width_ = 0;
};

/// The rows of an open sweep file, for writing (one rank, independent I/O).
class LineStore {
 public:
  LineStore() = default;
  /// Opens /lines of `file` where it exists (files of earlier versions have none: nothing is written then).
  LineStore(hid_t file, const config::Grid& grid);
  bool valid() const noexcept { return !sizes_.empty(); }
  /// Writes the row of grid line `line` (nothing where the file has no /lines, or the row is too narrow:
  /// a Krylov basis wider than the size's width, where thresholds then come from the grid).
  void write(std::int64_t line, const spectral::RankOneLine& secular, bool converged);
  /// Per grid line whether its row is written (count > 0); all false without /lines.
  std::vector<char> written() const;

 private:
  std::vector<SecularTable> sizes_;
  std::int64_t lines_per_d_ = 1;
};

/// Every written row of /lines (serial read), by grid line index; empty without /lines.
std::map<std::int64_t, StoredLine> read_lines(hid_t file, const config::SweepConfig& config);

}  // namespace rmtsweep::store
