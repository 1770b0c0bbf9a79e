// `run --plan --ranks N` plans a job of N ranks on one process, with the scheduler's resource lines; the
// progress lines come every --progress seconds (60 in a batch job), none with --quiet, the ETA in words
//.
#include <cstdlib>
#include <regex>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

const std::string cluster_config =
    std::string(RMTSWEEP_SOURCE_DIR) + "/jobs/configs/phase_transitions_cluster.ini";

/// The line of `text` that starts (after its indent) with `start`, or "".
std::string line_starting(const std::string& text, const std::string& start) {
  for (const std::string& line : lines_of(text)) {
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.substr(line.find_first_not_of(' ')).rfind(start, 0) == 0)
      return line;
  }
  return "";
}

/// How many progress lines (rank 0's "N/M points (K this run), R points/s, ...") `text` holds.
std::size_t progress_lines(const std::string& text) {
  std::size_t count = 0;
  for (const std::string& line : lines_of(text)) count += contains(line, "points/s") ? 1 : 0;
  return count;
}

/// One BLAS thread per rank, whatever the cores here: mpirun's ranks and a plan for --ranks N then count
/// the same threads (without it a 4-core machine gives each of 2 ranks 2 threads, and a planned job 1).
void one_blas_thread() { ::setenv("OPENBLAS_NUM_THREADS", "1", 1); }

TEST(RunPlan, ForRanksPrintsTheResourceLinesOnOneProcessAndWritesNothing) {
  one_blas_thread();
  const TempDir dir;
  const Finished plan = run_serial(
      {"run", "--config", cluster_config, "--output", dir / "sweep.h5", "--plan", "--ranks", "128"},
      dir / "plan.log");
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_TRUE(contains(plan.output, "on 128 ranks in groups of 1")) << plan.output;
  for (const std::string line :
       {"#SBATCH --ntasks=128", "#SBATCH --time=", "#SBATCH --mem-per-cpu=",
        "#PBS -l select=128:ncpus=1:mpiprocs=1:mem=", "#PBS -l walltime=", "#PBS -l procs=128,pmem="}) {
    EXPECT_TRUE(contains(plan.output, line)) << line << " missing in\n" << plan.output;
  }
  EXPECT_TRUE(std::regex_search(plan.output, std::regex("--time=[0-9]{2,}:[0-5][0-9]:00\n"))) << plan.output;
  EXPECT_TRUE(std::regex_search(plan.output, std::regex("--mem-per-cpu=[1-9][0-9]*M\n"))) << plan.output;
  EXPECT_FALSE(line_starting(plan.output, "file: at least").empty()) << plan.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "sweep.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "sweep.h5.lock"));
}

TEST(RunPlan, ForTwoRanksEstimatesWhatMpirunOfTwoRanksEstimates) {
  one_blas_thread();
  const TempDir dir;
  const Finished alone =
      run_serial({"run", "--config", cluster_config, "--plan", "--ranks", "2"}, dir / "alone.log");
  const Finished two = run(mpi_command(2, {"run", "--config", cluster_config, "--plan"}), dir / "two.log");
  ASSERT_EQ(alone.exit_code, 0) << alone.output;
  ASSERT_EQ(two.exit_code, 0) << two.output;
  const std::string whole = line_starting(alone.output, "whole sweep:");
  ASSERT_TRUE(contains(whole, "of wall time on 2 group(s)")) << alone.output;
  EXPECT_EQ(whole, line_starting(two.output, "whole sweep:"));
  EXPECT_EQ(line_starting(alone.output, "largest unit:"), line_starting(two.output, "largest unit:"));
  EXPECT_EQ(line_starting(alone.output, "#SBATCH --time="), line_starting(two.output, "#SBATCH --time="));
}

TEST(RunPlan, RanksThatNoJobCouldRunAreRefusedNamingTheOption) {
  const TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--plan", "--ranks", "0"}, "invalid --ranks '0': an integer >= 1"},
      {{"--plan", "--ranks", "-4"}, "invalid --ranks '-4': an integer >= 1"},
      {{"--plan", "--ranks", "2.5"}, "invalid --ranks '2.5': an integer >= 1"},
      {{"--plan", "--ranks", "many"}, "invalid --ranks 'many': an integer >= 1"},
      {{"--plan", "--ranks", "6", "--ranks_per_point", "4"},
       "invalid --ranks '6': a multiple of ranks_per_point (4)"},
      {{"--ranks", "8", "--output", dir / "x.h5"}, "invalid --ranks '8': only with --plan"}};
  for (const auto& [options, message] : cases) {
    std::vector<std::string> args{"run", "--config", cluster_config};
    args.insert(args.end(), options.begin(), options.end());
    const Finished refused = run_serial(args, dir / "refused.log");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_TRUE(contains(refused.output, message)) << message << " missing in\n" << refused.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "x.h5"));
}

TEST(RunPlan, RefusesWhatRunRefusesWithTheSameMessageAndWritesNothing) {
  const TempDir dir;
  const std::string existing = dir / "existing.h5";
  std::ofstream(existing) << "a file already there";
  std::ofstream(dir / "k2.ini") << "d = 50\nk = 2\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--config", dir / "k2.ini", "--output", dir / "new.h5"}, "invalid --k '2'"},
      {{"--config", dir / "k2.ini"},
       "invalid --k '2'"},  // --plan needs no --output; run is refused first on k
      {{"--config", cluster_config, "--output", existing},
       "invalid --output '" + existing + "': exists; pass --resume to continue it or --force"},
      {{"--config", cluster_config, "--output", existing, "--resume", "--force"}, "invalid --force"},
      {{"--config", cluster_config, "--output", dir / "no/such/x.h5"}, "a file in an existing directory"}};
  for (const auto& [options, message] : cases) {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), options.begin(), options.end());
    const Finished refused = run_serial(args, dir / "run.log");
    args.push_back("--plan");
    const Finished planned = run_serial(args, dir / "plan.log");
    EXPECT_EQ(planned.exit_code, 2) << planned.output;
    EXPECT_FALSE(contains(planned.output, "#SBATCH")) << planned.output;
    EXPECT_TRUE(contains(planned.output, message)) << message << " missing in\n" << planned.output;
    if (options.size() > 2) {  // run itself needs --output: with one it says the same
      EXPECT_EQ(refused.exit_code, 2) << refused.output;
      EXPECT_EQ(planned.output, refused.output);
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "new.h5"));
  EXPECT_EQ(read_text(existing), "a file already there");
}

/// A sweep of 48 points at d = 40, each alone, on one process, waiting 0.05 s after each (the test-only
/// unit_pause key): 2.4 s on any machine, for several progress lines 0.2 s apart, without computing for it.
std::vector<std::string> short_sweep(const std::string& output, std::vector<std::string> extra) {
  extra.insert(extra.end(), {"--lines", "off", "--unit_pause", "0.05"});
  return small_sweep_args(output, extra, "3", "40");
}

TEST(RunProgress, LinesComeEveryProgressSecondsWithTheEtaInWords) {
  const TempDir dir;
  const Finished done = run_serial(short_sweep(dir / "s.h5", {"--progress", "0.2"}), dir / "run.log");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_GE(progress_lines(done.output), 3u) << done.output;
  EXPECT_TRUE(std::regex_search(done.output, std::regex("elapsed [0-9]+ s, ETA [0-9]+ (s|min [0-9]+ s)\n")))
      << done.output;
}

TEST(RunProgress, QuietPrintsNoProgressButTheSummary) {
  const TempDir dir;
  const Finished done = run_serial(short_sweep(dir / "s.h5", {"--quiet"}), dir / "run.log");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_EQ(progress_lines(done.output), 0u) << done.output;
  EXPECT_TRUE(contains(done.output, "48 of 48 points computed in this run (0 failed)")) << done.output;
}

TEST(RunProgress, WithoutATerminalALineComesAMinuteApart) {
  // setsid: no controlling terminal, as in a batch job; stderr a file. The first done point and the last
  // are reported, nothing between them within a minute.
  const TempDir dir;
  std::vector<std::string> command{"setsid", "--wait", RMTSWEEP_BINARY};
  for (const std::string& arg : short_sweep(dir / "s.h5", {})) command.push_back(arg);
  const Finished done = run(command, dir / "run.log");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_EQ(progress_lines(done.output), 2u) << done.output;
}

TEST(RunProgress, AnIntervalThatIsNoDurationIsRefused) {
  const TempDir dir;
  for (const std::string value : {"0", "-1", "soon", "", "inf"}) {
    const Finished refused = run_serial(short_sweep(dir / "s.h5", {"--progress", value}), dir / "run.log");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_TRUE(contains(refused.output, "invalid --progress '" + value + "'")) << refused.output;
  }
  const Finished both =
      run_serial(short_sweep(dir / "s.h5", {"--progress", "5", "--quiet"}), dir / "run.log");
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_TRUE(contains(both.output, "either --progress or --quiet")) << both.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "s.h5"));
}

}  // namespace
}  // namespace rmtsweep::test
