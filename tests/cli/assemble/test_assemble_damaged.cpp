// `assemble` on a sweep whose checksums fail (docs/reliability.md, Checksums): damaged rows refused (exit 4,
// nothing written, the rows named) unless --skip-damaged, which leaves them out and says how many; a damaged
// dataset the tables read whole refused even then; one they do not read said; a damaged /phase said before it
// is replaced. And `plot` saying that /phase is stale, and refusing a damaged one.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// One finished 32-point sweep at d = 40 with its 8 lines and spectra (small_sweep_args), not assembled,
/// which each test copies.
class AssembleDamaged : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    sweep_ = *dir_ / "clean.h5";
    const Finished done = run(mpi_command(2, small_sweep_args(sweep_)), *dir_ / "run.log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  /// A copy of the clean sweep in the test's own directory.
  std::string copy(const std::string& name) const {
    const std::string path = own_ / name;
    std::filesystem::copy_file(sweep_, path);
    return path;
  }

  /// Runs a Python snippet on `path` (sys.argv[1]) with h5py imported; returns what it prints.
  std::string python(const std::string& code, const std::string& path) const {
    const Finished done = run({RMTSWEEP_PYTHON, "-c", "import sys, h5py\n" + code, path}, own_ / "py.log");
    EXPECT_EQ(done.exit_code, 0) << done.output;
    return done.output;
  }

  /// Flips the lowest bit of the byte at `byte` of the storage of `dataset` in `path` (flip_stored_bit).
  void flip(const std::string& path, const std::string& dataset, std::size_t byte) const {
    flip_stored_bit(path, dataset, byte, own_ / "flip.log");
  }

  static std::vector<std::int64_t> ints(const std::string& path, const std::string& dataset) {
    const io::File file = io::open_file(path, io::Access::read_only);
    return io::read_ints(io::open_dataset(file, dataset));
  }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string sweep_;
  TempDir own_;
};

std::int64_t sum(const std::vector<std::int64_t>& values) {
  return std::accumulate(values.begin(), values.end(), std::int64_t{0});
}

TEST_F(AssembleDamaged, ADamagedPointRowAndLineRowAreRefusedByNameAndNothingIsWritten) {
  const std::string path = copy("s.h5");
  flip(path, "points/top_eigenvalue", 5 * 8);  // point 5's value, its lowest mantissa byte
  flip(path, "lines/d40/rho", 1 * 8);          // the second /lines row's
  const std::int64_t line = ints(path, "lines/d40/line").at(1);
  const std::string before = read_text(path);
  const Finished assembled = run_serial({"assemble", path}, own_ / "assemble.log");
  EXPECT_EQ(assembled.exit_code, 4) << assembled.output;
  EXPECT_TRUE(contains(assembled.output,
                       "checksums fail in /points (and /spectra) rows of points 5, /lines "
                       "rows of lines " +
                           std::to_string(line) + ": nothing written"))
      << assembled.output;
  EXPECT_TRUE(contains(assembled.output, "--skip-damaged")) << assembled.output;
  EXPECT_TRUE(read_text(path) == before) << "a refused assemble changed the file";
}

TEST_F(AssembleDamaged, SkipDamagedLeavesTheDamagedRowsOutAndSaysHowMany) {
  const std::string clean = copy("clean.h5");
  ASSERT_EQ(run_serial({"assemble", clean, "--quiet"}, own_ / "clean.log").exit_code, 0);
  const std::string path = copy("s.h5");
  flip(path, "points/top_eigenvalue", 5 * 8);
  flip(path, "lines/d40/rho", 1 * 8);
  const std::int64_t line = ints(path, "lines/d40/line").at(1);
  const Finished assembled = run_serial({"assemble", path, "--quiet", "--skip-damaged"}, own_ / "skip.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  EXPECT_TRUE(contains(assembled.output,
                       "left out as damaged (--skip-damaged): 1 done points (5) and 1 lines' "
                       "secular forms (" +
                           std::to_string(line) + ")"))
      << assembled.output;
  EXPECT_TRUE(contains(assembled.output,
                       "32 of 32 points done (--skip-damaged: 1 done points and 1 lines' "
                       "secular forms left out"))
      << assembled.output;
  // Point 5 counts in no cell: one trial fewer than the clean file's tables, in one cell.
  const std::vector<std::int64_t> skipped = ints(path, "phase/trials_done"),
                                  all = ints(clean, "phase/trials_done");
  ASSERT_EQ(skipped.size(), all.size());
  EXPECT_EQ(sum(all) - sum(skipped), 1);
  int cells_differing = 0;
  for (std::size_t c = 0; c < all.size(); ++c) cells_differing += all[c] != skipped[c];
  EXPECT_EQ(cells_differing, 1);
  // /phase says so, and status still finds the damage.
  EXPECT_EQ(python("print(h5py.File(sys.argv[1], 'r')['phase'].attrs['built_from'])", path),
            "32 done, 0 failed, 0 pending of 32 points; 1 done points left out as damaged (5); 1 lines' "
            "secular forms left out as damaged (" +
                std::to_string(line) + ")\n");
  const Finished status = run_serial({"status", path}, own_ / "status.log");
  EXPECT_EQ(status.exit_code, 4) << status.output;
  EXPECT_TRUE(contains(status.output, "points 5; lines " + std::to_string(line))) << status.output;
}

TEST_F(AssembleDamaged, ADatasetTheTablesReadWholeIsRefusedEvenWithSkipDamaged) {
  const std::string path = copy("s.h5");
  flip(path, "points/snr_index", 3 * 8);  // written whole at creation: its checksum attribute fails
  const std::string before = read_text(path);
  const Finished assembled = run_serial({"assemble", path, "--skip-damaged"}, own_ / "assemble.log");
  EXPECT_EQ(assembled.exit_code, 4) << assembled.output;
  EXPECT_TRUE(contains(assembled.output,
                       "checksums fail in the datasets /points/snr_index, which the tables "
                       "read whole: nothing written (--skip-damaged leaves out rows, not "
                       "whole datasets)"))
      << assembled.output;
  EXPECT_TRUE(read_text(path) == before) << "a refused assemble changed the file";
}

TEST_F(AssembleDamaged, ADamagedDatasetTheTablesDoNotReadIsSaid) {
  const std::string path = copy("s.h5");
  flip(path, "grid/snr", 8);  // the tables take the grid from the config
  const Finished assembled = run_serial({"assemble", path, "--quiet"}, own_ / "assemble.log");
  EXPECT_EQ(assembled.exit_code, 0) << assembled.output;
  EXPECT_TRUE(contains(assembled.output, "warning: " + path +
                                             ": checksums fail in /grid/snr, which the tables "
                                             "do not read"))
      << assembled.output;
}

// plot says when /phase was built from other points than the sweep file holds: in the sweep file, and in a
// phase file of `assemble --output`, against the sweep file it names.
TEST_F(AssembleDamaged, PlotSaysThatAStalePhaseIsStale) {
  const std::string path = copy("s.h5"), phase = own_ / "phase.h5";
  ASSERT_EQ(run_serial({"assemble", path, "--quiet"}, own_ / "in_place.log").exit_code, 0);
  ASSERT_EQ(run_serial({"assemble", path, "--quiet", "--output", phase}, own_ / "output.log").exit_code, 0);
  const Finished fresh = run_serial({"plot", path, "--output", own_ / "fresh"}, own_ / "fresh.log");
  ASSERT_EQ(fresh.exit_code, 0) << fresh.output;
  EXPECT_FALSE(contains(fresh.output, "STALE")) << fresh.output;
  python("f = h5py.File(sys.argv[1], 'r+'); f['points/status'][5] = 0", path);  // point 5 pending again
  const std::string said =
      "/phase is STALE: it was built from 32 done, 0 failed, 0 pending of 32 points, and " + path +
      " now holds 31 done, 0 failed, 1 pending of 32 points";
  const Finished stale = run_serial({"plot", path, "--output", own_ / "stale"}, own_ / "stale.log");
  ASSERT_EQ(stale.exit_code, 0) << stale.output;
  EXPECT_TRUE(contains(stale.output, "rmtsweep plot: warning: " + said)) << stale.output;
  EXPECT_TRUE(contains(stale.output, "`rmtsweep assemble " + path + "` builds it again")) << stale.output;
  const Finished from_file = run_serial({"plot", phase, "--output", own_ / "phase"}, own_ / "phase.log");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.output;
  EXPECT_TRUE(contains(from_file.output, said)) << from_file.output;
}

TEST_F(AssembleDamaged, AssemblingOverADamagedPhaseSaysSoBeforeReplacingIt) {
  const std::string path = copy("s.h5");
  ASSERT_EQ(run_serial({"assemble", path, "--quiet"}, own_ / "first.log").exit_code, 0);
  flip(path, "phase/overlap_mean", 3);
  const Finished again = run_serial({"assemble", path, "--quiet"}, own_ / "again.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "rmtsweep assemble: warning: " + path +
                                         ": checksums fail in /phase/overlap_mean: the damaged /phase is "
                                         "replaced by the one built now"))
      << again.output;
  const Finished status = run_serial({"status", path}, own_ / "status.log");
  EXPECT_EQ(status.exit_code, 0) << "the new /phase is whole: " << status.output;
}

TEST_F(AssembleDamaged, PlotRefusesADamagedPhaseNamingItAndWhatRebuildsIt) {
  const std::string path = copy("s.h5");
  ASSERT_EQ(run_serial({"assemble", path, "--quiet"}, own_ / "assemble.log").exit_code, 0);
  flip(path, "phase/detected_fraction", 8);
  const std::string figures = own_ / "figures";
  const Finished plot = run_serial({"plot", path, "--output", figures}, own_ / "plot.log");
  EXPECT_EQ(plot.exit_code, 4) << plot.output;
  EXPECT_TRUE(
      contains(plot.output, "rmtsweep plot: error: " + path + ": checksums fail in /phase/detected_fraction"))
      << plot.output;
  EXPECT_TRUE(contains(plot.output, "`rmtsweep assemble " + path + "` rebuilds /phase")) << plot.output;
  EXPECT_TRUE(!std::filesystem::exists(figures) || std::filesystem::is_empty(figures)) << "figures drawn";
}

}  // namespace
}  // namespace rmtsweep::test
