// Errors, files, groups, types and shapes of the HDF5 RAII layer (include/rmtsweep/io/hdf5.hpp).
#include "rmtsweep/io/hdf5.hpp"

#include <H5FDmpio.h>

#include <atomic>
#include <filesystem>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::io {
namespace {

/// Appends one frame of HDF5's error stack ("H5Dwrite: can't write data") to a string.
herr_t append_frame(unsigned n, const H5E_error2_t* frame, void* client) {
  auto& text = *static_cast<std::string*>(client);
  if (n > 0) text += "; ";
  text += frame->func_name ? frame->func_name : "?";
  text += ": ";
  text += frame->desc ? frame->desc : "(no description)";
  return 0;
}

[[noreturn]] void throw_with_stack(const char* call) {
  std::string stack;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, append_frame, &stack);
  H5Eclear2(H5E_DEFAULT);
  throw Hdf5Error(std::string(call) + " failed" + (stack.empty() ? std::string() : ": " + stack));
}

PropertyList file_access(MPI_Comm comm) {
  PropertyList fapl(check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate(H5P_FILE_ACCESS)"));
  if (comm != MPI_COMM_NULL) check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  return fapl;
}

}  // namespace

void check(herr_t status, const char* call) {
  if (status < 0) throw_with_stack(call);
}

hid_t check_id(hid_t id, const char* call) {
  if (id < 0) throw_with_stack(call);
  return id;
}

bool check_tri(htri_t answer, const char* call) {
  if (answer < 0) throw_with_stack(call);
  return answer > 0;
}

void silence_hdf5_error_printing() noexcept {
  static std::atomic<bool> done{false};
  if (!done.exchange(true)) H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

File create_file(const std::string& path, MPI_Comm comm, bool truncate) {
  silence_hdf5_error_printing();
  const PropertyList fapl = file_access(comm);
  return File(check_id(H5Fcreate(path.c_str(), truncate ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, fapl),
                       ("H5Fcreate(" + path + ")").c_str()));
}

File open_file(const std::string& path, Access access, MPI_Comm comm) {
  silence_hdf5_error_printing();
  const PropertyList fapl = file_access(comm);
  const unsigned flags = access == Access::read_write ? H5F_ACC_RDWR : H5F_ACC_RDONLY;
  return File(check_id(H5Fopen(path.c_str(), flags, fapl), ("H5Fopen(" + path + ")").c_str()));
}

void flush(hid_t file) { check(H5Fflush(file, H5F_SCOPE_GLOBAL), "H5Fflush"); }

bool is_hdf5_file(const std::string& path) {
  silence_hdf5_error_printing();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const htri_t answer = H5Fis_hdf5(path.c_str());
  H5Eclear2(H5E_DEFAULT);
  return answer > 0;
}

Group create_group(hid_t loc, const std::string& name) {
  PropertyList lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate(H5P_LINK_CREATE)"));
  check(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
  return Group(check_id(H5Gcreate2(loc, name.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT),
                        ("H5Gcreate2(" + name + ")").c_str()));
}

Group open_group(hid_t loc, const std::string& name) {
  return Group(check_id(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), ("H5Gopen2(" + name + ")").c_str()));
}

bool exists(hid_t loc, const std::string& path) {
  // H5Lexists needs each parent to exist, so walk the path one link at a time.
  std::string prefix = path.starts_with('/') ? "/" : "";
  std::size_t begin = prefix.size();
  while (begin < path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) {
      prefix += path.substr(begin, end - begin);
      if (!check_tri(H5Lexists(loc, prefix.c_str(), H5P_DEFAULT), "H5Lexists")) return false;
      prefix += '/';
    }
    begin = end + 1;
  }
  return true;
}

namespace {
herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* client) {
  static_cast<std::vector<std::string>*>(client)->emplace_back(name);
  return 0;
}
}  // namespace

std::vector<std::string> list_children(hid_t loc) {
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Literate(loc, H5_INDEX_NAME, H5_ITER_INC, &index, collect_name, &names), "H5Literate");
  return names;
}

Datatype fixed_string_type(std::size_t length) {
  Datatype type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy(H5T_C_S1)"));
  check(H5Tset_size(type, length == 0 ? 1 : length), "H5Tset_size");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), "H5Tset_strpad");
  check(H5Tset_cset(type, H5T_CSET_ASCII), "H5Tset_cset");
  return type;
}

Dataspace simple_dataspace(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return Dataspace(check_id(H5Screate(H5S_SCALAR), "H5Screate(H5S_SCALAR)"));
  return Dataspace(
      check_id(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "H5Screate_simple"));
}

std::vector<hsize_t> shape(hid_t dataset) {
  const Dataspace space(check_id(H5Dget_space(dataset), "H5Dget_space"));
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) check(rank, "H5Sget_simple_extent_ndims");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), "H5Sget_simple_extent_dims");
  return dims;
}

}  // namespace rmtsweep::io
