#pragma once
/// /refine/lines: the secular forms of the trials `rmtsweep refine` adds to lines whose thresholds are exact
/// (docs/refinement.md): each such trial is computed as a whole line over the grid's snr values, its points
/// go to /refine/block_<i> (refine_file.hpp) and its secular form here, beside them, as /lines
/// (line_store.hpp) holds the grid's. From it assemble takes the trial's exact threshold for any level on
/// lambda_1 (docs/model.md section 9).
///
/// Layout: /refine/lines/block_<b> (b = 0, 1, ...), each of one size (attribute `d`) and `rows` rows
/// (attribute `rows`, written last at its creation: a block without it was interrupted while being created
/// and is replaced). The rows of all blocks in block order are the refined lines 0, 1, ... Per block:
///   row                                 the dimension of the rows (a netCDF dimension without values)
///   weighting_index, d_index, delta_index, gamma_index   the line's grid positions, as in /points
///   trial                               the trial (beyond the grid's); -1 where the row was not given yet
///   count, poles, signal, offset, rho, form, converged   the secular form, as in /lines (pole_index: its
///   width)
/// A row is given to a trial by writing its positions, the trial last; its form is written when the line is
/// computed, before its points' measurements, count last (0 until then). Crash safety as for
/// /refine/block_<i>: a block is created collectively with early allocation and flushed, then marked, before
/// any row is written.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/store/line_store.hpp"

namespace rmtsweep::store {

inline constexpr std::string_view refined_lines_group = "refine/lines";
std::string refined_lines_block_path(std::size_t block);
/// The grid positions and trial of a row, in the order they are written (the trial last: it marks the row as
/// given; before it, their checksum `identity_checksum`, checksums.hpp).
inline constexpr const char* refined_line_identity_columns[] = {"weighting_index", "d_index", "delta_index",
                                                                "gamma_index", "trial"};

/// Every row of /refine/lines (all complete blocks in order): its line, trial and how many poles it holds.
struct RefinedLineRows {
  std::vector<std::int64_t> d, weighting_index, d_index, delta_index, gamma_index, trial, count;
  std::size_t size() const noexcept { return trial.size(); }
  bool given(std::size_t row) const noexcept { return trial[row] >= 0; }
};

/// Reads the rows of an open file (serial or parallel, independent reads); empty without /refine/lines.
RefinedLineRows read_refined_line_rows(hid_t file);

/// The written rows' secular forms, by row (serial read): what assemble takes the refined trials' thresholds
/// from.
std::vector<std::pair<std::size_t, StoredLine>> read_refined_lines(hid_t file);

/// The refined lines' part of a sweep file opened for writing (collectively).
class RefinedLineStore {
 public:
  /// Opens the existing complete blocks of `file` (an open sweep file).
  RefinedLineStore(hid_t file, const config::SweepConfig& config);

  /// Rows over all complete blocks.
  std::int64_t capacity() const noexcept;
  /// Collective: adds a block of `rows` rows of size config.d[d_index] (replacing an incomplete one).
  void add_block(std::size_t d_index, std::int64_t rows);

  /// Gives `rows` to the lines at `at` (their trial included), one each (rank 0 alone).
  void write_pending(const std::vector<std::int64_t>& rows, const std::vector<config::GridCoordinates>& at);
  /// A computed line's secular form (one rank); false where it is wider than its block (then not stored).
  bool write(std::int64_t row, const spectral::RankOneLine& secular, bool converged) const;
  /// The written row `row`, which holds `count` poles.
  StoredLine read(std::int64_t row, std::int64_t count) const;
  /// Closes the blocks' datasets (before the file).
  void close() noexcept { blocks_.clear(); }

 private:
  struct Block {
    std::int64_t first = 0, rows = 0;
    io::Dataset weighting_index, d_index, delta_index, gamma_index, trial;
    io::Dataset identity_checksum;  ///< where the block has checksums (checksums.hpp)
    SecularTable secular;
  };
  const Block& block_of(std::int64_t row) const;
  void open_block(std::size_t index);

  hid_t file_;
  const config::SweepConfig* config_;
  std::vector<Block> blocks_;
};

}  // namespace rmtsweep::store
