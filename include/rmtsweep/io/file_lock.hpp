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
/// A writer holds two locks, both keyed on the file's identity rather than on the name it was given:
/// - the lock file of the file's resolved path (resolved_path: a symlink followed to its target, so
///   `slink.h5` and `sl.h5`, `./x.h5` and `x.h5` share one lock file), flock(2)ed exclusively and
///   checked, once locked, to be still the file at its path (one removed in between is taken again);
/// - an open file description lock (fcntl F_OFD_SETLK) on one byte of the data file itself, far beyond
///   any data (data_lock_offset): it follows the inode, whatever names it has, and survives the lock file's
///   removal (`rm FILE.h5.lock` during a run then admits no second writer). It does not meet HDF5's own
///   locks (flock, shared by readers such as h5py) nor MPI-IO's byte-range locks (on the ranges it writes).
/// A file replaced by rename (creation, recover, merge, --force) is a new inode: its writer takes the
/// data lock on it again (FileLock::hold_data_file) once it is in place.
///
/// The locks live with the open descriptors: a killed process leaves no stale lock. Where the lock
/// file cannot be created or the file system has no flock (some NFS and Lustre mounts), the
/// outcome says so and nothing is locked.
#include <cstdint>
#include <string>

namespace rmtsweep::io {

/// `path` with a symlink in its last component followed to what it names (a chain of them, relative ones
/// from the link's directory), whether or not the target exists; any other path as given. Every name a
/// file is known by beside it (its lock, journal, temporary builds) derives from this one.
std::string resolved_path(const std::string& path);

/// Whether `a` and `b` name one file: the same resolved path, or the same device and inode.
bool same_file(const std::string& a, const std::string& b);

/// The lock file of the sweep file `sweep_path`: its resolved path with ".lock" appended.
std::string lock_path(const std::string& sweep_path);

/// The byte of a data file its writer's F_OFD_SETLK lock covers: 2^62, beyond any data written.
inline constexpr std::int64_t data_lock_offset = std::int64_t{1} << 62;

/// Who holds the lock file at a path, seen from outside (`rmtsweep status`).
enum class LockHolder { none, another_process, unknown };

/// Whether another process holds the lock at `path` (a running `rmtsweep run` or `assemble`), without
/// creating the lock file (missing: none) and without holding anything past the test: a shared flock
/// taken and released at once (a run starting in that instant would be refused, and can be started
/// again). `reason` receives why the answer is unknown (the file unreadable, no flock here).
LockHolder probe_lock(const std::string& path, std::string* reason = nullptr);

/// Whether another process holds the data lock of the file at `data_path` (F_OFD_GETLK): none where there
/// is no file or no such lock.
LockHolder probe_data_lock(const std::string& data_path);

class FileLock {
 public:
  enum class Outcome { locked, held_elsewhere, unsupported };

  /// Opens the lock file `path` (creating it empty when missing) and tries to lock it
  /// exclusively, without waiting. Never throws for a lock it cannot take: see outcome().
  static FileLock try_exclusive(const std::string& path);

  /// The writer's lock of the file at `data_path`: its lock file (lock_path) as try_exclusive, then the
  /// data lock on the file there, if one is (held_elsewhere when another process holds either).
  static FileLock for_writing(const std::string& data_path);

  /// Takes the data lock on the file now at `data_path` (one this process put there by rename), in place
  /// of the one held: false where another process holds it (or locks are not supported there).
  bool hold_data_file(const std::string& data_path);

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
  int data_fd_ = -1;
  Outcome outcome_ = Outcome::unsupported;
  std::string reason_;
};

}  // namespace rmtsweep::io
