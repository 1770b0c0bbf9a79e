#pragma once
/// Small RAII layer over the HDF5 C API, shared by the sweep (parallel HDF5 over MPI-IO) and
/// by serial readers/writers of the same file (assemble, status, tests).
///
/// - One move-only holder per kind of id (File, Group, Dataset, Dataspace, Datatype,
///   PropertyList, Attribute); the destructor closes the id and never throws.
/// - check()/check_id() turn a failed call plus HDF5's error stack into rmtsweep::Hdf5Error
///   whose message names the call (HighFive's HDF5ErrMapper idea). HDF5's own printing of the
///   error stack to stderr is switched off by the first file opened through this header.
/// - Helpers read and write whole 1-D/2-D datasets of double, int64 and strings, row blocks of
///   them (what a sweep group writes for one point), and scalar attributes.
///
/// String datasets are written fixed-length, with the attribute _Encoding = "utf-8" that tells xarray to
/// decode them to str, or variable-length UTF-8 (create_variable_string_dataset), which parallel HDF5 1.10
/// creates but cannot write: such a dataset is written by one process with the file opened serially
/// (write_strings_at). String attributes are variable-length UTF-8 (netCDF-4's string attributes: str in
/// h5py and xarray; files written before hold fixed-length ASCII ones). The readers accept fixed- and
/// variable-length strings and strip trailing NULs/spaces. Dimension scales: dimension_scale.hpp.
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace rmtsweep::io {

/// Throws Hdf5Error("<call> failed: <HDF5 error stack>") when status < 0.
void check(herr_t status, const char* call);

/// Returns id, or throws Hdf5Error as check() when id < 0.
hid_t check_id(hid_t id, const char* call);

/// Returns a tri-state HDF5 answer (htri_t) as bool, or throws when it is negative.
bool check_tri(htri_t answer, const char* call);

/// Switches off HDF5's automatic printing of error stacks (they go into exceptions instead).
/// Idempotent; called by open_file/create_file.
void silence_hdf5_error_printing() noexcept;

namespace detail {
/// Owns one HDF5 id and closes it with Close. Move-only; the destructor is noexcept.
template <herr_t (*Close)(hid_t)>
class Holder {
 public:
  Holder() noexcept = default;
  /// Takes ownership of a valid id (use check_id on the call that produced it).
  explicit Holder(hid_t id) noexcept : id_(id) {}
  Holder(const Holder&) = delete;
  Holder& operator=(const Holder&) = delete;
  Holder(Holder&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Holder& operator=(Holder&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  ~Holder() { reset(); }

  hid_t get() const noexcept { return id_; }
  operator hid_t() const noexcept { return id_; }  // NOLINT: passes straight to the C API
  bool valid() const noexcept { return id_ >= 0; }
  /// Gives up ownership without closing.
  hid_t release() noexcept { return std::exchange(id_, H5I_INVALID_HID); }
  /// Closes the id now; a failure to close is ignored (destructors must not throw).
  void reset() noexcept {
    if (id_ >= 0) (void)Close(id_);
    id_ = H5I_INVALID_HID;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};
}  // namespace detail

using File = detail::Holder<H5Fclose>;
using Group = detail::Holder<H5Gclose>;
using Dataset = detail::Holder<H5Dclose>;
using Dataspace = detail::Holder<H5Sclose>;
using Datatype = detail::Holder<H5Tclose>;
using PropertyList = detail::Holder<H5Pclose>;
using Attribute = detail::Holder<H5Aclose>;

// ---- files -------------------------------------------------------------------------------

/// How a file is opened. With comm != MPI_COMM_NULL the file uses the MPI-IO driver on a
/// duplicate HDF5 makes of comm (collective on comm); otherwise the default serial driver.
/// Pass a plain duplicate of the world, never a BLACS/Cartesian communicator.
enum class Access { read_only, read_write };

/// Creates (truncating with `truncate`, else failing if it exists) a file with the default
/// (earliest) format, so that readers of any HDF5 1.8+/h5py open it.
File create_file(const std::string& path, MPI_Comm comm = MPI_COMM_NULL, bool truncate = true);

/// Opens an existing file.
File open_file(const std::string& path, Access access, MPI_Comm comm = MPI_COMM_NULL);

/// Opens an existing file for writing, serially, without HDF5's file lock: beside readers that hold it
/// open (h5py, a notebook), as a parallel writer writes it (the MPI-IO driver takes no lock). For a run's
/// own short serial write under the run's lock (rmtsweep's, which keeps other writers out): a reader may
/// see that write half done, as it may see any point's.
File open_file_beside_readers(const std::string& path);

/// H5Fflush of the whole file (collective in parallel): metadata reaches the disk.
void flush(hid_t file);

/// True when `path` names an HDF5 file (H5Fis_accessible); false if missing or not HDF5.
bool is_hdf5_file(const std::string& path);

// ---- groups and links --------------------------------------------------------------------

/// Every group and dataset rmtsweep creates records no times (H5Pset_obj_track_times off). HDF5 otherwise
/// keeps an object's modification time in its header and sets it whenever an attribute of the object is
/// written: rewriting a dataset's `checksum` (store/checksums.hpp) with its values would change the file's
/// bytes by the clock alone, and assembling with another margin and then with the first would not leave
/// the first bytes. Nothing reads those times.
/// An object creation property list of `plist_class` (H5P_DATASET_CREATE, H5P_GROUP_CREATE) without times.
PropertyList untimed_creation(hid_t plist_class);

/// Whether the object `object` records its modification time in its header (created by an rmtsweep before
/// untimed_creation, or by another program): an attribute written to it then changes its header's time.
bool tracks_times(hid_t object);

/// Creates group `name` under loc (intermediate groups are created too), recording no times.
Group create_group(hid_t loc, const std::string& name);
Group open_group(hid_t loc, const std::string& name);

/// True when every link of the relative or absolute `path` exists under loc.
bool exists(hid_t loc, const std::string& path);

/// The names of the links directly under group `loc` (ascending by name).
std::vector<std::string> list_children(hid_t loc);

/// The absolute path of an open object ("/phase/theory"; H5Iget_name).
std::string path_of(hid_t object);

// ---- types and shapes ---------------------------------------------------------------------

/// A fixed-length, NUL-padded ASCII string type of `length` bytes (at least 1).
Datatype fixed_string_type(std::size_t length);
/// The variable-length UTF-8 string type (netCDF-4's NC_STRING).
Datatype utf8_string_type();

/// A simple dataspace with the given dimensions (empty dims: a scalar dataspace).
Dataspace simple_dataspace(const std::vector<hsize_t>& dims);

/// The dimensions of a dataset (empty for a scalar).
std::vector<hsize_t> shape(hid_t dataset);

// ---- datasets -----------------------------------------------------------------------------

/// Options of create_dataset. `early_allocation` allocates the storage at creation and fills it
/// (H5D_ALLOC_TIME_EARLY, H5D_FILL_TIME_ALLOC, contiguous, no filters): afterwards, writing raw data
/// never touches the file's metadata, which is what makes a killed writer leave a readable file, and
/// needs no new space on the file system (no hole is left, not even for strings).
struct DatasetOptions {
  bool early_allocation = true;
  /// Fill value of double datasets (NaN: "not written yet"); ignored for other types.
  double double_fill = std::numeric_limits<double>::quiet_NaN();
  /// Fill value of int64 datasets.
  std::int64_t int_fill = 0;
};

/// Creates a contiguous dataset of doubles / int64 / fixed strings (width `string_length`; with the
/// attribute _Encoding = "utf-8").
Dataset create_double_dataset(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                              const DatasetOptions& options = {});
Dataset create_int_dataset(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                           const DatasetOptions& options = {});
Dataset create_string_dataset(hid_t loc, const std::string& name, hsize_t count, std::size_t string_length,
                              const DatasetOptions& options = {});
/// Creates a contiguous 1-D dataset of variable-length UTF-8 strings: `count` descriptors of 16 bytes
/// each (early allocation allocates them), every row empty (a null string) until written; the texts go to
/// the file's global heap when written. Collective in parallel HDF5, which cannot write it (serial only).
Dataset create_variable_string_dataset(hid_t loc, const std::string& name, hsize_t count,
                                       const DatasetOptions& options = {});
/// Whether a dataset holds variable-length strings.
bool is_variable_string(hid_t dataset);

Dataset open_dataset(hid_t loc, const std::string& name);

/// Writes a whole dataset; values.size() must equal the product of its dimensions.
/// `transfer` is a dataset-transfer property list (H5P_DEFAULT: independent I/O).
void write(hid_t dataset, const std::vector<double>& values, hid_t transfer = H5P_DEFAULT);
void write(hid_t dataset, const std::vector<std::int64_t>& values, hid_t transfer = H5P_DEFAULT);
/// Strings longer than the dataset's width are truncated.
void write(hid_t dataset, const std::vector<std::string>& values, hid_t transfer = H5P_DEFAULT);

/// Writes rows [first, first + count) of a 1-D or 2-D dataset; values hold count x columns
/// entries, row-major. Each rank may call this independently for its own rows.
void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<double>& values,
                hid_t transfer = H5P_DEFAULT);
void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<std::int64_t>& values,
                hid_t transfer = H5P_DEFAULT);
void write_rows(hid_t dataset, hsize_t first, hsize_t count, const std::vector<std::string>& values,
                hid_t transfer = H5P_DEFAULT);

/// Writes `values[j]` into row `rows[j]` of a 1-D variable-length string dataset (an empty text as a null
/// string; a text ends at its first NUL). The file must be open serially: parallel HDF5 refuses the write.
void write_strings_at(hid_t dataset, const std::vector<hsize_t>& rows,
                      const std::vector<std::string>& values);

/// Reads a whole 1-D or 2-D dataset, row-major (converted by HDF5 from the stored type).
std::vector<double> read_doubles(hid_t dataset);
std::vector<std::int64_t> read_ints(hid_t dataset);
std::vector<std::string> read_strings(hid_t dataset);

/// Reads rows [first, first + count) of a 1-D or 2-D dataset, row-major.
std::vector<double> read_double_rows(hid_t dataset, hsize_t first, hsize_t count);

// ---- attributes ---------------------------------------------------------------------------

/// Creates or replaces a scalar attribute on an object (file, group or dataset); a text as a variable-length
/// UTF-8 string. In parallel HDF5 this is collective and every rank must pass the same value.
void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, std::int64_t value);
inline void write_attribute(hid_t object, const std::string& name, int value) {
  write_attribute(object, name, static_cast<std::int64_t>(value));
}
inline void write_attribute(hid_t object, const std::string& name, const char* value) {
  write_attribute(object, name, std::string(value));
}

bool has_attribute(hid_t object, const std::string& name);
std::string read_string_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
std::int64_t read_int_attribute(hid_t object, const std::string& name);

/// The names of an object's attributes (ascending by name).
std::vector<std::string> list_attributes(hid_t object);

}  // namespace rmtsweep::io
