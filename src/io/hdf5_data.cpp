// Datasets and attributes of the HDF5 RAII layer (include/rmtsweep/io/hdf5.hpp).
#include <cstring>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace rmtsweep::io {
namespace {

hsize_t product(const std::vector<hsize_t>& dims) {
  hsize_t n = 1;
  for (const hsize_t d : dims) n *= d;
  return n;
}

Dataset create_dataset(hid_t loc, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                       const DatasetOptions& options, const void* fill) {
  const Dataspace space = simple_dataspace(dims);
  PropertyList dcpl = untimed_creation(H5P_DATASET_CREATE);  // no times (hdf5.hpp)
  check(H5Pset_layout(dcpl, H5D_CONTIGUOUS), "H5Pset_layout");
  if (options.early_allocation) {
    check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "H5Pset_alloc_time");
    // Filled when allocated, strings (no fill value of their own) too: HDF5 otherwise leaves their storage a
    // hole on a sparse file system, which a point's later write (its error, its solver) must then find room
    // for.
    check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC), "H5Pset_fill_time");
  }
  if (fill) check(H5Pset_fill_value(dcpl, type, fill), "H5Pset_fill_value");
  PropertyList lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate(H5P_LINK_CREATE)"));
  check(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
  return Dataset(check_id(H5Dcreate2(loc, name.c_str(), type, space, lcpl, dcpl, H5P_DEFAULT),
                          ("H5Dcreate2(" + name + ")").c_str()));
}

/// The width of a dataset's or attribute's fixed-length string type (0 if variable-length).
std::size_t string_width(hid_t type) {
  if (check_tri(H5Tis_variable_str(type), "H5Tis_variable_str")) return 0;
  return H5Tget_size(type);
}

std::string trimmed(const char* data, std::size_t width) {
  std::size_t n = 0;
  while (n < width && data[n] != '\0') ++n;
  while (n > 0 && data[n - 1] == ' ') --n;
  return std::string(data, n);
}

std::vector<char> pack(const std::vector<std::string>& values, std::size_t width) {
  std::vector<char> buffer(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::memcpy(buffer.data() + i * width, values[i].data(), std::min(width, values[i].size()));
  }
  return buffer;
}

/// Selects rows [first, first + count) of the dataset; returns (file space, memory space).
std::pair<Dataspace, Dataspace> select_rows(hid_t dataset, hsize_t first, hsize_t count, hsize_t expected) {
  std::vector<hsize_t> dims = shape(dataset);
  if (dims.empty() || dims.size() > 2) throw Hdf5Error("row access needs a 1-D or 2-D dataset");
  if (first + count > dims[0]) throw Hdf5Error("rows out of range of the dataset");
  Dataspace file_space(check_id(H5Dget_space(dataset), "H5Dget_space"));
  std::vector<hsize_t> start(dims.size(), 0), block = dims;
  start[0] = first;
  block[0] = count;
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, block.data(), nullptr),
        "H5Sselect_hyperslab");
  if (expected != product(block)) throw Hdf5Error("row access: buffer size does not match the rows selected");
  return {std::move(file_space), simple_dataspace(block)};
}

template <class T>
void write_whole(hid_t dataset, const std::vector<T>& values, hid_t memtype, hid_t transfer) {
  if (values.size() != product(shape(dataset)))
    throw Hdf5Error("write: buffer size does not match the dataset");
  check(H5Dwrite(dataset, memtype, H5S_ALL, H5S_ALL, transfer, values.data()), "H5Dwrite");
}

template <class T>
void write_some(hid_t dataset, hsize_t first, hsize_t count, const std::vector<T>& values, hid_t memtype,
                hid_t transfer) {
  const auto [file_space, mem_space] = select_rows(dataset, first, count, values.size());
  check(H5Dwrite(dataset, memtype, mem_space, file_space, transfer, values.data()), "H5Dwrite");
}

template <class T>
std::vector<T> read_whole(hid_t dataset, hid_t memtype) {
  std::vector<T> values(product(shape(dataset)));
  if (!values.empty())
    check(H5Dread(dataset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "H5Dread");
  return values;
}

}  // namespace

Dataset create_double_dataset(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                              const DatasetOptions& options) {
  return create_dataset(loc, name, H5T_IEEE_F64LE, dims, options, &options.double_fill);
}

Dataset create_int_dataset(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                           const DatasetOptions& options) {
  return create_dataset(loc, name, H5T_STD_I64LE, dims, options, &options.int_fill);
}

Dataset create_string_dataset(hid_t loc, const std::string& name, hsize_t count, std::size_t string_length,
                              const DatasetOptions& options) {
  const Datatype type = fixed_string_type(string_length);
  Dataset set = create_dataset(loc, name, type, {count}, options, nullptr);
  // xarray decodes fixed-length strings to str only when told their encoding (CF's _Encoding).
  write_attribute(set, "_Encoding", "utf-8");
  return set;
}

Datatype utf8_string_type() {
  Datatype type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy(H5T_C_S1)"));
  check(H5Tset_size(type, H5T_VARIABLE), "H5Tset_size(H5T_VARIABLE)");
  check(H5Tset_cset(type, H5T_CSET_UTF8), "H5Tset_cset");
  return type;
}

Dataset create_variable_string_dataset(hid_t loc, const std::string& name, hsize_t count,
                                       const DatasetOptions& options) {
  // No fill value of its own: HDF5's default for variable-length data, a null string, read as "".
  return create_dataset(loc, name, utf8_string_type(), {count}, options, nullptr);
}

bool is_variable_string(hid_t dataset) {
  const Datatype type(check_id(H5Dget_type(dataset), "H5Dget_type"));
  return H5Tget_class(type) == H5T_STRING && string_width(type) == 0;
}

Dataset open_dataset(hid_t loc, const std::string& name) {
  return Dataset(check_id(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), ("H5Dopen2(" + name + ")").c_str()));
}

void write(hid_t dataset, const std::vector<double>& values, hid_t transfer) {
  write_whole(dataset, values, H5T_NATIVE_DOUBLE, transfer);
}

void write(hid_t dataset, const std::vector<std::int64_t>& values, hid_t transfer) {
  write_whole(dataset, values, H5T_NATIVE_INT64, transfer);
}

void write(hid_t dataset, const std::vector<std::string>& values, hid_t transfer) {
  write_rows(dataset, 0, values.size(), values, transfer);
}

void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<double>& values,
                hid_t transfer) {
  write_some(dataset, first, count, values, H5T_NATIVE_DOUBLE, transfer);
}

void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<std::int64_t>& values,
                hid_t transfer) {
  write_some(dataset, first, count, values, H5T_NATIVE_INT64, transfer);
}

void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<std::string>& values,
                hid_t transfer) {
  const Datatype type(check_id(H5Dget_type(dataset), "H5Dget_type"));
  const std::size_t width = string_width(type);
  if (width == 0) throw Hdf5Error("write_rows: variable-length string datasets are not supported");
  const auto [file_space, mem_space] = select_rows(dataset, first, count, values.size());
  const Datatype memtype = fixed_string_type(width);
  const std::vector<char> buffer = pack(values, width);
  check(H5Dwrite(dataset, memtype, mem_space, file_space, transfer, buffer.data()), "H5Dwrite");
}

void write_strings_at(hid_t dataset, const std::vector<hsize_t>& rows,
                      const std::vector<std::string>& values) {
  if (rows.size() != values.size()) throw Hdf5Error("write_strings_at: as many rows as values are needed");
  if (!is_variable_string(dataset))
    throw Hdf5Error("write_strings_at: a variable-length string dataset is needed");
  if (rows.empty()) return;
  const std::vector<hsize_t> dims = shape(dataset);
  for (const hsize_t row : rows)
    if (dims.size() != 1 || row >= dims[0])
      throw Hdf5Error("write_strings_at: a row out of range of the dataset");
  Dataspace file_space(check_id(H5Dget_space(dataset), "H5Dget_space"));
  check(H5Sselect_elements(file_space, H5S_SELECT_SET, rows.size(), rows.data()), "H5Sselect_elements");
  const Dataspace mem_space = simple_dataspace({rows.size()});
  std::vector<const char*> pointers(values.size());
  for (std::size_t j = 0; j < values.size(); ++j)
    pointers[j] = values[j].empty() ? nullptr : values[j].c_str();
  check(H5Dwrite(dataset, utf8_string_type(), mem_space, file_space, H5P_DEFAULT, pointers.data()),
        "H5Dwrite");
}

std::vector<double> read_doubles(hid_t dataset) { return read_whole<double>(dataset, H5T_NATIVE_DOUBLE); }

std::vector<std::int64_t> read_ints(hid_t dataset) {
  return read_whole<std::int64_t>(dataset, H5T_NATIVE_INT64);
}

std::vector<std::string> read_strings(hid_t dataset) {
  const Datatype type(check_id(H5Dget_type(dataset), "H5Dget_type"));
  const std::size_t count = product(shape(dataset));
  std::vector<std::string> values(count);
  if (count == 0) return values;
  const std::size_t width = string_width(type);
  if (width == 0) {  // variable-length: HDF5 allocates, we copy and reclaim
    Datatype memtype(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy"));
    check(H5Tset_size(memtype, H5T_VARIABLE), "H5Tset_size");
    check(H5Tset_cset(memtype, H5Tget_cset(type)), "H5Tset_cset");  // HDF5 converts no ASCII <-> UTF-8
    std::vector<char*> pointers(count, nullptr);
    check(H5Dread(dataset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()), "H5Dread");
    for (std::size_t i = 0; i < count; ++i) values[i] = pointers[i] ? pointers[i] : "";
    const Dataspace space(check_id(H5Dget_space(dataset), "H5Dget_space"));
    H5Dvlen_reclaim(memtype, space, H5P_DEFAULT, pointers.data());
    return values;
  }
  Datatype memtype = fixed_string_type(width);
  check(H5Tset_cset(memtype, H5Tget_cset(type)), "H5Tset_cset");
  std::vector<char> buffer(count * width);
  check(H5Dread(dataset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "H5Dread");
  for (std::size_t i = 0; i < count; ++i) values[i] = trimmed(buffer.data() + i * width, width);
  return values;
}

std::vector<double> read_double_rows(hid_t dataset, hsize_t first, hsize_t count) {
  std::vector<hsize_t> dims = shape(dataset);
  const hsize_t columns = dims.size() == 2 ? dims[1] : 1;
  std::vector<double> values(count * columns);
  const auto [file_space, mem_space] = select_rows(dataset, first, count, values.size());
  check(H5Dread(dataset, H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT, values.data()), "H5Dread");
  return values;
}

// ---- attributes ---------------------------------------------------------------------------

namespace {

void write_scalar_attribute(hid_t object, const std::string& name, hid_t filetype, hid_t memtype,
                            const void* value) {
  if (has_attribute(object, name))
    check(H5Adelete(object, name.c_str()), ("H5Adelete(" + name + ")").c_str());
  const Dataspace space = simple_dataspace({});
  const Attribute attribute(
      check_id(H5Acreate2(object, name.c_str(), filetype, space, H5P_DEFAULT, H5P_DEFAULT),
               ("H5Acreate2(" + name + ")").c_str()));
  check(H5Awrite(attribute, memtype, value), ("H5Awrite(" + name + ")").c_str());
}

Attribute open_attribute(hid_t object, const std::string& name) {
  return Attribute(check_id(H5Aopen(object, name.c_str(), H5P_DEFAULT), ("H5Aopen(" + name + ")").c_str()));
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* client) {
  static_cast<std::vector<std::string>*>(client)->emplace_back(name);
  return 0;
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  const Datatype type = utf8_string_type();
  const char* text = value.c_str();
  write_scalar_attribute(object, name, type, type, &text);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  write_scalar_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(hid_t object, const std::string& name, std::int64_t value) {
  write_scalar_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

bool has_attribute(hid_t object, const std::string& name) {
  return check_tri(H5Aexists(object, name.c_str()), ("H5Aexists(" + name + ")").c_str());
}

std::string read_string_attribute(hid_t object, const std::string& name) {
  const Attribute attribute = open_attribute(object, name);
  const Datatype type(check_id(H5Aget_type(attribute), "H5Aget_type"));
  if (H5Tget_class(type) != H5T_STRING) throw Hdf5Error("attribute " + name + " is not a string");
  const std::size_t width = string_width(type);
  if (width == 0) {
    Datatype memtype(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy"));
    check(H5Tset_size(memtype, H5T_VARIABLE), "H5Tset_size");
    check(H5Tset_cset(memtype, H5Tget_cset(type)), "H5Tset_cset");  // HDF5 converts no ASCII <-> UTF-8
    char* pointer = nullptr;
    check(H5Aread(attribute, memtype, &pointer), ("H5Aread(" + name + ")").c_str());
    std::string value = pointer ? pointer : "";
    H5free_memory(pointer);
    return value;
  }
  Datatype memtype = fixed_string_type(width);
  check(H5Tset_cset(memtype, H5Tget_cset(type)), "H5Tset_cset");
  std::vector<char> buffer(width);
  check(H5Aread(attribute, memtype, buffer.data()), ("H5Aread(" + name + ")").c_str());
  return trimmed(buffer.data(), width);
}

double read_double_attribute(hid_t object, const std::string& name) {
  double value = 0.0;
  check(H5Aread(open_attribute(object, name), H5T_NATIVE_DOUBLE, &value), ("H5Aread(" + name + ")").c_str());
  return value;
}

std::int64_t read_int_attribute(hid_t object, const std::string& name) {
  std::int64_t value = 0;
  check(H5Aread(open_attribute(object, name), H5T_NATIVE_INT64, &value), ("H5Aread(" + name + ")").c_str());
  return value;
}

std::vector<std::string> list_attributes(hid_t object) {
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &names), "H5Aiterate2");
  return names;
}

}  // namespace rmtsweep::io
