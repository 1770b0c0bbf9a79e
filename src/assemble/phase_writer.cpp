// Writing /phase datasets with their dimensions (src/assemble/phase_writer.hpp).
#include "phase_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/store/checksums.hpp"

namespace rmtsweep::assemble::detail {

void PhaseScales::add(const Dimension& dimension, std::string path, hsize_t size) {
  scales_[dimension.name] = Scale{std::move(path), size};
}

const PhaseScales::Scale& PhaseScales::visible_from(const Dimension& dimension,
                                                    const std::string& group_path) const {
  const auto found = scales_.find(dimension.name);
  if (found == scales_.end())
    throw std::logic_error("dimension " + std::string(dimension.name) + " used in " + group_path +
                           " before its scale was written");
  const std::string& scale = found->second.path;
  const std::string parent = scale.substr(0, scale.find_last_of('/'));
  if (group_path != parent && !group_path.starts_with(parent + "/"))
    throw std::logic_error("dimension " + std::string(dimension.name) + " of a dataset in " + group_path +
                           " has its scale in " + parent + ", outside the groups netCDF-4 readers search");
  return found->second;
}

bool is_coordinate(const PhaseEntry& entry) noexcept {
  return entry.dims.rank() == 1 && entry.dims[0].name == entry.name;
}

void set_attribute(hid_t object, const std::string& name, const std::string& value) {
  // HDF5 rewrites an object header when an attribute is deleted and created again: an unconditional
  // write would change the file's bytes even when nothing changed.
  if (io::has_attribute(object, name) && io::read_string_attribute(object, name) == value) return;
  io::write_attribute(object, name, value);
}

PhaseWriter::PhaseWriter(hid_t group, PhaseScales& scales)
    : group_(group), path_(io::path_of(group)), scales_(scales) {}

std::vector<hsize_t> PhaseWriter::shape_of(const PhaseEntry& entry, std::size_t count) const {
  if (is_coordinate(entry)) return {count};
  std::vector<hsize_t> dims;
  hsize_t product = 1;
  for (std::size_t axis = 0; axis < entry.dims.rank(); ++axis) {
    dims.push_back(scales_.visible_from(entry.dims[axis], path_).size);
    product *= dims.back();
  }
  if (product != count)
    throw std::logic_error(std::to_string(count) + " values for " + path_ + "/" + std::string(entry.name) +
                           ", whose dimensions hold " + std::to_string(product));
  return dims;
}

template <class Number>
void PhaseWriter::put_numbers(const PhaseEntry& entry, const std::vector<Number>& values) {
  constexpr bool real = std::is_same_v<Number, double>;
  const std::string name(entry.name);
  const std::vector<hsize_t> dims = shape_of(entry, values.size());
  const io::Dataset set = reuse_or_create(entry, dims, real ? Kind::real : Kind::integer, [&] {
    return real ? io::create_double_dataset(group_, name, dims) : io::create_int_dataset(group_, name, dims);
  });
  io::write(set, values);
  store::Checksum sum;  // what readers read back is checked (store/checksums.hpp)
  sum.add(values);
  store::stamp(set, sum);
  finish(entry, set, real ? Kind::real : Kind::integer);
}

void PhaseWriter::put(const PhaseEntry& entry, const std::vector<double>& values) {
  put_numbers(entry, values);
}

void PhaseWriter::put(const PhaseEntry& entry, const std::vector<std::int64_t>& values) {
  put_numbers(entry, values);
}

void PhaseWriter::put(const PhaseEntry& entry, const std::vector<std::string>& values) {
  const std::string name(entry.name);
  const std::vector<hsize_t> dims = shape_of(entry, values.size());
  text_width_ = 1;
  for (const auto& v : values) text_width_ = std::max(text_width_, v.size());
  const io::Dataset set = reuse_or_create(entry, dims, Kind::text, [&] {
    return io::create_string_dataset(group_, name, values.size(), text_width_);
  });
  io::write(set, values);
  store::Checksum sum;
  sum.add(values, text_width_);
  store::stamp(set, sum);
  finish(entry, set, Kind::text);
}

void PhaseWriter::put_dimension(const PhaseEntry& entry, hsize_t size) {
  if (!is_coordinate(entry)) throw std::logic_error(std::string(entry.name) + " is not a dimension");
  const std::string name(entry.name);
  written_.insert(name);
  if (io::exists(group_, name)) {
    io::Dataset existing = io::open_dataset(group_, name);
    // One that records times (an earlier rmtsweep's) is made again: see reuse_or_create.
    const bool same = io::shape(existing) == std::vector<hsize_t>{size} && io::is_scale(existing) &&
                      !io::tracks_times(existing);
    existing.reset();
    if (!same) unlink(name);
  }
  const io::Dataset set = io::create_dimension_only(group_, name, size);
  set_attribute(set, "description", std::string(entry.description));
  write_cf(entry, set);
  scales_.add(entry.dims[0], path_ + "/" + name, size);
}

io::Dataset PhaseWriter::reuse_or_create(const PhaseEntry& entry, const std::vector<hsize_t>& dims, Kind kind,
                                         const std::function<io::Dataset()>& create) {
  const std::string name(entry.name);
  written_.insert(name);
  if (!io::exists(group_, name)) return create();
  io::Dataset set = io::open_dataset(group_, name);
  const io::Datatype type(io::check_id(H5Dget_type(set), "H5Dget_type"));
  const H5T_class_t type_class = H5Tget_class(type);
  const bool same_type =
      kind == Kind::text
          ? type_class == H5T_STRING && !io::check_tri(H5Tis_variable_str(type), "H5Tis_variable_str") &&
                H5Tget_size(type) == text_width_
          : type_class == (kind == Kind::real ? H5T_FLOAT : H5T_INTEGER) && H5Tget_size(type) == 8;
  // A file assembled before dimension scales has none: they are attached to the dataset as it is.
  bool same_dimensions = true;
  // Compared by object, not by name (io::attached_none_or): the names cost a search of the file each.
  if (is_coordinate(entry)) {
    same_dimensions = !io::is_scale(set) || io::attached_dimensions(set) == std::vector<std::string>{""};
  } else {
    const std::size_t rank = std::min<std::size_t>(io::shape(set).size(), entry.dims.rank());
    for (std::size_t axis = 0; axis < rank && same_dimensions; ++axis) {
      const io::Dataset scale = io::open_dataset(group_, scales_.visible_from(entry.dims[axis], path_).path);
      same_dimensions = io::attached_none_or(set, static_cast<unsigned>(axis), scale);
    }
  }
  // A dataset that records its modification time (assembled by an rmtsweep before io::untimed_creation)
  // would take the clock's time into its header with each new `checksum`: made again, without.
  if (io::shape(set) == dims && same_type && same_dimensions && !io::tracks_times(set)) return set;
  set.reset();
  unlink(name);
  return create();
}

void PhaseWriter::write_cf(const PhaseEntry& entry, hid_t set) {
  io::write_cf_attributes(set, entry.long_name, entry.units);
  if (entry.units.empty()) io::remove_text_attribute(set, "units", "1");  // written by an assemble before
  if (!entry.flags.empty())
    io::write_flag_attributes(set, entry.flags.values, entry.flags.meanings, entry.flags.masks);
}

void PhaseWriter::finish(const PhaseEntry& entry, const io::Dataset& set, Kind kind) {
  set_attribute(set, "description", std::string(entry.description));
  if (kind == Kind::text) set_attribute(set, "_Encoding", "utf-8");  // a file assembled before had none
  write_cf(entry, set);
  if (is_coordinate(entry)) {
    io::make_coordinate(set);
    scales_.add(entry.dims[0], path_ + "/" + std::string(entry.name), io::shape(set).front());
    return;
  }
  for (std::size_t axis = 0; axis < entry.dims.rank(); ++axis) {
    const io::Dataset scale = io::open_dataset(group_, scales_.visible_from(entry.dims[axis], path_).path);
    io::attach_scale(set, scale, static_cast<unsigned>(axis));
  }
}

namespace {
/// Detaches the dimension scales of the object `name` under `loc` and, for a group, of everything in it.
void detach_everything(hid_t loc, const std::string& name) {
  const hid_t object =
      io::check_id(H5Oopen(loc, name.c_str(), H5P_DEFAULT), ("H5Oopen(" + name + ")").c_str());
  if (H5Iget_type(object) == H5I_DATASET) {
    const io::Dataset set(object);
    io::detach_all(set);
    return;
  }
  const io::Group group(object);
  for (const auto& child : io::list_children(group)) detach_everything(group, child);
}
}  // namespace

void PhaseWriter::unlink(const std::string& name) {
  detach_everything(group_, name);
  io::check(H5Ldelete(group_, name.c_str(), H5P_DEFAULT), "H5Ldelete");
}

void PhaseWriter::remove_others() {
  for (const auto& name : io::list_children(group_)) {
    if (!written_.count(name)) unlink(name);
  }
}

}  // namespace rmtsweep::assemble::detail
