// run --shard i/n and rmtsweep merge: a sweep run as 3 shards (on 2 ranks each) and merged holds
// the same numbers as the sweep run whole, before and after assemble; a missing shard, a shard of another
// config and a shard given twice are refused; --allow-partial leaves a missing shard's points pending for
// --resume; a shard killed mid-run and resumed with its --shard merges to the whole run as well.
#include <algorithm>
#include <filesystem>
#include <memory>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/shard.hpp"
#include "sweep_test_support.hpp"

using namespace rmtsweep::test;
namespace fs = std::filesystem;
namespace config = rmtsweep::config;
namespace store = rmtsweep::store;

namespace {

/// 8 lines of 4 snr computed as lines (mean, optimal) and 4 of points alone (causal:2, where lines do not
/// apply): 48 points at d = 40, with their spectra; 4 lines, 16 points per shard of 3.
std::vector<std::string> sweep_args(const std::string& output, std::vector<std::string> extra = {},
                                    const std::string& seed = "3") {
  std::vector<std::string> args = small_sweep_args(output, extra);
  *(std::find(args.begin(), args.end(), "--weighting") + 1) = "mean,optimal,causal:2";
  *(std::find(args.begin(), args.end(), "--seed") + 1) = seed;
  return args;
}

/// rmtsweep merge under mpiexec -n 1 (serial, as recover).
Finished merge(const std::vector<std::string>& files, const std::string& log) {
  std::vector<std::string> args{"merge"};
  args.insert(args.end(), files.begin(), files.end());
  return run(mpi_command(1, args), log);
}

/// compare_sweep_files' options that set aside what records the runs rather than the points: a merged file
/// lists the shards' runs (run_<i>_*, /points/run numbering them), the whole run one.
std::vector<std::string> run_records(int runs) {
  std::vector<std::string> ignored{"--ignore-attr", "runs", "--ignore-dataset", "points/run"};
  for (int r = 0; r < runs; ++r) {
    for (const char* name : {"mpi_ranks", "ranks_per_point", "eigensolver", "shard"}) {
      ignored.insert(ignored.end(), {"--ignore-attr", "run_" + std::to_string(r) + "_" + name});
    }
  }
  return ignored;
}

std::int64_t count_of(const std::vector<std::int64_t>& status, std::int64_t value) {
  return std::count(status.begin(), status.end(), value);
}

/// The whole sweep and its three shards, run once for the suite.
class Shards : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const Finished whole = run(mpi_command(2, sweep_args(*dir_ / "whole.h5")), *dir_ / "whole.log");
    ASSERT_EQ(whole.exit_code, 0) << whole.output;
    for (int i = 1; i <= 3; ++i) {
      const std::string shard = std::to_string(i) + "/3";
      const Finished done =
          run(mpi_command(2, sweep_args(shard_path(i), {"--shard", shard})), shard_path(i) + ".log");
      ASSERT_EQ(done.exit_code, 0) << done.output;
    }
  }
  static void TearDownTestSuite() { dir_.reset(); }
  static std::string shard_path(int i) { return *dir_ / ("shard" + std::to_string(i) + ".h5"); }
  static std::string whole() { return *dir_ / "whole.h5"; }
  static std::unique_ptr<TempDir> dir_;
};
std::unique_ptr<TempDir> Shards::dir_;

}  // namespace

// Each shard's file is a whole sweep's layout holding its own lines' points done (line L in shard L mod 3 +
// 1), every other point pending, and says which shard it is.
TEST_F(Shards, EachShardHoldsItsOwnLinesDoneAndTheOthersPending) {
  const store::SweepReader reader(whole());
  const config::Grid grid(reader.config());
  std::vector<int> done_by(static_cast<std::size_t>(grid.size()), 0);
  for (int i = 1; i <= 3; ++i) {
    const store::SweepReader shard(shard_path(i));
    EXPECT_EQ(shard.integer_attribute("shard_index").value_or(0), i);
    EXPECT_EQ(shard.integer_attribute("shard_count").value_or(0), 3);
    EXPECT_EQ(shard.provenance().runs.at(0).shard.text(), std::to_string(i) + "/3");
    const std::vector<std::int64_t> status = shard.status();
    ASSERT_EQ(static_cast<std::int64_t>(status.size()), grid.size());
    for (std::int64_t p = 0; p < grid.size(); ++p) {
      const bool mine = grid.line_of(p) % 3 == i - 1;
      EXPECT_EQ(status[static_cast<std::size_t>(p)], mine ? 1 : 0) << "point " << p << " in shard " << i;
      done_by[static_cast<std::size_t>(p)] += status[static_cast<std::size_t>(p)] == 1 ? 1 : 0;
    }
  }
  EXPECT_TRUE(std::all_of(done_by.begin(), done_by.end(), [](int n) { return n == 1; }))
      << "every point is done in exactly one shard";
}

// The merged file equals the whole run in every dataset (/points, /lines, /spectra, /grid) but the runs'
// records, and so does /phase once both are assembled.
TEST_F(Shards, ThreeShardsMergedEqualTheWholeSweepAndAssembleToTheSamePhase) {
  const std::string merged = *dir_ / "merged.h5";
  const Finished done = merge({merged, shard_path(1), shard_path(2), shard_path(3)}, *dir_ / "merge.log");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_TRUE(contains(done.output, "merged from 3 files: 48 of 48 points done, 0 failed, 0 pending"))
      << done.output;
  const Finished same = compare_sweep_files(whole(), merged, run_records(3));
  EXPECT_EQ(same.exit_code, 0) << same.output;
  {
    const store::SweepReader reader(merged);
    EXPECT_EQ(reader.integer_attribute("runs").value_or(0), 3);
    EXPECT_FALSE(reader.integer_attribute("shard_count").has_value()) << "a merged file is a whole sweep";
    for (int r = 0; r < 3; ++r)
      EXPECT_EQ(reader.provenance().runs.at(static_cast<std::size_t>(r)).shard.text(),
                std::to_string(r + 1) + "/3");
    EXPECT_TRUE(contains(reader.text_attribute("merged").value_or(""), shard_path(2) + " (shard 2/3)"));
  }

  const std::string assembled = *dir_ / "whole-assembled.h5";
  fs::copy_file(whole(), assembled);
  for (const std::string& path : {assembled, merged}) {
    const Finished a = run(mpi_command(1, {"assemble", "--quiet", path}), path + ".assemble.log");
    ASSERT_EQ(a.exit_code, 0) << a.output;
  }
  const Finished phase = compare_sweep_files(assembled, merged, run_records(3));
  EXPECT_EQ(phase.exit_code, 0) << phase.output;
  const Finished status = run(mpi_command(1, {"status", merged}), *dir_ / "status.log");
  EXPECT_EQ(status.exit_code, 0) << status.output;
}

// A shard missing: refused with the count and the shard's name, nothing written; --allow-partial writes the
// other points with the missing shard's pending, and --resume of the merged file completes it to the whole
// run.
TEST_F(Shards, AMissingShardIsRefusedAndAllowPartialLeavesItsPointsForResume) {
  const std::string merged = *dir_ / "partial.h5";
  const Finished refused = merge({merged, shard_path(1), shard_path(3)}, *dir_ / "partial.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output,
                       "16 of the 48 points are done in none of the files given: shard 2/3 of the 3 "
                       "not given"))
      << refused.output;
  EXPECT_TRUE(contains(refused.output, "--allow-partial")) << refused.output;
  EXPECT_FALSE(fs::exists(merged));

  const Finished partial =
      merge({merged, shard_path(1), shard_path(3), "--allow-partial"}, *dir_ / "partial2.log");
  ASSERT_EQ(partial.exit_code, 0) << partial.output;
  const std::vector<std::int64_t> status = read_status(merged);
  EXPECT_EQ(count_of(status, 0), 16);
  EXPECT_EQ(count_of(status, 1), 32);
  const Finished resumed =
      run(mpi_command(2, sweep_args(merged, {"--resume"})), *dir_ / "partial-resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "16 of 16 points computed in this run")) << resumed.output;
  const Finished same = compare_sweep_files(whole(), merged, run_records(3));
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// A shard of another config (another seed) is refused naming the file and the key that differs; a shard given
// twice (a copy) and a whole sweep beside its shards (every point twice) are refused too.
TEST_F(Shards, AShardOfAnotherSweepOrTwiceTheSamePointsIsRefused) {
  const std::string other = *dir_ / "other-seed.h5";
  ASSERT_EQ(run(mpi_command(2, sweep_args(other, {"--shard", "3/3"}, "4")), other + ".log").exit_code, 0);
  const Finished seed = merge({*dir_ / "m1.h5", shard_path(1), shard_path(2), other}, *dir_ / "m1.log");
  EXPECT_EQ(seed.exit_code, 2) << seed.output;
  EXPECT_TRUE(contains(seed.output, other + ": holds another sweep than " + shard_path(1))) << seed.output;
  EXPECT_TRUE(contains(seed.output, "- seed = 3; + seed = 4")) << seed.output;

  const std::string copy = *dir_ / "copy.h5";
  fs::copy_file(shard_path(2), copy);
  const Finished twice = merge({*dir_ / "m2.h5", shard_path(1), shard_path(2), copy}, *dir_ / "m2.log");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_TRUE(contains(twice.output, copy + ": holds shard 2/3, as " + shard_path(2) + " does"))
      << twice.output;

  const Finished overlap = merge({*dir_ / "m3.h5", whole(), shard_path(1)}, *dir_ / "m3.log");
  EXPECT_EQ(overlap.exit_code, 2) << overlap.output;
  EXPECT_TRUE(contains(overlap.output, "16 points are done (or failed) both in " + whole() +
                                           " (a whole sweep) and in " + shard_path(1) + " (shard 1/3)"))
      << overlap.output;
  for (const char* name : {"m1.h5", "m2.h5", "m3.h5"}) EXPECT_FALSE(fs::exists(*dir_ / name)) << name;
}

// An existing output is kept without --force; bad --shard values and a resume as another shard are refused.
TEST_F(Shards, AnExistingOutputBadShardValuesAndAResumeAsAnotherShardAreRefused) {
  const std::string kept = *dir_ / "kept.h5";
  std::ofstream(kept) << "not to be lost";
  const Finished exists = merge({kept, shard_path(1), shard_path(2), shard_path(3)}, *dir_ / "kept.log");
  EXPECT_EQ(exists.exit_code, 2) << exists.output;
  EXPECT_TRUE(contains(exists.output, "invalid --output '" + kept + "': exists; pass --force"))
      << exists.output;
  EXPECT_EQ(read_text(kept), "not to be lost");

  for (const char* bad : {"0/3", "4/3", "3", "1/0"}) {
    const Finished refused =
        run(mpi_command(1, sweep_args(*dir_ / "bad.h5", {"--shard", bad})), *dir_ / "bad.log");
    EXPECT_EQ(refused.exit_code, 2) << bad << ": " << refused.output;
    EXPECT_TRUE(contains(refused.output, "invalid --shard '" + std::string(bad) +
                                             "': i/n: shard i of n, integers 1 <= i <= n"))
        << refused.output;
    EXPECT_FALSE(fs::exists(*dir_ / "bad.h5"));
  }
  const Finished other =
      run(mpi_command(1, sweep_args(shard_path(1), {"--resume", "--shard", "2/3"})), *dir_ / "r1.log");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_TRUE(
      contains(other.output, "1/3, the shard " + shard_path(1) + " holds: resume it with --shard 1/3"))
      << other.output;
  const Finished none = run(mpi_command(1, sweep_args(shard_path(1), {"--resume"})), *dir_ / "r2.log");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  const Finished whole_as_shard =
      run(mpi_command(1, sweep_args(whole(), {"--resume", "--shard", "1/3"})), *dir_ / "r3.log");
  EXPECT_EQ(whole_as_shard.exit_code, 2) << whole_as_shard.output;
  EXPECT_TRUE(contains(whole_as_shard.output, "holds the whole sweep; resume it without --shard"))
      << whole_as_shard.output;
}

namespace {

/// 160 points at d = 40, each computed alone, each group waiting 0.04 s after each (the test-only
/// unit_pause key): a shard of 55 takes about a second on two ranks whatever the machine, long enough to be
/// killed in the middle; the test fails, not passes, if it ends first.
std::vector<std::string> long_sweep(const std::string& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"run",          "--output",     output,     "--d",    "40",    "--delta",
                                "0.25,0.5",     "--gamma",      "0.25,0.5", "--snr",  "0:4:5", "--weighting",
                                "mean,optimal", "--trials",     "4",        "--seed", "3",     "--lines",
                                "off",          "--unit_pause", "0.04"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

// kill -9 of a shard's ranks mid-run, then `run --resume --shard` and merge: the whole run's file still.
TEST(ShardKilled, AShardKilledMidRunResumedWithItsShardMergesToTheWholeRun) {
  const TempDir dir;
  const Finished whole = run(mpi_command(2, long_sweep(dir / "whole.h5")), dir / "whole.log");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  for (const int i : {1, 3}) {
    const std::string path = dir / ("s" + std::to_string(i) + ".h5");
    const Finished done =
        run(mpi_command(2, long_sweep(path, {"--shard", std::to_string(i) + "/3"})), path + ".log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
  }
  const std::string killed = dir / "s2.h5";
  const pid_t mpirun = start(mpi_command(2, long_sweep(killed, {"--shard", "2/3"})), dir / "k.log");
  bool started = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!started && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      started = rmtsweep::io::is_hdf5_file(killed) && count_of(read_status(killed), 1) >= 4;
    } catch (const std::exception&) {  // still being created
    }
    if (waitpid(mpirun, nullptr, WNOHANG) == mpirun) break;
  }
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  (void)wait_for(mpirun, dir / "k.log");
  ASSERT_TRUE(started) << read_text(dir / "k.log");
  const std::int64_t done_at_kill = count_of(read_status(killed), 1);
  ASSERT_LT(done_at_kill, 55)
      << "the shard (11 lines of 5 points) finished before it was killed: the test proved nothing";

  const Finished early = merge({dir / "early.h5", dir / "s1.h5", killed, dir / "s3.h5"}, dir / "early.log");
  EXPECT_EQ(early.exit_code, 2) << early.output;
  EXPECT_TRUE(contains(early.output, killed + " (shard 2/3) has ")) << early.output;
  EXPECT_TRUE(contains(early.output, "--shard 2/3 --resume` finishes it")) << early.output;

  const Finished resumed =
      run(mpi_command(2, long_sweep(killed, {"--shard", "2/3", "--resume"})), dir / "r.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const Finished merged = merge({dir / "m.h5", dir / "s1.h5", killed, dir / "s3.h5"}, dir / "m.log");
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  const Finished same = compare_sweep_files(dir / "whole.h5", dir / "m.h5", run_records(4));
  EXPECT_EQ(same.exit_code, 0) << same.output;
}
