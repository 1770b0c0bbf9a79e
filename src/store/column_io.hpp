#pragma once
// Creating and writing datasets of schema columns: shared by the grid's /points (sweep_file.cpp) and
// the refined points' /refine blocks (refine_file.cpp), which hold the same columns.
#include <cstdint>
#include <string_view>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store::detail {

/// Writes the `description` attribute (collective in parallel HDF5).
void describe(hid_t object, std::string_view text);

/// Creates the dataset of one column under `points` (rows x 1, or rows x k for top_k) with early
/// allocation, its description and (numeric columns) its units; integer cells not written read `int_fill`.
/// Text columns take the column's own width (variable_length: a variable-length string dataset, which
/// parallel HDF5 cannot write: failure_messages.hpp), else `text_width`.
io::Dataset create_column(hid_t points, const Column& column, hsize_t rows, int k, std::size_t text_width,
                          std::int64_t int_fill);

/// Writes one cell into row `row` of its column's dataset (independent I/O; not a variable-length text).
void write_cell(const io::Dataset& set, hsize_t row, const Cell& cell);

}  // namespace rmtsweep::store::detail
