// A file system out of inodes answers a new file with ENOSPC ("No space left on device") while `df -h` shows
// room: said as "no free inodes (df -i DIR)", never "its file system is full (df -h DIR)". `run` refuses it
// before anything is written (exit 2, no FILE.h5.creating left), and `recover`, which fails while it writes,
// says it in its one line (exit 1) and changes nothing. A tmpfs mounted with few inodes (as root; skipped
// where mounting is not allowed).
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// 16 points at d = 40 (a second or two on one rank).
std::vector<std::string> sweep_args(const std::string& output) {
  return {"run",  "--output", output,  "--d",     "40",    "--T",     "4",   "--trials",
          "2",    "--snr",    "0:3:4", "--delta", "0.5,1", "--gamma", "0.5", "--store_spectra",
          "false"};
}

/// The entries of `directory` whose name holds `part`.
std::vector<std::string> named(const std::string& directory, const std::string& part) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (contains(entry.path().filename().string(), part)) found.push_back(entry.path().string());
  }
  return found;
}

void expect_no_creation_left(const SmallDisk& disk) {
  EXPECT_FALSE(fs::exists(disk / "s.h5"));
  EXPECT_TRUE(named(fs::path(disk / "s.h5").parent_path().string(), ".creating").empty());
}

TEST(NoFreeInodes, RunSaysThereAreNoFreeInodesAndLeavesNoPartOfTheFile) {
  const SmallDisk disk("8m", ",nr_inodes=32");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  const std::string output = disk / "s.h5";
  const std::string directory = fs::path(output).parent_path().string();
  ASSERT_GT(disk.use_up_inodes("filler"), 0);
  // None left: the directory's probe file cannot be created.
  const Finished none = run(mpi_command(1, sweep_args(output)), dir / "none.log");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_TRUE(
      contains(none.output, "rmtsweep run: invalid --output '" + output +
                                "': a new file where there is "
                                "room for it; creating a file in " +
                                directory +
                                " failed (No space left on device): its file system has no free inodes "
                                "(df -i " +
                                directory + ")"))
      << none.output;
  EXPECT_FALSE(contains(none.output, "df -h")) << none.output;
  expect_no_creation_left(disk);
  // Two left: the lock file and the file would fit, the journal not; refused before anything is created.
  fs::remove(disk / "filler0");
  fs::remove(disk / "filler1");
  fs::remove(disk / "s.h5.lock");
  const Finished few = run(mpi_command(1, sweep_args(output)), dir / "few.log");
  EXPECT_EQ(few.exit_code, 2) << few.output;
  EXPECT_TRUE(contains(few.output, "rmtsweep run: invalid --output '" + output +
                                       "': its file system has no free inodes for it (df -i " + directory +
                                       "): "))
      << few.output;
  EXPECT_TRUE(contains(few.output,
                       " free, and the file, its journal's directory and a journal file per writing "
                       "rank take 3; allowed: a file system with free inodes"))
      << few.output;
  EXPECT_FALSE(contains(few.output, "MPI_ABORT")) << few.output;
  expect_no_creation_left(disk);
  // Once there are inodes, the same command runs.
  for (const std::string& filler : named(directory, "filler")) fs::remove(filler);
  const Finished ran = run(mpi_command(1, sweep_args(output)), dir / "ran.log");
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
}

TEST(NoFreeInodes, RecoverSaysThereAreNoFreeInodesAndChangesNothing) {
  const SmallDisk disk("8m", ",nr_inodes=64");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(1, sweep_args(dir / "s.h5")), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  const std::string path = disk / "s.h5";
  fs::copy_file(dir / "s.h5", path);
  fs::copy(store::journal_directory(dir / "s.h5"), store::journal_directory(path),
           fs::copy_options::recursive);
  fs::resize_file(path, fs::file_size(path) / 2);  // a file recover must rebuild
  const auto cut = fs::file_size(path);
  ASSERT_GT(disk.use_up_inodes("filler"), 0);
  const Finished failed = run({RMTSWEEP_BINARY, "recover", path}, dir / "recover.log");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_TRUE(contains(failed.output, "No space left on device; its file system has no free inodes (df -i " +
                                          fs::path(path).parent_path().string() + "): remove files there"))
      << failed.output;
  EXPECT_FALSE(contains(failed.output, "df -h")) << failed.output;
  EXPECT_EQ(fs::file_size(path), cut);
  EXPECT_FALSE(fs::exists(path + ".recovering"));
  EXPECT_TRUE(named(fs::path(path).parent_path().string(), ".damaged-").empty());
}

}  // namespace
}  // namespace rmtsweep::test
