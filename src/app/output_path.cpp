// The writability check of `rmtsweep run --output` (src/app/output_path.hpp).
#include "output_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "rmtsweep/io/file_error.hpp"

namespace rmtsweep::app {

std::string output_write_problem(const std::string& path, bool exists, const std::string& probe) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status link = fs::symlink_status(path, ec);
  if (fs::is_symlink(link) && !fs::exists(fs::status(path, ec))) {
    std::error_code read_ec;
    const fs::path target = fs::read_symlink(path, read_ec);
    return "a regular file or a link to one; this is a dangling symbolic link (to '" + target.string() +
           "', which does not exist)";
  }
  if (exists) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);  // no O_TRUNC: the file is left as it is
    if (fd < 0) {
      return "a file this process can read and write; opening it for writing failed (" +
             std::string(std::strerror(errno)) + ")";
    }
    ::close(fd);
    return {};
  }
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    if (error == EEXIST) return {};  // left by a killed write, which the write itself clears
    const fs::path directory = fs::absolute(probe, ec).parent_path();
    if (error == ENOSPC || error == EDQUOT) {  // writable, but full, or out of inodes, or over a quota
      return "a new file where there is room for it; creating a file in " + directory.string() + " failed (" +
             std::strerror(error) + "): " + io::os_error_advice(error, probe);
    }
    return "a new file in a writable directory; the directory " + directory.string() +
           " is not writable (creating the file failed: " + std::strerror(error) + ")";
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

}  // namespace rmtsweep::app
