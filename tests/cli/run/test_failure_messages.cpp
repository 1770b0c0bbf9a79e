// A failed point's message (/points/error a variable-length string, written when the run closes
// the file; src/store/failure_messages.cpp): kept whole through a kill -9 (the journal holds it, `status`
// shows it from there, `recover` and `merge --allow-partial` write it, `--resume` writes it again), an
// earlier failure's message on a point a killed run then computed is neither shown nor called damage and the
// next close empties it, shards merged carry their messages (the same file as the whole run on 3 ranks), and
// a file of schema_version 2 reads, assembles and resumes with its fixed-width messages.
#include <functional>

#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// 80 points at d = 40 each computed alone, each group waiting 0.05 s after each (the test-only unit_pause
/// key): about 2 s on two ranks whatever the machine, long enough to be killed midway, then `extra`.
std::vector<std::string> long_sweep(const std::string& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"run",          "--output",     output,     "--d",    "40",    "--delta",
                                "0.25,0.5",     "--gamma",      "0.25,0.5", "--snr",  "0:4:5", "--weighting",
                                "mean,optimal", "--trials",     "2",        "--seed", "3",     "--lines",
                                "off",          "--unit_pause", "0.05"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const std::string fault_start = "fault injected by the test-only fail_points key";
const std::string fault_end = "as real ones (out of memory, a refused value) are";

std::vector<std::string> errors_of(const std::string& path) {
  const io::File file = io::open_file(path, io::Access::read_only);
  return io::read_strings(io::open_dataset(file, "points/error"));
}

std::int64_t count_of(const std::vector<std::int64_t>& status, std::int64_t value) {
  return std::count(status.begin(), status.end(), value);
}

/// Polls the file at `path` until `ready(status)` (or `pid` ended); false on timeout.
bool wait_until(const std::string& path, pid_t pid,
                const std::function<bool(const std::vector<std::int64_t>&)>& ready) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      if (io::is_hdf5_file(path) && ready(read_status(path))) return true;
    } catch (const std::exception&) {  // still being created
    }
    if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
  }
  return false;
}

/// kill -9 of mpirun `pid` and every rank it started.
void kill_all(pid_t mpirun, const std::string& log) {
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  (void)wait_for(mpirun, log);
}

/// /usr/bin/python3 with the source tree's package: rmtsweep.read_points(path).error[point] between < and >.
std::string python_error(const std::string& path, int point, const std::string& log) {
  const std::string code =
      "import sys; sys.path.insert(0, sys.argv[1]); import rmtsweep; print('<' + "
      "rmtsweep.read_points(sys.argv[2]).error[int(sys.argv[3])] + '>')";
  return run({RMTSWEEP_PYTHON, "-c", code, std::string(RMTSWEEP_SOURCE_DIR) + "/python", path,
              std::to_string(point)},
             log)
      .output;
}

// kill -9 after point 0 failed: the file holds its status but not yet its message, which its journal holds;
// `status` shows it (and finds no damage), `recover` and `merge --allow-partial` write it into their files,
// and `--resume` (failing the point again, as injected) writes it whole at its close.
TEST(FailureMessages, AKilledRunsFailureIsShownFromItsJournalAndWrittenByRecoverMergeAndResume) {
  const TempDir dir;
  const std::string path = dir / "k.h5";
  const pid_t mpirun = start(mpi_command(2, long_sweep(path, {"--fail-points", "0"})), dir / "k.log");
  ASSERT_TRUE(wait_until(path, mpirun, [](const std::vector<std::int64_t>& s) {
    return s.at(0) == 2 && count_of(s, 1) >= 8;
  })) << read_text(dir / "k.log");
  kill_all(mpirun, dir / "k.log");
  ASSERT_LT(count_of(read_status(path), 1), 79)
      << "the sweep finished before it was killed: the test proved nothing";
  EXPECT_EQ(read_status(path).at(0), 2);
  EXPECT_EQ(errors_of(path).at(0), "") << "a message the file cannot hold before the run's close";
  EXPECT_FALSE(store::SweepReader(path).integer_attribute("messages_run").has_value());

  const Finished status = run_serial({"status", path}, dir / "status.log");
  EXPECT_EQ(status.exit_code, 3) << "points pending after the kill: " << status.output;
  EXPECT_TRUE(contains(status.output,
                       "  0 (d=40 delta=0.25 gamma=0.25 snr=0 weighting=mean trial=0): " + fault_start))
      << status.output;
  EXPECT_TRUE(contains(status.output, fault_end + "\n")) << status.output;
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;

  const std::string copy = (fs::path(dir / "copy") / "k.h5").string();
  fs::create_directories(dir / "copy");
  copy_sweep_file(path, copy);
  ASSERT_EQ(run_serial({"recover", copy}, dir / "recover.log").exit_code, 0)
      << read_text(dir / "recover.log");
  EXPECT_TRUE(errors_of(copy).at(0).starts_with(fault_start)) << errors_of(copy).at(0);
  EXPECT_TRUE(errors_of(copy).at(0).ends_with(fault_end)) << errors_of(copy).at(0);

  const std::string merged = dir / "merged.h5";
  const Finished merge = run(mpi_command(1, {"merge", merged, path, "--allow-partial"}), dir / "merge.log");
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_TRUE(errors_of(merged).at(0).starts_with(fault_start)) << errors_of(merged).at(0);

  const Finished resumed =
      run(mpi_command(2, long_sweep(path, {"--fail-points", "0", "--resume"})), dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;  // point 0 fails again, as injected
  const std::vector<std::string> errors = errors_of(path);
  EXPECT_TRUE(errors.at(0).starts_with(fault_start) && errors.at(0).ends_with(fault_end)) << errors.at(0);
  EXPECT_EQ(std::count(errors.begin(), errors.end(), ""), 79) << "a message on a point that did not fail";
  EXPECT_EQ(store::SweepReader(path).integer_attribute("messages_run"), 1);
}

// A message written by a run's close, on a point that the next run (killed) computed: `status` lists no
// failure, verify finds no damage, rmtsweep.read_points gives "" for it, and the next close empties it.
TEST(FailureMessages, AnEarlierFailuresMessageOnAPointAKilledRunComputedIsNotShownAndTheNextCloseEmptiesIt) {
  const TempDir dir;
  const std::string path = dir / "t.h5";
  // Run 0, one process: point 0 fails, then SIGTERM, whose clean close writes the message.
  const pid_t first =
      start({RMTSWEEP_BINARY, "run",          "--output",      path,       "--d",          "40",
             "--delta",       "0.25,0.5",     "--gamma",       "0.25,0.5", "--snr",        "0:4:5",
             "--weighting",   "mean,optimal", "--trials",      "2",        "--seed",       "3",
             "--lines",       "off",          "--fail-points", "0",        "--unit_pause", "0.05"},
            dir / "t.log");
  ASSERT_TRUE(wait_until(path, first, [](const std::vector<std::int64_t>& s) {
    return s.at(0) == 2 && count_of(s, 1) >= 2;
  })) << read_text(dir / "t.log");
  kill(first, SIGTERM);
  ASSERT_EQ(wait_for(first, dir / "t.log").exit_code, 128 + SIGTERM) << read_text(dir / "t.log");
  ASSERT_TRUE(errors_of(path).at(0).starts_with(fault_start)) << "run 0's close did not write the message";

  // Run 1 (no fault): point 0 done again, then kill -9 before its close.
  const pid_t second = start(mpi_command(2, long_sweep(path, {"--resume"})), dir / "r1.log");
  ASSERT_TRUE(wait_until(path, second, [](const std::vector<std::int64_t>& s) { return s.at(0) == 1; }))
      << read_text(dir / "r1.log");
  kill_all(second, dir / "r1.log");
  ASSERT_LT(count_of(read_status(path), 1), 80)
      << "run 1 finished before it was killed: the test proved nothing";
  EXPECT_TRUE(errors_of(path).at(0).starts_with(fault_start)) << "the stale message this test is about";
  const Finished status = run_serial({"status", path}, dir / "status.log");
  EXPECT_EQ(status.exit_code, 3) << "points pending after the kill: " << status.output;
  EXPECT_FALSE(contains(status.output, "failed points:")) << status.output;
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;
  EXPECT_EQ(python_error(path, 0, dir / "python.log"), "<>\n");

  const Finished finished = run(mpi_command(2, long_sweep(path, {"--resume"})), dir / "r2.log");
  ASSERT_EQ(finished.exit_code, 0) << finished.output;
  const std::vector<std::string> errors = errors_of(path);
  EXPECT_EQ(std::count(errors.begin(), errors.end(), ""), 80) << errors.at(0);
}

// Run 0 (stopped) wrote point 0's message at its close; run 1 computed point 0 and failed point 40, killed
// before its close (40's message in its journal only, 0's stale). The next close that changes /points (a
// refine's: it empties 0's message) moves messages_run past run 1, so it first writes 40's message from the
// journal; where the journal is gone it moves messages_run only to run 0, and the message is found again once
// the journal is back. Either way `status` shows 40's message and finds no damage.
TEST(FailureMessages, ALaterCloseWritesAKilledRunsMessagesFromItsJournalBeforeMovingPastIt) {
  const TempDir dir;
  const std::string path = dir / "t.h5";
  std::vector<std::string> serial =
      long_sweep(path, {"--fail-points", "0"});  // one process: SIGTERM reaches it
  serial.insert(serial.begin(), RMTSWEEP_BINARY);
  const pid_t first = start(serial, dir / "r0.log");
  ASSERT_TRUE(wait_until(path, first, [](const std::vector<std::int64_t>& s) {
    return s.at(0) == 2 && count_of(s, 1) >= 2;
  })) << read_text(dir / "r0.log");
  kill(first, SIGTERM);
  ASSERT_EQ(wait_for(first, dir / "r0.log").exit_code, 128 + SIGTERM) << read_text(dir / "r0.log");
  ASSERT_TRUE(errors_of(path).at(0).starts_with(fault_start)) << "run 0's close did not write the message";

  const pid_t second =
      start(mpi_command(2, long_sweep(path, {"--resume", "--fail-points", "40"})), dir / "r1.log");
  ASSERT_TRUE(wait_until(path, second, [](const std::vector<std::int64_t>& s) {
    return s.at(0) == 1 && s.at(40) == 2;
  })) << read_text(dir / "r1.log");
  kill_all(second, dir / "r1.log");
  ASSERT_LT(count_of(read_status(path), 1), 79)
      << "run 1 finished before it was killed: the test proved nothing";
  ASSERT_EQ(errors_of(path).at(40), "") << "a message the file cannot hold before run 1's close";

  // A copy without its journal, for the second half.
  const std::string copy = (fs::path(dir / "copy") / "t.h5").string();
  fs::create_directories(dir / "copy");
  fs::copy_file(path, copy);
  const std::string aside = dir / "journal-aside";
  fs::copy(store::journal_directory(path), aside, fs::copy_options::recursive);

  // A budget of one refined point: spent before any line reaches the tolerance (exit 4).
  const std::vector<std::string> refine_one{"--max-points", "1", "--max-rounds", "1"};
  const auto refine = [&](const std::string& file, const std::string& log) {
    std::vector<std::string> args{"refine", file};
    args.insert(args.end(), refine_one.begin(), refine_one.end());
    return run(mpi_command(1, args), log);
  };
  ASSERT_EQ(refine(path, dir / "refine.log").exit_code, 4) << read_text(dir / "refine.log");
  EXPECT_EQ(errors_of(path).at(0), "") << "the stale message stays";
  EXPECT_TRUE(errors_of(path).at(40).starts_with(fault_start))
      << "run 1's message lost: " << errors_of(path).at(40);
  EXPECT_EQ(store::SweepReader(path).integer_attribute("messages_run"), 2);
  const Finished status = run_serial({"status", path}, dir / "status.log");
  EXPECT_TRUE(contains(status.output, "  40 (d=40 ") && contains(status.output, fault_start))
      << status.output;
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;

  ASSERT_EQ(refine(copy, dir / "refine-copy.log").exit_code, 4) << read_text(dir / "refine-copy.log");
  EXPECT_EQ(errors_of(copy).at(0), "");
  EXPECT_EQ(errors_of(copy).at(40), "") << "no journal to take it from";
  EXPECT_EQ(store::SweepReader(copy).integer_attribute("messages_run"), 0) << "moved no further than run 0";
  fs::copy(aside, store::journal_directory(copy), fs::copy_options::recursive);
  const Finished copy_status = run_serial({"status", copy}, dir / "status-copy.log");
  EXPECT_TRUE(contains(copy_status.output, "  40 (d=40 ") && contains(copy_status.output, fault_start))
      << copy_status.output;
  EXPECT_TRUE(contains(copy_status.output, "verify: no damage found")) << copy_status.output;
}

/// 8 lines of 4 snr (mean, optimal) at d = 40, 32 points; two lines fail (points 1 and 12: their whole
/// lines).
std::vector<std::string> failing_sweep(const std::string& output, std::vector<std::string> extra = {}) {
  return small_sweep_args(output, [&] {
    extra.insert(extra.begin(), {"--fail-points", "1,12"});
    return extra;
  }());
}

// The whole sweep on 3 ranks and its two shards (on 2 ranks and on 1) merged: the same file, messages
// included (compare_sweep_files reads /points/error), whichever ranks failed the points.
TEST(FailureMessages, ShardsMergedCarryTheirMessagesAsTheWholeRunOnThreeRanksHasThem) {
  const TempDir dir;
  const Finished whole = run(mpi_command(3, failing_sweep(dir / "whole.h5")), dir / "whole.log");
  ASSERT_EQ(whole.exit_code, 3) << whole.output;
  ASSERT_EQ(run(mpi_command(2, failing_sweep(dir / "s1.h5", {"--shard", "1/2"})), dir / "s1.log").exit_code,
            3)
      << read_text(dir / "s1.log");
  ASSERT_EQ(run(mpi_command(1, failing_sweep(dir / "s2.h5", {"--shard", "2/2"})), dir / "s2.log").exit_code,
            3)
      << read_text(dir / "s2.log");
  const Finished merged =
      run(mpi_command(1, {"merge", dir / "m.h5", dir / "s1.h5", dir / "s2.h5"}), dir / "merge.log");
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  const std::vector<std::string> errors = errors_of(dir / "m.h5");
  const std::vector<std::int64_t> status = read_status(dir / "m.h5");
  ASSERT_EQ(count_of(status, 2), 8) << "two lines of 4 points failed";
  for (std::size_t i = 0; i < status.size(); ++i)
    EXPECT_EQ(errors[i].starts_with(fault_start), status[i] == 2) << "point " << i << ": " << errors[i];
  std::vector<std::string> ignored{"--ignore-attr", "runs", "--ignore-dataset", "points/run"};
  for (const char* name : {"mpi_ranks", "ranks_per_point", "eigensolver", "shard"}) {
    for (const char* r : {"run_0_", "run_1_"})
      ignored.insert(ignored.end(), {"--ignore-attr", std::string(r) + name});
  }
  ignored.insert(ignored.end(), {"--ignore-attr", "mpi_ranks"});
  const Finished same = compare_sweep_files(dir / "whole.h5", dir / "m.h5", ignored);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// tests/data/sweep_schema2.h5 (written by the rmtsweep before variable-length messages,
// tests/data/README.md): `status` shows its two failures' messages, it assembles, and --resume computes them
// in its own layout (its fixed 1024-byte column kept, their messages emptied), schema_version 2 still.
TEST(FailureMessages, AFileOfSchemaVersion2ShowsItsMessagesAssemblesAndResumesInItsOwnLayout) {
  const TempDir dir;
  const std::string path = dir / "v2.h5";
  fs::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema2.h5", path);
  const Finished status = run_serial({"status", path}, dir / "status.log");
  ASSERT_EQ(status.exit_code, 0) << status.output;
  EXPECT_TRUE(contains(status.output, "rmtsweep sweep file, schema 2")) << status.output;
  EXPECT_TRUE(contains(status.output, "points: 8 total, 6 done, 0 pending, 2 failed")) << status.output;
  EXPECT_TRUE(
      contains(status.output, "  1 (d=16 delta=0.4 gamma=0.5 snr=0 weighting=mean trial=1): " + fault_start))
      << status.output;
  EXPECT_TRUE(
      contains(status.output, "  3 (d=16 delta=0.4 gamma=0.5 snr=2 weighting=mean trial=1): " + fault_start))
      << status.output;
  EXPECT_TRUE(python_error(path, 1, dir / "python.log").starts_with("<" + fault_start));
  ASSERT_EQ(run_serial({"assemble", path, "--quiet"}, dir / "assemble.log").exit_code, 0)
      << read_text(dir / "assemble.log");

  const Finished resumed =
      run(mpi_command(2, {"run",   "--d", "16",          "--delta",  "0.4,0.8",  "--gamma", "0.5",
                          "--snr", "0,2", "--weighting", "mean",     "--trials", "2",       "--seed",
                          "3",     "--k", "4",           "--resume", "--output", path}),
          dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "2 of 2 points computed in this run")) << resumed.output;
  {
    const store::SweepReader reader(path);
    EXPECT_EQ(reader.schema_version(), 2);
    EXPECT_EQ(count_of(reader.status(), 1), 8);
    const io::Dataset error = io::open_dataset(reader.file(), "points/error");
    EXPECT_FALSE(io::is_variable_string(error));
    EXPECT_EQ(H5Tget_size(io::Datatype(H5Dget_type(error))), 1024u);
    const std::vector<std::string> errors = io::read_strings(error);
    EXPECT_EQ(std::count(errors.begin(), errors.end(), ""), 8);
    EXPECT_FALSE(reader.integer_attribute("messages_run").has_value());
  }
  EXPECT_EQ(run_serial({"assemble", path, "--quiet"}, dir / "assemble2.log").exit_code, 0)
      << read_text(dir / "assemble2.log");
}

}  // namespace
}  // namespace rmtsweep::test
