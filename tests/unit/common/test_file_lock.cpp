// The advisory lock a sweep file is written under (io::FileLock): a run takes it exclusively,
// then holds it shared, so that readers still open the file but no second writer does.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "rmtsweep/io/file_lock.hpp"

using rmtsweep::io::FileLock;

namespace {

/// A scratch file, removed at the end.
struct ScratchFile {
  std::string path = (std::filesystem::temp_directory_path() / ("rmtsweep-lock-" + std::to_string(::getpid()))).string();
  ScratchFile() { std::ofstream(path) << "sweep"; }
  ~ScratchFile() { std::remove(path.c_str()); }
};

/// Whether another open of the file (as another process's would be) gets a lock of this kind now.
bool another_open_can_lock(const std::string& path, int kind) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  const bool taken = fd >= 0 && ::flock(fd, kind | LOCK_NB) == 0;
  if (fd >= 0) ::close(fd);
  return taken;
}

}  // namespace

TEST(FileLock, AFreeFileIsLockedExclusivelyAndNobodyElseGetsIt) {
  const ScratchFile file;
  const FileLock lock = FileLock::try_exclusive(file.path);
  EXPECT_EQ(lock.outcome(), FileLock::Outcome::locked);
  EXPECT_FALSE(another_open_can_lock(file.path, LOCK_SH));
  EXPECT_FALSE(another_open_can_lock(file.path, LOCK_EX));
}

TEST(FileLock, HeldSharedItLetsReadersInButNotAWriter) {
  const ScratchFile file;
  FileLock lock = FileLock::try_exclusive(file.path);
  ASSERT_TRUE(lock.locked());
  lock.share();
  EXPECT_TRUE(another_open_can_lock(file.path, LOCK_SH));
  EXPECT_EQ(FileLock::try_exclusive(file.path).outcome(), FileLock::Outcome::held_elsewhere);
}

TEST(FileLock, ReleasedOrDestroyedItFreesTheFile) {
  const ScratchFile file;
  {
    const FileLock lock = FileLock::try_exclusive(file.path);
    ASSERT_TRUE(lock.locked());
  }
  FileLock again = FileLock::try_exclusive(file.path);
  EXPECT_TRUE(again.locked());
  again.release();
  EXPECT_TRUE(another_open_can_lock(file.path, LOCK_EX));
}

TEST(FileLock, AMissingFileIsAnErrorNamingIt) {
  try {
    (void)FileLock::try_exclusive("/nonexistent-dir/sweep.h5");
    FAIL() << "no error";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/sweep.h5"), std::string::npos) << e.what();
  }
}
