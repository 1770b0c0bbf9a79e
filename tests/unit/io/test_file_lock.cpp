// The advisory lock a sweep file is written under (io::FileLock on FILE.h5.lock): one holder at a
// time, released with its descriptor, and blind to the locks HDF5 readers take on the file itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "rmtsweep/io/file_lock.hpp"

using rmtsweep::io::FileLock;

namespace {

/// A scratch directory with a stand-in sweep file, removed at the end.
struct Scratch {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rmtsweep-lock-" + std::to_string(::getpid()));
  std::string sweep = (dir / "sweep.h5").string();
  Scratch() {
    std::filesystem::create_directories(dir);
    std::ofstream(sweep) << "sweep";
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
};

/// Whether another open of `path` (as another process's would be) gets a lock of this kind now.
bool another_open_can_lock(const std::string& path, int kind) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  const bool taken = fd >= 0 && ::flock(fd, kind | LOCK_NB) == 0;
  if (fd >= 0) ::close(fd);
  return taken;
}

}  // namespace

TEST(FileLock, TheLockFileSitsBesideTheSweepFile) {
  EXPECT_EQ(rmtsweep::io::lock_path("out/sweep.h5"), "out/sweep.h5.lock");
}

TEST(FileLock, AFreeLockIsTakenAndNobodyElseGetsIt) {
  const Scratch scratch;
  const std::string path = rmtsweep::io::lock_path(scratch.sweep);
  const FileLock lock = FileLock::try_exclusive(path);
  EXPECT_EQ(lock.outcome(), FileLock::Outcome::locked);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(another_open_can_lock(path, LOCK_SH));
  EXPECT_EQ(FileLock::try_exclusive(path).outcome(), FileLock::Outcome::held_elsewhere);
}

TEST(FileLock, ReadersOfTheSweepFileDoNotStopIt) {
  const Scratch scratch;
  const int reader = ::open(scratch.sweep.c_str(), O_RDONLY);  // as HDF5 holds a file open read-only
  ASSERT_EQ(::flock(reader, LOCK_SH | LOCK_NB), 0);
  const FileLock lock = FileLock::try_exclusive(rmtsweep::io::lock_path(scratch.sweep));
  EXPECT_TRUE(lock.locked());
  EXPECT_TRUE(another_open_can_lock(scratch.sweep, LOCK_SH)) << "the sweep file itself is not locked";
  ::close(reader);
}

TEST(FileLock, ReleasedOrDestroyedItFreesTheLock) {
  const Scratch scratch;
  const std::string path = rmtsweep::io::lock_path(scratch.sweep);
  { ASSERT_TRUE(FileLock::try_exclusive(path).locked()); }
  FileLock again = FileLock::try_exclusive(path);
  EXPECT_TRUE(again.locked());
  again.release();
  EXPECT_TRUE(another_open_can_lock(path, LOCK_EX));
}

TEST(FileLock, ALockFileThatCannotBeCreatedLocksNothingAndSaysWhy) {
  const FileLock lock = FileLock::try_exclusive("/nonexistent-dir/sweep.h5.lock");
  EXPECT_EQ(lock.outcome(), FileLock::Outcome::unsupported);
  EXPECT_NE(lock.reason().find("open: "), std::string::npos) << lock.reason();
}

TEST(FileLock, AProbeSeesAHolderWithoutCreatingOrKeepingTheLock) {
  const Scratch scratch;
  const std::string path = rmtsweep::io::lock_path(scratch.sweep);
  EXPECT_EQ(rmtsweep::io::probe_lock(path), rmtsweep::io::LockHolder::none);
  EXPECT_FALSE(std::filesystem::exists(path)) << "a probe creates no lock file";
  {
    const FileLock lock = FileLock::try_exclusive(path);
    ASSERT_TRUE(lock.locked());
    EXPECT_EQ(rmtsweep::io::probe_lock(path), rmtsweep::io::LockHolder::another_process);
  }
  EXPECT_EQ(rmtsweep::io::probe_lock(path), rmtsweep::io::LockHolder::none);
  EXPECT_TRUE(another_open_can_lock(path, LOCK_EX)) << "the probe keeps nothing locked";
}
