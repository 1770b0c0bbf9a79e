// The advisory lock of a sweep file (include/rmtsweep/io/file_lock.hpp).
#include "rmtsweep/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace fs = std::filesystem;

namespace rmtsweep::io {

namespace {

/// The F_OFD lock request on the data file's one byte.
struct flock data_lock_request(short type) {
  struct flock request {};
  request.l_type = type;
  request.l_whence = SEEK_SET;
  request.l_start = static_cast<off_t>(data_lock_offset);
  request.l_len = 1;
  request.l_pid = 0;  // required of F_OFD_* requests
  return request;
}

/// Opens the regular file at `path` without blocking (a FIFO) and without creating it: -1 where there is
/// none, it is not a regular file, or it cannot be opened so.
int open_regular(const std::string& path, int access) {
  const int fd = ::open(path.c_str(), access | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// Whether the descriptor `fd` is still the file at `path` (not removed or replaced since it was opened).
bool still_at(int fd, const std::string& path) {
  struct stat held {
  }, named{};
  if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &named) != 0) return false;
  return held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

}  // namespace

std::string resolved_path(const std::string& path) {
  fs::path current = path;
  for (int hop = 0; hop < 40; ++hop) {  // the kernel's own limit of links followed (ELOOP)
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(current, ec))) break;
    const fs::path target = fs::read_symlink(current, ec);
    if (ec) break;
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  return current.string();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::weakly_canonical(fs::absolute(resolved_path(a)), ec) ==
      fs::weakly_canonical(fs::absolute(resolved_path(b)), ec))
    return !ec;
  return fs::equivalent(a, b, ec) && !ec;
}

std::string lock_path(const std::string& sweep_path) { return resolved_path(sweep_path) + ".lock"; }

LockHolder probe_data_lock(const std::string& data_path) {
  const int fd = open_regular(data_path, O_RDONLY);
  if (fd < 0) return LockHolder::none;
  struct flock request = data_lock_request(F_WRLCK);
  LockHolder holder = LockHolder::none;
  if (::fcntl(fd, F_OFD_GETLK, &request) == 0 && request.l_type != F_UNLCK)
    holder = LockHolder::another_process;
  ::close(fd);
  return holder;
}

LockHolder probe_lock(const std::string& path, std::string* reason) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return LockHolder::none;  // never locked: a run creates it first
    if (reason) *reason = std::string("open: ") + std::strerror(errno);
    return LockHolder::unknown;
  }
  LockHolder holder = LockHolder::none;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      holder = LockHolder::another_process;
    } else {
      holder = LockHolder::unknown;
      if (reason) *reason = std::string("flock: ") + std::strerror(error);
    }
  }
  ::close(fd);  // releases the shared lock where it was taken
  return holder;
}

FileLock FileLock::try_exclusive(const std::string& path) {
  FileLock lock;
  int error = 0;
  // A lock file removed (or replaced) between its open and its flock is not the one at the path any
  // more, and another process may lock the new one: taken again, a few times.
  for (int attempt = 0; attempt < 8; ++attempt) {
    // Read-write: where flock is emulated by fcntl locks (NFS) an exclusive lock needs it.
    lock.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock.fd_ < 0) {
      lock.reason_ = std::string("open: ") + std::strerror(errno);
      return lock;
    }
    if (::flock(lock.fd_, LOCK_EX | LOCK_NB) != 0) {
      error = errno;
      break;
    }
    if (still_at(lock.fd_, path)) {
      lock.outcome_ = Outcome::locked;
      return lock;
    }
    lock.release();
    error = EWOULDBLOCK;  // after the last attempt: another process keeps replacing it
  }
  lock.release();
  if (error == EWOULDBLOCK) {
    lock.outcome_ = Outcome::held_elsewhere;
  } else {
    lock.reason_ = std::string("flock: ") + std::strerror(error);  // ENOLCK, EOPNOTSUPP, ENOSYS, ...
  }
  return lock;
}

FileLock FileLock::for_writing(const std::string& data_path) {
  FileLock lock = try_exclusive(lock_path(data_path));
  if (lock.outcome_ == Outcome::held_elsewhere) return lock;
  if (!lock.hold_data_file(data_path)) {
    lock.release();
    lock.outcome_ = Outcome::held_elsewhere;
  }
  return lock;
}

bool FileLock::hold_data_file(const std::string& data_path) {
  const int fd = open_regular(data_path, O_RDWR);
  if (fd < 0) return probe_data_lock(data_path) != LockHolder::another_process;  // none, or read-only here
  struct flock request = data_lock_request(F_WRLCK);
  if (::fcntl(fd, F_OFD_SETLK, &request) != 0) {
    const int error = errno;
    ::close(fd);
    return error != EAGAIN && error != EACCES;  // EINVAL, ENOLCK: no such locks here
  }
  if (data_fd_ >= 0) ::close(data_fd_);
  data_fd_ = fd;
  return true;
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      data_fd_(std::exchange(other.data_fd_, -1)),
      outcome_(other.outcome_),
      reason_(std::move(other.reason_)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    data_fd_ = std::exchange(other.data_fd_, -1);
    outcome_ = other.outcome_;
    reason_ = std::move(other.reason_);
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() noexcept {
  if (fd_ >= 0) ::close(fd_);            // closing the descriptor releases its flock
  if (data_fd_ >= 0) ::close(data_fd_);  // and this one its F_OFD lock
  fd_ = -1;
  data_fd_ = -1;
}

}  // namespace rmtsweep::io
