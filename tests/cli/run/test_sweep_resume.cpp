// A killed sweep (kill -9 of every rank) leaves a file that HDF5 and h5py open; --resume then
// computes exactly the points not done, and the final file equals an uninterrupted run's.
// SIGTERM stops handing out points and leaves a resumable file, exiting 128 + 15, also when it
// reaches a rank that is not its group's leader.
#include <fstream>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 80 points in 16 lines of 5 snr, at d = 40: each group waits 0.1 s after each line (the test-only
/// unit_pause key, docs/config.md), so the sweep takes about 0.8 s on two ranks whatever the machine and is
/// killed midway, at a fraction of the CPU time of points large enough to take as long (d = 600 did).
const std::vector<std::string> sweep_keys{"--delta", "0.25,0.5",    "--gamma",      "0.25,0.5", "--snr",
                                          "0:4:5",   "--weighting", "mean,optimal", "--trials", "2",
                                          "--seed",  "3",           "--unit_pause", "0.1"};

std::vector<std::string> with_keys(std::vector<std::string> args, const std::string& d = "40") {
  args.insert(args.end(), sweep_keys.begin(), sweep_keys.end());
  args.insert(args.end(), {"--d", d});
  return args;
}

std::int64_t count_done(const std::vector<std::int64_t>& status) {
  return std::count(status.begin(), status.end(), std::int64_t{1});
}

/// Polls the file until at least `enough` points are done (or the process ended). Every 10 ms:
/// the sweep must still be running when the caller signals it, however fast points become.
std::vector<std::int64_t> wait_until_done(const std::string& path, pid_t pid, std::int64_t enough) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!io::is_hdf5_file(path)) continue;
    try {
      const std::vector<std::int64_t> status = read_status(path);
      if (count_done(status) >= enough) return status;
    } catch (const std::exception&) {  // file still being created: its datasets may not exist yet
    }
    if (waitpid(pid, nullptr, WNOHANG) == pid) break;
  }
  return {};
}

/// kill -9 of every rank midway, then --resume on another number of ranks: every point done, none
/// computed twice, and the file equals an uninterrupted run's (with `extra` keys on every run; the d
/// axis is 40 unless `d` gives it).
void expect_kill_nine_and_resume_to_equal_a_clean_run(const std::vector<std::string>& extra,
                                                      const std::string& d = "40") {
  const auto with_keys = [&](std::vector<std::string> args) {
    args = rmtsweep::test::with_keys(std::move(args), d);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const TempDir dir;
  const Finished reference =
      run(mpi_command(2, with_keys({"run", "--output", dir / "ref.h5"})), dir / "ref.log");
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const auto points = static_cast<std::int64_t>(read_status(dir / "ref.h5").size());

  const pid_t mpirun = start(mpi_command(2, with_keys({"run", "--output", dir / "k.h5"})), dir / "k.log");
  const std::vector<std::int64_t> seen = wait_until_done(dir / "k.h5", mpirun, 8);
  ASSERT_FALSE(seen.empty()) << read_text(dir / "k.log");
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  (void)wait_for(mpirun, dir / "k.log");

  const std::vector<std::int64_t> at_kill = read_status(dir / "k.h5");
  const std::int64_t done_at_kill = count_done(at_kill);
  ASSERT_LT(done_at_kill, points) << "the sweep finished before it was killed: the test proved nothing";
  ASSERT_GE(done_at_kill, 8);
  const std::string h5py_check =
      "import h5py, sys; f = h5py.File(sys.argv[1], 'r'); "
      "assert f['points/status'].shape == (" +
      std::to_string(points) +
      ",); assert f.attrs['schema_version'] == " + std::to_string(store::schema_version);
  EXPECT_EQ(run({RMTSWEEP_PYTHON, "-c", h5py_check, dir / "k.h5"}, dir / "py.log").exit_code, 0)
      << read_text(dir / "py.log");
  std::vector<double> seconds_at_kill;
  {
    const io::File file = io::open_file(dir / "k.h5", io::Access::read_only);
    seconds_at_kill = io::read_doubles(io::open_dataset(file, "points/seconds"));
  }

  const Finished resumed =
      run(mpi_command(3, with_keys({"run", "--output", dir / "k.h5", "--resume"})), dir / "r.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(count_done(read_status(dir / "k.h5")), points);
  expect_same_values(dir / "ref.h5", dir / "k.h5");
  const io::File file = io::open_file(dir / "k.h5", io::Access::read_only);
  const auto run_of = io::read_ints(io::open_dataset(file, "points/run"));
  const auto seconds = io::read_doubles(io::open_dataset(file, "points/seconds"));
  for (std::size_t i = 0; i < at_kill.size(); ++i) {
    if (at_kill[i] == 1) {
      EXPECT_EQ(run_of[i], 0) << "point " << i << " was done before the kill but computed again";
      EXPECT_EQ(seconds[i], seconds_at_kill[i]) << "point " << i << " was rewritten";
    } else {
      EXPECT_EQ(run_of[i], 1) << "point " << i << " was pending at the kill";
    }
  }
  EXPECT_EQ(io::read_int_attribute(file, "runs"), 2);
  const std::vector<store::RunInfo> runs = store::detail::read_provenance(file).runs;
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].mpi_ranks, 3);
}

TEST(SweepResume, AfterKillNineResumeFinishesEveryPointWithoutRecomputingAndEqualsAnUninterruptedRun) {
  expect_kill_nine_and_resume_to_equal_a_clean_run({});
}

// Two sizes, the larger first in the schedule: each size's spectra in its own dataset, resumed whole.
TEST(SweepResume, ASweepOverTwoSizesKilledAndResumedEqualsAnUninterruptedOne) {
  expect_kill_nine_and_resume_to_equal_a_clean_run({}, "40,60");
}

TEST(SweepResume, AKrylovSweepKilledAndResumedEqualsAnUninterruptedOne) {
  expect_kill_nine_and_resume_to_equal_a_clean_run({"--eigensolver", "krylov", "--store_spectra", "false"});
}

TEST(SweepResume, SigtermStopsTheSweepWithAResumableFileAndExitStatus143) {
  const TempDir dir;
  const pid_t pid = start(with_keys({RMTSWEEP_BINARY, "run", "--output", dir / "t.h5"}), dir / "t.log");
  ASSERT_FALSE(wait_until_done(dir / "t.h5", pid, 4).empty()) << read_text(dir / "t.log");
  kill(pid, SIGTERM);
  const Finished stopped = wait_for(pid, dir / "t.log");
  EXPECT_EQ(stopped.exit_code, 128 + SIGTERM) << stopped.output;
  EXPECT_NE(stopped.output.find("stopped by signal 15"), std::string::npos) << stopped.output;
  const std::int64_t done = count_done(read_status(dir / "t.h5"));
  EXPECT_LT(done, 80) << "SIGTERM did not stop the sweep";
  const Finished resumed =
      run(mpi_command(2, with_keys({"run", "--output", dir / "t.h5", "--resume"})), dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(count_done(read_status(dir / "t.h5")), 80);
}

/// The MPI_COMM_WORLD rank of an Open MPI process (OMPI_COMM_WORLD_RANK in its environment), or -1.
int world_rank_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  const std::string key = "OMPI_COMM_WORLD_RANK=";
  for (std::string entry; std::getline(in, entry, '\0');) {
    if (entry.rfind(key, 0) == 0) return std::stoi(entry.substr(key.size()));
  }
  return -1;
}

// A group of two ranks whose second rank alone gets SIGTERM stops as a whole: the group agrees
// on the signal before each point, so the sweep ends early with a resumable file and 143.
TEST(SweepResume, SigtermToTheSecondRankOfAGroupStopsTheSweepToo) {
  const TempDir dir;
  const pid_t mpirun = start(
      mpi_command(2, with_keys({"run", "--output", dir / "g.h5", "--ranks_per_point", "2"})), dir / "g.log");
  ASSERT_FALSE(wait_until_done(dir / "g.h5", mpirun, 4).empty()) << read_text(dir / "g.log");
  pid_t second = -1;
  for (const pid_t rank : children_of(mpirun)) {
    if (world_rank_of(rank) == 1) second = rank;
  }
  ASSERT_GT(second, 0) << "rank 1 not found among mpirun's children";
  kill(second, SIGTERM);
  const Finished stopped = wait_for(mpirun, dir / "g.log");
  EXPECT_EQ(stopped.exit_code, 128 + SIGTERM) << stopped.output;
  EXPECT_NE(stopped.output.find("stopped by signal 15"), std::string::npos) << stopped.output;
  EXPECT_LT(count_done(read_status(dir / "g.h5")), 80) << "the signal to rank 1 did not stop the sweep";
}

}  // namespace
}  // namespace rmtsweep::test
