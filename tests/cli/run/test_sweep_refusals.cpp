// What a reliability probe (docs/reliability.md) found accepted, hung or said wrongly by `run`, `status`,
// `assemble`, `refine` and `recover`: each is refused up front with the option and the value as given,
// or says what is there, in one line and without MPI_Abort's banner; nothing hangs (a FIFO, a device).
#include <sys/stat.h>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> sweep_args(const std::string& output, const std::vector<std::string>& extra = {}) {
  return small_sweep_args(output, extra);
}

/// `args` with --key's value replaced by `value` (appended when absent).
std::vector<std::string> with(std::vector<std::string> args, const std::string& key,
                              const std::string& value) {
  const auto at = std::find(args.begin(), args.end(), "--" + key);
  if (at == args.end()) {
    args.insert(args.end(), {"--" + key, value});
  } else {
    *(at + 1) = value;
  }
  return args;
}

/// `command` under coreutils' timeout: exit 124 when it would hang (a FIFO opened for reading).
Finished bounded(std::vector<std::string> command, const std::string& log, int seconds = 30) {
  command.insert(command.begin(), {"timeout", std::to_string(seconds)});
  return run(command, log);
}

/// A serial command under the same watchdog.
Finished serial(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> command{RMTSWEEP_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  return bounded(command, log);
}

void expect_refused(const Finished& done, const std::string& text) {
  EXPECT_EQ(done.exit_code, 2) << done.output;
  EXPECT_TRUE(contains(done.output, text)) << done.output;
  EXPECT_FALSE(contains(done.output, "MPI_ABORT")) << done.output;
  EXPECT_FALSE(contains(done.output, "bad_alloc")) << done.output;
}

TEST(Refusals, AFifoOrADeviceIsRefusedAtOnceByEveryCommandThatReadsIt) {
  const TempDir dir;
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(bounded(mpi_command(1, sweep_args(dir / "a.h5", {"--config", fifo})), dir / "config.log"),
                 "rmtsweep run: invalid --config '" + fifo + "': a readable INI file");
  expect_refused(
      bounded(mpi_command(1, sweep_args(dir / "b.h5", {"--config", "/dev/zero"})), dir / "zero.log"),
      "rmtsweep run: invalid --config '/dev/zero'");
  EXPECT_FALSE(fs::exists(dir / "b.h5"));
  for (const char* command : {"status", "assemble", "recover"}) {
    const Finished done = serial({command, fifo}, dir / (std::string(command) + ".log"));
    expect_refused(done, fifo + ": not a regular file (a FIFO)");
  }
  expect_refused(serial({"status", "/dev/zero"}, dir / "device.log"),
                 "/dev/zero: not a regular file (a character device)");
  expect_refused(bounded(mpi_command(1, sweep_args(fifo, {"--resume"})), dir / "resume.log"),
                 "rmtsweep run: invalid --output '" + fifo + "'");
}

// A 10 MB axis line (five million items of one value) is refused in seconds: parsing was quadratic, and
// would have taken about 25 minutes.
TEST(Refusals, ATenMegabyteAxisLineIsRefusedInSeconds) {
  const TempDir dir;
  std::string list = "1";
  for (int i = 1; i < 5000000; ++i) list += ",1";
  std::ofstream(dir / "long.ini") << "d = 40\nsnr = " << list << "\n";
  const auto start = std::chrono::steady_clock::now();
  const Finished done =
      bounded(mpi_command(1, {"run", "--config", dir / "long.ini", "--output", dir / "long.h5"}),
              dir / "long.log", 120);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(done.exit_code, 2) << done.output.substr(0, 400);
  EXPECT_TRUE(contains(done.output, "rmtsweep run: invalid --snr '1,1,1,")) << done.output.substr(0, 400);
  EXPECT_LT(seconds, 60.0);  // about 3 s here under load; quadratic parsing took minutes
}

// Accepted before, then every point failed (exit 3), or ran for days: refused before a file exists.
TEST(Refusals, WhatEveryPointWouldFailOnIsRefusedBeforeTheFileExists) {
  const TempDir dir;
  const std::string output = dir / "never.h5";
  expect_refused(bounded(mpi_command(1, with(sweep_args(output), "gamma", "1e-9")), dir / "gamma.log"),
                 "rmtsweep run: invalid --gamma '1e-9': allowed for a simulation");
  expect_refused(bounded(mpi_command(1, sweep_args(output, {"--eigensolver", "krylov"})), dir / "krylov.log"),
                 "rmtsweep run: invalid --eigensolver 'krylov': allowed with store_spectra = true");
  expect_refused(
      bounded(mpi_command(1, sweep_args(output, {"--ntest", "1000000000000"})), dir / "ntest.log"),
      "rmtsweep run: invalid --ntest '1000000000000': allowed: 0 <= ntest <= 100000000, or up to 2^40 "
      "with --force-ntest");
  expect_refused(
      bounded(mpi_command(1, with(sweep_args(output), "snr", "0:1:2000000")), dir / "cap.log"),
      "(1 <= count <= 32000, distinct values; every axis written out fits in the 64000-byte config");
  EXPECT_FALSE(fs::exists(output));
}

TEST(Refusals, AConfigLineWithoutAKeyIsShown) {
  const TempDir dir;
  std::ofstream(dir / "eq.ini") << "d = 40\n = 5\n";
  expect_refused(
      bounded(mpi_command(1, {"run", "--config", dir / "eq.ini", "--output", dir / "eq.h5"}), dir / "eq.log"),
      "line 2 ' = 5' has no key before its '='");
}

// Another program's HDF5 file, even one with a /points and a /grid, is called so by every command; none
// calls it an interrupted sweep, offers to overwrite it (--force) or names an option it does not have.
TEST(Refusals, AnotherProgramsHdf5FileIsCalledSoAndNeverOfferedForOverwriting) {
  const TempDir dir;
  const std::string other = dir / "other.h5";
  {
    const io::File file = io::create_file(other);
    (void)io::create_group(file, "points");
    (void)io::create_group(file, "grid");
  }
  const std::vector<std::pair<std::string, Finished>> said{
      {"status", serial({"status", other}, dir / "status.log")},
      {"assemble", serial({"assemble", other}, dir / "assemble.log")},
      {"refine", bounded(mpi_command(1, {"refine", other}), dir / "refine.log")},
      {"run", bounded(mpi_command(1, sweep_args(other, {"--resume"})), dir / "resume.log")}};
  for (const auto& [command, done] : said) {
    expect_refused(done, "an HDF5 file, but not an rmtsweep sweep file");
    EXPECT_FALSE(contains(done.output, "interrupted")) << command << ": " << done.output;
    EXPECT_FALSE(contains(done.output, "--force")) << command << ": " << done.output;
    if (command == "refine") {
      EXPECT_FALSE(contains(done.output, "--resume")) << done.output;
    }
  }
}

// refine on a read-only file system: refused by rank 0 before the collective open, one line, no banner.
TEST(Refusals, RefineOnAReadOnlyFileSystemIsOneLineWithoutMpiAbort) {
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(2, sweep_args(dir / "ro.h5")), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  const SmallDisk disk("8m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  fs::copy_file(dir / "ro.h5", disk / "ro.h5");
  ASSERT_EQ(::mount("tmpfs", (disk / "").c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr), 0)
      << std::strerror(errno);
  const Finished done =
      bounded(mpi_command(2, {"refine", disk / "ro.h5", "--max-points", "4"}), dir / "refine.log");
  expect_refused(done, "rmtsweep refine: invalid file '" + disk / "ro.h5" +
                           "': a file this process can read and "
                           "write; opening it for writing failed (Read-only file system)");
}

// assemble writes /phase where there is room for it and 64 KiB more (it asked for twice its size and
// 256 KiB, and refused a 118 KiB /phase with 412 KiB free, saying "No space left on device").
TEST(Refusals, AssembleWritesPhaseWhereThereIsRoomForIt) {
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(2, sweep_args(dir / "a.h5")), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  fs::copy_file(dir / "a.h5", dir / "sized.h5");
  ASSERT_EQ(serial({"assemble", dir / "sized.h5", "--quiet"}, dir / "sized.log").exit_code, 0);
  const auto file = fs::file_size(dir / "a.h5"), phase = fs::file_size(dir / "sized.h5") - file;
  // The file, /phase and 64 KiB, and as much again as /phase: less than the old rule's 2 x /phase + 256 KiB.
  const auto room = file + 2 * phase + 96 * 1024;
  ASSERT_LT(room - file, 2 * phase + 256 * 1024);
  const SmallDisk disk(std::to_string(room));
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason() << "): needs root";
  fs::copy_file(dir / "a.h5", disk / "a.h5");
  const Finished done = serial({"assemble", disk / "a.h5", "--quiet"}, dir / "assemble.log");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_TRUE(contains(done.output, "/phase written")) << done.output;
}

}  // namespace
}  // namespace rmtsweep::test
