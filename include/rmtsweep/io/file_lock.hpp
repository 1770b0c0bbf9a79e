#pragma once
/// An advisory lock (flock(2)) on a sweep file, so that one process at a time writes it.
///
/// The sweep writes through MPI-IO, which takes no lock, while `assemble` writes /phase through
/// serial HDF5: the two at once leave /phase unreadable. So `rmtsweep run` (on rank 0) takes the
/// file's lock exclusively, which fails if another run or an assemble holds it, then holds it
/// shared for as long as it writes. Shared holders do not stop readers: HDF5's own lock for a
/// read-only open (`status`, h5py) is shared too. `assemble` checks that it can take the lock
/// exclusively before it writes (HDF5's own exclusive lock then covers its write).
///
/// The lock lives with the open descriptor: a killed process leaves no stale lock. Where the
/// file system does not support flock (some NFS and Lustre mounts), the outcome says so and
/// nothing is locked.
#include <string>

namespace rmtsweep::io {

class FileLock {
 public:
  enum class Outcome { locked, held_elsewhere, unsupported };

  /// Opens the existing file `path` and tries to lock it exclusively, without waiting.
  /// Throws std::system_error when the file cannot be opened.
  static FileLock try_exclusive(const std::string& path);

  FileLock() = default;
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  /// Releases the lock (closes the descriptor).
  ~FileLock();

  Outcome outcome() const noexcept { return outcome_; }
  bool locked() const noexcept { return outcome_ == Outcome::locked; }
  /// Why the file system refused to lock (unsupported), e.g. "Operation not supported".
  const std::string& reason() const noexcept { return reason_; }
  /// Turns the exclusive lock into a shared one, so that readers may open the file while it is
  /// held. Throws std::system_error if that fails.
  void share();
  /// Releases the lock now.
  void release() noexcept;

 private:
  int fd_ = -1;
  Outcome outcome_ = Outcome::unsupported;
  std::string reason_;
};

}  // namespace rmtsweep::io
