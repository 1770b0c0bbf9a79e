// On a terminal `run` draws its progress as one line rewritten in place: the points done of all, their
// percentage, the rate and the ETA.
#include "terminal.hpp"

namespace rmtsweep::test {
namespace {

/// 48 points at d = 600, each alone: a few seconds on 2 ranks, for several updates 0.2 s apart.
std::vector<std::string> short_sweep(const std::string& output) {
  return small_sweep_args(output, {"--lines", "off", "--progress", "0.2"}, "3", "600");
}

TEST(RunProgressOnATerminal, IsOneLineRewrittenInPlaceWithThePercentageRateAndEta) {
  if (!have_script()) GTEST_SKIP() << "script(1) is not installed: no terminal to run on";
  const TempDir dir;
  const Finished done = run_on_terminal(mpi_command(2, short_sweep(dir / "s.h5")), dir / "typescript");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  // Every update starts with a carriage return, on the one line the terminal shows.
  std::size_t updates = 0;
  for (std::size_t at = done.output.find("\rrmtsweep run: "); at != std::string::npos;
       at = done.output.find("\rrmtsweep run: ", at + 1))
    ++updates;
  EXPECT_GE(updates, 2u) << done.output;
  std::size_t lines_with_progress = 0;
  for (const std::string& line : lines_of(done.output))
    lines_with_progress += contains(line, "points/s") ? 1 : 0;
  EXPECT_EQ(lines_with_progress, 1u) << "the updates must share one line, not one line each:\n"
                                     << done.output;
  EXPECT_TRUE(std::regex_search(
      done.output, std::regex("[0-9]+/48 points \\([0-9]+%; [0-9]+ this run\\), [0-9.]+ points/s, "
                              "elapsed [0-9]+ s, ETA [0-9]+ (s|min [0-9]+ s)")))
      << done.output;
  EXPECT_TRUE(contains(done.output, "48/48 points (100%; 48 this run)")) << done.output;
  EXPECT_TRUE(contains(done.output, "48 of 48 points computed in this run")) << done.output;
}

}  // namespace
}  // namespace rmtsweep::test
