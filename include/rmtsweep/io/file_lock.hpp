#pragma once
/// An advisory lock (flock(2)) that lets one process at a time write a sweep file.
///
/// The sweep writes through MPI-IO, which takes no lock, while `assemble` writes /phase through
/// serial HDF5: the two at once leave /phase unreadable. So `rmtsweep run` (on rank 0) and
/// `rmtsweep assemble` each hold the sweep's lock while they write it, and refuse to start while
/// another process holds it. The lock is taken on a file of its own beside the sweep file
/// (lock_path: "FILE.h5.lock", created empty and left in place), never on the HDF5 file: HDF5
/// takes flock on the files it opens (shared for a reader, such as h5py in a notebook), and MPI-IO
/// may take byte-range locks on it (on NFS), so a lock there would stop a resume behind a reader
/// or interfere with the sweep's own writes.
///
/// The lock lives with the open descriptor: a killed process leaves no stale lock. Where the lock
/// file cannot be created or the file system has no flock (some NFS and Lustre mounts), the
/// outcome says so and nothing is locked.
#include <string>

namespace rmtsweep::io {

/// The lock file of the sweep file `sweep_path`: the same path with ".lock" appended.
std::string lock_path(const std::string& sweep_path);

/// Who holds the lock file at a path, seen from outside (`rmtsweep status`).
enum class LockHolder { none, another_process, unknown };

/// Whether another process holds the lock at `path` (a running `rmtsweep run` or `assemble`), without
/// creating the lock file (missing: none) and without holding anything past the test: a shared flock
/// taken and released at once (a run starting in that instant would be refused, and can be started
/// again). `reason` receives why the answer is unknown (the file unreadable, no flock here).
LockHolder probe_lock(const std::string& path, std::string* reason = nullptr);

class FileLock {
 public:
  enum class Outcome { locked, held_elsewhere, unsupported };

  /// Opens the lock file `path` (creating it empty when missing) and tries to lock it
  /// exclusively, without waiting. Never throws for a lock it cannot take: see outcome().
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
  /// Why nothing was locked (unsupported), e.g. "open: Permission denied" or "flock: No locks available".
  const std::string& reason() const noexcept { return reason_; }
  /// Releases the lock now.
  void release() noexcept;

 private:
  int fd_ = -1;
  Outcome outcome_ = Outcome::unsupported;
  std::string reason_;
};

}  // namespace rmtsweep::io
