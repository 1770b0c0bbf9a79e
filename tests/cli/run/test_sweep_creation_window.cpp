// The creation window: a sweep file is built as FILE.h5.creating and renamed when complete
// (include/rmtsweep/store/sweep_creation.hpp), so kill -9 of every rank at any moment leaves either no file
// or a complete one, and `run --resume` then finishes the sweep (starting it where there is no file), equal
// to an uninterrupted run's. Before, a kill within ~10 ms of the file appearing left a file --resume refused.
#include <sys/wait.h>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// 96 points at d = 40 with their spectra: about 0.2 s of work on two ranks, so that kills 0-40 ms after
/// the file appears fall inside the run.
std::vector<std::string> sweep_args(const std::string& output, const std::vector<std::string>& extra = {}) {
  return small_sweep_args(output, extra, "6");
}

/// The files equal but for the resumed run's own attributes and /points/run.
Finished compare(const std::string& a, const std::string& b) {
  std::vector<std::string> ignored = resumed_run_attributes;
  ignored.insert(ignored.end(), {"--ignore-dataset", "points/run"});
  return compare_sweep_files(a, b, ignored);
}

/// Starts the sweep, waits until `watched` exists, waits `delay` more, then kill -9 of every rank and
/// mpirun.
void start_and_kill(const std::string& output, const std::string& watched, std::chrono::milliseconds delay,
                    const std::string& log) {
  const pid_t mpirun = start(mpi_command(2, sweep_args(output)), log);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (!fs::exists(watched) && std::chrono::steady_clock::now() < deadline &&
         waitpid(mpirun, &status, WNOHANG) == 0)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  std::this_thread::sleep_for(delay);
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  waitpid(mpirun, &status, 0);
}

TEST(CreationWindow, KillNineOfEveryRankAfterTheFileAppearsThenResumeEqualsACleanRunEveryTime) {
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(2, sweep_args(dir / "clean.h5")), dir / "clean.log").exit_code, 0)
      << read_text(dir / "clean.log");
  int interrupted = 0;  // kills that left a file with points pending, or none: what the test is about
  // The file at its own name (complete from the moment it appears) and at its temporary name (the creation
  // itself: every dataset, the theory, the journal's head, the renames).
  for (const std::string suffix : {"", ".creating"}) {
    for (const int ms : {0, 5, 10, 20, 40}) {
      std::string name = std::to_string(ms);
      name += suffix.empty() ? "ms" : "ms_creating";
      const std::string output = dir / (name + ".h5");
      start_and_kill(output, output + suffix, std::chrono::milliseconds(ms), dir / (name + ".log"));
      const bool missing = !fs::exists(output);
      ASSERT_TRUE(missing || io::is_hdf5_file(output)) << name;  // never a file HDF5 cannot open
      if (missing) {
        ++interrupted;
      } else {
        const std::vector<std::int64_t> status = read_status(output);
        interrupted += std::count(status.begin(), status.end(), std::int64_t{1}) < 96 ? 1 : 0;
      }
      const Finished resumed =
          run(mpi_command(2, sweep_args(output, {"--resume"})), dir / (name + ".resume.log"));
      ASSERT_EQ(resumed.exit_code, 0) << name << ": " << resumed.output;
      const Finished same = compare(dir / "clean.h5", output);
      EXPECT_EQ(same.exit_code, 0) << name << ": " << same.output;
      EXPECT_FALSE(fs::exists(output + ".creating")) << name << ": the interrupted creation's part was left";
    }
  }
  EXPECT_GE(interrupted, 5) << "most kills came after the sweep ended: the test proved little";
}

}  // namespace
}  // namespace rmtsweep::test
