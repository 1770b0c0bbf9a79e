// The one writer's lock of a sweep file (store::lock_for_writing) and the names found from the file's
// identity: a second writer refused through any name, the refusal naming the option, the journal found
// through a symlink.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/writer_lock.hpp"

namespace fs = std::filesystem;

namespace {

/// A scratch directory holding sweep.h5 and `link.h5 -> sweep.h5`, removed at the end.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("rmtsweep-writer-lock-" + std::to_string(::getpid()));
  std::string sweep = (dir / "sweep.h5").string();
  std::string link = (dir / "link.h5").string();
  Scratch() {
    fs::create_directories(dir);
    std::ofstream(sweep) << "sweep";
    fs::create_symlink("sweep.h5", link);
  }
  ~Scratch() { fs::remove_all(dir); }
};

}  // namespace

TEST(WriterLock, ASecondWriterThroughASymlinkIsRefusedNamingTheOptionAndTheLock) {
  const Scratch scratch;
  const auto first = rmtsweep::store::lock_for_writing(scratch.sweep, "output");
  ASSERT_TRUE(first.locked());
  try {
    (void)rmtsweep::store::lock_for_writing(scratch.link, "output");
    FAIL() << "a second writer was admitted";
  } catch (const rmtsweep::InvalidArgument& e) {
    EXPECT_EQ(e.name(), "output");
    EXPECT_EQ(e.value(), scratch.link);
    EXPECT_NE(std::string(e.what()).find(scratch.sweep + ".lock"), std::string::npos) << e.what();
  }
}

TEST(WriterLock, ASecondWriterIsRefusedAfterTheLockFileWasRemoved) {
  const Scratch scratch;
  const auto first = rmtsweep::store::lock_for_writing(scratch.sweep, "output");
  fs::remove(scratch.sweep + ".lock");
  EXPECT_THROW((void)rmtsweep::store::lock_for_writing(scratch.sweep, "file"), rmtsweep::InvalidArgument);
}

TEST(WriterLock, OnceReleasedTheNextWriterTakesIt) {
  const Scratch scratch;
  { const auto first = rmtsweep::store::lock_for_writing(scratch.sweep, "output"); }
  EXPECT_TRUE(rmtsweep::store::lock_for_writing(scratch.link, "output").locked());
}

TEST(WriterLock, AFileNotCreatedYetIsLockedByItsPathAlone) {
  const Scratch scratch;
  const std::string fresh = (scratch.dir / "new.h5").string();
  const auto first = rmtsweep::store::lock_for_writing(fresh, "output");
  ASSERT_TRUE(first.locked());
  EXPECT_THROW((void)rmtsweep::store::lock_for_writing((scratch.dir / "." / "new.h5").string(), "output"),
               rmtsweep::InvalidArgument);
}

TEST(WriterLock, TheJournalAndTheBuildsOfASymlinkedFileAreTheTargetsOwn) {
  const Scratch scratch;
  EXPECT_EQ(rmtsweep::store::journal_directory(scratch.link), scratch.sweep + ".journal");
  const rmtsweep::io::StagedPath staged = rmtsweep::io::StagedPath::fixed(scratch.link, "creating");
  EXPECT_EQ(staged.target(), scratch.sweep) << "the rename replaces the file, never the link";
  EXPECT_EQ(staged.path(), scratch.sweep + ".creating");
}
