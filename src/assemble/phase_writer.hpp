#pragma once
// Writing the datasets of /phase by their schema entries (phase_schema.hpp): each dataset gets the sizes
// of its dimensions and their scales attached (netCDF-4, io/dimension_scale.hpp), its description and
// CF attributes (long_name, units where it has some, flag_values and flag_meanings). Deterministic: a dataset
// that exists with the same shape, type and dimensions is overwritten in place, and attributes that hold
// their value already are left alone, so assembling twice leaves the same bytes. Private to src/assemble
// (phase_file.cpp).
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace rmtsweep::assemble::detail {

/// The scales written so far in one file, by dimension name: where each is (its path) and its size.
/// Shared by the writers of /phase and of its subgroups, which see the scales of the groups above them.
class PhaseScales {
 public:
  struct Scale {
    std::string path;
    hsize_t size = 0;
  };
  void add(const Dimension& dimension, std::string path, hsize_t size);
  /// The scale of `dimension` for a dataset of group `group_path`; a logic_error when none was written
  /// or it lies in a group `group_path` is not inside (netCDF-4 readers would not find it).
  const Scale& visible_from(const Dimension& dimension, const std::string& group_path) const;

 private:
  std::map<std::string_view, Scale> scales_;
};

/// Writes the children of one group and remembers which, so that remove_others can unlink the rest.
class PhaseWriter {
 public:
  PhaseWriter(hid_t group, PhaseScales& scales);

  /// A dataset of `entry`: its shape is the sizes of entry.dims (a coordinate, whose one dimension has
  /// the entry's name, takes the size of its values and becomes that dimension's scale). values.size()
  /// must be their product (a logic_error otherwise).
  void put(const PhaseEntry& entry, const std::vector<double>& values);
  void put(const PhaseEntry& entry, const std::vector<std::int64_t>& values);
  /// A coordinate of texts: fixed-length (h5py scripts read them with .astype(str), as before scales),
  /// with _Encoding = "utf-8", which makes xarray read them as str.
  void put(const PhaseEntry& entry, const std::vector<std::string>& values);
  /// The scale of a dimension without values (entry: its one dimension, of the entry's name).
  void put_dimension(const PhaseEntry& entry, hsize_t size);

  /// Marks a child (a subgroup) as written, so remove_others keeps it.
  void keep(const std::string& name) { written_.insert(name); }
  /// Unlinks children that this run did not write (left by another version of assemble), their
  /// dimension scales detached first.
  void remove_others();

 private:
  enum class Kind { real, integer, text };
  template <class Number>
  void put_numbers(const PhaseEntry& entry, const std::vector<Number>& values);
  /// The shape of `entry`'s dataset, given `count` values; registers a coordinate's scale.
  std::vector<hsize_t> shape_of(const PhaseEntry& entry, std::size_t count) const;
  io::Dataset reuse_or_create(const PhaseEntry& entry, const std::vector<hsize_t>& dims, Kind kind,
                              const std::function<io::Dataset()>& create);
  /// The description, units (numeric), scales: the dataset becomes its dimension's scale (a coordinate)
  /// or gets the scales of its dimensions attached.
  void finish(const PhaseEntry& entry, const io::Dataset& set, Kind kind);
  /// The CF attributes of `entry`: long_name, units where it has some, its flags.
  static void write_cf(const PhaseEntry& entry, hid_t set);
  void unlink(const std::string& name);

  hid_t group_;
  std::string path_;
  PhaseScales& scales_;
  std::set<std::string> written_;
  std::size_t text_width_ = 0;  ///< the width of the texts put() is writing
};

/// Whether `entry` is the coordinate of its one dimension (the dimension has the entry's name).
bool is_coordinate(const PhaseEntry& entry) noexcept;

/// Writes a scalar text attribute unless it already holds this value (see PhaseWriter).
void set_attribute(hid_t object, const std::string& name, const std::string& value);

}  // namespace rmtsweep::assemble::detail
