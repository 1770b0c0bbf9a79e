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

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/sweep/grid.hpp"

namespace rmtsweep::sweep {

inline constexpr std::string_view lines_group = "lines";
std::string lines_group_of(int d);

/// One dataset of /lines/d<d>: its name, its shape in words and its description (the file's and the docs').
struct LineDatasetEntry {
  std::string_view name, shape, description;
};
/// Every dataset of /lines/d<d>, in the order the file creates them.
std::span<const LineDatasetEntry> line_datasets();

/// Whether a new sweep file gets /lines: some weighting's points can be computed as lines (weights that do not
/// depend on the data, an snr axis of 2 or more values), whatever the run's `lines` setting, which is not part of
/// the stored config: so that a file rebuilt from it (`recover`) has the same layout, and a later run with lines
/// fills rows that a run without them left empty.
bool stores_lines(const SweepConfig& config);

/// The bytes /lines allocates when a sweep file of `grid` is created (0 where it gets none).
double line_data_bytes(const Grid& grid);

/// Creates /lines/d<d> for every size (collective, early allocation; `writer` writes the line indices).
void create_line_datasets(hid_t file, const Grid& grid, bool writer);

/// The rows of an open sweep file, for writing (one rank, independent I/O).
class LineStore {
 public:
  LineStore() = default;
  /// Opens /lines of `file` where it exists (files of earlier versions have none: nothing is written then).
  LineStore(hid_t file, const Grid& grid);
  bool valid() const noexcept { return !sizes_.empty(); }
  /// Writes the row of grid line `line` (nothing where the file has no /lines, or the row is too narrow:
  /// a Krylov basis wider than the size's width, where thresholds then come from the grid).
  void write(std::int64_t line, const spectral::RankOneLine& secular, bool converged);
  /// Per grid line whether its row is written (count > 0); all false without /lines.
  std::vector<char> written() const;

 private:
  struct Size {
    io::Dataset line, count, poles, signal, offset, rho, form, converged;
    hsize_t width = 0;
  };
  std::vector<Size> sizes_;
  std::int64_t lines_per_d_ = 1;
};

/// A line's secular form and whether it may be trusted for thresholds.
struct StoredLine {
  spectral::RankOneLine secular;
  bool converged = true;
};

/// Every written row of /lines (serial read), by grid line index; empty without /lines.
std::map<std::int64_t, StoredLine> read_lines(hid_t file, const SweepConfig& config);

}  // namespace rmtsweep::sweep
