// `refine` on a sweep whose checksums fail (docs/reliability.md, Checksums), before it computes anything: a
// damaged point's or line's row refused (exit 4, nothing computed, the rows named) unless --skip-damaged,
// which refines without them and says how many; a dataset refine reads whole refused even then; a damaged
// /refine row refused by refine and assemble alike, with or without the flag.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// A refine that adds a third trial to each of the 4 lines (a line over the 4 snr values each): a tolerance
/// no line reaches at 3 trials, within a budget of 64 points.
std::vector<std::string> refine_args(const std::string& path, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"refine", path, "--tolerance", "0.01", "--trials", "3", "--max-points", "64"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// Whether a refine ended as it should: every line within the tolerance (0) or its budget spent first (4,
/// "the tolerance ... is not reached").
bool refine_ended(const Finished& refined) {
  return refined.exit_code == 0 || (refined.exit_code == 4 && contains(refined.output, "is not reached on"));
}

/// One finished 32-point sweep at d = 40 with the 8 rows of its 4 lines (small_sweep_args), which each test
/// copies.
class RefineDamaged : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    sweep_ = *dir_ / "clean.h5";
    const Finished done = run(mpi_command(2, small_sweep_args(sweep_)), *dir_ / "run.log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  std::string copy(const std::string& name) const {
    const std::string path = own_ / name;
    std::filesystem::copy_file(sweep_, path);
    return path;
  }
  void flip(const std::string& path, const std::string& dataset, std::size_t byte) const {
    flip_stored_bit(path, dataset, byte, own_ / "flip.log");
  }
  static std::int64_t line_of_row(const std::string& path, std::size_t row) {
    const io::File file = io::open_file(path, io::Access::read_only);
    return io::read_ints(io::open_dataset(file, "lines/d40/line")).at(row);
  }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string sweep_;
  TempDir own_;
};

TEST_F(RefineDamaged, DamagedPointAndLineRowsAreRefusedByNameBeforeAnythingIsComputed) {
  const std::string path = copy("s.h5");
  flip(path, "points/top_eigenvalue", 5 * 8);  // point 5's value, its lowest mantissa byte
  flip(path, "lines/d40/rho", 1 * 8);          // the second /lines row's
  const std::string before = read_text(path);
  const Finished refined = run_serial(refine_args(path), own_ / "refine.log");
  EXPECT_EQ(refined.exit_code, 4) << refined.output;
  EXPECT_TRUE(contains(refined.output, "rmtsweep refine: " + path +
                                           ": checksums fail in /points (and /spectra) rows of points 5, "
                                           "/lines rows of lines " +
                                           std::to_string(line_of_row(path, 1)) + ": nothing computed"))
      << refined.output;
  EXPECT_TRUE(contains(refined.output, "`rmtsweep refine " + path + " --skip-damaged` refines without"))
      << refined.output;
  EXPECT_FALSE(contains(refined.output, "round 0")) << refined.output;
  EXPECT_TRUE(read_text(path) == before) << "a refused refine changed the file";
}

TEST_F(RefineDamaged, SkipDamagedRefinesWithoutTheDamagedRowsAndSaysHowMany) {
  const std::string path = copy("s.h5");
  flip(path, "points/top_eigenvalue", 5 * 8);
  flip(path, "lines/d40/rho", 1 * 8);
  const Finished refined = run_serial(refine_args(path, {"--skip-damaged"}), own_ / "refine.log");
  ASSERT_TRUE(refine_ended(refined)) << refined.output;
  EXPECT_TRUE(contains(refined.output, "rmtsweep refine: warning: " + path +
                                           ": left out as damaged (--skip-damaged): 1 done points (5) and 1 "
                                           "lines' secular forms (" +
                                           std::to_string(line_of_row(path, 1)) + ")"))
      << refined.output;
  EXPECT_TRUE(contains(refined.output, "round 0")) << refined.output;
}

TEST_F(RefineDamaged, ADatasetRefineReadsWholeIsRefusedEvenWithSkipDamaged) {
  const std::string path = copy("s.h5");
  flip(path, "points/snr_index", 3 * 8);  // written whole at creation: its checksum attribute fails
  const std::string before = read_text(path);
  const Finished refined = run_serial(refine_args(path, {"--skip-damaged"}), own_ / "refine.log");
  EXPECT_EQ(refined.exit_code, 4) << refined.output;
  EXPECT_TRUE(contains(refined.output,
                       "checksums fail in the datasets /points/snr_index, which refine reads whole: nothing "
                       "computed (--skip-damaged leaves out rows, not whole datasets)"))
      << refined.output;
  EXPECT_TRUE(read_text(path) == before) << "a refused refine changed the file";
}

TEST_F(RefineDamaged, ADamagedRefinedRowIsRefusedByRefineAndAssembleWithOrWithoutSkipDamaged) {
  const std::string path = copy("s.h5");
  ASSERT_TRUE(refine_ended(run_serial(refine_args(path), own_ / "first.log")))
      << read_text(own_ / "first.log");
  ASSERT_EQ(run_serial({"status", path}, own_ / "clean_status.log").exit_code, 0)
      << read_text(own_ / "clean_status.log");
  flip(path, "refine/block_0/top_eigenvalue", 0);  // refined row 0: done, its lowest mantissa byte
  const std::string said = "checksums fail in /refine rows of refined points 0: nothing";
  for (const std::vector<std::string>& flags : {std::vector<std::string>{}, {"--skip-damaged"}}) {
    const Finished refined = run_serial(refine_args(path, flags), own_ / "refine.log");
    EXPECT_EQ(refined.exit_code, 4) << refined.output;
    EXPECT_TRUE(contains(refined.output, said + " computed")) << refined.output;
    std::vector<std::string> assemble{"assemble", path, "--quiet"};
    assemble.insert(assemble.end(), flags.begin(), flags.end());
    const Finished assembled = run_serial(assemble, own_ / "assemble.log");
    EXPECT_EQ(assembled.exit_code, 4) << assembled.output;
    EXPECT_TRUE(contains(assembled.output, said + " written")) << assembled.output;
  }
  const Finished status = run_serial({"status", path}, own_ / "status.log");
  EXPECT_EQ(status.exit_code, 4) << status.output;
  EXPECT_TRUE(contains(status.output, "refined points (/refine rows) 0")) << status.output;
}

TEST(RefineOptions, HelpShowsSkipDamaged) {
  const TempDir dir;
  const Finished help = run_serial({"refine", "--help"}, dir / "help.log");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_TRUE(contains(help.output, "--skip-damaged")) << help.output;
}

}  // namespace
}  // namespace rmtsweep::test
