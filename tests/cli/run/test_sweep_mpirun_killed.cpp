// What killing mpirun does to a sweep: with Open MPI, SIGTERM to mpirun's process
// group and SIGKILL of it both end every rank within seconds (mpirun passes SIGTERM on to the
// ranks, then kills them; a rank whose mpirun is gone exits on its own), the lock goes with them,
// and --resume finishes the sweep. docs/cluster.md says the same.
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 40 points at d = 40, each computed alone, each group waiting 0.1 s after each (the test-only unit_pause
/// key, docs/config.md): about 2 s on 2 ranks whatever the machine, with little CPU (d = 600 took as long in
/// CPU), so still running when the test signals it after 8.
std::vector<std::string> sweep_args(const std::string& output, bool resume = false) {
  std::vector<std::string> args{"run",          "--output",     output,     "--d",    "40",    "--delta",
                                "0.25,0.5",     "--gamma",      "0.25,0.5", "--snr",  "0:4:5", "--weighting",
                                "mean,optimal", "--trials",     "1",        "--seed", "3",     "--lines",
                                "off",          "--unit_pause", "0.1"};
  if (resume) args.push_back("--resume");
  return args;
}

/// Whether `pid` runs (exists and is not a zombie left for an init that does not reap).
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

/// Polls until `enough` points are done; returns the ranks (mpirun's children) then.
std::vector<pid_t> ranks_once_running(const std::string& path, pid_t mpirun, std::int64_t enough) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!io::is_hdf5_file(path)) continue;
    try {
      const auto status = read_status(path);
      if (std::count(status.begin(), status.end(), std::int64_t{1}) >= enough) return children_of(mpirun);
    } catch (const std::exception&) {  // still being created
    }
  }
  return {};
}

/// Signals mpirun's process group with `signal` midway (with `to_ranks`, the ranks alone, as a scheduler
/// signals its tasks or `pkill -TERM -x rmtsweep` does); every rank must end within 20 s, and --resume must
/// then finish the sweep. Returns mpirun's exit status.
int expect_ranks_end_and_resume_finishes(int signal, bool to_ranks = false) {
  const TempDir dir;
  const std::string output = dir / "sweep.h5";
  const pid_t mpirun = start(mpi_command(2, sweep_args(output)), dir / "run.log", true);
  const std::vector<pid_t> ranks = ranks_once_running(output, mpirun, 8);
  EXPECT_EQ(ranks.size(), 2u) << read_text(dir / "run.log");
  if (ranks.size() != 2u) {
    ::kill(-mpirun, SIGKILL);
    return wait_for(mpirun, dir / "run.log").exit_code;
  }
  if (to_ranks) {
    for (const pid_t rank : ranks) EXPECT_EQ(::kill(rank, signal), 0);
  } else {
    EXPECT_EQ(::kill(-mpirun, signal), 0);
  }
  const Finished killed = wait_for(mpirun, dir / "run.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline &&
         std::any_of(ranks.begin(), ranks.end(), [](pid_t rank) { return running(rank); })) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (const pid_t rank : ranks) {
    EXPECT_FALSE(running(rank)) << "rank " << rank << " still runs 20 s after signal " << signal
                                << " to mpirun's group";
    if (running(rank)) ::kill(rank, SIGKILL);  // not left behind by a failed test
  }
  EXPECT_NE(killed.exit_code, 0) << killed.output;
  const auto at_kill = read_status(output);
  EXPECT_LT(std::count(at_kill.begin(), at_kill.end(), std::int64_t{1}), 40)
      << "the sweep ended before the signal";
  const Finished resumed = run(mpi_command(2, sweep_args(output, true)), dir / "resume.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(read_status(output), std::vector<std::int64_t>(40, 1));
  return killed.exit_code;
}

TEST(MpirunKilled, SigtermToMpirunsProcessGroupEndsEveryRankAndTheSweepResumes) {
  // Each rank exits 143; mpirun, signalled itself, exits 1 whatever they return (Open MPI's own status,
  // docs/commands.md's table says so).
  EXPECT_EQ(expect_ranks_end_and_resume_finishes(SIGTERM), 1);
}

TEST(MpirunKilled, SigtermToTheRanksEndsMpirunWith143AndTheSweepResumes) {
  EXPECT_EQ(expect_ranks_end_and_resume_finishes(SIGTERM, true), 128 + SIGTERM);
}

TEST(MpirunKilled, SigkillOfMpirunsProcessGroupEndsEveryRankAndTheSweepResumes) {
  expect_ranks_end_and_resume_finishes(SIGKILL);
}

}  // namespace
}  // namespace rmtsweep::test
