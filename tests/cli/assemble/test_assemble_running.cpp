// `rmtsweep assemble FILE --output PHASE.h5` and `rmtsweep plot PHASE.h5` while a run writes FILE: the phase
// tables of the points done in it then, said so; assembling in place still waits for the run.
#include <regex>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

TEST(AssembleWhileRunning, WithOutputTablesThePointsDoneSoFarAndPlotDrawsThem) {
  const TempDir dir;
  const std::string sweep = dir / "sweep.h5", phase = dir / "phase.h5";
  // 720 lines of 31 snr values at d = 40, each group waiting 0.02 s after each line (the test-only unit_pause
  // key): seconds on 2 ranks with little CPU, stopped by the test once it is done.
  const pid_t mpirun = start(mpi_command(2, {"run",
                                             "--output",
                                             sweep,
                                             "--d",
                                             "40",
                                             "--delta",
                                             "0.1:2:10",
                                             "--gamma",
                                             "0.5",
                                             "--snr",
                                             "0:3:31",
                                             "--weighting",
                                             "mean,harmonic,optimal",
                                             "--trials",
                                             "24",
                                             "--seed",
                                             "1",
                                             "--quiet",
                                             "--unit_pause",
                                             "0.02"}),
                             dir / "run.log", true);
  std::int64_t done = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
       done < 62 && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    try {
      if (io::is_hdf5_file(sweep)) {
        const auto status = read_status(sweep);
        done = std::count(status.begin(), status.end(), std::int64_t{1});
      }
    } catch (const std::exception&) {  // still being created
    }
  }
  const Finished assembled =
      run_serial({"assemble", sweep, "--output", phase, "--quiet"}, dir / "assemble.log");
  const Finished in_place = run_serial({"assemble", sweep, "--quiet"}, dir / "in_place.log");
  const Finished plotted = run_serial({"plot", phase, "--output", dir / "figures"}, dir / "plot.log");
  ::kill(-mpirun, SIGTERM);
  wait_for(mpirun, dir / "run.log");
  ASSERT_GE(done, 62) << read_text(dir / "run.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  std::smatch counted;
  ASSERT_TRUE(
      std::regex_search(assembled.output, counted,
                        std::regex("([0-9]+) of 22320 points done \\(a run writes " + sweep + " now")))
      << assembled.output;
  const long long tabled = std::stoll(counted[1]);
  EXPECT_GE(tabled, 62) << assembled.output;
  EXPECT_LT(tabled, 22320) << "the run ended before assemble read it: the test proved nothing";
  EXPECT_EQ(in_place.exit_code, 2) << in_place.output;
  EXPECT_TRUE(contains(in_place.output, "holds its lock")) << in_place.output;
  ASSERT_EQ(plotted.exit_code, 0) << plotted.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "figures/phase_delta.png")) << plotted.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "figures/overlap_vs_snr.png")) << plotted.output;
}

}  // namespace
}  // namespace rmtsweep::test
