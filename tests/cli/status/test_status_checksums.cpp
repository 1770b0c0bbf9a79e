// Every byte readers read back is checked: a byte flipped anywhere in the datasets of a finished, assembled
// sweep is named by `status` with exit 4; /phase says when it is stale; a file of an earlier schema is "not
// checksummed", not damaged.
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
// (tests/python/damage/flip_every_dataset.py).
TEST(StatusChecksums, AByteFlippedInAnyDatasetIsNamedWithANonZeroExit) {
  const TempDir dir;
  const std::string path = finished_sweep(dir);
  const std::string log = dir / "flips.log";
  const Finished flips =
      run({RMTSWEEP_PYTHON, std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/damage/flip_every_dataset.py",
           RMTSWEEP_BINARY, path, dir / "work", "1", "11"},
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
  }
  EXPECT_EQ(summary["nonzero_exit"], summary["flips"]) << summary.dump();
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
  EXPECT_EQ(status_json(path, dir / "json.log", 3)["phase"]["stale"], true);
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
