// Every byte readers read back is checked: a byte flipped anywhere in the datasets of a finished, assembled
// sweep, or in the /refine blocks of a refined one, is named by `status` with exit 4; /phase says when it is
// stale; a file of an earlier schema is "not checksummed", not damaged.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// A finished 32-point sweep at d = 40 with lines, spectra and one failed line (its 4 points), assembled.
std::string finished_sweep(const TempDir& dir) {
  const std::string path = dir / "s.h5";
  const Finished done = run(mpi_command(2, small_sweep_args(path, {"--fail_points", "3"})), dir / "run.log");
  EXPECT_EQ(done.exit_code, 3) << done.output;  // the one failed point
  const Finished assembled = run_serial({"assemble", path}, dir / "assemble.log");
  EXPECT_EQ(assembled.exit_code, 0) << assembled.output;
  return path;
}

nlohmann::json status_json(const std::string& path, const std::string& log, int exit_code) {
  const Finished status = run_serial({"status", path, "--json"}, log);
  EXPECT_EQ(status.exit_code, exit_code) << status.output;
  return nlohmann::json::parse(status.output);
}

TEST(StatusChecksums, AFinishedSweepChecksEveryDatasetAndRowAndFindsNoDamage) {
  const TempDir dir;
  const std::string path = finished_sweep(dir);
  const nlohmann::json s = status_json(path, dir / "status.log", 0);
  const nlohmann::json& sums = s["verify"]["checksums"];
  EXPECT_EQ(sums["checksummed"], true);
  EXPECT_EQ(sums["rows"], 32 + 7) << "32 points and the 7 lines computed (the failed point's line failed)";
  EXPECT_GT(sums["datasets"], 200) << "the grid, the creation-time columns, /phase";
  EXPECT_TRUE(sums["not_checksummed"].empty()) << sums["not_checksummed"].dump();
  EXPECT_EQ(s["phase"]["stale"], false);
}

// One byte flipped at a random offset inside each dataset's storage
// (tests/python/damage/flip_every_dataset.py): status names it with a non-zero exit, and assemble of the same
// copy either refuses (exit non-zero) or says which checksums fail.
TEST(StatusChecksums, AByteFlippedInAnyDatasetIsNamedWithANonZeroExitAndAssembleNeverPassesOverIt) {
  const TempDir dir;
  const std::string path = finished_sweep(dir);
  const std::string log = dir / "flips.log";
  const Finished flips =
      run({RMTSWEEP_PYTHON, std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/damage/flip_every_dataset.py",
           RMTSWEEP_BINARY, path, dir / "work", "1", "11", "--assemble"},
          log);
  ASSERT_EQ(flips.exit_code, 0) << flips.output;
  const std::vector<std::string> lines = lines_of(flips.output);
  ASSERT_FALSE(lines.empty());
  const nlohmann::json summary = nlohmann::json::parse(lines.back());
  EXPECT_GT(summary["flips"], 250);
  for (const std::string& line : lines) {
    const nlohmann::json flip = nlohmann::json::parse(line);
    if (!flip.contains("exit")) continue;
    EXPECT_NE(flip["exit"], 0) << "undetected: " << line;
    EXPECT_TRUE(flip["assemble_exit"] != 0 || flip["assemble_said"] == true)
        << "assemble passed over: " << line;
  }
  EXPECT_EQ(summary["nonzero_exit"], summary["flips"]) << summary.dump();
  EXPECT_TRUE(summary["assemble_silent"].empty()) << summary.dump();
}

/// A finished 32-point sweep at d = 40 (small_sweep_args: 4 lines of 2 trials) refined by a third trial on
/// each line, a line over its 4 snr values: /refine/block_0 of 64 rows, 16 of them given, and
/// /refine/lines/block_0 of 4 rows.
class RefinedStatusChecksums : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    sweep_ = *dir_ / "refined.h5";
    const Finished done = run(mpi_command(2, small_sweep_args(sweep_)), *dir_ / "run.log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
    const Finished refined =
        run_serial({"refine", sweep_, "--tolerance", "0.01", "--trials", "3", "--max-points", "64"},
                   *dir_ / "refine.log");
    ASSERT_TRUE(refined.exit_code == 0 || refined.exit_code == 4) << refined.output;
    ASSERT_TRUE(contains(refined.output, "16 refined points in all")) << refined.output;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string sweep_;
};

TEST_F(RefinedStatusChecksums, EveryRefineDatasetIsCheckedAndARefinedSweepHasNoDamage) {
  const nlohmann::json s = status_json(sweep_, *dir_ / "status.log", 0);
  const nlohmann::json& sums = s["verify"]["checksums"];
  EXPECT_TRUE(sums["not_checksummed"].empty()) << sums["not_checksummed"].dump();
  EXPECT_EQ(sums["rows"], 32 + 8 + 16 + 4)
      << "the grid's 32 points and 8 lines' rows, the 16 refined points and 4 refined lines' rows";
  EXPECT_TRUE(sums["damaged_refined_points"].empty()) << sums.dump();
  EXPECT_TRUE(sums["damaged_refined_lines"].empty()) << sums.dump();
}

// A block written by an rmtsweep from before the /refine checksums (made here by deleting them): its datasets
// are listed as not checksummed, which is no damage.
TEST_F(RefinedStatusChecksums, ABlockWrittenBeforeItsRowChecksumsIsNotChecksummedAndNotDamaged) {
  const TempDir dir;
  const std::string path = dir / "older.h5";
  std::filesystem::copy_file(sweep_, path);
  const std::string unstamp =
      "import h5py, sys\n"
      "f = h5py.File(sys.argv[1], 'r+')\n"
      "for name in ('checksum', 'parameters_checksum'): del f['refine/block_0/' + name]\n"
      "del f['refine/block_0/error'].attrs['checksum']\n"
      "for name in ('checksum', 'identity_checksum'): del f['refine/lines/block_0/' + name]\n";
  ASSERT_EQ(run({RMTSWEEP_PYTHON, "-c", unstamp, path}, dir / "py.log").exit_code, 0)
      << read_text(dir / "py.log");
  const nlohmann::json sums = status_json(path, dir / "status.log", 0)["verify"]["checksums"];
  const std::vector<std::string> unchecked = sums["not_checksummed"];
  EXPECT_NE(std::find(unchecked.begin(), unchecked.end(), "/refine/block_0/top_eigenvalue"), unchecked.end())
      << sums.dump();
  EXPECT_NE(std::find(unchecked.begin(), unchecked.end(), "/refine/lines/block_0/poles"), unchecked.end())
      << sums.dump();
  EXPECT_EQ(sums["rows"], 32 + 8) << "the grid's rows alone";
}

// One byte flipped at a random offset inside each /refine dataset's storage, in rows given and not given.
TEST_F(RefinedStatusChecksums, AByteFlippedInAnyRefineDatasetIsNamedWithExit4) {
  const TempDir dir;
  const std::string log = dir / "flips.log";
  const Finished flips = run({"/usr/bin/env", "FLIP_ONLY=refine/", RMTSWEEP_PYTHON,
                              std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/damage/flip_every_dataset.py",
                              RMTSWEEP_BINARY, sweep_, dir / "work", "1", "13"},
                             log);
  ASSERT_EQ(flips.exit_code, 0) << flips.output;
  const std::vector<std::string> lines = lines_of(flips.output);
  ASSERT_FALSE(lines.empty());
  const nlohmann::json summary = nlohmann::json::parse(lines.back());
  EXPECT_GT(summary["flips"], 40) << "every dataset of /refine/block_0 and /refine/lines/block_0";
  for (const std::string& line : lines) {
    const nlohmann::json flip = nlohmann::json::parse(line);
    if (!flip.contains("exit")) continue;
    EXPECT_EQ(flip["exit"], 4) << "not named as damage: " << line;
  }
}

TEST(StatusChecksums, PhaseBuiltFromOtherPointsThanTheFileHoldsIsStale) {
  const TempDir dir;
  const std::string path = finished_sweep(dir);
  const std::string unset = "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['points/status'][5] = 0";
  ASSERT_EQ(run({RMTSWEEP_PYTHON, "-c", unset, path}, dir / "py.log").exit_code, 0)
      << read_text(dir / "py.log");
  const Finished status = run_serial({"status", path}, dir / "status.log");
  EXPECT_TRUE(contains(status.output,
                       "phase: STALE: /phase was built from 28 done, 4 failed, 0 pending of 32 "
                       "points, and the points have changed since"))
      << status.output;
  // A done status flipped to pending that the journal vouches for is damage, not work left.
  EXPECT_TRUE(contains(status.output, "(a status flipped: DAMAGED)")) << status.output;
  EXPECT_EQ(status.exit_code, 4) << status.output;
  EXPECT_EQ(status_json(path, dir / "json.log", 4)["phase"]["stale"], true);
}

TEST(StatusChecksums, AFileOfAnEarlierSchemaIsNotChecksummedAndNotDamaged) {
  const TempDir dir;
  const std::string old = std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema2.h5";
  const Finished status = run_serial({"status", old}, dir / "status.log");
  EXPECT_TRUE(contains(status.output, "checksums: not checksummed")) << status.output;
  EXPECT_NE(status.exit_code, 4) << status.output;
}

}  // namespace
}  // namespace rmtsweep::test
