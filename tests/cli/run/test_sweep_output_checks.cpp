// `rmtsweep run --output` where no sweep file can be written (a directory that cannot be written in,
// a dangling symbolic link, a file that cannot be opened) is refused on rank 0 before any collective
// create: one line naming --output, the path and why, exit status 2 on every rank; and a file
// written while log ranges were computed with exp/log resumes with its log config.
#include <unistd.h>

#include <fstream>

#include "rmtsweep/store/sweep_file.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

constexpr auto status_done = static_cast<std::int64_t>(store::PointStatus::done);

std::vector<std::string> small_run(const std::string& output) {
  return {"run", "--d", "20", "--snr", "0,1", "--output", output};
}

/// Exit 2 with rmtsweep's one line about --output, and no HDF5 error stack or MPI_Abort.
void expect_refused(const Finished& done, const std::string& path, const std::string& why) {
  EXPECT_EQ(done.exit_code, 2) << done.output;
  EXPECT_NE(done.output.find("rmtsweep run: invalid --output '" + path + "'"), std::string::npos)
      << done.output;
  EXPECT_NE(done.output.find(why), std::string::npos) << done.output;
  EXPECT_EQ(done.output.find("HDF5"), std::string::npos) << done.output;
  EXPECT_EQ(done.output.find("MPI_ABORT"), std::string::npos) << done.output;
}

TEST(SweepOutputChecks, AnOutputInADirectoryWhereNoFileCanBeCreatedIsRefusedWithOneLineAndExitTwo) {
  const TempDir dir;
  // /proc takes no new files, for root too (which a mode-555 directory would not stop).
  expect_refused(run(mpi_command(2, small_run("/proc/rmtsweep_sweep.h5")), dir / "proc.log"),
                 "/proc/rmtsweep_sweep.h5", "the directory /proc is not writable");
  if (geteuid() != 0) {
    std::filesystem::create_directory(dir / "ro");
    std::filesystem::permissions(dir / "ro",
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    expect_refused(run(mpi_command(2, small_run(dir / "ro/x.h5")), dir / "ro.log"), dir / "ro/x.h5",
                   "is not writable (creating the file failed: Permission denied)");
    std::filesystem::permissions(dir / "ro", std::filesystem::perms::owner_all);
  }
}

TEST(SweepOutputChecks, ADanglingSymbolicLinkIsRefusedEvenWithForceAndNothingIsCreatedThroughIt) {
  const TempDir dir;
  for (const std::string& target : {dir / "missing_dir/x.h5", dir / "x.h5"}) {
    std::filesystem::remove(dir / "link.h5");
    std::filesystem::create_symlink(target, dir / "link.h5");
    std::vector<std::string> args = small_run(dir / "link.h5");
    args.push_back("--force");
    expect_refused(run(mpi_command(2, args), dir / "link.log"), dir / "link.h5", "dangling symbolic link");
    EXPECT_FALSE(std::filesystem::exists(target)) << target;
  }
}

TEST(SweepOutputChecks, AWritableNewPathIsLeftToTheRunWhichCreatesIt) {
  const TempDir dir;
  const Finished done = run(mpi_command(2, small_run(dir / "new.h5")), dir / "new.log");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_EQ(read_status(dir / "new.h5"), (std::vector<std::int64_t>{status_done, status_done}));
}

// The resume is accepted (the axis values agree to rounding), finishes the file and keeps its
// grid. That the points are then computed with the file's own values is with_stored_axes's unit
// test (test_config): here, at d = 20, snr 10 and 10.000000000000002 give the same bits anyway.
TEST(SweepOutputChecks, AFileWrittenWhileLogRangesMissedDecadesResumesWithItsLogConfigAndKeepsItsGrid) {
  const TempDir dir;
  const std::string file = dir / "old.h5";
  // exp/log gave log:1:100:3 as 1,10.000000000000002,100; the middle point is left failed.
  const Finished old = run(mpi_command(1, {"run", "--d", "20", "--snr", "1,10.000000000000002,100",
                                           "--fail_points", "1", "--output", file, "--lines", "off"}),
                           dir / "old.log");
  ASSERT_EQ(old.exit_code, 3) << old.output;
  const Finished resumed =
      run(mpi_command(1, {"run", "--d", "20", "--snr", "log:1:100:3", "--resume", "--output", file}),
          dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(read_status(file), (std::vector<std::int64_t>{status_done, status_done, status_done}));
  const io::File h5 = io::open_file(file, io::Access::read_only);
  EXPECT_EQ(io::read_doubles(io::open_dataset(h5, "grid/snr")),
            (std::vector<double>{1, 10.000000000000002, 100}));
}

// A file of the first schema (tests/data/sweep_schema1.h5: before the solver columns existed, point
// 1 failed) resumes: its failed point is computed, and the columns it lacks are left out.
TEST(SweepOutputChecks, AFileOfTheFirstSchemaResumesAndKeepsItsColumns) {
  const TempDir dir;
  const std::string file = dir / "first.h5";
  std::filesystem::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema1.h5", file);
  const Finished resumed = run(
      mpi_command(2, {"run", "--d", "16", "--delta", "0.5", "--gamma", "0.5", "--snr", "0,2", "--weighting",
                      "mean,last", "--trials", "2", "--seed", "3", "--resume", "--output", file}),
      dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("1 of 1 points computed in this run"), std::string::npos) << resumed.output;
  EXPECT_EQ(read_status(file), std::vector<std::int64_t>(8, status_done));
  const io::File h5 = io::open_file(file, io::Access::read_only);
  EXPECT_FALSE(io::exists(h5, "points/solver"));
  EXPECT_EQ(io::read_int_attribute(h5, "runs"), 2);
}

// `run --plan`: the number of points, the memory and time of the largest, the core-hours;
// nothing written. A sweep whose largest point cannot fit in a rank's memory is refused before
// anything is written, with the memory it needs, unless --force-memory.
TEST(SweepOutputChecks, APlanIsPrintedAndNothingIsWritten) {
  const TempDir dir;
  const Finished plan = run(mpi_command(2, {"run", "--plan", "--d", "200", "--snr", "0:2:3", "--trials", "2",
                                            "--output", dir / "p.h5"}),
                            dir / "p.log");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("rmtsweep run --plan: 6 points (0 without forming S) on 2 ranks in groups of 1"),
            std::string::npos)
      << plan.output;
  EXPECT_NE(plan.output.find("6 of them in 2 lines of 3 snr values"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("largest unit: d=200"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("core-hours"), std::string::npos) << plan.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "p.h5"));
}

TEST(SweepOutputChecks, AnImpossibleDimensionIsRefusedWithTheMemoryItNeedsBeforeAnythingIsWritten) {
  const TempDir dir;
  for (const bool plan : {false, true}) {
    std::vector<std::string> args{"run", "--d", "1000000", "--output", dir / "huge.h5"};
    if (plan) args.push_back("--plan");
    const Finished refused = run(mpi_command(2, args), dir / "huge.log");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_NE(refused.output.find("invalid --d '1000000': the largest point"), std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find("TiB per rank"), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("--force-memory"), std::string::npos) << refused.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "huge.h5"));
  }
  const Finished forced =
      run(mpi_command(1, {"run", "--d", "1000000", "--plan", "--force-memory", "--output", dir / "huge.h5"}),
          dir / "forced.log");
  EXPECT_EQ(forced.exit_code, 0) << forced.output;  // the plan alone: nothing computed or written
  EXPECT_FALSE(std::filesystem::exists(dir / "huge.h5"));
}

}  // namespace
}  // namespace rmtsweep::test
