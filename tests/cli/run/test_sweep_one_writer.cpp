// One writer per file, whatever its name: while a sweep runs, no other command replaces or writes its file,
// through a symlink, after its lock file was removed, or with --force; and a run never overwrites its config.
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 320 points at d = 40, each alone, each group waiting 0.02 s after each (the test-only unit_pause key):
/// about 3 s on 2 ranks whatever the machine (as test_status_running's), with little CPU.
std::vector<std::string> long_sweep(const std::string& output, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"run",          "--output",     output,     "--d",    "40",    "--delta",
                                "0.25,0.5",     "--gamma",      "0.25,0.5", "--snr",  "0:4:5", "--weighting",
                                "mean,optimal", "--trials",     "8",        "--seed", "3",     "--lines",
                                "off",          "--unit_pause", "0.02"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// The inode of the file at `path` (0 where there is none).
ino_t inode_of(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

/// Waits until the sweep at `path` holds `points` points done (or two minutes pass).
void wait_for_points(const std::string& path, std::int64_t points) {
  std::int64_t done = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
       done < points && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      if (io::is_hdf5_file(path)) {
        const auto status = read_status(path);
        done = std::count(status.begin(), status.end(), std::int64_t{1});
      }
    } catch (const std::exception&) {  // still being created
    }
  }
  ASSERT_GE(done, points) << "the running sweep did not get going";
}

/// A running sweep at dir/busy.h5 (and a finished small one at dir/other.h5 to offer other commands).
class WhileASweepRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run(mpi_command(2, small_sweep_args(other)), dir / "other.log").exit_code, 0);
    mpirun = start(mpi_command(2, long_sweep(busy)), dir / "busy.log", true);
    wait_for_points(busy, 4);
    inode = inode_of(busy);
  }
  void TearDown() override {
    if (mpirun > 0) {
      ::kill(-mpirun, SIGTERM);
      (void)wait_for(mpirun, dir / "busy.log");
    }
  }
  /// Ends the run with SIGTERM (it closes a resumable file) and returns how it ended.
  Finished stop() {
    ::kill(-mpirun, SIGTERM);
    const Finished ended = wait_for(mpirun, dir / "busy.log");
    mpirun = -1;
    return ended;
  }
  /// The refusal every second writer gets: exit 2, naming the lock of the running sweep's file.
  void expect_refused(const Finished& second) {
    EXPECT_EQ(second.exit_code, 2) << second.output;
    EXPECT_TRUE(contains(second.output, "no other process is writing")) << second.output;
    EXPECT_EQ(inode_of(busy), inode) << "the running sweep's file was replaced";
    EXPECT_TRUE(std::filesystem::is_directory(busy + ".journal")) << "its journal was moved";
  }
  /// After the run stopped: its file whole, the journal agreeing, every point it wrote kept.
  void expect_sweep_intact() {
    const Finished ended = stop();
    EXPECT_TRUE(contains(ended.output, "stopped by signal 15")) << ended.output;  // mpirun's own exit: 1
    const Finished status = run_serial({"status", busy}, dir / "status.log");
    EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;
    EXPECT_FALSE(contains(status.output, "disagree")) << status.output;
  }

  TempDir dir;
  std::string busy = dir / "busy.h5", other = dir / "other.h5";
  pid_t mpirun = -1;
  ino_t inode = 0;
};

TEST_F(WhileASweepRuns, AResumeThroughASymlinkToItsFileIsRefused) {
  const std::string link = dir / "link.h5";
  std::filesystem::create_symlink("busy.h5", link);
  expect_refused(run(mpi_command(2, long_sweep(link, {"--resume"})), dir / "second.log"));
  EXPECT_FALSE(std::filesystem::exists(link + ".journal")) << "a journal of the link's own";
  EXPECT_FALSE(std::filesystem::exists(link + ".lock")) << "a lock of the link's own";
}

TEST_F(WhileASweepRuns, ASecondRunIsRefusedAfterItsLockFileWasRemoved) {
  std::filesystem::remove(busy + ".lock");
  expect_refused(run(mpi_command(2, long_sweep(busy, {"--resume"})), dir / "second.log"));
  const Finished status = run_serial({"status", busy, "--no-verify"}, dir / "status.log");
  EXPECT_TRUE(contains(status.output, "a run holds this file")) << status.output;
}

TEST_F(WhileASweepRuns, RunWithForceNeverReplacesItsFile) {
  expect_refused(run(mpi_command(1, long_sweep(busy, {"--force"})), dir / "second.log"));
}

TEST_F(WhileASweepRuns, MergeWithForceIntoItsFileIsRefused) {
  expect_refused(run_serial({"merge", busy, other, "--allow-partial", "--force"}, dir / "merge.log"));
  expect_sweep_intact();
}

TEST_F(WhileASweepRuns, AssembleWithOutputAndForceOntoItsFileIsRefused) {
  expect_refused(run_serial({"assemble", other, "--output", busy, "--force"}, dir / "assemble.log"));
  expect_sweep_intact();
}

TEST_F(WhileASweepRuns, RecoverAndRefineOfItsFileAreRefused) {
  expect_refused(run_serial({"recover", busy}, dir / "recover.log"));
  expect_refused(run(mpi_command(1, {"refine", busy}), dir / "refine.log"));
}

TEST(OneWriter, ARunRefusesToOverwriteTheConfigItReads) {
  const TempDir dir;
  const std::string config = dir / "c.ini";
  { std::ofstream(config) << "d = 40\ntrials = 2\nsnr = 0:3:4\n"; }
  const std::string before = read_text(config);
  const Finished refused =
      run(mpi_command(1, {"run", "--config", config, "--output", config, "--force"}), dir / "run.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output, "invalid --output")) << refused.output;
  EXPECT_TRUE(contains(refused.output, "other than the config it reads")) << refused.output;
  EXPECT_EQ(read_text(config), before);
}

}  // namespace
}  // namespace rmtsweep::test
