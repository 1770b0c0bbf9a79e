// The refined points' blocks of a sweep file (include/rmtsweep/store/refine_file.hpp).
#include "rmtsweep/store/refine_file.hpp"

#include <algorithm>
#include <stdexcept>

#include "column_io.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::store {
namespace {

constexpr const char* rows_marker = "rows";

}  // namespace

std::size_t complete_blocks(hid_t file, std::string_view group) {
  if (!io::exists(file, std::string(group))) return 0;
  const auto path = [&](std::size_t n) { return std::string(group) + "/block_" + std::to_string(n); };
  std::size_t n = 0;
  while (io::exists(file, path(n)) && io::has_attribute(io::open_group(file, path(n)), rows_marker)) ++n;
  return n;
}

std::string refine_block_path(std::size_t block) {
  return std::string(refine_group) + "/block_" + std::to_string(block);
}

void create_refine_group(hid_t file) {
  if (io::exists(file, std::string(refine_group))) return;
  const io::Group group = io::create_group(file, std::string(refine_group));
  detail::describe(
      group,
      "points added by `rmtsweep refine` (docs/refinement.md): blocks of the /points columns; status -1 "
      "marks a row not given to a point yet; /refine/lines: the secular forms of the trials it adds as "
      "whole lines");
}

RefinedRows read_refined_rows(hid_t file) {
  RefinedRows rows;
  const std::size_t blocks = complete_blocks(file, refine_group);
  const auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::string base = refine_block_path(b) + "/";
    const auto ints = [&](const Column& c) {
      return io::read_ints(io::open_dataset(file, base + std::string(c.name)));
    };
    append(rows.status, ints(column::status));
    append(rows.weighting_index, ints(column::weighting_index));
    append(rows.d_index, ints(column::d_index));
    append(rows.delta_index, ints(column::delta_index));
    append(rows.gamma_index, ints(column::gamma_index));
    append(rows.trial, ints(column::trial));
    append(rows.snr, io::read_doubles(io::open_dataset(file, base + std::string(column::snr.name))));
    const io::Dataset top = io::open_dataset(file, base + std::string(column::top_eigenvalues.name));
    rows.k = static_cast<int>(io::shape(top)[1]);
    append(rows.top_eigenvalues, io::read_doubles(top));
  }
  return rows;
}

RefineFile::RefineFile(hid_t file, const config::SweepConfig& config, int k, int run_index,
                       DeferredMessages& messages)
    : file_(file), config_(&config), messages_(&messages), k_(k), run_index_(run_index) {
  const std::size_t blocks = complete_blocks(file, refine_group);
  for (std::size_t b = 0; b < blocks; ++b) open_block(b);
}

std::int64_t RefineFile::capacity() const noexcept {
  return blocks_.empty() ? 0 : blocks_.back().first + blocks_.back().rows;
}

void RefineFile::open_block(std::size_t index) {
  const io::Group group = io::open_group(file_, refine_block_path(index));
  Block block;
  block.first = capacity();
  block.rows = io::read_int_attribute(group, rows_marker);
  block.path = refine_block_path(index);
  for (const Column* column : point_columns()) {
    if (!io::exists(group, std::string(column->name))) continue;
    block.columns.emplace_back(column, io::open_dataset(group, std::string(column->name)));
    const io::Dataset& set = block.columns.back().second;
    const bool variable = column->type == ColumnType::text && io::is_variable_string(set);
    if (column == &column::error) block.deferred_error = variable;
    block.widths.push_back(column->type == ColumnType::text && !variable
                               ? H5Tget_size(io::Datatype(io::check_id(H5Dget_type(set), "H5Dget_type")))
                               : 0);
  }
  // A block written before its rows had checksums (checksums.hpp) is written without.
  if (io::exists(group, "checksum")) block.checksum = io::open_dataset(group, "checksum");
  if (io::exists(group, refined_parameters_checksum))
    block.parameters_checksum = io::open_dataset(group, refined_parameters_checksum);
  blocks_.push_back(std::move(block));
}

void RefineFile::add_block(std::int64_t rows) {
  const std::size_t index = blocks_.size();
  const std::string path = refine_block_path(index);
  create_refine_group(file_);
  // A block a kill interrupted during its creation (no marker) is replaced.
  if (io::exists(file_, path)) io::check(H5Ldelete(file_, path.c_str(), H5P_DEFAULT), "H5Ldelete");
  {
    const io::Group group = io::create_group(file_, path);
    std::size_t width = 1;
    for (const auto& w : config_->weighting) width = std::max(width, model::to_string(w).size());
    // A file with checksums (schema_version 4 on) has them for its blocks too (checksums.hpp): the rows'
    // (-1: none yet), and the messages' attribute, restamped when the close writes them.
    const bool checksummed = io::exists(file_, checksums_group);
    for (const Column* column : point_columns()) {
      const std::int64_t fill =
          column == &column::status ? static_cast<std::int64_t>(PointStatus::unused) : column->integer_fill;
      const io::Dataset set =
          detail::create_column(group, *column, static_cast<hsize_t>(rows), k_, width, fill);
      if (checksummed && column == &column::error && io::is_variable_string(set)) {
        Checksum none;  // every message null, read back as empty
        none.add(std::vector<std::string>(static_cast<std::size_t>(rows)));
        stamp(set, none);
      }
    }
    if (checksummed) {
      const io::DatasetOptions unset{.int_fill = no_checksum};
      detail::describe(
          io::create_int_dataset(group, "checksum", {static_cast<hsize_t>(rows)}, unset),
          "per row, the CRC-32 of its measured cells (but error) and its status as written (-1: none yet); "
          "docs/reliability.md");
      detail::describe(
          io::create_int_dataset(group, refined_parameters_checksum, {static_cast<hsize_t>(rows)}, unset),
          "per row, the CRC-32 of its parameter cells as written when it was given to a point (-1: not "
          "given); docs/reliability.md");
    }
    io::flush(file_);
    io::write_attribute(group, rows_marker, rows);  // the "complete" marker, last
  }
  io::flush(file_);
  open_block(index);
}

const RefineFile::Block& RefineFile::block_of(std::int64_t row) const {
  for (const Block& b : blocks_) {
    if (row >= b.first && row < b.first + b.rows) return b;
  }
  throw std::out_of_range("refined row " + std::to_string(row) + " beyond the file's blocks");
}

const io::Dataset& RefineFile::dataset(const Block& block, const Column& column) const {
  for (const auto& [c, set] : block.columns) {
    if (c == &column) return set;
  }
  throw std::logic_error("a refine block without the column " + std::string(column.name));
}

void RefineFile::write_pending(const std::vector<std::int64_t>& rows,
                               const std::vector<RefinedPoint>& points) {
  for (std::size_t p = 0; p < rows.size(); ++p) {
    const Block& block = block_of(rows[p]);
    const auto row = static_cast<hsize_t>(rows[p] - block.first);
    const theory::Prediction prediction = theory::predict(points[p].params);
    const PointFacts facts{points[p].params, points[p].at, prediction};
    Checksum sum;  // over the parameter cells as written (checksums.hpp)
    for (std::size_t c = 0; c < block.columns.size(); ++c) {
      const auto& [column, set] = block.columns[c];
      if (column->phase != ColumnPhase::parameter) continue;
      const Cell cell = column == &column::snr_index ? Cell(std::int64_t{-1}) : column->parameter(facts);
      detail::write_cell(set, row, cell);
      sum.add(cell, block.widths[c]);
    }
    if (block.parameters_checksum.valid())  // after the cells, before the status that gives the row
      detail::write_cell(block.parameters_checksum, row, Cell{sum.value()});
    // The measurements a previous, interrupted attempt may have left are cleared (NaN, fill values).
    write_outcome(rows[p], PointOutcome{nullptr, PointStatus::pending, 0.0, -1, "", k_});
  }
}

void RefineFile::write_outcome(std::int64_t row_index, const PointOutcome& outcome) {
  const Block& block = block_of(row_index);
  const auto row = static_cast<hsize_t>(row_index - block.first);
  Checksum sum;  // over the measured cells as written and the status (checksums.hpp)
  for (std::size_t c = 0; c < block.columns.size(); ++c) {
    const auto& [column, set] = block.columns[c];
    if (column->phase != ColumnPhase::measurement || column == &column::status) continue;
    if (column == &column::error && block.deferred_error) {
      if (!outcome.error.empty()) messages_->add(block.path, static_cast<std::int64_t>(row), outcome.error);
      continue;
    }
    const Cell cell = column->measurement(outcome);
    detail::write_cell(set, row, cell);
    sum.add(cell, block.widths[c]);
  }
  const Cell status = column::status.measurement(outcome);
  sum.add(status, 0);
  if (block.checksum.valid()) detail::write_cell(block.checksum, row, Cell{sum.value()});
  detail::write_cell(dataset(block, column::status), row, status);  // last
}

void RefineFile::write_done(std::int64_t row, const simulate::PointResult& result, double seconds) {
  write_outcome(row, PointOutcome{&result, PointStatus::done, seconds, run_index_, "", k_});
}

void RefineFile::write_failed(std::int64_t row, const std::string& message, double seconds) {
  write_outcome(row,
                PointOutcome{nullptr, PointStatus::failed, seconds, run_index_,
                             message.empty() ? std::string_view("failed") : std::string_view(message), k_});
}

}  // namespace rmtsweep::store
