// The first ETA `run` shows on a terminal for configs/example.ini (960 lines on 2 ranks) is within a factor
// of 2 of the time the sweep then takes: the plan's cost model weighs the work left, the lines finished
// measure the rate.
#include "terminal.hpp"

namespace rmtsweep::test {
namespace {

TEST(RunEta, TheFirstEtaOfTheExampleSweepIsWithinAFactorOfTwoOfItsWallTime) {
  if (!have_script()) GTEST_SKIP() << "script(1) is not installed: no terminal to run on";
  const TempDir dir;
  const std::vector<std::string> args{"run", "--config",
                                      std::string(RMTSWEEP_SOURCE_DIR) + "/configs/example.ini", "--output",
                                      dir / "example.h5"};
  const Finished done = run_on_terminal(mpi_command(2, args), dir / "typescript");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  std::smatch first, wall;
  ASSERT_TRUE(std::regex_search(done.output, first,
                                std::regex("\rrmtsweep run: [^\r]*elapsed ([^,]+), ETA ([^\x1b]+)")))
      << done.output;
  ASSERT_TRUE(std::regex_search(done.output, wall, std::regex("wall ([0-9.]+) s"))) << done.output;
  const double elapsed = duration_seconds(first[1]), eta = duration_seconds(first[2]);
  const double seconds = std::stod(wall[1]);
  ASSERT_GE(eta, 0) << first[0];
  // What the first line promised (the time so far and its ETA) against what the sweep took.
  const double promised = elapsed + eta;
  EXPECT_LE(promised, 2 * seconds) << first[0] << "; the sweep took " << seconds << " s";
  EXPECT_GE(promised, seconds / 2) << first[0] << "; the sweep took " << seconds << " s";
  std::printf("first ETA: elapsed %g s + ETA %g s = %g s; wall %g s (ratio %.2f)\n", elapsed, eta, promised,
              seconds, promised / seconds);
}

}  // namespace
}  // namespace rmtsweep::test
