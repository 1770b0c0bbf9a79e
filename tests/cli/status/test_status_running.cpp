// `rmtsweep status --json` for scripts, and what status says while a run holds the file: the
// lock held, the run's rate and ETA, and no `rmtsweep recover` for the points the run is writing.
#include <nlohmann/json.hpp>

#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace store = rmtsweep::store;

/// 320 points at d = 40, each alone, each group waiting 0.02 s after each (the test-only unit_pause key):
/// about 3 s on 2 ranks whatever the machine, with little CPU.
std::vector<std::string> long_sweep(const std::string& output) {
  return {"run",     "--output", output,  "--d",     "40",          "--delta",      "0.25,0.5",
          "--gamma", "0.25,0.5", "--snr", "0:4:5",   "--weighting", "mean,optimal", "--trials",
          "8",       "--seed",   "3",     "--lines", "off",         "--unit_pause", "0.02"};
}

/// `status --json` of `path`, which must end with `exit_code` (0 done, 3 pending, 4 damaged).
nlohmann::json status_json(const std::string& path, const std::string& log, int exit_code = 0) {
  const Finished status = run_serial({"status", path, "--json"}, log);
  EXPECT_EQ(status.exit_code, exit_code) << status.output;
  return nlohmann::json::parse(status.output);  // throws (the test fails) unless stdout is one JSON value
}

TEST(StatusJson, AFinishedSweepParsesWithItsCountsRunsJournalAndFailedPoint) {
  const TempDir dir;
  const Finished done =
      run(mpi_command(2, small_sweep_args(dir / "s.h5", {"--fail_points", "3", "--lines", "off"})),
          dir / "run.log");
  ASSERT_EQ(done.exit_code, 3) << done.output;  // one failed point
  const nlohmann::json s = status_json(dir / "s.h5", dir / "status.log");
  EXPECT_EQ(s["points"]["total"], 32);
  EXPECT_EQ(s["points"]["done"], 31);
  EXPECT_EQ(s["points"]["failed"], 1);
  EXPECT_EQ(s["points"]["pending"], 0);
  ASSERT_EQ(s["by_size"].size(), 1u);
  EXPECT_EQ(s["by_size"][0]["d"], 40);
  EXPECT_EQ(s["by_size"][0]["done"], 31);
  EXPECT_EQ(s["by_size"][0]["total"], 32);
  ASSERT_EQ(s["runs"].size(), 1u);
  EXPECT_EQ(s["runs"][0]["mpi_ranks"], 2);
  EXPECT_EQ(s["latest_run"]["points_finished"], 32);
  EXPECT_EQ(s["lock"]["held"], false);
  EXPECT_EQ(s["running"], false);
  EXPECT_EQ(s["state"], "done") << "a failed point is finished: --resume retries it";
  EXPECT_EQ(s["exit_status"], 0);
  EXPECT_EQ(s["verify"]["checked"], true);
  EXPECT_EQ(s["verify"]["result"], "no damage found");
  EXPECT_EQ(s["verify"]["verified"], 32);
  EXPECT_TRUE(s["verify"]["damaged"].empty());
  EXPECT_TRUE(s["latest_run"]["eta_seconds"].is_null()) << "no rate without a running run";
  EXPECT_EQ(s["journal"]["state"], "agrees");
  EXPECT_EQ(s["journal"]["records"], 32);
  ASSERT_EQ(s["failed_points"].size(), 1u);
  const nlohmann::json& failed = s["failed_points"][0];
  EXPECT_EQ(failed["point"], 3);
  const store::SweepReader reader(dir / "s.h5");  // its coordinates are the file's row 3
  EXPECT_EQ(failed["d"], reader.integers(store::column::d).at(3));
  EXPECT_EQ(failed["delta"], reader.reals(store::column::delta).at(3));
  EXPECT_EQ(failed["gamma"], reader.reals(store::column::gamma).at(3));
  EXPECT_EQ(failed["snr"], reader.reals(store::column::snr).at(3));
  EXPECT_EQ(failed["weighting"], reader.texts(store::column::weighting).at(3));
  EXPECT_EQ(failed["trial"], reader.integers(store::column::trial).at(3));
  ASSERT_TRUE(failed["message"].is_string()) << failed.dump();
  EXPECT_TRUE(
      failed["message"].get<std::string>().starts_with("fault injected by the test-only fail_points key"))
      << failed.dump();
}

TEST(StatusJson, AFileWithoutItsJournalSaysSo) {
  const TempDir dir;
  ASSERT_EQ(run(mpi_command(1, small_sweep_args(dir / "s.h5")), dir / "run.log").exit_code, 0);
  std::filesystem::remove_all(dir / "s.h5.journal");
  const nlohmann::json s = status_json(dir / "s.h5", dir / "status.log");
  EXPECT_EQ(s["journal"]["state"], "missing");
  EXPECT_EQ(s["points"]["done"], 32);
}

TEST(StatusJson, AValueOtherThanWrittenIsDamageInTheJsonAndExitsFour) {
  const TempDir dir;
  const std::string path = dir / "s.h5";
  ASSERT_EQ(run(mpi_command(1, small_sweep_args(path, {"--lines", "off"})), dir / "run.log").exit_code, 0);
  const std::string flip =
      "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['points/overlap'][5] = 1e300";
  ASSERT_EQ(run({RMTSWEEP_PYTHON, "-c", flip, path}, dir / "py.log").exit_code, 0)
      << read_text(dir / "py.log");
  const nlohmann::json s = status_json(path, dir / "status.log", 4);
  EXPECT_EQ(s["state"], "damaged");
  EXPECT_EQ(s["exit_status"], 4);
  EXPECT_EQ(s["verify"]["result"], "damaged");
  ASSERT_EQ(s["verify"]["damaged"].size(), 1u) << s["verify"].dump(2);
  EXPECT_EQ(s["verify"]["damaged"][0]["point"], 5);
  EXPECT_EQ(s["verify"]["damaged"][0]["columns"], nlohmann::json::array({"overlap"}));
  const Finished skipped = run_serial({"status", path, "--json", "--no-verify"}, dir / "skipped.log");
  EXPECT_EQ(skipped.exit_code, 0) << "not verified: done" << skipped.output;
  EXPECT_EQ(nlohmann::json::parse(skipped.output)["verify"]["result"], "skipped");
}

TEST(StatusJson, PointsLeftToComputeArePendingAndExitThree) {
  const TempDir dir;
  const std::string path = dir / "s.h5";
  ASSERT_EQ(run(mpi_command(1, small_sweep_args(path, {"--lines", "off", "--shard", "1/2"})), dir / "run.log")
                .exit_code,
            0);
  const nlohmann::json s = status_json(path, dir / "status.log", 3);
  EXPECT_EQ(s["state"], "pending");
  EXPECT_EQ(s["points"]["pending"], 16);
}

TEST(StatusWhileRunning, SaysARunHoldsTheFileWithItsRateAndSuggestsNoRecover) {
  const TempDir dir;
  const std::string output = dir / "sweep.h5";
  const pid_t mpirun = start(mpi_command(2, long_sweep(output)), dir / "run.log", true);
  // Until some points are done (as test_sweep_mpirun_killed polls).
  std::int64_t done = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
       done < 8 && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      if (io::is_hdf5_file(output)) {
        const auto status = read_status(output);
        done = std::count(status.begin(), status.end(), std::int64_t{1});
      }
    } catch (const std::exception&) {  // still being created
    }
  }
  // The rate is points over whole seconds since run_0_started (1 s resolution): at least one must have
  // passed.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const nlohmann::json s = status_json(output, dir / "status.json.log", 3);
  const Finished human = run_serial({"status", output, "--no-verify"}, dir / "status.log");
  ::kill(-mpirun, SIGTERM);  // the sweep stops at its next point and closes a resumable file
  const Finished stopped = wait_for(mpirun, dir / "run.log");
  ASSERT_GE(done, 8) << stopped.output;
  ASSERT_LT(static_cast<std::int64_t>(s["points"]["done"]), 320) << "the sweep ended before status ran";
  EXPECT_EQ(s["lock"]["held"], true) << s.dump(2);
  EXPECT_EQ(s["running"], true);
  EXPECT_GE(s["latest_run"]["points_finished"], 8);
  EXPECT_GT(s["latest_run"]["points_per_second"], 0.0) << s.dump(2);
  EXPECT_GE(s["latest_run"]["eta_seconds"], 0.0) << s.dump(2);
  EXPECT_TRUE(s["latest_run"]["eta"].is_string()) << s.dump(2);
  EXPECT_EQ(human.exit_code, 3) << "pending: " << human.output;
  EXPECT_TRUE(contains(human.output, "a run holds this file (lock " + output + ".lock")) << human.output;
  EXPECT_TRUE(contains(human.output, "ETA ")) << human.output;
  EXPECT_FALSE(contains(human.output, "rmtsweep recover")) << human.output;
  // Once it has stopped, nobody holds the lock.
  const nlohmann::json after = status_json(output, dir / "after.log", 3);
  EXPECT_EQ(after["lock"]["held"], false);
  EXPECT_EQ(after["running"], false);
}

TEST(StatusWhileRunning, PointsTheJournalHoldsAndTheFileNotYetAreInFlightNotADisagreement) {
  const TempDir dir;
  const std::string output = dir / "lines.h5";
  // 240 lines of 31 snr values at d = 200 (seconds on 2 ranks): each line's 31 records reach the journal
  // before its points reach a reader of the file.
  const pid_t mpirun = start(mpi_command(2, {"run", "--output", output, "--d", "200", "--delta", "0.1:2:10",
                                             "--gamma", "0.5", "--snr", "0:3:31", "--weighting",
                                             "mean,harmonic,optimal", "--trials", "8", "--seed", "1"}),
                             dir / "run.log", true);
  std::vector<nlohmann::json> seen;
  bool in_flight = false;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
       !in_flight && std::chrono::steady_clock::now() < deadline && waitpid(mpirun, nullptr, WNOHANG) == 0;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!std::filesystem::exists(output)) continue;
    const Finished status = run_serial({"status", output, "--json"}, dir / "status.log");
    if (status.exit_code != 3) continue;  // still being created (3: points pending, as a running sweep has)
    seen.push_back(nlohmann::json::parse(status.output));
    in_flight = seen.back()["running"] == true && seen.back()["journal"]["state"] == "in_flight";
  }
  ::kill(-mpirun, SIGTERM);
  wait_for(mpirun, dir / "run.log");
  ASSERT_TRUE(in_flight) << "no status saw points in flight in " << seen.size() << " reads";
  const nlohmann::json& journal = seen.back()["journal"];
  EXPECT_GT(journal["in_flight"], 0) << journal.dump();
  EXPECT_EQ(journal["in_flight"], journal["journal_only"]) << journal.dump();
  EXPECT_EQ(journal["file_only"], 0) << journal.dump();
  EXPECT_EQ(journal["differing"], 0) << journal.dump();
  for (const nlohmann::json& s : seen) EXPECT_NE(s["journal"]["state"], "disagrees") << s["journal"].dump();
  const Finished human = run_serial({"status", output, "--no-verify"}, dir / "after.log");
  EXPECT_FALSE(contains(human.output, "disagree")) << human.output;
}

}  // namespace
}  // namespace rmtsweep::test
