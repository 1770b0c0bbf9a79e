// Creating and writing /points-like columns (src/store/column_io.hpp).
#include "column_io.hpp"

#include <string>
#include <vector>

#include "rmtsweep/io/dimension_scale.hpp"

namespace rmtsweep::store::detail {

void describe(hid_t object, std::string_view text) {
  io::write_attribute(object, "description", std::string(text));
}

/// Creates the dataset of one /points column (rows = points) with its fill value.
io::Dataset create_column(hid_t points, const Column& column, hsize_t rows, int k, std::size_t text_width,
                          std::int64_t int_fill) {
  io::DatasetOptions options;
  options.int_fill = int_fill;
  const std::string name(column.name);
  io::Dataset set;
  if (column.type == ColumnType::text && column.text_width == variable_length) {
    set = io::create_variable_string_dataset(points, name, rows, options);
  } else if (column.type == ColumnType::text) {
    set = io::create_string_dataset(points, name, rows,
                                    column.text_width > 0 ? column.text_width : text_width, options);
  } else {
    std::vector<hsize_t> dims{rows};
    if (column.shape == ColumnShape::top_k) dims.push_back(static_cast<hsize_t>(k));
    set = column.type == ColumnType::integer ? io::create_int_dataset(points, name, dims, options)
                                             : io::create_double_dataset(points, name, dims, options);
  }
  describe(set, column.description);
  if (column.type != ColumnType::text) io::write_cf_attributes(set, {}, column.units);
  if (!column.flags.empty())
    io::write_flag_attributes(set, column.flags.values, column.flags.meanings, column.flags.masks);
  return set;
}

/// Writes one cell into row `row` of its column's dataset.
void write_cell(const io::Dataset& set, hsize_t row, const Cell& cell) {
  if (const auto* real = std::get_if<double>(&cell)) {
    io::write_rows(set, row, 1, std::vector<double>{*real});
  } else if (const auto* integer = std::get_if<std::int64_t>(&cell)) {
    io::write_rows(set, row, 1, std::vector<std::int64_t>{*integer});
  } else if (const auto* text = std::get_if<std::string>(&cell)) {
    io::write_rows(set, row, 1, std::vector<std::string>{*text});
  } else {
    io::write_rows(set, row, 1, std::get<std::vector<double>>(cell));
  }
}

}  // namespace rmtsweep::store::detail
