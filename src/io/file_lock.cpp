// The advisory lock on a sweep file (include/rmtsweep/io/file_lock.hpp).
#include "rmtsweep/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

namespace rmtsweep::io {

FileLock FileLock::try_exclusive(const std::string& path) {
  FileLock lock;
  lock.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (lock.fd_ < 0) throw std::system_error(errno, std::generic_category(), "open(" + path + ") to lock it");
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) == 0) {
    lock.outcome_ = Outcome::locked;
  } else if (errno == EWOULDBLOCK) {
    lock.outcome_ = Outcome::held_elsewhere;
    lock.release();
  } else {
    lock.outcome_ = Outcome::unsupported;  // ENOLCK, EOPNOTSUPP, EINVAL on some network file systems
    lock.reason_ = std::strerror(errno);
    lock.release();
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

void FileLock::share() {
  if (fd_ < 0 || ::flock(fd_, LOCK_SH | LOCK_NB) != 0)
    throw std::system_error(fd_ < 0 ? EBADF : errno, std::generic_category(), "flock(LOCK_SH)");
}

void FileLock::release() noexcept {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases its flock
  fd_ = -1;
}

}  // namespace rmtsweep::io
