// `rmtsweep refine` end to end (issue 19): the refined file does not depend on the number of ranks,
// a kill -9 and a rerun of the same command equal a clean refine, a second refine once the tolerance
// is reached adds nothing, a file whose stored config was edited by hand is refused with the
// difference, and a point computed as a refined one reproduces the grid's stored values exactly.
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/sweep/refine_file.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 2 sizes x 2 weightings x 5 snr x 4 trials = 80 grid points at d <= 80 (about 5 ms each).
const std::vector<std::string> sweep_keys{"--d",     "60,80",        "--delta", "0.5",  "--gamma", "0.5",
                                          "--snr",   "0:2.4:5",      "--trials", "4",   "--seed",  "5",
                                          "--table", "centered",     "--weighting", "mean,optimal",
                                          "--store_spectra", "false"};

std::vector<std::string> run_args(const std::string& output) {
  std::vector<std::string> args{"run", "--output", output};
  args.insert(args.end(), sweep_keys.begin(), sweep_keys.end());
  return args;
}

std::vector<std::string> refine_args(const std::string& file, const std::string& tolerance = "0.06") {
  return {"refine", file, "--tolerance", tolerance, "--trials", "48", "--max-points", "3000"};
}

/// Refined rows given to points, and of those done (serial reader, works while a writer runs).
std::pair<std::int64_t, std::int64_t> refined_counts(const std::string& path) {
  const sweep::SweepReader reader(path);
  const sweep::RefinedRows rows = sweep::read_refined_rows(reader.file());
  std::int64_t given = 0, done = 0;
  for (const std::int64_t s : rows.status) {
    given += s >= 0 ? 1 : 0;
    done += s == 1 ? 1 : 0;
  }
  return {given, done};
}

/// A finished grid in `path` (2 ranks).
void make_grid(const TempDir& dir, const std::string& name) {
  const Finished grid = run(mpi_command(2, run_args(dir / name)), dir / (name + ".log"));
  ASSERT_EQ(grid.exit_code, 0) << grid.output;
}

}  // namespace

TEST(SweepRefine, OneAndTwoRanksGiveTheSameRefinedFile) {
  const TempDir dir;
  make_grid(dir, "one.h5");
  std::filesystem::copy_file(dir / "one.h5", dir / "two.h5");
  const Finished one = run(mpi_command(1, refine_args(dir / "one.h5")), dir / "one.log");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  const Finished two = run(mpi_command(2, refine_args(dir / "two.h5")), dir / "two.log");
  ASSERT_EQ(two.exit_code, 0) << two.output;
  EXPECT_GT(refined_counts(dir / "one.h5").second, 40) << "the refinement added too few points to prove anything";
  expect_same_values(dir / "one.h5", dir / "two.h5");

  // assemble fits the refined lines and plot draws them.
  const Finished assembled = run(mpi_command(1, {"assemble", dir / "one.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  EXPECT_NE(assembled.output.find("refined (edge)"), std::string::npos) << assembled.output;
  {
    const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
    const auto threshold = io::read_doubles(io::open_dataset(file, "phase/refined_threshold_snr"));
    const auto points = io::read_ints(io::open_dataset(file, "phase/refined_points"));
    ASSERT_EQ(threshold.size(), 4u);  // 2 weightings x 2 sizes
    for (std::size_t l = 0; l < threshold.size(); ++l) {
      EXPECT_GT(points[l], 0) << "line " << l;
      EXPECT_TRUE(std::isfinite(threshold[l])) << "line " << l;
    }
  }
  const Finished plotted = run({RMTSWEEP_BINARY, "plot", dir / "one.h5", "--out", dir / "figures"}, dir / "plot.log");
  ASSERT_EQ(plotted.exit_code, 0) << plotted.output;
  EXPECT_EQ(read_text(dir / "figures/refinement.png").substr(0, 4), "\x89PNG");

  // A refined point of a new trial and a grid point each equal `rmtsweep point` with their parameters
  // exactly: the draws depend on (seed, trial, d, delta, ...), never on the snr or on which set holds
  // the point, so a refined point at a grid (snr, trial) would reproduce the grid's values.
  const sweep::SweepReader reader(dir / "one.h5");
  const sweep::RefinedRows rows = sweep::read_refined_rows(reader.file());
  const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
  const auto block_reals = [&](const char* name) { return io::read_doubles(io::open_dataset(file, std::string("refine/block_0/") + name)); };
  const auto weighting = io::read_strings(io::open_dataset(file, "refine/block_0/weighting"));
  const auto d = block_reals("d");
  std::size_t r = 0;
  while (r < rows.size() && !(rows.status[r] == 1 && rows.trial[r] >= 4)) ++r;
  ASSERT_LT(r, rows.size()) << "no refined point of a new trial";
  const auto grid_top = reader.reals(sweep::column::top_eigenvalue);
  const auto grid_snr = reader.reals(sweep::column::snr);
  const auto grid_trial = reader.integers(sweep::column::trial);
  const auto grid_d = reader.integers(sweep::column::d);
  const auto grid_weighting = reader.texts(sweep::column::weighting);
  const std::size_t g = 37;  // any grid point
  struct Case {
    double snr, top;
    long long trial, d;
    std::string weighting;
  };
  for (const Case& c : {Case{rows.snr[r], rows.top_eigenvalues[r * static_cast<std::size_t>(rows.k)],
                             static_cast<long long>(rows.trial[r]), static_cast<long long>(d[r]), weighting[r]},
                        Case{grid_snr[g], grid_top[g], static_cast<long long>(grid_trial[g]),
                             static_cast<long long>(grid_d[g]), grid_weighting[g]}}) {
    char snr[40];
    std::snprintf(snr, sizeof snr, "%.17g", c.snr);
    const Finished point =
        run(mpi_command(1, {"point", "--json", "--d", std::to_string(c.d), "--delta", "0.5", "--gamma", "0.5", "--snr",
                            snr, "--table", "centered", "--seed", "5", "--trial", std::to_string(c.trial),
                            "--weighting", c.weighting}),
            dir / "point.log");
    ASSERT_EQ(point.exit_code, 0) << point.output;
    const auto at = point.output.find("\"top_eigenvalues\":[");
    ASSERT_NE(at, std::string::npos) << point.output;
    EXPECT_EQ(std::strtod(point.output.c_str() + at + 19, nullptr), c.top) << "snr " << snr << " trial " << c.trial;
  }
}

TEST(SweepRefine, KillNineAndTheSameCommandAgainEqualACleanRefine) {
  const TempDir dir;
  make_grid(dir, "ref.h5");
  std::filesystem::copy_file(dir / "ref.h5", dir / "k.h5");
  const Finished clean = run(mpi_command(2, refine_args(dir / "ref.h5", "0.04")), dir / "ref.log");
  ASSERT_EQ(clean.exit_code, 0) << clean.output;
  const std::int64_t total = refined_counts(dir / "ref.h5").second;

  const pid_t mpirun = start(mpi_command(2, refine_args(dir / "k.h5", "0.04")), dir / "k.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::int64_t done_at_kill = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    try {
      done_at_kill = refined_counts(dir / "k.h5").second;
    } catch (const std::exception&) {  // a block being created
    }
    if (done_at_kill >= total / 3 || waitpid(mpirun, nullptr, WNOHANG) == mpirun) break;
  }
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  waitpid(mpirun, nullptr, 0);
  const std::int64_t at_kill = refined_counts(dir / "k.h5").second;
  ASSERT_LT(at_kill, total) << "the refine finished before it was killed: the test proved nothing";
  ASSERT_GT(at_kill, 0);
  const Finished rerun = run(mpi_command(2, refine_args(dir / "k.h5", "0.04")), dir / "rerun.log");
  ASSERT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_EQ(refined_counts(dir / "k.h5"), refined_counts(dir / "ref.h5"));
  expect_same_values(dir / "ref.h5", dir / "k.h5");
}

TEST(SweepRefine, RefiningAgainOnceTheToleranceIsReachedAddsNothing) {
  const TempDir dir;
  make_grid(dir, "f.h5");
  const Finished first = run(mpi_command(2, refine_args(dir / "f.h5", "0.15")), dir / "first.log");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(first.output.find("tolerance not reached"), std::string::npos) << first.output;
  std::filesystem::copy_file(dir / "f.h5", dir / "before.h5");
  const Finished second = run(mpi_command(2, refine_args(dir / "f.h5", "0.15")), dir / "second.log");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(refined_counts(dir / "f.h5"), refined_counts(dir / "before.h5"));
  expect_same_values(dir / "before.h5", dir / "f.h5");
}

TEST(SweepRefine, AFileWhoseStoredConfigWasEditedByHandIsRefusedWithTheDifference) {
  const TempDir dir;
  make_grid(dir, "e.h5");
  {
    const io::File file = io::open_file(dir / "e.h5", io::Access::read_write);
    std::string config = io::read_string_attribute(file, "config");
    const auto at = config.find("T = 10");
    ASSERT_NE(at, std::string::npos) << config;
    config.replace(at, 6, "T = 12");
    io::write_attribute(file, "config", config);
  }
  const Finished refused = run(mpi_command(2, refine_args(dir / "e.h5")), dir / "e.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("/points/T of point 0 holds 10, the stored config gives 12"), std::string::npos)
      << refused.output;
  EXPECT_FALSE(io::exists(io::open_file(dir / "e.h5", io::Access::read_only), "refine")) << "nothing is written";
}

// Single-token pooling (`last`, T_eff = 1): the finite-T rule judges each trial by the edge of its own
// token draws. refine with that rule gives the same file on 1 and 2 ranks, and assemble's detected
// fractions are those of each grid trial's lambda_1 against its own edge times (1 + d^(-2/3)), which
// here differ from judging every trial by trial 0's edge.
TEST(SweepRefine, TheFiniteTRuleJudgesEachTrialOfSingleTokenPoolingByItsOwnEdge) {
  const TempDir dir;
  const std::vector<std::string> keys{"--d", "120", "--delta", "0.5", "--gamma", "0.5", "--snr", "0:3:6",
                                      "--trials", "8", "--seed", "5", "--table", "centered", "--weighting",
                                      "last", "--store_spectra", "false"};
  std::vector<std::string> grid{"run", "--output", dir / "one.h5"};
  grid.insert(grid.end(), keys.begin(), keys.end());
  const Finished made = run(mpi_command(2, grid), dir / "grid.log");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  std::filesystem::copy_file(dir / "one.h5", dir / "two.h5");
  const std::vector<std::string> rule{"--detection", "finite_t_edge"};
  for (const char* name : {"one.h5", "two.h5"}) {
    auto args = refine_args(dir / name, "0.1");
    args.insert(args.end(), rule.begin(), rule.end());
    const Finished refined = run(mpi_command(name[0] == 'o' ? 1 : 2, args), dir / (std::string(name) + ".log"));
    ASSERT_EQ(refined.exit_code, 0) << refined.output;
    EXPECT_NE(refined.output.find("finite_t_edge judges each trial of 1 line(s)"), std::string::npos) << refined.output;
  }
  EXPECT_GT(refined_counts(dir / "one.h5").second, 0);
  expect_same_values(dir / "one.h5", dir / "two.h5");

  const Finished assembled = run(mpi_command(1, {"assemble", "--quiet", dir / "one.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
  const auto fraction = io::read_doubles(io::open_dataset(file, "phase/detection/finite_t_edge/detected_fraction"));
  const auto snr_axis = io::read_doubles(io::open_dataset(file, "phase/snr"));
  ASSERT_EQ(fraction.size(), 6u);

  model::PointParams p;
  p.d = 120;
  p.delta = 0.5;
  p.gamma = 0.5;
  p.seed = 5;
  p.table = model::Table::centered;
  p.weighting = model::parse_weighting("last", p.T);
  p.correlation = model::parse_correlation("prefix:3", p.T);
  std::vector<double> own(8);
  for (int t = 0; t < 8; ++t) {
    p.trial = t;
    own[static_cast<std::size_t>(t)] = theory::finite_t_edge(simulate::token_gram_spectrum(p), p.d);
  }
  const double margin = 1.0 + std::pow(120.0, -2.0 / 3.0);
  const sweep::SweepReader reader(dir / "one.h5");
  const auto top = reader.reals(sweep::column::top_eigenvalue);
  const auto snr = reader.reals(sweep::column::snr);
  const auto trial = reader.integers(sweep::column::trial);
  std::vector<double> by_own(6, 0.0), by_trial_0(6, 0.0);
  for (std::size_t i = 0; i < top.size(); ++i) {
    const auto s = static_cast<std::size_t>(std::find(snr_axis.begin(), snr_axis.end(), snr[i]) - snr_axis.begin());
    ASSERT_LT(s, 6u);
    by_own[s] += top[i] > own[static_cast<std::size_t>(trial[i])] * margin ? 1.0 / 8 : 0.0;
    by_trial_0[s] += top[i] > own[0] * margin ? 1.0 / 8 : 0.0;
  }
  for (std::size_t s = 0; s < 6; ++s) EXPECT_DOUBLE_EQ(fraction[s], by_own[s]) << "snr " << snr_axis[s];
  EXPECT_NE(by_own, by_trial_0) << "every trial is judged alike by its own edge and by trial 0's: the test proves nothing";
}

}  // namespace rmtsweep::test

namespace rmtsweep::test {

TEST(SweepRefine, BadOptionValuesAreRefusedNamingOptionValueAndWhatIsAllowed) {
  const TempDir dir;
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"--tolerance", "0"}, {"--trials", "1"}, {"--max-points", "x"}, {"--detection", "foo"}}) {
    const Finished refused = run(mpi_command(1, {"refine", dir / "none.h5", option, value}), dir / "bad.log");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_NE(refused.output.find("invalid " + option + " '" + value + "': allowed"), std::string::npos)
        << refused.output;
  }
  const Finished missing = run(mpi_command(1, {"refine", dir / "none.h5"}), dir / "missing.log");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
}

}  // namespace rmtsweep::test
