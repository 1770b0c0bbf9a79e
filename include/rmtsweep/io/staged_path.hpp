#pragma once
/// A file or directory built under a temporary name beside the path it is for, and put at that path by one
/// rename(2) once complete: whoever looks at the path sees nothing (or the old file) or the whole new one,
/// never a part, whatever kills the builder and when. The protocol of every file rmtsweep writes whole: a
/// new sweep file (FILE.h5.creating) and its journal (FILE.h5.journal.creating), a recovered one
/// (FILE.h5.recovering), a merged one (OUT.h5.merging), a phase file (PHASE.h5.partial-<UTC>), a threshold
/// table (TABLE.csv.partial-<UTC>) and the measuring copy of /phase (FILE.h5.phase.tmp, discarded instead of
/// put in place).
///
/// The target is the file a symlink given for it names (io::resolved_path), so that the rename replaces that
/// file and never the link.
///
/// A fixed temporary name (`StagedPath::fixed`) lets the next build find what a killed one left
/// (remove_leftover); a fresh one (`StagedPath::fresh`) never meets another's. Until put_in_place or
/// release, the destructor removes what was built, so a build that throws leaves nothing behind.
#include <string>
#include <system_error>

namespace rmtsweep::io {

class StagedPath {
 public:
  /// Built as fixed_name(target, suffix), the same name every time.
  static StagedPath fixed(std::string target, const std::string& suffix);
  /// "<target>.<suffix>", the target resolved (a symlink followed: io::resolved_path, file_lock.hpp): where
  /// fixed() builds, for those that look for it (owning nothing).
  static std::string fixed_name(const std::string& target, const std::string& suffix);
  /// Built under aside_name(target, label) (move_aside.hpp): "<target>.<label>-<UTC>", a name nothing has.
  static StagedPath fresh(std::string target, const std::string& label);

  StagedPath(StagedPath&& other) noexcept;
  StagedPath& operator=(StagedPath&& other) noexcept;
  StagedPath(const StagedPath&) = delete;
  StagedPath& operator=(const StagedPath&) = delete;
  /// Removes what was built (discard) unless it was put in place or released.
  ~StagedPath();

  /// Where it is built.
  const std::string& path() const noexcept { return path_; }
  /// Where it goes.
  const std::string& target() const noexcept { return target_; }

  /// Removes what a build killed before its end left at path(): a regular file, or a directory whose every
  /// entry ends in `entry_extension` (".jrnl"), so that nothing rmtsweep did not write there is deleted
  /// (InvalidFile otherwise, naming the stranger, and the StagedPath then leaves path() alone: released).
  /// Nothing there: nothing to do. Throws FileIoError.
  void remove_leftover(const std::string& entry_extension = {});

  /// Whether put_in_place flushes the file's data to its storage (fsync) before the rename.
  enum class Sync { directory_only, file_and_directory };

  /// Renames path() to target() (replacing what is there), then syncs the directory; with
  /// Sync::file_and_directory syncs the file first. Throws FileIoError naming `operation`: a failed sync
  /// leaves what was built to the destructor (removed, as unfinished), a failed rename leaves it at path()
  /// (the destructor then leaves it, as after release(): the caller names it).
  void put_in_place(const std::string& operation, Sync sync = Sync::directory_only);

  /// Removes path() now, a file or a directory and what it holds; the error of a removal that failed. The
  /// destructor then has nothing left to do.
  std::error_code discard() noexcept;

  /// Leaves path() to another owner (the rank that puts it in place): the destructor removes nothing.
  void release() noexcept { owned_ = false; }

 private:
  StagedPath(std::string target, std::string path) : target_(std::move(target)), path_(std::move(path)) {}
  std::string target_, path_;
  bool owned_ = true;
};

}  // namespace rmtsweep::io
