// Errors, files, groups, types and shapes of the HDF5 RAII layer (include/rmtsweep/io/hdf5.hpp).
#include "rmtsweep/io/hdf5.hpp"

#include <H5FDmpio.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::io {
namespace {

/// What a walk of HDF5's error stack (outermost frame first) learns about a failure.
struct StackFacts {
  std::string frames;                 ///< "func: desc" per frame, one a line
  std::string innermost;              ///< the desc of the last (innermost) frame
  int os_error = 0;                   ///< "errno = N" in a file driver's message
  std::string mpi_error;              ///< "MPI error string is '...'" of the MPI-IO driver
  bool io_failure = false;            ///< a frame of class H5E_IO or a read/write/seek/open failure
  bool truncated = false;             ///< H5E_TRUNCATED: the file is shorter than its superblock says
  bool write_failed = false;          ///< H5E_WRITEERROR
  unsigned long long stored_eof = 0;  ///< the "stored_eof = N" of that frame

  static unsigned long long number_after(const std::string& text, const char* key) {
    const auto at = text.find(key);
    return at == std::string::npos ? 0 : std::strtoull(text.c_str() + at + std::strlen(key), nullptr, 10);
  }
};

herr_t read_frame(unsigned, const H5E_error2_t* frame, void* client) {
  auto& facts = *static_cast<StackFacts*>(client);
  const std::string desc = frame->desc ? frame->desc : "(no description)";
  facts.frames += std::string(frame->func_name ? frame->func_name : "?") + ": " + desc + "\n";
  facts.innermost = desc;
  if (facts.os_error == 0 && desc.find("errno = ") != std::string::npos)
    facts.os_error = static_cast<int>(StackFacts::number_after(desc, "errno = "));
  if (const auto at = desc.find("MPI error string is '");
      at != std::string::npos && facts.mpi_error.empty()) {
    const auto begin = at + std::strlen("MPI error string is '");
    facts.mpi_error = desc.substr(begin, desc.find('\'', begin) - begin);
  }
  if (frame->maj_num == H5E_IO || frame->min_num == H5E_WRITEERROR || frame->min_num == H5E_READERROR ||
      frame->min_num == H5E_SEEKERROR || frame->min_num == H5E_CANTOPENFILE)
    facts.io_failure = true;
  if (frame->min_num == H5E_WRITEERROR) facts.write_failed = true;
  if (frame->min_num == H5E_TRUNCATED) {
    facts.truncated = true;
    facts.stored_eof = StackFacts::number_after(desc, "stored_eof = ");
  }
  return 0;
}

/// The errno an MPI-IO error class stands for (MPI_Error_string texts say no more), or 0.
int errno_of_mpi_error(const std::string& text) {
  static constexpr std::pair<const char*, int> classes[] = {
      {"MPI_ERR_NO_SPACE", ENOSPC}, {"MPI_ERR_QUOTA", EDQUOT},        {"MPI_ERR_READ_ONLY", EROFS},
      {"MPI_ERR_ACCESS", EACCES},   {"MPI_ERR_NO_SUCH_FILE", ENOENT}, {"MPI_ERR_FILE_EXISTS", EEXIST}};
  for (const auto& [name, code] : classes) {
    if (text.find(name) != std::string::npos) return code;
  }
  return 0;
}

/// errno values that a failed read or write of a file leaves when the driver does not record
/// one (Open MPI's MPI-IO reports a short write as success): trusted only with an I/O frame.
bool file_errno(int code) {
  return code == ENOSPC || code == EDQUOT || code == EFBIG || code == EROFS || code == EIO ||
         code == EACCES || code == EPERM;
}

[[noreturn]] void throw_with_stack(const char* call) {
  const int saved_errno = errno;  // before anything here can change it
  StackFacts facts;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, read_frame, &facts);
  H5Eclear2(H5E_DEFAULT);
  int os_error = facts.os_error;
  if (os_error == 0) os_error = errno_of_mpi_error(facts.mpi_error);
  if (os_error == 0 && facts.io_failure && file_errno(saved_errno)) os_error = saved_errno;
  std::string cause;
  if (facts.truncated) {
    cause = "the file is truncated (" + facts.innermost + ")";
  } else if (os_error != 0) {
    cause = std::strerror(os_error);
  } else if (!facts.mpi_error.empty()) {
    cause = facts.mpi_error;
  } else {
    cause = facts.innermost.empty() ? "(HDF5 recorded no error)" : facts.innermost;
  }
  if (saved_errno != 0 && os_error == 0)  // told, not trusted: Open MPI's MPI-IO leaves a stale one
    facts.frames += "(errno after the failure: " + std::string(std::strerror(saved_errno)) + ")\n";
  if (!facts.frames.empty()) facts.frames.pop_back();
  throw Hdf5Error(call, cause, std::move(facts.frames),
                  Hdf5Error::Cause{os_error, facts.truncated, facts.write_failed, facts.stored_eof});
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

File open_file_beside_readers(const std::string& path) {
  silence_hdf5_error_printing();
  const PropertyList fapl = file_access(MPI_COMM_NULL);
  check(H5Pset_file_locking(fapl, false, true), "H5Pset_file_locking");
  return File(check_id(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl), ("H5Fopen(" + path + ")").c_str()));
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

PropertyList untimed_creation(hid_t plist_class) {
  PropertyList plist(check_id(H5Pcreate(plist_class), "H5Pcreate"));
  check(H5Pset_obj_track_times(plist, 0), "H5Pset_obj_track_times");
  return plist;
}

bool tracks_times(hid_t object) {
  // Read from the header, not from the creation property list: HDF5 rebuilds that of an object whose header
  // is of version 1 (as rmtsweep's are) with times on, whatever it holds; a header without a time reads 0.
  H5O_info_t info;
  check(H5Oget_info2(object, &info, H5O_INFO_TIME), "H5Oget_info2");
  return info.mtime != 0 || info.ctime != 0;
}

Group create_group(hid_t loc, const std::string& name) {
  PropertyList lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate(H5P_LINK_CREATE)"));
  check(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
  const PropertyList gcpl = untimed_creation(H5P_GROUP_CREATE);
  return Group(
      check_id(H5Gcreate2(loc, name.c_str(), lcpl, gcpl, H5P_DEFAULT), ("H5Gcreate2(" + name + ")").c_str()));
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

std::string path_of(hid_t object) {
  const ssize_t length = H5Iget_name(object, nullptr, 0);
  if (length < 0) check(static_cast<herr_t>(length), "H5Iget_name");
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  check(static_cast<herr_t>(H5Iget_name(object, name.data(), name.size())), "H5Iget_name");
  name.resize(static_cast<std::size_t>(length));
  return name;
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
