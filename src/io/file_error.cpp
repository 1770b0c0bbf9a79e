// The user's view of a failed file operation (include/rmtsweep/io/file_error.hpp).
#include "rmtsweep/io/file_error.hpp"

#include <sys/stat.h>
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

}  // namespace

bool out_of_inodes(const std::string& directory) {
  struct statvfs fs {};
  // f_files 0: a file system without an inode count (btrfs, some network ones), never out of them.
  return ::statvfs(directory.c_str(), &fs) == 0 && fs.f_files > 0 && (fs.f_favail == 0 || fs.f_ffree == 0);
}

std::string os_error_advice(int os_error, const std::string& path) {
  switch (os_error) {
    case ENOSPC:
      // ENOSPC also when the file system has space but no inode left for a new file: df -h shows room.
      if (out_of_inodes(directory_of(path)))
        return "its file system has no free inodes (df -i " + directory_of(path) +
               "): remove files there or write elsewhere";
      [[fallthrough]];
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

namespace {

std::string advice_for(int os_error, const std::string& path) { return os_error_advice(os_error, path); }

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
    if ((::statvfs(directory_of(path).c_str(), &fs) == 0 &&
         static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize) < full_below) ||
        out_of_inodes(directory_of(path))) {
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

std::string file_kind(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return S_ISREG(mode) ? "a regular file" : "a special file";
}

std::string kind_at(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? file_kind(info.st_mode) : std::string();
}

std::string not_regular_problem(const std::string& path) {
  const std::string kind = kind_at(path);
  if (kind.empty() || kind == "a regular file") return {};
  return kind == "a directory" ? kind : "not a regular file (" + kind + ")";
}

bool verbose() {
  if (verbose_flag) return true;
  const char* text = std::getenv("RMTSWEEP_VERBOSE");
  return text && *text && std::strcmp(text, "0") != 0;
}

void set_verbose(bool on) noexcept { verbose_flag = on; }

}  // namespace rmtsweep::io
