// A full disk while a sweep writes its points, and while recover writes the rebuilt file,
// on a small tmpfs (skipped, saying so, where this process may not mount one): one clear line naming
// the file, and a state from which the same command succeeds once space is freed.
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// 80 points at d = 40 with their spectra, in 16 lines of 5 snr: 0.1 s of CPU on two ranks. With `pause` each
/// group waits that long after each line (the test-only unit_pause key), so the sweep is still writing when
/// the disk fills, on any machine, without computing for it.
std::vector<std::string> sweep_args(const std::string& output, std::vector<std::string> extra = {},
                                    const std::string& pause = "0") {
  std::vector<std::string> args{
      "run",          "--output",     output,     "--d",    "40",    "--delta",
      "0.25,0.5",     "--gamma",      "0.25,0.5", "--snr",  "0:4:5", "--weighting",
      "mean,optimal", "--trials",     "2",        "--seed", "3",     "--store_spectra",
      "true",         "--unit_pause", pause};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

Finished compare(const std::string& a, const std::string& b, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> command{
      RMTSWEEP_PYTHON, std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/compare_sweep_files.py", a, b};
  command.insert(command.end(), extra.begin(), extra.end());
  return run(command, a + ".compare.log");
}

std::int64_t done_in(const std::string& path) {
  const auto status = read_status(path);
  return std::count(status.begin(), status.end(), std::int64_t{1});
}

// The disk fills up (a filler takes every free byte) while the ranks write points: the run ends (exit 1,
// every rank alike, no MPI_Abort banner) with one line from the rank whose write met it, naming its journal
// file and "No space left on device" (the HDF5 file needs no new space after its creation: its storage is
// allocated and filled then); the journal holds whole records only; once the filler is removed, --resume
// finishes the sweep and the file equals a clean run's.
TEST(JournalFullDisk,
     TheDiskFillingUpDuringPointWritesStopsTheRunInOneLineAndResumeFinishesItOnceThereIsRoom) {
  const SmallDisk disk("4m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(2, sweep_args(dir / "ref.h5")), dir / "ref.log").exit_code, 0)
      << read_text(dir / "ref.log");
  const std::string output = disk / "sweep.h5";
  const pid_t mpirun = start(mpi_command(2, sweep_args(output, {}, "0.1")), dir / "full.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool running = false;
  while (!running && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      running = io::is_hdf5_file(output) && done_in(output) >= 4;
    } catch (const std::exception&) {  // still being created
    }
  }
  ASSERT_TRUE(running) << read_text(dir / "full.log");
  disk.fill("filler", 0);
  const Finished full = wait_for(mpirun, dir / "full.log");
  ASSERT_LT(done_in(output), 80) << "the sweep finished before the disk was full: the test proved nothing";
  EXPECT_NE(full.exit_code, 0) << full.output;
  const auto lines = lines_of(full.output);
  const auto error =
      std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return contains(l, ": error: "); });
  ASSERT_NE(error, lines.end()) << full.output;
  // Every rank agreed on it and ended alike: the line without a rank, and no MPI_Abort banner.
  EXPECT_TRUE(error->starts_with("rmtsweep run: error: ")) << *error;
  EXPECT_FALSE(contains(full.output, "MPI_ABORT")) << full.output;
  EXPECT_EQ(full.exit_code, 1) << full.output;
  EXPECT_TRUE(contains(*error, ": error: " + output + ".journal/run-0-rank-")) << *error;
  // A point's record or a line's (written before its points'), or the head of a rank's journal file,
  // which a rank writes with its first record (a rank still on its first, long line when the disk fills):
  // whichever write met the full disk.
  EXPECT_TRUE(contains(*error, "the sweep's journal: No space left on device; its file system is full") &&
              (contains(*error, ".jrnl: cannot append a point's record") ||
               contains(*error, ".jrnl: cannot append a line's record") ||
               contains(*error, ".jrnl: cannot write the head of the sweep's journal")))
      << *error;
  EXPECT_TRUE(contains(*error,
                       "the points recorded before are kept: once that is mended, run the same command with "
                       "--resume"))
      << *error;
  EXPECT_FALSE(contains(full.output, "H5D")) << "HDF5's stack shown: " << full.output;
  const store::Journal journal = store::read_journal(store::journal_directory(output));
  EXPECT_EQ(journal.ignored_bytes(), 0u) << "a failed write left part of a record in the journal";

  fs::remove(disk / "filler");
  const Finished resumed = run(mpi_command(2, sweep_args(output, {"--resume"})), dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const Finished same = compare(
      dir / "ref.h5", output,
      {"--ignore-attr", "runs", "--ignore-attr", "run_1_mpi_ranks", "--ignore-attr", "run_1_ranks_per_point",
       "--ignore-attr", "run_1_eigensolver", "--ignore-dataset", "points/run"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// recover on a disk too full for the rebuilt file: one line (no abort banner) naming the file it was
// writing and "No space left on device", exit 1; the cut file and its journal as they were, nothing
// renamed, no partial file left; once there is room the same command rebuilds it.
TEST(JournalFullDisk, RecoverOnAFullDiskChangesNothingAndSucceedsOnceThereIsRoom) {
  const SmallDisk disk("4m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(2, sweep_args(dir / "sweep.h5")), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  const std::string path = disk / "sweep.h5";
  copy_sweep_file(dir / "sweep.h5", path);
  fs::resize_file(path, fs::file_size(path) / 10);
  const auto cut = fs::file_size(path);
  disk.fill("filler", 64 * 1024);
  const std::vector<std::string> command{RMTSWEEP_BINARY, "recover", path};
  const Finished failed = run(command, dir / "failed.log");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  // Open MPI's I/O component reports a failed raw-data write itself ("mca_fbtl_posix_pwritev: error in
  // (p)write(v): No space left on device"), whatever rmtsweep does; whether the disk fills during such a
  // write or during one of HDF5's own depends on the file's layout (it did once the four finite-T columns
  // were added). rmtsweep's part is the one line of its own.
  auto lines = lines_of(failed.output);
  std::erase_if(lines,
                [](const std::string& line) { return line.rfind("mca_fbtl_posix_pwritev: ", 0) == 0; });
  ASSERT_EQ(lines.size(), 1u) << failed.output;
  EXPECT_TRUE(
      contains(lines[0], "rmtsweep recover: error: " + path +
                             ".recovering: cannot write the rebuilt sweep file: No space left on device"))
      << lines[0];
  EXPECT_TRUE(contains(lines[0], "nothing was changed (" + path + " and its journal are as they were"))
      << lines[0];
  EXPECT_TRUE(contains(lines[0], "once there is room, run the same command again")) << lines[0];
  EXPECT_EQ(fs::file_size(path), cut);
  EXPECT_FALSE(fs::exists(path + ".recovering"));
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path()))
    EXPECT_FALSE(contains(entry.path().string(), ".damaged-")) << entry.path();

  fs::remove(disk / "filler");
  const Finished again = run(command, dir / "again.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const Finished same = compare(dir / "sweep.h5", path);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

}  // namespace
}  // namespace rmtsweep::test
