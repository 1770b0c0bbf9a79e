// Checksums of what a sweep file's readers read back (include/rmtsweep/store/checksums.hpp).
#include "rmtsweep/store/checksums.hpp"

#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/index_list.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/refined_line_store.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {

void Checksum::bytes(const void* data, std::size_t size) {
  crc_ = ::crc32(crc_, static_cast<const Bytef*>(data), static_cast<uInt>(size));
}

void Checksum::add(double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  unsigned char out[8];
  for (int b = 0; b < 8; ++b) out[b] = static_cast<unsigned char>(bits >> (8 * b));
  bytes(out, 8);
}

void Checksum::add(std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  unsigned char out[8];
  for (int b = 0; b < 8; ++b) out[b] = static_cast<unsigned char>(bits >> (8 * b));
  bytes(out, 8);
}

void Checksum::add(std::string_view text, std::size_t width) {
  if (width == 0) {  // kept whole: its bytes and an end
    bytes(text.data(), text.size());
    const char end = '\0';
    bytes(&end, 1);
    return;
  }
  // As io::write stores it in `width` bytes: cut, then padded with NULs.
  const std::string_view stored = text.substr(0, std::min(width, text.size()));
  bytes(stored.data(), stored.size());
  const std::string pad(width - stored.size(), '\0');
  bytes(pad.data(), pad.size());
}

void Checksum::add_raw(const char* data, std::size_t size) { bytes(data, size); }

void Checksum::add(const std::vector<double>& values) {
  for (const double v : values) add(v);
}

void Checksum::add(const std::vector<std::int64_t>& values) {
  for (const std::int64_t v : values) add(v);
}

void Checksum::add(const std::vector<std::string>& values, std::size_t width) {
  for (const std::string& v : values) add(std::string_view(v), width);
}

void Checksum::add(const Cell& cell, std::size_t width) {
  if (const auto* real = std::get_if<double>(&cell)) {
    add(*real);
  } else if (const auto* integer = std::get_if<std::int64_t>(&cell)) {
    add(*integer);
  } else if (const auto* text = std::get_if<std::string>(&cell)) {
    add(std::string_view(*text), width);
  } else {
    add(std::get<std::vector<double>>(cell));
  }
}

std::string line_checksums_path(int d) { return lines_group_of(d) + "/checksum"; }

void write_number_in_place(hid_t object, const std::string& name, std::int64_t value) {
  // An attribute that exists is written where it is (H5Awrite), never deleted and created again, which moves
  // it in the object's header: assembling again with another margin, then with the first, leaves the first
  // bytes.
  if (!io::has_attribute(object, name)) {
    io::write_attribute(object, name, value);
    return;
  }
  if (io::read_int_attribute(object, name) == value) return;
  const io::Attribute attribute(io::check_id(H5Aopen(object, name.c_str(), H5P_DEFAULT), "H5Aopen"));
  io::check(H5Awrite(attribute, H5T_NATIVE_INT64, &value), "H5Awrite");
}

void stamp(hid_t set, const Checksum& checksum) {
  write_number_in_place(set, checksum_attribute, checksum.value());
}

namespace {

/// Every dataset's path under `prefix` (all of the file where empty).
std::vector<std::string> dataset_paths(hid_t file, const std::string& prefix) {
  std::vector<std::string> paths;
  const auto visit = [](hid_t loc, const char* name, const H5L_info_t*, void* out) -> herr_t {
    const hid_t object = H5Oopen(loc, name, H5P_DEFAULT);
    if (object < 0) return 0;  // a dangling link: nothing to read
    if (H5Iget_type(object) == H5I_DATASET) static_cast<std::vector<std::string>*>(out)->push_back(name);
    H5Oclose(object);
    return 0;
  };
  const std::string root = prefix.empty() ? "/" : prefix;
  if (!io::exists(file, root)) return paths;
  const io::Group group = io::open_group(file, root);
  io::check(H5Lvisit(group, H5_INDEX_NAME, H5_ITER_INC, visit, &paths), "H5Lvisit");
  for (std::string& path : paths) path = (root == "/" ? "/" : root + "/") + path;
  return paths;
}

enum class Kind { real, integer, fixed_text, variable_text, real32, other };

Kind kind_of(hid_t set) {
  const io::Datatype type(io::check_id(H5Dget_type(set), "H5Dget_type"));
  switch (H5Tget_class(type)) {
    case H5T_FLOAT:
      return H5Tget_size(type) == 8 ? Kind::real : Kind::real32;
    case H5T_INTEGER:
      return Kind::integer;
    case H5T_STRING:
      return io::check_tri(H5Tis_variable_str(type), "H5Tis_variable_str") ? Kind::variable_text
                                                                           : Kind::fixed_text;
    default:
      return Kind::other;
  }
}

/// A fixed-length text dataset's bytes as stored (padding included: h5py returns what follows a NUL too),
/// and its width.
std::pair<std::vector<char>, std::size_t> raw_texts(hid_t set) {
  const io::Datatype type(io::check_id(H5Dget_type(set), "H5Dget_type"));
  const std::size_t width = H5Tget_size(type);
  std::size_t count = 1;
  for (const hsize_t n : io::shape(set)) count *= static_cast<std::size_t>(n);
  std::vector<char> buffer(count * width);
  if (count > 0) io::check(H5Dread(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "H5Dread");
  return {std::move(buffer), width};
}

/// The checksum of a dataset's whole content as read back.
Checksum content_checksum(hid_t set, Kind kind) {
  Checksum sum;
  if (kind == Kind::real) sum.add(io::read_doubles(set));
  if (kind == Kind::integer) sum.add(io::read_ints(set));
  if (kind == Kind::fixed_text) {
    const auto [buffer, width] = raw_texts(set);
    sum.add_raw(buffer.data(), buffer.size());
  }
  if (kind == Kind::variable_text) sum.add(io::read_strings(set));
  return sum;
}

/// Whether `path` is covered by a row checksum: the measured /points columns and status, the spectra's
/// eigenvalues, the rows of /lines.
bool row_covered(const std::string& path) {
  if (path.starts_with("/spectra/") && path.ends_with("/eigenvalues")) return true;
  if (path.starts_with("/lines/")) return true;
  for (const Column* column : point_columns())
    if (column->phase == ColumnPhase::measurement && path.substr(1) == path_of(*column)) return true;
  return false;
}

/// A column's cells by row as readers read them back (a fixed-length text's raw bytes, its whole width) and a
/// text's stored width.
struct Read {
  std::vector<Cell> cells;
  std::size_t width = 0;
};

Read read_cells(hid_t set, Kind kind, bool top_k) {
  Read read;
  if (kind == Kind::fixed_text) {  // each row's raw bytes, which add(text, width) takes whole
    const auto [buffer, width] = raw_texts(set);
    read.width = width;
    for (std::size_t at = 0; at + width <= buffer.size(); at += width)
      read.cells.emplace_back(std::string(buffer.data() + at, width));
  } else if (kind == Kind::integer) {
    for (const std::int64_t v : io::read_ints(set)) read.cells.emplace_back(v);
  } else {
    const std::vector<double> values = io::read_doubles(set);
    const std::vector<hsize_t> shape = io::shape(set);
    const std::size_t per_row = shape.size() > 1 ? static_cast<std::size_t>(shape[1]) : 1;
    for (std::size_t i = 0; i + per_row <= values.size(); i += per_row) {
      if (top_k) {
        read.cells.emplace_back(
            std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(i),
                                values.begin() + static_cast<std::ptrdiff_t>(i + per_row)));
      } else {
        read.cells.emplace_back(values[i]);
      }
    }
  }
  return read;
}

/// What a row of `set` never written reads: its fill value, as one cell.
Cell fill_cell(hid_t set, Kind kind, bool top_k) {
  const io::PropertyList creation(io::check_id(H5Dget_create_plist(set), "H5Dget_create_plist"));
  if (kind == Kind::fixed_text) {
    const io::Datatype type(io::check_id(H5Dget_type(set), "H5Dget_type"));
    std::string fill(H5Tget_size(type), '\0');
    io::check(H5Pget_fill_value(creation, type, fill.data()), "H5Pget_fill_value");
    return fill;
  }
  if (kind == Kind::integer) {
    std::int64_t fill = 0;
    io::check(H5Pget_fill_value(creation, H5T_NATIVE_INT64, &fill), "H5Pget_fill_value");
    return fill;
  }
  double fill = 0.0;
  io::check(H5Pget_fill_value(creation, H5T_NATIVE_DOUBLE, &fill), "H5Pget_fill_value");
  if (!top_k) return fill;
  const std::vector<hsize_t> shape = io::shape(set);
  return std::vector<double>(shape.size() > 1 ? static_cast<std::size_t>(shape[1]) : 1, fill);
}

/// The rows of /points checked against /checksums/points.
void check_point_rows(hid_t file, ChecksumReport& report) {
  if (!io::exists(file, point_checksums_path)) return;
  const std::vector<std::int64_t> sums = io::read_ints(io::open_dataset(file, point_checksums_path));
  const std::vector<std::int64_t> status = io::read_ints(io::open_dataset(file, path_of(column::status)));
  std::vector<Read> columns;
  for (const Column* column : point_columns()) {
    if (column->phase != ColumnPhase::measurement || column == &column::status) continue;
    if (!io::exists(file, path_of(*column))) continue;
    const io::Dataset set = io::open_dataset(file, path_of(*column));
    const Kind kind = kind_of(set);
    if (kind == Kind::variable_text) continue;  // the messages, written at the close
    columns.push_back(read_cells(set, kind, column->shape == ColumnShape::top_k));
  }
  // Each size's spectra: the /points row of each of its rows.
  std::map<std::int64_t, std::vector<double>> spectrum;
  if (io::exists(file, std::string(spectra_group))) {
    for (const std::string& size : io::list_children(io::open_group(file, std::string(spectra_group)))) {
      const std::string group = std::string(spectra_group) + "/" + size;
      if (!io::exists(file, group + "/point") || !io::exists(file, group + "/eigenvalues")) continue;
      const io::Dataset eigenvalues = io::open_dataset(file, group + "/eigenvalues");
      const std::vector<double> values = io::read_doubles(eigenvalues);
      const auto d = static_cast<std::size_t>(io::shape(eigenvalues).at(1));
      const std::vector<std::int64_t> rows = io::read_ints(io::open_dataset(file, group + "/point"));
      for (std::size_t r = 0; r < rows.size() && (r + 1) * d <= values.size(); ++r)
        spectrum[rows[r]] = std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(r * d),
                                                values.begin() + static_cast<std::ptrdiff_t>((r + 1) * d));
    }
  }
  for (std::size_t i = 0; i < sums.size() && i < status.size(); ++i) {
    if (sums[i] == no_checksum || status[i] == static_cast<std::int64_t>(PointStatus::pending)) continue;
    Checksum sum;
    for (const Read& column : columns) sum.add(column.cells.at(i), column.width);
    sum.add(status[i]);
    if (const auto found = spectrum.find(static_cast<std::int64_t>(i)); found != spectrum.end())
      sum.add(found->second);
    ++report.rows;
    if (sum.value() != sums[i]) report.damaged_points.push_back(static_cast<std::int64_t>(i));
  }
}

/// The rows of a secular table (line_store.hpp's SecularTable: /lines/d<d>, /refine/lines/block_<b>) checked
/// against its `checksum` dataset; returns the damaged rows. A row never written (its line failed, or is not
/// computed yet) holds the datasets' fill values.
std::vector<std::size_t> damaged_secular_rows(hid_t file, const std::string& group, std::int64_t& checked,
                                              Writer writer) {
  std::vector<std::size_t> damaged;
  // The count first: a writer writes it last (line_store.cpp), so a row counted now is whole in what follows.
  const std::vector<std::int64_t> count = io::read_ints(io::open_dataset(file, group + "/count"));
  const std::vector<std::int64_t> sums = io::read_ints(io::open_dataset(file, group + "/checksum"));
  const io::Dataset poles_set = io::open_dataset(file, group + "/poles");
  const auto width = static_cast<std::size_t>(io::shape(poles_set).at(1));
  const std::vector<double> poles = io::read_doubles(poles_set);
  const std::vector<double> signal = io::read_doubles(io::open_dataset(file, group + "/signal"));
  const std::vector<double> offset = io::read_doubles(io::open_dataset(file, group + "/offset"));
  const std::vector<double> rho = io::read_doubles(io::open_dataset(file, group + "/rho"));
  const std::vector<std::int64_t> form = io::read_ints(io::open_dataset(file, group + "/form"));
  const std::vector<std::int64_t> converged = io::read_ints(io::open_dataset(file, group + "/converged"));
  const auto row_of = [&](const std::vector<double>& values, std::size_t r) {
    return std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(r * width),
                               values.begin() + static_cast<std::ptrdiff_t>((r + 1) * width));
  };
  Checksum unwritten;
  const std::vector<double> nans(width, std::numeric_limits<double>::quiet_NaN());
  unwritten.add(nans);
  unwritten.add(nans);
  unwritten.add(nans);
  unwritten.add(std::numeric_limits<double>::quiet_NaN());
  unwritten.add(std::int64_t{0});
  unwritten.add(std::int64_t{0});
  unwritten.add(std::int64_t{0});
  for (std::size_t r = 0; r < sums.size() && r < count.size(); ++r) {
    if (count[r] == 0 && writer == Writer::live) continue;  // not written yet, or being written now
    Checksum sum;
    sum.add(row_of(poles, r));
    sum.add(row_of(signal, r));
    sum.add(row_of(offset, r));
    sum.add(rho.at(r));
    sum.add(form.at(r));
    sum.add(converged.at(r));
    sum.add(count[r]);
    const std::int64_t expected = sums[r] == no_checksum ? unwritten.value() : sums[r];
    if (sums[r] != no_checksum) ++checked;
    if (sum.value() != expected) damaged.push_back(r);
  }
  return damaged;
}

/// The rows of each size's /lines checked against their checksum dataset.
void check_line_rows(hid_t file, ChecksumReport& report, Writer writer) {
  if (!io::exists(file, std::string(lines_group))) return;
  for (const std::string& size : io::list_children(io::open_group(file, std::string(lines_group)))) {
    const std::string group = std::string(lines_group) + "/" + size;
    if (!io::exists(file, group + "/checksum") || !io::exists(file, group + "/count")) continue;
    const std::vector<std::int64_t> line = io::read_ints(io::open_dataset(file, group + "/line"));
    for (const std::size_t r : damaged_secular_rows(file, group, report.rows, writer))
      report.damaged_lines.push_back(r < line.size() ? line[r] : -1);
  }
}

/// The paths of the /refine blocks' datasets that their row checksums cover (those of blocks written with
/// them).
std::set<std::string> refine_row_covered(hid_t file) {
  std::set<std::string> covered;
  for (const std::string_view group : {refine_group, refined_lines_group}) {
    const std::size_t blocks = complete_blocks(file, group);
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::string base = std::string("/").append(group).append("/block_").append(std::to_string(b));
      if (!io::exists(file, base + "/checksum")) continue;
      for (const std::string& name : io::list_children(io::open_group(file, base))) {
        const std::string path = base + "/" + name;
        const io::Dataset set = io::open_dataset(file, path);
        if (!io::has_attribute(set, checksum_attribute) && !io::is_scale(set)) covered.insert(path);
      }
    }
  }
  return covered;
}

/// The rows of every /refine block written with row checksums (refine_file.hpp): a row given to a point
/// against its parameters' checksum and, once done or failed, its measurements' and status's; a row not given
/// against the fill values (or, where a kill interrupted its giving, against what was written of it).
void check_refined_rows(hid_t file, ChecksumReport& report, Writer writer) {
  const std::size_t blocks = complete_blocks(file, refine_group);
  std::int64_t first = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::string base = std::string("/").append(refine_block_path(b)).append("/");
    const std::int64_t rows = io::read_int_attribute(io::open_group(file, refine_block_path(b)), "rows");
    if (!io::exists(file, base + "checksum") || !io::exists(file, base + refined_parameters_checksum)) {
      first += rows;
      continue;
    }
    // The status first: refine writes it last (refine_file.cpp), so a row given or done now is whole in what
    // follows.
    const std::vector<std::int64_t> status = io::read_ints(io::open_dataset(file, base + "status"));
    const std::vector<std::int64_t> sums = io::read_ints(io::open_dataset(file, base + "checksum"));
    const std::vector<std::int64_t> parameter_sums =
        io::read_ints(io::open_dataset(file, base + refined_parameters_checksum));
    // Each column's cells and fill value, in the schema's order: the parameters, then the measurements.
    std::vector<std::pair<Read, Cell>> parameters, measurements;
    for (const Column* column : point_columns()) {
      if (column == &column::status || !io::exists(file, base + std::string(column->name))) continue;
      const io::Dataset set = io::open_dataset(file, base + std::string(column->name));
      const Kind kind = kind_of(set);
      if (kind == Kind::variable_text) continue;  // the messages: their own checksum attribute
      const bool top_k = column->shape == ColumnShape::top_k;
      (column->phase == ColumnPhase::parameter ? parameters : measurements)
          .emplace_back(read_cells(set, kind, top_k), fill_cell(set, kind, top_k));
    }
    const auto sum_of = [](const std::vector<std::pair<Read, Cell>>& columns, std::size_t r, bool fill) {
      Checksum sum;
      for (const auto& [read, fill_value] : columns)
        sum.add(fill ? fill_value : read.cells.at(r), read.width);
      return sum;
    };
    constexpr auto unused = static_cast<std::int64_t>(PointStatus::unused);
    constexpr auto pending = static_cast<std::int64_t>(PointStatus::pending);
    Checksum unused_measurements = sum_of(measurements, 0, true);
    unused_measurements.add(unused);
    const std::int64_t unused_parameters = sum_of(parameters, 0, true).value();
    for (std::size_t r = 0; r < status.size() && r < sums.size() && r < parameter_sums.size(); ++r) {
      const std::int64_t s = status[r];
      if (s == unused && writer == Writer::live) continue;  // not given yet, or being given now
      bool whole = s >= unused && s <= static_cast<std::int64_t>(PointStatus::failed);
      const std::int64_t parameters_now = sum_of(parameters, r, false).value();
      Checksum measured = sum_of(measurements, r, false);
      if (s == unused) {
        // Not given, or its giving interrupted (then given again): the parameters as far as written (their
        // checksum follows them), the measurements of the pending row being written.
        whole = whole &&
                parameters_now == (parameter_sums[r] == no_checksum ? unused_parameters : parameter_sums[r]);
        if (sums[r] == no_checksum) {
          measured.add(unused);
          whole = whole && measured.value() == unused_measurements.value();
        } else {
          measured.add(pending);
          whole = whole && measured.value() == sums[r];
        }
      } else if (whole) {
        ++report.rows;
        whole = parameters_now == parameter_sums[r];
        // A pending row's measurements are not checked: a kill between its checksum and its status leaves
        // one, whose point is computed again.
        measured.add(s);
        if (s != pending) whole = whole && measured.value() == sums[r];
      }
      if (!whole) report.damaged_refined_points.push_back(first + static_cast<std::int64_t>(r));
    }
    first += rows;
  }
}

/// The rows of every /refine/lines block written with row checksums (refined_line_store.hpp): each row's
/// secular form as /lines, and its grid positions and trial against their checksum (a row not given: the
/// fill values, -1).
void check_refined_line_rows(hid_t file, ChecksumReport& report, Writer writer) {
  const std::size_t blocks = complete_blocks(file, refined_lines_group);
  std::int64_t first = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::string base = std::string("/").append(refined_lines_block_path(b));
    const std::int64_t rows = io::read_int_attribute(io::open_group(file, base), "rows");
    if (!io::exists(file, base + "/checksum") || !io::exists(file, base + "/" + refined_identity_checksum)) {
      first += rows;
      continue;
    }
    std::set<std::int64_t> damaged;
    for (const std::size_t r : damaged_secular_rows(file, base, report.rows, writer))
      damaged.insert(first + static_cast<std::int64_t>(r));
    // The trial first: refine writes it last (refined_line_store.cpp), after the row's checksum.
    std::vector<std::vector<std::int64_t>> identity(std::size(refined_line_identity_columns));
    identity.back() = io::read_ints(
        io::open_dataset(file, base + "/" + refined_line_identity_columns[identity.size() - 1]));
    const std::vector<std::int64_t> identity_sums =
        io::read_ints(io::open_dataset(file, base + "/" + refined_identity_checksum));
    for (std::size_t c = 0; c + 1 < identity.size(); ++c)
      identity[c] = io::read_ints(io::open_dataset(file, base + "/" + refined_line_identity_columns[c]));
    const std::vector<std::int64_t>& trial = identity.back();
    for (std::size_t r = 0; r < identity_sums.size() && r < trial.size(); ++r) {
      if (trial[r] == -1 && writer == Writer::live) continue;  // not given yet, or being given now
      Checksum sum, unwritten;
      for (const auto& column : identity) {
        sum.add(column.at(r));
        unwritten.add(std::int64_t{-1});
      }
      bool whole = trial[r] >= -1;
      if (trial[r] == -1 && identity_sums[r] == no_checksum)
        whole = whole && sum.value() == unwritten.value();
      else if (trial[r] != -1)  // given: its checksum was written before its trial
        whole = whole && sum.value() == identity_sums[r];
      // (A row whose giving a kill interrupted after its checksum is given again: not checked.)
      if (!whole) damaged.insert(first + static_cast<std::int64_t>(r));
    }
    report.damaged_refined_lines.insert(report.damaged_refined_lines.end(), damaged.begin(), damaged.end());
    first += rows;
  }
}

}  // namespace

/// Whether the stored descriptors of a variable-length text dataset are whole: a null string's all zeros (as
/// HDF5 writes it), another's with a length and an address. A flipped byte in a null string's descriptor may
/// change nothing a reader reads (HDF5 reads a zero address as a null string), yet is damage. Read from the
/// file's bytes (contiguous storage; true where there is none).
bool null_descriptors_clean(hid_t set) {
  const haddr_t offset = H5Dget_offset(set);
  if (offset == HADDR_UNDEF) return true;
  const hsize_t size = H5Dget_storage_size(set);
  const ssize_t length = H5Fget_name(set, nullptr, 0);
  if (length <= 0) return true;
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Fget_name(set, name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  std::ifstream in(name, std::ios::binary);
  std::vector<char> raw(static_cast<std::size_t>(size));
  if (!in.seekg(static_cast<std::streamoff>(offset)) ||
      !in.read(raw.data(), static_cast<std::streamsize>(raw.size())))
    return false;
  constexpr std::size_t descriptor =
      16;  // u32 length, the heap collection's address (8), the object's index (4)
  const auto zeros = [&](std::size_t from, std::size_t to) {
    return std::all_of(raw.begin() + static_cast<std::ptrdiff_t>(from),
                       raw.begin() + static_cast<std::ptrdiff_t>(to), [](char c) { return c == 0; });
  };
  // A null string is all zeros; any other has a length and a heap address: one without the other is damage.
  // and no two strings share a heap object (each message is written as its own).
  // Each length is that of the text read (HDF5 reads the heap object's own, whatever the descriptor says).
  const std::vector<std::string> texts = io::read_strings(set);
  std::set<std::string> objects;
  for (std::size_t at = 0; at + descriptor <= raw.size(); at += descriptor) {
    if (zeros(at, at + 4) != zeros(at + 4, at + descriptor)) return false;
    std::uint32_t stored = 0;
    for (std::size_t b = 0; b < 4; ++b)
      stored |= static_cast<std::uint32_t>(static_cast<unsigned char>(raw[at + b])) << (8 * b);
    const std::size_t row = at / descriptor;
    if (row < texts.size() && stored != texts[row].size()) return false;
    if (!zeros(at, at + 4) && !objects.insert(std::string(raw.data() + at + 4, descriptor - 4)).second)
      return false;
  }
  return true;
}

void stamp_content(hid_t set) { stamp(set, content_checksum(set, kind_of(set))); }

ChecksumReport check_checksums(hid_t file, const std::string& prefix, Writer writer) {
  ChecksumReport report;
  report.checksummed = prefix.empty() ? io::exists(file, checksums_group) : false;
  const std::set<std::string> refine_covered =
      prefix.empty() ? refine_row_covered(file) : std::set<std::string>{};
  for (const std::string& path : dataset_paths(file, prefix)) {
    if (path == point_checksums_path || path.ends_with("/checksum")) continue;  // checked with their rows
    if (refine_covered.count(path)) continue;
    const io::Dataset set = io::open_dataset(file, path);
    const Kind kind = kind_of(set);
    if (io::has_attribute(set, checksum_attribute)) {
      report.checksummed = true;
      ++report.datasets;
      try {
        if (content_checksum(set, kind).value() != io::read_int_attribute(set, checksum_attribute) ||
            (kind == Kind::variable_text && !null_descriptors_clean(set)))
          report.damaged_datasets.push_back(path);
      } catch (const Hdf5Error&) {  // bytes that no longer read (a variable-length text's heap reference)
        report.damaged_datasets.push_back(path);
      }
    } else if (kind == Kind::real32 && io::is_scale(set)) {  // a dimension without values: all zeros
      ++report.datasets;
      const std::vector<double> values = io::read_doubles(set);
      // Bit for bit: a flipped sign bit reads -0.0, which == 0.0.
      if (std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0 || std::signbit(v); }))
        report.damaged_datasets.push_back(path);
    } else if (!(prefix.empty() && report.checksummed && row_covered(path))) {
      report.not_checksummed.push_back(path);
    }
  }
  if (prefix.empty()) {
    check_point_rows(file, report);  // a row pending, or without its checksum, is not checked either way
    check_line_rows(file, report, writer);
    check_refined_rows(file, report, writer);
    check_refined_line_rows(file, report, writer);
  }
  return report;
}

PhaseStaleness phase_staleness(hid_t file) {
  PhaseStaleness s;
  if (!io::exists(file, "phase")) return s;
  s.present = true;
  const io::Group phase = io::open_group(file, "phase");
  if (!io::has_attribute(phase, std::string(phase_built_from_status))) return s;
  s.recorded = true;
  if (io::has_attribute(phase, std::string(phase_built_from)))
    s.built_from = io::read_string_attribute(phase, std::string(phase_built_from));
  Checksum now;
  now.add(io::read_ints(io::open_dataset(file, path_of(column::status))));
  s.stale = now.value() != io::read_int_attribute(phase, std::string(phase_built_from_status));
  return s;
}

std::string describe(const ChecksumReport& report) {
  if (!report.checksummed)
    return "not checksummed (a file written before checksums: schema_version 3 or older)";
  std::string text = std::to_string(report.datasets) + " datasets and " + std::to_string(report.rows) +
                     " rows checked by their checksums";
  if (!report.damaged()) return text + ": no damage found";
  text += ": DAMAGED:";
  if (!report.damaged_datasets.empty()) {
    text += " datasets";
    for (const std::string& path : report.damaged_datasets) text.append(" ").append(path);
    text += ";";
  }
  const auto list = [&](const char* what, const std::vector<std::int64_t>& items) {
    if (items.empty()) return;
    text.append(" ").append(what).append(" ").append(index_list(items)).append(";");
  };
  list("points", report.damaged_points);
  list("lines", report.damaged_lines);
  list("refined points (/refine rows)", report.damaged_refined_points);
  list("refined lines (/refine/lines rows)", report.damaged_refined_lines);
  text.pop_back();
  return text;
}

Repairer repairer_of(std::string_view path) {
  const std::string_view name = path.starts_with("/") ? path.substr(1) : path;
  if (name.starts_with("phase/") || name == "phase") return Repairer::assemble;
  for (const DatasetEntry* axis : {&grid_axis::d, &grid_axis::delta, &grid_axis::gamma, &grid_axis::snr,
                                   &grid_axis::weighting, &grid_axis::trial, &points_dimension::point})
    if (name == axis->path) return Repairer::resume;
  if (name == std::string(checksums_group).substr(1) + "/point") return Repairer::resume;
  // /spectra/d<d>/point and /lines/d<d>/line: the rows' point and line indices.
  const auto index_of = [&](std::string_view group, std::string_view leaf) {
    const std::string prefix = std::string(group) + "/d";
    if (!name.starts_with(prefix) || !name.ends_with(leaf)) return false;
    const std::string_view d = name.substr(prefix.size(), name.size() - prefix.size() - leaf.size());
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (index_of(spectra_group, "/point") || index_of(lines_group, "/line")) return Repairer::resume;
  for (const Column* column : point_columns())
    if (column->phase == ColumnPhase::parameter && name == path_of(*column)) return Repairer::resume;
  return Repairer::recover;
}

std::string describe_repairs(const ChecksumReport& report, const std::string& path) {
  if (!report.damaged()) return {};
  std::vector<std::string> created, rebuilt, assembled;
  for (const std::string& dataset : report.damaged_datasets) {
    const Repairer who = repairer_of(dataset);
    (who == Repairer::resume ? created : who == Repairer::assemble ? assembled : rebuilt).push_back(dataset);
  }
  const auto joined = [](const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : " ") + item;
    return text;
  };
  std::vector<std::string> parts;
  std::string resume;
  if (!report.damaged_points.empty()) resume += "points " + index_list(report.damaged_points);
  if (!report.damaged_lines.empty())
    resume += (resume.empty() ? "" : " and ") + std::string("lines ") + index_list(report.damaged_lines);
  if (!resume.empty()) resume += " from the journal (or computes them again)";
  if (!created.empty()) resume += (resume.empty() ? "" : " and ") + joined(created) + " from the config";
  if (!resume.empty()) parts.push_back("`rmtsweep run ... --resume` restores " + resume);
  if (!rebuilt.empty())
    parts.push_back("`rmtsweep recover " + path + "` rebuilds " + joined(rebuilt) + " from the journal");
  if (!assembled.empty())
    parts.push_back("`rmtsweep assemble " + path + "` writes " + joined(assembled) + " again");
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace rmtsweep::store
