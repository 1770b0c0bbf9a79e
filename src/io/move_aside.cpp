// Keeping files under another name (include/rmtsweep/io/move_aside.hpp).
#include "rmtsweep/io/move_aside.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "rmtsweep/io/file_error.hpp"

namespace rmtsweep::io {

std::string utc_time(const char* format) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[64];
  std::strftime(text, sizeof text, format, &tm);
  return text;
}

std::string aside_name(const std::string& path, const std::string& label) {
  const std::string base = path + "." + label + "-" + utc_stamp();
  std::string name = base;
  std::error_code ec;
  for (int n = 2; std::filesystem::exists(std::filesystem::symlink_status(name, ec)); ++n)
    name = base + "-" + std::to_string(n);
  return name;
}

void sync_file(const std::string& path, const std::string& operation) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw os_file_error(path, operation, errno);
  const int synced = ::fsync(fd), error = errno;
  (void)::close(fd);
  if (synced != 0) throw os_file_error(path, operation, error);
}

void rename_path(const std::string& path, const std::string& to, const std::string& operation) {
  if (std::rename(path.c_str(), to.c_str()) != 0) throw os_file_error(path, operation, errno);
  const std::filesystem::path parent = std::filesystem::path(to).parent_path();
  const std::string directory = parent.empty() ? std::string(".") : parent.string();
  if (const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
    (void)::fsync(fd);
    (void)::close(fd);
  }
}

}  // namespace rmtsweep::io
