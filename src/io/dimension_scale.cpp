// Dimension scales and CF attributes of the HDF5 RAII layer (include/rmtsweep/io/dimension_scale.hpp).
#include "rmtsweep/io/dimension_scale.hpp"

#include <H5DSpublic.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::io {
namespace {

/// netCDF-4's NAME of a dimension without a coordinate variable (netcdf-c's nc4hdf.c; h5netcdf tests
/// for its first words).
constexpr const char* not_a_variable = "This is a netCDF dimension but not a netCDF variable.";

std::string last_component(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

int rank_of(hid_t dataset) { return static_cast<int>(shape(dataset).size()); }

/// H5DSiterate_scales visitor: remembers the path of each scale it is shown.
herr_t collect_scale(hid_t, unsigned, hid_t scale, void* client) {
  static_cast<std::vector<std::string>*>(client)->push_back(path_of(scale));
  return 0;
}

/// The paths of the scales attached to axis `axis` of `dataset`, in attachment order.
std::vector<std::string> scales_of(hid_t dataset, unsigned axis) {
  std::vector<std::string> paths;
  const int count = H5DSget_num_scales(dataset, axis);
  if (count < 0) check(count, "H5DSget_num_scales");
  if (count == 0) return paths;
  check(H5DSiterate_scales(dataset, axis, nullptr, collect_scale, &paths), "H5DSiterate_scales");
  return paths;
}

/// One entry of a scale's REFERENCE_LIST attribute: a dataset it is attached to, and the axis.
struct Reference {
  hobj_ref_t dataset;
  int axis;
};

std::vector<Reference> references_to(hid_t scale) {
  if (!has_attribute(scale, "REFERENCE_LIST")) return {};
  const Attribute list(check_id(H5Aopen(scale, "REFERENCE_LIST", H5P_DEFAULT), "H5Aopen(REFERENCE_LIST)"));
  const Dataspace space(check_id(H5Aget_space(list), "H5Aget_space"));
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  if (count < 0) check(static_cast<herr_t>(count), "H5Sget_simple_extent_npoints");
  const Datatype type(check_id(H5Tcreate(H5T_COMPOUND, sizeof(Reference)), "H5Tcreate"));
  check(H5Tinsert(type, "dataset", HOFFSET(Reference, dataset), H5T_STD_REF_OBJ), "H5Tinsert");
  check(H5Tinsert(type, "dimension", HOFFSET(Reference, axis), H5T_NATIVE_INT), "H5Tinsert");
  std::vector<Reference> entries(static_cast<std::size_t>(count));
  if (!entries.empty()) check(H5Aread(list, type, entries.data()), "H5Aread(REFERENCE_LIST)");
  return entries;
}

}  // namespace

void make_coordinate(hid_t dataset) {
  if (is_scale(dataset)) return;
  const std::string name = last_component(path_of(dataset));
  check(H5DSset_scale(dataset, name.c_str()), ("H5DSset_scale(" + name + ")").c_str());
}

Dataset create_dimension_only(hid_t loc, const std::string& name, hsize_t size) {
  if (exists(loc, name)) {
    Dataset existing = open_dataset(loc, name);
    if (shape(existing) == std::vector<hsize_t>{size} && is_scale(existing)) return existing;
    throw Hdf5Error("create_dimension_only: " + name + " exists and is not a dimension of size " +
                    std::to_string(size));
  }
  const Dataspace space = simple_dataspace({size});
  PropertyList lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate(H5P_LINK_CREATE)"));
  check(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
  const PropertyList dcpl = untimed_creation(H5P_DATASET_CREATE);  // no times (hdf5.hpp)
  Dataset set(check_id(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F32LE, space, lcpl, dcpl, H5P_DEFAULT),
                       ("H5Dcreate2(" + name + ")").c_str()));
  char label[96];
  std::snprintf(label, sizeof label, "%s%10llu", not_a_variable, static_cast<unsigned long long>(size));
  check(H5DSset_scale(set, label), ("H5DSset_scale(" + name + ")").c_str());
  return set;
}

bool is_scale(hid_t dataset) { return check_tri(H5DSis_scale(dataset), "H5DSis_scale"); }

namespace {

/// H5DSiterate_scales visitor: stops at the scale whose object address is the one looked for.
struct ScaleMatch {
  unsigned long fileno;
  haddr_t addr;
  bool found = false;
};
herr_t match_scale(hid_t, unsigned, hid_t scale, void* client) {
  auto* match = static_cast<ScaleMatch*>(client);
  H5O_info_t info;
  if (H5Oget_info2(scale, &info, H5O_INFO_BASIC) < 0) return -1;
  match->found = info.fileno == match->fileno && info.addr == match->addr;
  return match->found ? 1 : 0;
}

/// Whether `scale` is attached to axis `axis` of `dataset`, from the dataset's own DIMENSION_LIST (the scales
/// of that axis: one or two). H5DSis_attached answers the same from the scale's REFERENCE_LIST, dereferencing
/// every dataset attached to it: with the hundreds of /phase's datasets on its few scales, most of assemble's
/// time.
bool attached(hid_t dataset, hid_t scale, unsigned axis) {
  const int count = H5DSget_num_scales(dataset, axis);
  if (count < 0) check(count, "H5DSget_num_scales");
  if (count == 0) return false;
  H5O_info_t info;
  check(H5Oget_info2(scale, &info, H5O_INFO_BASIC), "H5Oget_info2");
  ScaleMatch match{info.fileno, info.addr};
  check(H5DSiterate_scales(dataset, axis, nullptr, match_scale, &match), "H5DSiterate_scales");
  return match.found;
}

}  // namespace

void attach_scale(hid_t dataset, hid_t scale, unsigned axis) {
  if (attached(dataset, scale, axis)) return;
  check(H5DSattach_scale(dataset, scale, axis), "H5DSattach_scale");
}

std::vector<std::string> attached_dimensions(hid_t dataset) {
  std::vector<std::string> names;
  for (int axis = 0; axis < rank_of(dataset); ++axis) {
    const std::vector<std::string> paths = scales_of(dataset, static_cast<unsigned>(axis));
    names.push_back(paths.empty() ? std::string() : last_component(paths.back()));
  }
  return names;
}

bool attached_none_or(hid_t dataset, unsigned axis, hid_t scale) {
  // The dataset's DIMENSION_LIST, one list of object references per axis, against the scale's address: an
  // HDF5 1.10 object reference is the object header's address. (H5DSis_attached opens every dataset in the
  // scale's REFERENCE_LIST, which for a scale of a hundred datasets costs a hundred opens a call.)
  if (!has_attribute(dataset, "DIMENSION_LIST")) return true;
  const Attribute list(check_id(H5Aopen(dataset, "DIMENSION_LIST", H5P_DEFAULT), "H5Aopen(DIMENSION_LIST)"));
  const Dataspace space(check_id(H5Aget_space(list), "H5Aget_space"));
  const Datatype type(check_id(H5Tvlen_create(H5T_STD_REF_OBJ), "H5Tvlen_create"));
  std::vector<hvl_t> axes(static_cast<std::size_t>(rank_of(dataset)));
  if (axis >= axes.size()) return true;
  check(H5Aread(list, type, axes.data()), "H5Aread(DIMENSION_LIST)");
  H5O_info_t info;
  const herr_t got = H5Oget_info2(scale, &info, H5O_INFO_BASIC);
  const hvl_t& attached = axes[axis];
  bool found = attached.len == 0;
  for (std::size_t i = 0; got >= 0 && i < attached.len; ++i)
    found = found || static_cast<const hobj_ref_t*>(attached.p)[i] == static_cast<hobj_ref_t>(info.addr);
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, axes.data());
  check(got, "H5Oget_info2");
  return found;
}

void detach_all(hid_t dataset) {
  for (int axis = 0; axis < rank_of(dataset); ++axis) {
    for (const std::string& path : scales_of(dataset, static_cast<unsigned>(axis))) {
      const Dataset scale = open_dataset(dataset, path);
      check(H5DSdetach_scale(dataset, scale, static_cast<unsigned>(axis)), "H5DSdetach_scale");
    }
  }
  if (!is_scale(dataset)) return;
  for (Reference& entry : references_to(dataset)) {
    const Dataset other(
        check_id(H5Rdereference2(dataset, H5P_DEFAULT, H5R_OBJECT, &entry.dataset), "H5Rdereference2"));
    check(H5DSdetach_scale(other, dataset, static_cast<unsigned>(entry.axis)), "H5DSdetach_scale");
  }
}

void write_cf_attributes(hid_t object, std::string_view long_name, std::string_view units) {
  for (const auto& [name, value] : {std::pair{"long_name", long_name}, std::pair{"units", units}}) {
    if (value.empty()) continue;
    if (has_attribute(object, name) && read_string_attribute(object, name) == value) continue;
    write_attribute(object, name, std::string(value));
  }
}

void write_flag_attributes(hid_t object, std::span<const std::int64_t> values, std::string_view meanings,
                           bool masks) {
  const auto count = static_cast<hsize_t>(values.size());
  const std::string key = masks ? "flag_masks" : "flag_values";
  bool same = has_attribute(object, key);
  if (same) {
    const Attribute stored(
        check_id(H5Aopen(object, key.c_str(), H5P_DEFAULT), ("H5Aopen(" + key + ")").c_str()));
    const Dataspace space(check_id(H5Aget_space(stored), "H5Aget_space"));
    same = H5Sget_simple_extent_npoints(space) == static_cast<hssize_t>(count);
    if (same) {
      std::vector<std::int64_t> held(values.size());
      check(H5Aread(stored, H5T_NATIVE_INT64, held.data()), ("H5Aread(" + key + ")").c_str());
      same = std::equal(held.begin(), held.end(), values.begin());
    }
  }
  if (!same) {
    if (has_attribute(object, key)) check(H5Adelete(object, key.c_str()), ("H5Adelete(" + key + ")").c_str());
    const Dataspace space = simple_dataspace({count});
    const Attribute attribute(
        check_id(H5Acreate2(object, key.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT),
                 ("H5Acreate2(" + key + ")").c_str()));
    check(H5Awrite(attribute, H5T_NATIVE_INT64, values.data()), ("H5Awrite(" + key + ")").c_str());
  }
  if (!has_attribute(object, "flag_meanings") || read_string_attribute(object, "flag_meanings") != meanings)
    write_attribute(object, "flag_meanings", std::string(meanings));
}

void remove_text_attribute(hid_t object, const std::string& name, std::string_view value) {
  if (has_attribute(object, name) && read_string_attribute(object, name) == value)
    check(H5Adelete(object, name.c_str()), ("H5Adelete(" + name + ")").c_str());
}

}  // namespace rmtsweep::io
