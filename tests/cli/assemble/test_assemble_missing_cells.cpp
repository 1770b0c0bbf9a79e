// `rmtsweep assemble` on sweeps with cells that have no done trial (failed points, made to fail
// by the test-only --fail_points): such a line's threshold is undetermined, never "> grid".
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "command.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace {

using rmtsweep::test::run_rmtsweep;
using rmtsweep::test::run_rmtsweep_mpi;
using rmtsweep::test::ScratchDir;

// One weighting, one delta, one gamma, snr 0, 2, 4, one trial: 3 points at d = 40 (well under a
// second). `fail_points` lists the point indices, here the snr positions, that fail.
class AssembleMissingCells : public ::testing::Test {
 protected:
  /// Runs the sweep (exit 3: some points failed, as asked) and assembles it.
  void sweep_and_assemble(const std::string& fail_points) {
    // Each point alone (lines = off): a failing point leaves its cell empty, not its whole line.
    const auto sweep = run_rmtsweep_mpi(
        1, "run --output " + file_ + " --d 40 --snr 0,2,4 --lines off --fail_points " + fail_points);
    ASSERT_EQ(sweep.status, 3) << sweep.output;
    assembled_ = run_rmtsweep("assemble " + file_);
    ASSERT_EQ(assembled_.status, 0) << assembled_.output;
  }
  std::vector<double> phase_doubles(const std::string& name) const {
    const auto file = rmtsweep::io::open_file(file_, rmtsweep::io::Access::read_only);
    return rmtsweep::io::read_doubles(rmtsweep::io::open_dataset(file, "phase/" + name));
  }
  std::vector<std::int64_t> phase_ints(const std::string& name) const {
    const auto file = rmtsweep::io::open_file(file_, rmtsweep::io::Access::read_only);
    return rmtsweep::io::read_ints(rmtsweep::io::open_dataset(file, "phase/" + name));
  }

  ScratchDir scratch_{"rmtsweep-assemble-missing"};
  std::string file_ = (scratch_ / "sweep.h5").string();
  rmtsweep::test::CommandResult assembled_;
};

TEST_F(AssembleMissingCells, ALineWithNoDonePointIsMarkedNoDataNotAboveTheGrid) {
  sweep_and_assemble("0,1,2");
  EXPECT_EQ(phase_ints("trials_done"), (std::vector<std::int64_t>{0, 0, 0}));
  const auto bracket = phase_ints("empirical_threshold_bracket");
  ASSERT_EQ(bracket.size(), 1u);
  EXPECT_EQ(bracket[0], rmtsweep::assemble::bracket_no_data);
  EXPECT_TRUE(std::isnan(phase_doubles("empirical_threshold_snr")[0]));
  EXPECT_NE(assembled_.output.find("no data"), std::string::npos) << assembled_.output;
  EXPECT_EQ(assembled_.output.find("> grid"), std::string::npos) << assembled_.output;
}

TEST_F(AssembleMissingCells, TheThresholdIsNotInterpolatedAcrossACellNotYetDone) {
  sweep_and_assemble("1");
  // The cells around the missing one straddle 1/2, so skipping it would report a crossing.
  const auto fraction = phase_doubles("detected_fraction");
  ASSERT_EQ(fraction.size(), 3u);
  ASSERT_EQ(fraction[0], 0.0);
  ASSERT_TRUE(std::isnan(fraction[1]));
  ASSERT_EQ(fraction[2], 1.0);
  EXPECT_EQ(phase_ints("empirical_threshold_bracket")[0], rmtsweep::assemble::bracket_no_data);
  EXPECT_TRUE(std::isnan(phase_doubles("empirical_threshold_snr")[0]));
  EXPECT_NE(assembled_.output.find("no data"), std::string::npos) << assembled_.output;
}

TEST_F(AssembleMissingCells, AMissingCellAboveTheCrossingDoesNotMatter) {
  sweep_and_assemble("2");
  const auto fraction = phase_doubles("detected_fraction");
  ASSERT_EQ(fraction[0], 0.0);
  ASSERT_EQ(fraction[1], 1.0);
  EXPECT_EQ(phase_ints("empirical_threshold_bracket")[0], rmtsweep::assemble::bracket_found);
  EXPECT_DOUBLE_EQ(phase_doubles("empirical_threshold_snr")[0], 1.0);
}

}  // namespace
