// `rmtsweep refine` on a full disk: full when it starts, or too full for the block of new points a round
// allocates. Before, the collective creation of the block failed inside HDF5 ("H5Dcreate2(snr) failed: file
// write failed") and ended in MPI_Abort's banner; now every rank ends alike with exit status 1 and one line,
// as `run` says a full disk, and the same command succeeds once there is room, leaving a file `status` finds
// undamaged. A tmpfs (as root; skipped where mounting is not allowed).
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// A grid of lines to refine: 2 weightings x 5 snr x 4 trials = 40 points at d = 60 (a second on 2 ranks).
std::vector<std::string> grid_args(const std::string& output) {
  return {"run",     "--output", output,        "--d",          "60",
          "--delta", "0.5",      "--gamma",     "0.5",          "--snr",
          "0:2.4:5", "--trials", "4",           "--seed",       "5",
          "--table", "centered", "--weighting", "mean,optimal", "--store_spectra",
          "false",   "--quiet"};
}

std::vector<std::string> refine_args(const std::string& file) {
  return {"refine", file,           "--tolerance", "0.06",         "--trials",
          "24",     "--max-points", "2000",        "--max-rounds", "2"};
}

/// The output's lines without Open MPI's own (mpirun's note that a process exited non-zero, its rules) and
/// refine's opening line (its tolerance and budget).
std::vector<std::string> own_lines(const std::string& output) {
  std::vector<std::string> lines;
  for (const std::string& line : lines_of(output)) {
    if (line.rfind("rmtsweep", 0) == 0 && !contains(line, ": tolerance ")) lines.push_back(line);
  }
  return lines;
}

void expect_full_disk_line(const Finished& done, const std::string& path, const std::string& operation) {
  EXPECT_EQ(done.exit_code, 1) << done.output;
  EXPECT_FALSE(contains(done.output, "MPI_ABORT")) << done.output;
  EXPECT_FALSE(contains(done.output, "H5Dcreate2")) << done.output;
  const std::vector<std::string> lines = own_lines(done.output);
  ASSERT_EQ(lines.size(), 1u) << done.output;
  EXPECT_TRUE(lines[0].starts_with("rmtsweep refine: error: " + path + ": cannot " + operation)) << lines[0];
  EXPECT_TRUE(contains(lines[0], "No space left on device; its file system is full (df -h " +
                                     fs::path(path).parent_path().string() +
                                     "): free space there or write elsewhere"))
      << lines[0];
  EXPECT_TRUE(contains(lines[0], "once there is room, run the same command again")) << lines[0];
}

/// refine once there is room: done (0), or its budget spent (4); status finds no damage.
void expect_refines_once_there_is_room(const SmallDisk& disk, const std::string& path, const TempDir& dir) {
  fs::remove(disk / "filler");
  const Finished refined = run(mpi_command(2, refine_args(path)), dir / "again.log");
  EXPECT_TRUE(refined.exit_code == 0 || refined.exit_code == 4) << refined.output;
  const Finished status = run({RMTSWEEP_BINARY, "status", path}, dir / "status.log");
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;
}

TEST(RefineFullDisk, ADiskFullAtTheStartIsSaidInOneLineAndNothingIsWritten) {
  const SmallDisk disk("6m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  const std::string path = disk / "grid.h5";
  ASSERT_EQ(run(mpi_command(2, grid_args(path)), dir / "grid.log").exit_code, 0)
      << read_text(dir / "grid.log");
  const auto size = fs::file_size(path);
  disk.fill("filler", 64 * 1024);
  const Finished full = run(mpi_command(2, refine_args(path)), dir / "full.log");
  expect_full_disk_line(full, path, "start refining the sweep file");
  EXPECT_TRUE(contains(full.output, "nothing was written")) << full.output;
  EXPECT_EQ(fs::file_size(path), size);
  expect_refines_once_there_is_room(disk, path, dir);
}

TEST(RefineFullDisk, ADiskTooFullForARoundsBlockIsSaidInOneLineAndTheFileStaysWhole) {
  const SmallDisk disk("6m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const TempDir dir;
  const std::string path = disk / "grid.h5";
  ASSERT_EQ(run(mpi_command(2, grid_args(path)), dir / "grid.log").exit_code, 0)
      << read_text(dir / "grid.log");
  // Room to start (the run's record), not for the first round's block of new trials.
  disk.fill("filler", 320 * 1024);
  const Finished full = run(mpi_command(2, refine_args(path)), dir / "full.log");
  expect_full_disk_line(full, path, "add round 0's block of refined points");
  EXPECT_TRUE(contains(full.output, "nothing of this round was written")) << full.output;
  const Finished status = run({RMTSWEEP_BINARY, "status", path}, dir / "between.log");
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;
  expect_refines_once_there_is_room(disk, path, dir);
}

}  // namespace
}  // namespace rmtsweep::test
