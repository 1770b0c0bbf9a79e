// The one build-then-rename protocol (io::StagedPath): what is built appears at its path whole or not at
// all, a failed or abandoned build leaves nothing, a killed build's leftover is removed by the next one, and
// nothing rmtsweep did not write is deleted.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using rmtsweep::io::StagedPath;

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A directory built where `staged` builds, holding one file `entry`, as a journal being created is: its
/// path.
std::string build_directory(const StagedPath& staged, const std::string& entry) {
  fs::create_directory(staged.path());
  write(staged.path() + "/" + entry, "a head");
  return staged.path();
}

TEST(StagedPath, AFixedNameIsTheTargetWithItsSuffix) {
  const StagedPath staged = StagedPath::fixed("/data/sweep.h5", "creating");
  EXPECT_EQ(staged.path(), "/data/sweep.h5.creating");
  EXPECT_EQ(staged.target(), "/data/sweep.h5");
}

TEST(StagedPath, AFreshNameIsOneNothingHasYet) {
  const rmtsweep::test::TempDir dir;
  const StagedPath first = StagedPath::fresh(dir / "phase.h5", "partial");
  write(first.path(), "taken");
  const StagedPath second = StagedPath::fresh(dir / "phase.h5", "partial");
  EXPECT_NE(first.path(), second.path());
  EXPECT_EQ(first.path().rfind(dir / "phase.h5.partial-", 0), 0u) << first.path();
  EXPECT_FALSE(fs::exists(second.path()));
}

TEST(StagedPath, PutInPlaceMovesTheBuiltFileToItsTargetReplacingTheOldOne) {
  const rmtsweep::test::TempDir dir;
  write(dir / "out.h5", "old");
  StagedPath staged = StagedPath::fixed(dir / "out.h5", "merging");
  write(staged.path(), "new");
  staged.put_in_place("put the merged file in place", StagedPath::Sync::file_and_directory);
  EXPECT_EQ(read(dir / "out.h5"), "new");
  EXPECT_FALSE(fs::exists(staged.path()));
}

TEST(StagedPath, ABuildAbandonedByAnExceptionLeavesNothingAndTheTargetUntouched) {
  const rmtsweep::test::TempDir dir;
  write(dir / "out.h5", "old");
  std::string built;
  try {
    StagedPath staged = StagedPath::fixed(dir / "out.h5", "recovering");
    built = staged.path();
    write(staged.path(), "half");
    throw std::runtime_error("disk full");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(fs::exists(built));
  EXPECT_EQ(read(dir / "out.h5"), "old");
}

TEST(StagedPath, ADirectoryBuiltIsRemovedWholeWhenAbandoned) {
  const rmtsweep::test::TempDir dir;
  std::string built;
  {
    StagedPath staged = StagedPath::fixed(dir / "out.h5.journal", "creating");
    built = build_directory(staged, "rank0.jrnl");
  }
  EXPECT_FALSE(fs::exists(built));
}

TEST(StagedPath, ReleasedItLeavesTheBuiltFileToItsOtherOwner) {
  const rmtsweep::test::TempDir dir;
  std::string built;
  {
    StagedPath staged = StagedPath::fixed(dir / "out.h5", "creating");
    built = staged.path();
    write(built, "complete");
    staged.release();
  }
  EXPECT_EQ(read(built), "complete");
}

TEST(StagedPath, DiscardRemovesTheBuiltFileAtOnce) {
  const rmtsweep::test::TempDir dir;
  StagedPath staged = StagedPath::fixed(dir / "sweep.h5", "phase.tmp");
  write(staged.path(), "measured");
  EXPECT_FALSE(staged.discard());
  EXPECT_FALSE(fs::exists(staged.path()));
}

TEST(StagedPath, AFailedRenameLeavesTheBuiltFileWhereItIsAndSaysSo) {
  const rmtsweep::test::TempDir dir;
  fs::create_directory(dir / "out.h5");  // a directory holding a file: rename(2) cannot replace it
  write(dir / "out.h5/theirs", "theirs");
  std::string built;
  {
    StagedPath staged = StagedPath::fixed(dir / "out.h5", "merging");
    built = staged.path();
    write(built, "work");
    try {
      staged.put_in_place("put the merged sweep file in its place");
      FAIL() << "a file replaced a directory that is not empty";
    } catch (const rmtsweep::FileIoError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot put the merged sweep file in its place"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(read(built), "work");  // all that is left of the work: kept for the caller to name
  EXPECT_EQ(read(dir / "out.h5/theirs"), "theirs");
}

TEST(StagedPath, RemoveLeftoverRemovesAKilledBuildsFileAndJournalDirectory) {
  const rmtsweep::test::TempDir dir;
  StagedPath file = StagedPath::fixed(dir / "sweep.h5", "creating");
  StagedPath journal = StagedPath::fixed(dir / "sweep.h5.journal", "creating");
  write(file.path(), "half a file");
  build_directory(journal, "rank0.jrnl");
  file.remove_leftover();
  journal.remove_leftover(".jrnl");
  EXPECT_FALSE(fs::exists(file.path()));
  EXPECT_FALSE(fs::exists(journal.path()));
}

TEST(StagedPath, RemoveLeftoverWithNothingThereDoesNothing) {
  const rmtsweep::test::TempDir dir;
  StagedPath staged = StagedPath::fixed(dir / "sweep.h5", "creating");
  EXPECT_NO_THROW(staged.remove_leftover());
}

TEST(StagedPath, RemoveLeftoverRefusesADirectoryHoldingWhatRmtsweepDidNotWrite) {
  const rmtsweep::test::TempDir dir;
  std::string built;
  {
    StagedPath journal = StagedPath::fixed(dir / "sweep.h5.journal", "creating");
    built = build_directory(journal, "notes.txt");
    try {
      journal.remove_leftover(".jrnl");
      FAIL() << "a stranger's file was deleted";
    } catch (const rmtsweep::InvalidFile& e) {
      EXPECT_NE(std::string(e.what()).find("holds notes.txt, which no rmtsweep wrote there"),
                std::string::npos)
          << e.what();
    }
  }  // nor by the destructor: what was there is not the StagedPath's to remove
  EXPECT_TRUE(fs::exists(built + "/notes.txt"));
}

}  // namespace
