// The advisory lock of a sweep file (include/rmtsweep/io/file_lock.hpp).
#include "rmtsweep/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace rmtsweep::io {

std::string lock_path(const std::string& sweep_path) { return sweep_path + ".lock"; }

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
  // Read-write: where flock is emulated by fcntl locks (NFS) an exclusive lock needs it.
  lock.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock.fd_ < 0) {
    lock.reason_ = std::string("open: ") + std::strerror(errno);
    return lock;
  }
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) == 0) {
    lock.outcome_ = Outcome::locked;
    return lock;
  }
  const int error = errno;
  lock.release();
  if (error == EWOULDBLOCK) {
    lock.outcome_ = Outcome::held_elsewhere;
  } else {
    lock.reason_ = std::string("flock: ") + std::strerror(error);  // ENOLCK, EOPNOTSUPP, ENOSYS, ...
  }
  return lock;
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), outcome_(other.outcome_), reason_(std::move(other.reason_)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    outcome_ = other.outcome_;
    reason_ = std::move(other.reason_);
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() noexcept {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases its flock
  fd_ = -1;
}

}  // namespace rmtsweep::io
