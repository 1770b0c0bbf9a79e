// Sweeps whose unit of work is a line: the same points as computing each alone, a failing line,
// and an old file without /lines resumed and assembled.
#include <fstream>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 2 x 2 x 6 x 2 x 3 = 144 points at d = 80 in 24 lines of 6 snr values, with their spectra: mean and a
/// peaked custom pooling, N above and below V (gamma 0.25 and 2: the Gram form).
std::vector<std::string> sweep_args(const std::string& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"run",
                                "--output",
                                output,
                                "--d",
                                "80",
                                "--seed",
                                "5",
                                "--trials",
                                "3",
                                "--delta",
                                "0.5,1",
                                "--gamma",
                                "0.25,2",
                                "--snr",
                                "0:2.5:6",
                                "--weighting",
                                "mean,custom:4,1,1,0,0,0,0,0,0,0",
                                "--store_spectra",
                                "true"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// /points and /spectra of two files agree to 1e-9 (eigenvalues, overlaps: the line and the points are two
/// backward-stable reductions of the same S, measured 1e-13 apart), every ridge classification alike, and the
/// solver column says which engine computed each point.
void expect_same_points(const std::string& a, const std::string& b) {
  auto values_a = stored_values(a), values_b = stored_values(b);
  const auto without_lines = [](auto& values) {
    std::erase_if(values, [](const auto& entry) { return entry.first.starts_with("lines/"); });
  };
  without_lines(values_a);
  without_lines(values_b);
  ASSERT_EQ(values_a.size(), values_b.size());
  for (std::size_t s = 0; s < values_a.size(); ++s) {
    ASSERT_EQ(values_a[s].first, values_b[s].first);
    const auto& x = values_a[s].second;
    const auto& y = values_b[s].second;
    ASSERT_EQ(x.size(), y.size()) << values_a[s].first;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if ((std::isnan(x[i]) && std::isnan(y[i])) || x[i] == y[i]) continue;  // equal infinities too
      if (values_a[s].first == "points/ridge_accuracy") {
        EXPECT_EQ(x[i], y[i]) << i;
      } else {
        EXPECT_NEAR(x[i], y[i], 1e-9 * std::max(1.0, std::abs(x[i]))) << values_a[s].first << "[" << i << "]";
      }
    }
  }
}

TEST(SweepLines, ASweepOfLinesHoldsThePointsEachComputedAloneWouldGive) {
  const TempDir dir;
  const Finished lines = run(mpi_command(2, sweep_args(dir / "lines.h5")), dir / "lines.log");
  ASSERT_EQ(lines.exit_code, 0) << lines.output;
  const Finished alone =
      run(mpi_command(2, sweep_args(dir / "alone.h5", {"--lines", "off"})), dir / "alone.log");
  ASSERT_EQ(alone.exit_code, 0) << alone.output;
  expect_same_points(dir / "alone.h5", dir / "lines.h5");
  const io::File file = io::open_file(dir / "lines.h5", io::Access::read_only);
  for (const std::string& solver : io::read_strings(io::open_dataset(file, "points/solver")))
    EXPECT_EQ(solver, "lapack-line");
  // Every line's row in /lines: 24 lines of 80 poles (N = 320) or 40 (the Gram form, N = 40).
  const auto count = io::read_ints(io::open_dataset(file, "lines/d80/count"));
  ASSERT_EQ(count.size(), 24u);
  for (const std::int64_t c : count) EXPECT_TRUE(c == 80 || c == 40) << c;
  const io::File points = io::open_file(dir / "alone.h5", io::Access::read_only);
  for (const std::string& solver : io::read_strings(io::open_dataset(points, "points/solver")))
    EXPECT_EQ(solver, "lapack");
}

// The lines of a sweep go to whichever rank is free: on 1 rank the file is the same, bit for bit.
TEST(SweepLines, ASweepOfLinesGivesTheSameFileOnOneRankAsOnTwo) {
  const TempDir dir;
  const Finished two = run(mpi_command(2, sweep_args(dir / "two.h5")), dir / "two.log");
  ASSERT_EQ(two.exit_code, 0) << two.output;
  const Finished one = run(mpi_command(1, sweep_args(dir / "one.h5")), dir / "one.log");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  const Finished same = compare_sweep_files(
      dir / "two.h5", dir / "one.h5", {"--ignore-attr", "mpi_ranks", "--ignore-attr", "run_0_mpi_ranks"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// Fault injection in a line: the line's points are recorded as failed with the message, the others finish;
// --resume recomputes the line.
TEST(SweepLines, AFailingLineRecordsEachOfItsPointsAsFailedWhileTheOthersFinish) {
  const TempDir dir;
  const std::string file = dir / "f.h5";
  const Finished failed = run(mpi_command(2, sweep_args(file, {"--fail_points", "0"})), dir / "f.log");
  EXPECT_EQ(failed.exit_code, 3) << failed.output;
  const std::vector<std::int64_t> status = read_status(file);
  // Point 0's line: snr positions 0..5 at stride weightings x trials = 6.
  for (std::size_t i = 0; i < status.size(); ++i) EXPECT_EQ(status[i], i % 6 == 0 && i < 36 ? 2 : 1) << i;
  const io::File h5 = io::open_file(file, io::Access::read_only);
  const auto errors = io::read_strings(io::open_dataset(h5, "points/error"));
  EXPECT_TRUE(errors[30].starts_with(
      "fault injected by the test-only fail_points key, instead of computing the line"))
      << errors[30];
  EXPECT_EQ(io::read_ints(io::open_dataset(h5, "lines/d80/count"))[0], 0);
  const Finished resumed = run(mpi_command(2, sweep_args(file, {"--resume"})), dir / "r.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "6 of 6 points computed in this run (0 failed)")) << resumed.output;
  EXPECT_EQ(read_status(file), std::vector<std::int64_t>(144, 1));
}

// Where the training sequences' signal weights do not vary (q = 0: d = 1 under optimal pooling, a markov
// correlation whose alternating signs cancel under mean pooling) a line has no rank-one form. lines = auto
// then computed nothing: every point of such a line failed ("sigma_n do not vary (q = 0)"), exit 3, where
// lines = off computed them all. Now such a line's points are computed one at a time, as lines = off does,
// and its /lines row says it holds no secular form (count 0, converged 0): assemble reads its thresholds off
// the snr grid.
TEST(SweepLines, ALineWhoseSignalWeightsDoNotVaryIsComputedPointByPoint) {
  const TempDir dir;
  for (const auto& [name, keys] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"d1", {"--d", "1", "--weighting", "optimal", "--snr", "0:2:3", "--trials", "2", "--seed", "3"}},
           {"markov",
            {"--d", "20", "--T", "4", "--correlation", "markov:-0.99999999", "--weighting", "mean", "--snr",
             "0:2:3", "--trials", "2", "--seed", "3"}}}) {
    std::vector<std::string> lines{"run", "--output", dir / (name + ".h5"), "--store_spectra", "false"};
    lines.insert(lines.end(), keys.begin(), keys.end());
    std::vector<std::string> alone = lines;
    alone[2] = dir / (name + "_off.h5");
    alone.insert(alone.end(), {"--lines", "off"});
    const Finished by_lines = run(mpi_command(1, lines), dir / (name + ".log"));
    EXPECT_EQ(by_lines.exit_code, 0) << name << ": " << by_lines.output;
    EXPECT_EQ(read_status(dir / (name + ".h5")), std::vector<std::int64_t>(6, 1)) << name;
    const Finished by_points = run(mpi_command(1, alone), dir / (name + "_off.log"));
    EXPECT_EQ(by_points.exit_code, 0) << name << ": " << by_points.output;
    expect_same_points(dir / (name + ".h5"), dir / (name + "_off.h5"));
  }
  const io::File h5 = io::open_file(dir / "markov.h5", io::Access::read_only);
  EXPECT_EQ(io::read_ints(io::open_dataset(h5, "lines/d20/count")), std::vector<std::int64_t>(2, 0));
  EXPECT_EQ(io::read_ints(io::open_dataset(h5, "lines/d20/converged")), std::vector<std::int64_t>(2, 0));
}

// A file written before lines (schema_version 1, no /lines) resumes with lines and still assembles: its
// thresholds come from the grid.
TEST(SweepLines, AFileWithoutLinesResumesAndAssembles) {
  const TempDir dir;
  const std::string file = dir / "first.h5";
  std::filesystem::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema1.h5", file);
  const Finished resumed = run(
      mpi_command(2, {"run", "--d", "16", "--delta", "0.5", "--gamma", "0.5", "--snr", "0,2", "--weighting",
                      "mean,last", "--trials", "2", "--seed", "3", "--resume", "--output", file}),
      dir / "r.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const Finished assembled = run({RMTSWEEP_BINARY, "assemble", file}, dir / "a.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  const io::File h5 = io::open_file(file, io::Access::read_only);
  EXPECT_FALSE(io::exists(h5, "lines"));
  for (const std::int64_t exact :
       io::read_ints(io::open_dataset(h5, "phase/detection/edge/empirical_threshold_exact")))
    EXPECT_EQ(exact, 0);
}

}  // namespace
}  // namespace rmtsweep::test
