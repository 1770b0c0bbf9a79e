// The refined trials' secular forms (include/rmtsweep/store/refined_line_store.hpp).
#include "rmtsweep/store/refined_line_store.hpp"

#include <stdexcept>

#include "column_io.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/refine_file.hpp"

namespace rmtsweep::store {
namespace {

constexpr const char* rows_marker = "rows";
constexpr const char* d_attribute = "d";

}  // namespace

std::string refined_lines_block_path(std::size_t block) {
  return std::string(refined_lines_group) + "/block_" + std::to_string(block);
}

RefinedLineRows read_refined_line_rows(hid_t file) {
  RefinedLineRows rows;
  const std::size_t blocks = complete_blocks(file, refined_lines_group);
  for (std::size_t b = 0; b < blocks; ++b) {
    const io::Group group = io::open_group(file, refined_lines_block_path(b));
    const auto append = [&](std::vector<std::int64_t>& to, const char* name) {
      const std::vector<std::int64_t> values = io::read_ints(io::open_dataset(group, name));
      to.insert(to.end(), values.begin(), values.end());
    };
    append(rows.weighting_index, "weighting_index");
    append(rows.d_index, "d_index");
    append(rows.delta_index, "delta_index");
    append(rows.gamma_index, "gamma_index");
    append(rows.trial, "trial");
    append(rows.count, "count");
    rows.d.resize(rows.trial.size(), io::read_int_attribute(group, d_attribute));
  }
  return rows;
}

std::vector<std::pair<std::size_t, StoredLine>> read_refined_lines(hid_t file) {
  std::vector<std::pair<std::size_t, StoredLine>> out;
  const std::size_t blocks = complete_blocks(file, refined_lines_group);
  std::size_t first = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const io::Group group = io::open_group(file, refined_lines_block_path(b));
    for (auto& [row, stored] : SecularTable::open(group).read_all())
      out.emplace_back(first + row, std::move(stored));
    first += static_cast<std::size_t>(io::read_int_attribute(group, rows_marker));
  }
  return out;
}

RefinedLineStore::RefinedLineStore(hid_t file, const config::SweepConfig& config)
    : file_(file), config_(&config) {
  const std::size_t blocks = complete_blocks(file, refined_lines_group);
  for (std::size_t b = 0; b < blocks; ++b) open_block(b);
}

std::int64_t RefinedLineStore::capacity() const noexcept {
  return blocks_.empty() ? 0 : blocks_.back().first + blocks_.back().rows;
}

void RefinedLineStore::open_block(std::size_t index) {
  const io::Group group = io::open_group(file_, refined_lines_block_path(index));
  Block block;
  block.first = capacity();
  block.rows = io::read_int_attribute(group, rows_marker);
  block.weighting_index = io::open_dataset(group, "weighting_index");
  block.d_index = io::open_dataset(group, "d_index");
  block.delta_index = io::open_dataset(group, "delta_index");
  block.gamma_index = io::open_dataset(group, "gamma_index");
  block.trial = io::open_dataset(group, "trial");
  block.secular = SecularTable::open(group);  // with its rows' checksum where the block has it
  if (io::exists(group, refined_identity_checksum))
    block.identity_checksum = io::open_dataset(group, refined_identity_checksum);
  blocks_.push_back(std::move(block));
}

void RefinedLineStore::add_block(std::size_t d_index, std::int64_t rows) {
  const std::size_t index = blocks_.size();
  const std::string path = refined_lines_block_path(index);
  create_refine_group(file_);
  if (!io::exists(file_, std::string(refined_lines_group))) {
    const io::Group group = io::create_group(file_, std::string(refined_lines_group));
    detail::describe(
        group,
        "the secular forms of the trials `rmtsweep refine` adds as whole lines over the grid's snr "
        "(docs/refinement.md), in blocks of one size each");
  }
  // A block a kill interrupted during its creation (no marker) is replaced.
  if (io::exists(file_, path)) io::check(H5Ldelete(file_, path.c_str(), H5P_DEFAULT), "H5Ldelete");
  {
    const io::Group group = io::create_group(file_, path);
    const auto n = static_cast<hsize_t>(rows);
    const io::Dataset row = io::create_dimension_only(group, "row", n);
    io::write_cf_attributes(row, "row of the refined lines' block", "");
    io::DatasetOptions unset;
    unset.int_fill = -1;
    for (const char* name : refined_line_identity_columns) {
      const io::Dataset set = io::create_int_dataset(group, name, {n}, unset);
      detail::describe(
          set, std::string(name) == "trial"
                   ? "the trial the row holds (beyond the grid's trials); -1: the row is not given yet"
                   : "the line's grid position on this axis, as in /points");
      io::write_cf_attributes(set, {}, "");
      io::attach_scale(set, row, 0);
    }
    SecularTable::create(group, n, line_row_width(*config_, d_index), row);
    if (io::exists(file_, checksums_group)) {  // a file with checksums (checksums.hpp): its rows' too
      const io::DatasetOptions none_yet{.int_fill = no_checksum};
      const io::Dataset secular = io::create_int_dataset(group, "checksum", {n}, none_yet);
      detail::describe(secular,
                       "per row, the CRC-32 of its poles, signal, offset, rho, form, converged and count as "
                       "written (-1: none yet); docs/reliability.md");
      io::attach_scale(secular, row, 0);
      const io::Dataset identity = io::create_int_dataset(group, refined_identity_checksum, {n}, none_yet);
      detail::describe(
          identity,
          "per row, the CRC-32 of its grid positions and trial as written, before the trial (-1: "
          "not given); docs/reliability.md");
      io::attach_scale(identity, row, 0);
    }
    io::flush(file_);
    io::write_attribute(group, d_attribute, static_cast<std::int64_t>(config_->d.at(d_index)));
    io::write_attribute(group, rows_marker, rows);  // the "complete" marker, last
  }
  io::flush(file_);
  open_block(index);
}

const RefinedLineStore::Block& RefinedLineStore::block_of(std::int64_t row) const {
  for (const Block& b : blocks_) {
    if (row >= b.first && row < b.first + b.rows) return b;
  }
  throw std::out_of_range("refined line " + std::to_string(row) + " beyond the file's blocks");
}

void RefinedLineStore::write_pending(const std::vector<std::int64_t>& rows,
                                     const std::vector<config::GridCoordinates>& at) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Block& block = block_of(rows[i]);
    const auto row = static_cast<hsize_t>(rows[i] - block.first);
    const auto put = [&](const io::Dataset& set, std::int64_t value) {
      io::write_rows(set, row, 1, std::vector<std::int64_t>{value});
    };
    put(block.weighting_index, static_cast<std::int64_t>(at[i].weighting));
    put(block.d_index, static_cast<std::int64_t>(at[i].d));
    put(block.delta_index, static_cast<std::int64_t>(at[i].delta));
    put(block.gamma_index, static_cast<std::int64_t>(at[i].gamma));
    if (block.identity_checksum.valid()) {  // over the five as written (checksums.hpp), before the trial
      Checksum sum;
      for (const std::int64_t value :
           {static_cast<std::int64_t>(at[i].weighting), static_cast<std::int64_t>(at[i].d),
            static_cast<std::int64_t>(at[i].delta), static_cast<std::int64_t>(at[i].gamma),
            static_cast<std::int64_t>(at[i].trial)})
        sum.add(value);
      put(block.identity_checksum, sum.value());
    }
    put(block.trial, at[i].trial);  // last: the row is given
  }
}

bool RefinedLineStore::write(std::int64_t row, const spectral::RankOneLine& secular, bool converged) const {
  const Block& block = block_of(row);
  return block.secular.write(static_cast<hsize_t>(row - block.first), secular, converged);
}

StoredLine RefinedLineStore::read(std::int64_t row, std::int64_t count) const {
  const Block& block = block_of(row);
  return block.secular.read(static_cast<hsize_t>(row - block.first), count);
}

}  // namespace rmtsweep::store
