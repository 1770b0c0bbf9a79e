#pragma once
/// Named dimensions of datasets, the netCDF-4 way (HDF5's dimension scales, H5DS), so that xarray
/// (engine h5netcdf) and netCDF readers label every axis instead of inventing phony_dim_N.
///
/// What h5netcdf expects (h5netcdf/core.py, dimensions.py):
/// - a dimension is a 1-D dataset marked as a scale (attribute CLASS = "DIMENSION_SCALE"), visible
///   from the dataset's own group or one of its ancestors; the dimension's name is the scale
///   dataset's name (its last path component), its size the scale's length;
/// - a dataset whose name is its own scale's is the dimension's coordinate variable (make_coordinate);
///   a dimension without coordinate values is a scale whose NAME attribute starts with netCDF's
///   "This is a netCDF dimension but not a netCDF variable." (create_dimension_only): it is not
///   shown as a variable;
/// - every other dataset has one scale attached to each axis (DIMENSION_LIST), or none at all
///   (then h5netcdf refuses it unless phony_dims is given); a mix is an error.
///
/// Every call here changes metadata only: in parallel HDF5 each is collective (every rank calls it
/// with the same arguments), as attribute writes are.
#include <hdf5.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"

namespace rmtsweep::io {

/// Makes the 1-D `dataset` the scale of its own dimension: its name (the last component of its
/// path) is the dimension's, its values the coordinates. Idempotent.
void make_coordinate(hid_t dataset);

/// Creates the scale of a dimension `name` of `size` that has no coordinate values (netCDF-4's
/// "dimension but not variable": a dataset of `size` unwritten 32-bit floats). Idempotent: an
/// existing scale of that size is opened.
Dataset create_dimension_only(hid_t loc, const std::string& name, hsize_t size);

/// Whether `dataset` is a dimension scale.
bool is_scale(hid_t dataset);

/// Attaches `scale` to axis `axis` of `dataset` unless it is attached there already.
void attach_scale(hid_t dataset, hid_t scale, unsigned axis);

/// Per axis of `dataset`, the name of the dimension attached to it (the scale's last path
/// component; the last scale where several are), or "" where none is. Slow in a file of many objects: the
/// name of a scale reached through a reference costs HDF5 (H5Iget_name) a search of the whole file.
std::vector<std::string> attached_dimensions(hid_t dataset);

/// Whether axis `axis` of `dataset` has no dimension scale attached, or has `scale` among them: compared by
/// object (H5DSis_attached), without looking up a name.
bool attached_none_or(hid_t dataset, unsigned axis, hid_t scale);

/// Detaches every scale from `dataset` and, when `dataset` is a scale, `dataset` from every dataset
/// it is attached to: what must precede unlinking either, or the other side keeps a dangling
/// reference (DIMENSION_LIST / REFERENCE_LIST) that readers fail on.
void detach_all(hid_t dataset);

/// Writes the CF attributes `long_name` and `units` (each only when not empty; write_attribute's UTF-8 text),
/// leaving an attribute that holds the value already untouched (a second write keeps the bytes).
void write_cf_attributes(hid_t object, std::string_view long_name, std::string_view units);

/// Writes CF's flag attributes of a variable of codes: flag_values (int64, as the variable's values) and
/// flag_meanings (one word per value, blank-separated), leaving attributes that hold them already untouched.
/// With `masks` the values are bits of a mask, written as CF's flag_masks instead of flag_values.
void write_flag_attributes(hid_t object, std::span<const std::int64_t> values, std::string_view meanings,
                           bool masks = false);

/// Removes attribute `name` of `object` where it holds `value` (text): a file written before keeps no stale
/// attribute (units "1" of /phase's dimensionless variables, which CF asks of dimensional ones only).
void remove_text_attribute(hid_t object, const std::string& name, std::string_view value);

}  // namespace rmtsweep::io
