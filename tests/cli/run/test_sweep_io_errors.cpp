// Clear I/O errors: a truncated sweep file, a full disk. Every command says in one line
// which file, what it was doing, the cause and what to do, without HDF5's error stack (unless
// RMTSWEEP_VERBOSE=1) and, in the serial commands, without an MPI abort banner; a file whose
// creation failed is removed, so that the same command succeeds once there is room.
#include <cstdlib>
#include <fstream>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 8 x `trials` points at d = 60 (16 in a second on 2 ranks).
std::vector<std::string> sweep_args(const std::string& output, std::vector<std::string> extra = {},
                                    const std::string& trials = "2") {
  std::vector<std::string> args{"run",   "--output",      output,     "--d",     "60",  "--T",
                                "10",    "--correlation", "prefix:3", "--seed",  "7",   "--trials",
                                trials,  "--delta",       "0.5,1",    "--gamma", "0.5", "--snr",
                                "0:3:2", "--weighting",   "mean,last"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// `rmtsweep <args>` as one process (no mpiexec), as a user runs the serial commands.
std::vector<std::string> serial_command(const std::vector<std::string>& args) {
  std::vector<std::string> command{RMTSWEEP_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

std::vector<std::string> non_empty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

/// A finished sweep file, made once for the suite.
class TruncatedFile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    finished_ = *dir_ / "finished.h5";
    const Finished done = run(mpi_command(2, sweep_args(finished_)), *dir_ / "finished.log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  /// A copy of the finished file cut to `fraction` of its size (as `truncate -s 50%` does).
  static std::string truncated_copy(double fraction, const std::string& name) {
    const std::string path = *dir_ / name;
    std::filesystem::copy_file(finished_, path, std::filesystem::copy_options::overwrite_existing);
    const auto size = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, static_cast<std::uintmax_t>(static_cast<double>(size) * fraction));
    return path;
  }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string finished_;
};

// status, assemble and plot of a file cut to 90%, 50% and 5% of its size: exit 1 and one line that
// names the file, says it is truncated (with both sizes) and what to do; no HDF5 stack, no banner.
TEST_F(TruncatedFile, StatusAssembleAndPlotSayInOneLineThatTheFileIsTruncatedAndWhatToDo) {
  for (const double fraction : {0.9, 0.5, 0.05}) {
    const std::string path = truncated_copy(fraction, "cut.h5");
    const auto size = std::to_string(std::filesystem::file_size(path));
    const std::string expected = std::to_string(std::filesystem::file_size(finished_));
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"status", path}, {"assemble", path}, {"plot", path, "--out", *dir_ / "figures"}}) {
      const Finished failed = run(serial_command(args), *dir_ / "cmd.log");
      const std::string what = args[0] + " of a file cut to " + std::to_string(fraction) + ": ";
      EXPECT_EQ(failed.exit_code, 1) << what << failed.output;
      const auto lines = non_empty_lines(failed.output);
      ASSERT_EQ(lines.size(), 1u) << what << failed.output;
      EXPECT_TRUE(contains(lines[0], "rmtsweep " + args[0] + ": error: " + path +
                                         ": cannot open the sweep file: the file is truncated (" + size +
                                         " bytes of the " + expected + " bytes HDF5 expects)"))
          << what << lines[0];
      EXPECT_TRUE(contains(lines[0], "copy it again")) << what << lines[0];
      EXPECT_FALSE(contains(failed.output, "H5F")) << what << "HDF5's stack shown: " << failed.output;
      EXPECT_FALSE(contains(failed.output, "MPI_ABORT")) << what << failed.output;
    }
  }
}

// run --resume of a truncated file is refused on every rank alike (exit 2) with the same cause.
TEST_F(TruncatedFile, ResumeRefusesATruncatedFileSayingWhatToDo) {
  const std::string path = truncated_copy(0.5, "resume.h5");
  const Finished refused = run(mpi_command(2, sweep_args(path, {"--resume"})), *dir_ / "resume.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output, "rmtsweep run: invalid --resume '" + path +
                                           "': cannot open the sweep file: the file is truncated ("))
      << refused.output;
  EXPECT_TRUE(contains(refused.output, "pass --force to start it again (overwriting it)")) << refused.output;
  EXPECT_FALSE(contains(refused.output, "H5F")) << refused.output;
  EXPECT_FALSE(contains(refused.output, "MPI_ABORT")) << refused.output;
}

// RMTSWEEP_VERBOSE=1 (or --verbose) adds HDF5's error stack under the one line.
TEST_F(TruncatedFile, VerboseShowsHdf5sErrorStackUnderTheLine) {
  const std::string path = truncated_copy(0.5, "verbose.h5");
  const Finished flag = run(serial_command({"status", path, "--verbose"}), *dir_ / "flag.log");
  EXPECT_EQ(flag.exit_code, 1) << flag.output;
  EXPECT_TRUE(contains(flag.output, "the file is truncated")) << flag.output;
  EXPECT_TRUE(contains(flag.output, "HDF5 error stack (outermost first):")) << flag.output;
  EXPECT_TRUE(contains(flag.output, "H5F__super_read: truncated file: eof = ")) << flag.output;
  ::setenv("RMTSWEEP_VERBOSE", "1", 1);
  const Finished environment = run(serial_command({"status", path}), *dir_ / "environment.log");
  ::unsetenv("RMTSWEEP_VERBOSE");
  EXPECT_TRUE(contains(environment.output, "HDF5 error stack (outermost first):")) << environment.output;
}

// A file the user may not read (as nobody, through setpriv; root reads anything) is said as such,
// not as "not an HDF5 file"; an empty one as empty.
TEST_F(TruncatedFile, AnUnreadableFileIsSaidAsPermissionDeniedAndAnEmptyOneAsEmpty) {
  const std::string empty = *dir_ / "empty.h5";
  std::ofstream{empty};
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"status", empty}, {"plot", empty, "--out", *dir_ / "figures"}}) {
    const Finished refused = run(serial_command(args), *dir_ / "empty.log");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_TRUE(contains(refused.output, empty)) << refused.output;
    EXPECT_TRUE(contains(refused.output, "an empty file (0 bytes)")) << refused.output;
  }
  if (::geteuid() != 0 || !std::filesystem::exists("/usr/bin/setpriv"))
    GTEST_SKIP() << "the unreadable file needs root and setpriv (to read as nobody)";
  const std::string locked = *dir_ / "locked.h5";
  std::filesystem::copy_file(finished_, locked, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(locked,
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const Finished denied = run({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               RMTSWEEP_BINARY, "status", locked},
                              *dir_ / "denied.log");
  EXPECT_EQ(denied.exit_code, 1) << denied.output;
  EXPECT_TRUE(
      contains(denied.output, "rmtsweep status: error: " + locked +
                                  ": cannot open the sweep file: Permission denied; check the permissions"))
      << denied.output;
  EXPECT_EQ(non_empty_lines(denied.output).size(), 1u) << denied.output;
}

// A sweep whose data alone exceed the free space is refused before anything is written, on every
// rank alike (exit 2), with both figures.
TEST(FullDisk, ASweepWhoseDataCannotFitIsRefusedBeforeAnythingIsWritten) {
  const SmallDisk disk("256k");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const std::string output = disk / "sweep.h5";
  const Finished refused =
      run(mpi_command(2, sweep_args(output, {"--store_spectra", "true"}, "100")), disk / "../refused.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output,
                       "rmtsweep run: invalid --output '" + output + "': its 800 points take at least "))
      << refused.output;
  EXPECT_TRUE(contains(refused.output, "KiB free; allowed: a file that fits")) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(output));
}

// Creation failing on a full disk (here past the free-space check with --force-space, as a quota
// or another writer would): one clear first line naming the file, the operation and "No space left
// on device"; the partly written file is removed; once the filler is deleted the same command runs.
TEST(FullDisk, AFileWhoseCreationFailedIsRemovedAndTheSameCommandRunsOnceThereIsRoom) {
  const SmallDisk disk("4m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  disk.fill("filler", 16 * 1024);
  const std::string output = disk / "sweep.h5";
  const std::vector<std::string> command = mpi_command(2, sweep_args(output, {"--force-space"}));
  const Finished failed = run(command, disk / "../failed.log");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  const auto lines = non_empty_lines(failed.output);
  // The rank's line, wherever mpirun's abort banner (forwarded apart from the rank's output) falls.
  const auto line =
      std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return contains(l, ": error: "); });
  ASSERT_NE(line, lines.end()) << failed.output;
  EXPECT_TRUE(line->starts_with("rmtsweep run: rank ")) << failed.output;
  EXPECT_TRUE(contains(*line, ": error: " + output +
                                  ": cannot create the sweep file: No space left on device; "
                                  "its file system is full"))
      << failed.output;
  EXPECT_TRUE(contains(*line,
                       "the partly written file was removed: once there is room, run the same command "
                       "again"))
      << failed.output;
  EXPECT_FALSE(contains(failed.output, "H5D")) << "HDF5's stack shown: " << failed.output;
  EXPECT_FALSE(std::filesystem::exists(output));

  std::filesystem::remove(disk / "filler");
  const Finished again = run(command, disk / "../again.log");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_status(output), std::vector<std::int64_t>(16, 1));
}

// assemble on a full disk: one line naming the file, "No space left on device" and what to do,
// exit 1 (not a silent crash in HDF5's cleanup); nothing is written into the sweep file (a write
// failing inside it can leave its root group unwritable), and once there is room the same
// assemble writes /phase.
TEST(FullDisk, AssembleOnAFullDiskSaysSoKeepsThePointsAndSucceedsOnceThereIsRoom) {
  const SmallDisk disk("1m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  const std::string output = disk / "sweep.h5";
  const Finished swept = run(mpi_command(2, sweep_args(output)), disk / "../run.log");
  ASSERT_EQ(swept.exit_code, 0) << swept.output;
  disk.fill("filler", 0);
  const Finished failed = run(serial_command({"assemble", "--quiet", output}), disk / "../failed.log");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  const auto lines = non_empty_lines(failed.output);
  ASSERT_EQ(lines.size(), 1u) << failed.output;
  EXPECT_TRUE(contains(lines[0], "rmtsweep assemble: error: " + output + ": cannot write /phase"))
      << failed.output;
  EXPECT_TRUE(contains(lines[0], "No space left on device; ")) << failed.output;
  EXPECT_TRUE(
      contains(lines[0], "nothing was written into the sweep file; once there is room, run assemble again"))
      << failed.output;
  EXPECT_EQ(read_status(output), std::vector<std::int64_t>(16, 1));

  std::filesystem::remove(disk / "filler");
  const Finished again = run(serial_command({"assemble", "--quiet", output}), disk / "../again.log");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "/phase written")) << again.output;
}

/// The text of the test-only fault after its point: what a failed point's message ends with.
const std::string fault_ending = "as real ones (out of memory, a refused value) are";

// A failure's message longer than the 256 bytes /points/error once held is kept whole (a variable-length
// string since schema_version 3) and shown whole by `rmtsweep status`.
TEST(RecordedFailures, AFailedPointKeepsItsWholeLongMessage) {
  const TempDir dir;
  const std::string output = dir / "failed.h5";
  const Finished failed =
      run(mpi_command(2, sweep_args(output, {"--fail_points", "4", "--lines", "off"})), dir / "failed.log");
  EXPECT_EQ(failed.exit_code, 3) << failed.output;
  const io::File file = io::open_file(output, io::Access::read_only);
  const io::Dataset error = io::open_dataset(file, "points/error");
  EXPECT_TRUE(io::is_variable_string(error));
  const std::string message = io::read_strings(error)[4];
  EXPECT_GT(message.size(), 256u) << message;
  EXPECT_TRUE(message.starts_with("fault injected by the test-only fail_points key")) << message;
  EXPECT_TRUE(message.ends_with(fault_ending)) << message;
  const Finished status = run(serial_command({"status", output}), dir / "status.log");
  EXPECT_TRUE(contains(status.output, message)) << status.output;
}

// A file of the first schema keeps its 256-byte error strings when resumed: the writer takes the
// width of the dataset it finds, and a longer message is cut there, not refused.
TEST(RecordedFailures, AResumedFileOfTheFirstSchemaKeepsItsWidthAndCutsALongMessage) {
  const TempDir dir;
  const std::string file = dir / "first.h5";
  std::filesystem::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema1.h5", file);
  const Finished resumed =
      run(mpi_command(
              2, {"run", "--d",         "16",        "--delta",  "0.5",     "--gamma", "0.5", "--snr",
                  "0,2", "--weighting", "mean,last", "--trials", "2",       "--seed",  "3",   "--fail_points",
                  "1",   "--resume",    "--output",  file,       "--lines", "off"}),
          dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;
  const io::File h5 = io::open_file(file, io::Access::read_only);
  const io::Dataset error = io::open_dataset(h5, "points/error");
  EXPECT_EQ(H5Tget_size(io::Datatype(H5Dget_type(error))), 256u);
  const std::string message = io::read_strings(error)[1];
  EXPECT_EQ(message.size(), 256u) << message;
  EXPECT_TRUE(message.starts_with("fault injected by the test-only fail_points key")) << message;
}

}  // namespace
}  // namespace rmtsweep::test
