// The advisory lock a sweep file is written under (io::FileLock on FILE.h5.lock and on the file itself): one
// holder at a time through any name of the file, released with its descriptor, and blind to the locks HDF5
// readers take on the file itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

TEST(FileLockIdentity, ASymlinkToTheSweepFileSharesItsLockFile) {
  const Scratch scratch;
  const std::string link = (scratch.dir / "link.h5").string();
  std::filesystem::create_symlink("sweep.h5", link);  // relative, as `ln -s sweep.h5 link.h5` makes it
  EXPECT_EQ(rmtsweep::io::lock_path(link), rmtsweep::io::lock_path(scratch.sweep));
  const FileLock writer = FileLock::for_writing(scratch.sweep);
  ASSERT_TRUE(writer.locked());
  EXPECT_EQ(FileLock::for_writing(link).outcome(), FileLock::Outcome::held_elsewhere);
}

TEST(FileLockIdentity, ADanglingSymlinkResolvesToTheFileItWouldCreate) {
  const Scratch scratch;
  const std::string link = (scratch.dir / "new-link.h5").string();
  std::filesystem::create_symlink("new.h5", link);
  EXPECT_EQ(rmtsweep::io::resolved_path(link), (scratch.dir / "new.h5").string());
  EXPECT_EQ(rmtsweep::io::resolved_path("plain/name.h5"), "plain/name.h5") << "no link: as given";
}

TEST(FileLockIdentity, RemovingTheLockFileOfAHeldLockAdmitsNoSecondWriter) {
  const Scratch scratch;
  const FileLock writer = FileLock::for_writing(scratch.sweep);
  ASSERT_TRUE(writer.locked());
  std::filesystem::remove(rmtsweep::io::lock_path(scratch.sweep));
  const FileLock second = FileLock::for_writing(scratch.sweep);
  EXPECT_EQ(second.outcome(), FileLock::Outcome::held_elsewhere)
      << "the lock on the data file itself still holds it";
  EXPECT_EQ(rmtsweep::io::probe_data_lock(scratch.sweep), rmtsweep::io::LockHolder::another_process);
}

TEST(FileLockIdentity, AHardLinkUnderAnotherNameIsTheSameFileAndRefused) {
  const Scratch scratch;
  const std::string other = (scratch.dir / "other-name.h5").string();
  std::filesystem::create_hard_link(scratch.sweep, other);
  const FileLock writer = FileLock::for_writing(scratch.sweep);
  ASSERT_TRUE(writer.locked());
  EXPECT_EQ(FileLock::for_writing(other).outcome(), FileLock::Outcome::held_elsewhere);
}

TEST(FileLockIdentity, TheDataLockMeetsNeitherHdf5ReadersNorByteRangeLocksOnTheData) {
  const Scratch scratch;
  const int reader = ::open(scratch.sweep.c_str(), O_RDWR);
  ASSERT_EQ(::flock(reader, LOCK_SH | LOCK_NB), 0);  // as HDF5 (and h5py) lock a file they open
  const FileLock writer = FileLock::for_writing(scratch.sweep);
  EXPECT_TRUE(writer.locked());
  struct flock range {};  // as MPI-IO locks the bytes it writes
  range.l_type = F_WRLCK;
  range.l_whence = SEEK_SET;
  range.l_start = 0;
  range.l_len = 1 << 20;
  EXPECT_EQ(::fcntl(reader, F_OFD_SETLK, &range), 0) << std::strerror(errno);
  ::close(reader);
}

TEST(FileLockIdentity, TheWriterMovesItsDataLockToTheFileItPutInPlace) {
  const Scratch scratch;
  FileLock writer = FileLock::for_writing(scratch.sweep);
  ASSERT_TRUE(writer.locked());
  const std::string built = scratch.sweep + ".creating";
  std::ofstream(built) << "new sweep";
  std::filesystem::rename(built, scratch.sweep);  // a new inode at the path
  EXPECT_EQ(rmtsweep::io::probe_data_lock(scratch.sweep), rmtsweep::io::LockHolder::none);
  EXPECT_TRUE(writer.hold_data_file(scratch.sweep));
  EXPECT_EQ(rmtsweep::io::probe_data_lock(scratch.sweep), rmtsweep::io::LockHolder::another_process);
  writer.release();
  EXPECT_EQ(rmtsweep::io::probe_data_lock(scratch.sweep), rmtsweep::io::LockHolder::none);
}
