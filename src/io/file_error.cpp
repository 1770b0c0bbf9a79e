// The user's view of a failed file operation (include/rmtsweep/io/file_error.hpp).
#include "rmtsweep/io/file_error.hpp"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace rmtsweep::io {
namespace {

bool verbose_flag = false;

/// A file system with less free space than this after a failed write is taken to be full.
constexpr double full_below = 1024.0 * 1024.0;

std::string bytes_text(unsigned long long bytes) { return std::to_string(bytes) + " bytes"; }

/// The directory a `df` or `ls -l` of `path` should look at.
std::string directory_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// What to do about an errno met reading or writing `path`.
std::string advice_for(int os_error, const std::string& path) {
  switch (os_error) {
    case ENOSPC:
    case EFBIG:
      return "its file system is full (df -h " + directory_of(path) +
             "): free space there or write elsewhere";
    case EDQUOT:
      return "your disk quota there is used up (quota -s): free space or write elsewhere";
    case EACCES:
    case EPERM:
      return "check the permissions of the file and of its directory (ls -l " + path + ")";
    case EROFS:
      return "its file system is mounted read-only: copy the file to a writable place";
    case EIO:
      return "the storage reported a hardware or network error: check the file system (dmesg), copy the file "
             "elsewhere";
    case ENOENT:
      return "check the path";
    case EWOULDBLOCK:  // HDF5 takes flock(LOCK_EX) on a file it opens for writing, LOCK_SH for reading
      return "another process holds the file open (HDF5 file locking): an h5py.File or xarray dataset in a "
             "notebook, HDFView, h5dump; close it there and run this again (HDF5_USE_FILE_LOCKING=FALSE "
             "turns the "
             "lock off, but a reader holding the file open may then read it half written)";
    default:
      return {};
  }
}

}  // namespace

FileIoError file_error(const std::string& path, const std::string& operation, const Hdf5Error& error,
                       const std::string& then) {
  const Hdf5Error::Cause& why = error.cause();
  int os_error = why.os_error;
  std::string cause, advice;
  if (why.truncated) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    cause = "the file is truncated";
    if (!ec && why.expected_bytes > 0) {
      cause += " (" + bytes_text(size) + " of the " + bytes_text(why.expected_bytes) + " HDF5 expects)";
    }
    advice =
        "an interrupted copy, a quota or a full disk cut it, and HDF5 cannot open any of it: copy it again "
        "from where it came from, or restore a backup";
  } else if (os_error == 0 && why.write_failed) {
    // Open MPI's MPI-IO reports a write cut short by a full disk as a success, with no errno: the
    // file system's free space tells.
    struct statvfs fs {};
    if (::statvfs(directory_of(path).c_str(), &fs) == 0 &&
        static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize) < full_below) {
      os_error = ENOSPC;
    } else {
      cause = "a write was cut short without an error from the system";
      advice =
          "a full disk or a used-up quota does this: check df -h " + directory_of(path) + " and quota -s";
    }
  }
  if (cause.empty() && os_error != 0) {
    cause = std::strerror(os_error);
    advice = advice_for(os_error, path);
  } else if (cause.empty()) {
    cause = error.what();
    advice = "the file may be damaged";
  }
  if (!then.empty()) advice += advice.empty() ? then : "; " + then;
  if (!verbose() && !error.stack().empty()) advice += " (--verbose shows HDF5's error stack)";
  return FileIoError(path, operation, cause, advice, error.stack(), os_error);
}

FileIoError os_file_error(const std::string& path, const std::string& operation, int os_error,
                          const std::string& then) {
  std::string advice = advice_for(os_error, path);
  if (!then.empty()) advice += advice.empty() ? then : "; " + then;
  return FileIoError(path, operation, std::strerror(os_error), advice, {}, os_error);
}

bool verbose() {
  if (verbose_flag) return true;
  const char* text = std::getenv("RMTSWEEP_VERBOSE");
  return text && *text && std::strcmp(text, "0") != 0;
}

void set_verbose(bool on) noexcept { verbose_flag = on; }

}  // namespace rmtsweep::io
