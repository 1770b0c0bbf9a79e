#pragma once
/// The refined points of a sweep file (`rmtsweep refine`): points off the grid (an snr not on
/// /grid/snr, a trial index >= trials, or both) kept beside /points in the same file.
///
/// Layout: /refine/block_<i> (i = 0, 1, ...), each holding every /points column of the schema table
/// (schema.hpp) with `rows` rows, the block's capacity (root attribute `rows` of the block, written
/// last at its creation: a block without it was interrupted while being created and is replaced).
/// The rows of all blocks in block order are the refined rows 0, 1, ... A row is given to a point by
/// writing its parameter columns and then its status (pending); it is computed like a grid point and
/// its measurements written, its status last. `snr_index` is -1 (the snr is in `snr`); the other
/// indices are the point's grid positions. Spectra of refined points are not stored.
///
/// Crash safety as for /points: a block is created collectively with early allocation and flushed,
/// its marker written and flushed again, before any row is written; afterwards only raw data is
/// written. Status of a row never given holds the fill value -1 (PointStatus::unused): a kill while a
/// row's parameters were being written leaves it unused, and the row is given again.
///
/// Checksums (schema_version 4 files, blocks written since: checksums.hpp): `parameters_checksum` per row,
/// written by rank 0 after the parameter cells and before the pending status, and `checksum` per row over the
/// measured cells and the status, written with them before the status by whoever writes them; the
/// variable-length `error` carries the attribute `checksum`, restamped when the close writes the messages.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {

/// The group of the refined points and the name of its i-th block.
inline constexpr std::string_view refine_group = "refine";
std::string refine_block_path(std::size_t block);

/// How many of the blocks <group>/block_0, block_1, ... were created completely (their attribute `rows`,
/// written last at creation), up to the first missing or unmarked one: /refine's and /refine/lines'.
std::size_t complete_blocks(hid_t file, std::string_view group);

/// Creates /refine with its description where the file has none (collective).
void create_refine_group(hid_t file);

/// A refined point: its parameters and its grid positions (at.snr unused: stored as -1).
struct RefinedPoint {
  model::PointParams params;
  config::GridCoordinates at;
};

/// The refined rows of a file as stored (all blocks in order; empty without /refine).
struct RefinedRows {
  std::vector<std::int64_t> status, weighting_index, d_index, delta_index, gamma_index, trial;
  std::vector<double> snr;
  std::vector<double> top_eigenvalues;  ///< rows x k, row-major
  int k = 0;
  std::size_t size() const noexcept { return status.size(); }
};

/// Reads the refined rows of an open file (serial or parallel; independent reads). Blocks without
/// their marker are skipped.
RefinedRows read_refined_rows(hid_t file);

/// The refined points' part of a sweep file opened for writing (collectively on `comm`).
class RefineFile {
 public:
  /// Opens the existing blocks of `file` (an open sweep file, see SweepFile::handle()); k is the sweep's k.
  /// The failed points' messages of a block's variable-length error go to `messages` (the sweep file's,
  /// SweepFile::messages(), written when it closes).
  RefineFile(hid_t file, const config::SweepConfig& config, int k, int run_index, DeferredMessages& messages);

  /// Rows over all complete blocks.
  std::int64_t capacity() const noexcept;
  /// Collective: adds a block of `rows` rows (replacing an incomplete one left by a kill).
  void add_block(std::int64_t rows);

  /// Gives `rows` to `points` (one each): parameter columns, then status pending (rank 0 alone).
  void write_pending(const std::vector<std::int64_t>& rows, const std::vector<RefinedPoint>& points);
  /// A computed point's measurements, then status done (independent; one rank).
  void write_done(std::int64_t row, const simulate::PointResult& result, double seconds);
  void write_failed(std::int64_t row, const std::string& message, double seconds);
  /// Closes the blocks' datasets (before the file, whose parallel close refuses open objects).
  void close() noexcept { blocks_.clear(); }

 private:
  struct Block {
    std::int64_t first = 0, rows = 0;
    std::vector<std::pair<const Column*, io::Dataset>> columns;  ///< every column, schema order
    std::vector<std::size_t> widths;            ///< per column: a fixed-length text's stored width, else 0
    io::Dataset checksum, parameters_checksum;  ///< the rows' checksums (checksums.hpp), where it has them
    std::string path;                           ///< refine/block_<i>
    bool deferred_error = false;                ///< its error is variable-length: messages go to messages_
  };
  const Block& block_of(std::int64_t row) const;
  const io::Dataset& dataset(const Block& block, const Column& column) const;
  void open_block(std::size_t index);
  void write_outcome(std::int64_t row, const PointOutcome& outcome);

  hid_t file_;
  const config::SweepConfig* config_;
  DeferredMessages* messages_;
  int k_ = 0, run_index_ = 0;
  std::vector<Block> blocks_;
};

}  // namespace rmtsweep::store
