// `rmtsweep refine` end to end: the refined file does not depend on the number of ranks,
// a kill -9 and a rerun of the same command equal a clean refine, a second refine once the tolerance
// is reached adds nothing, a file whose stored config was edited by hand is refused with the
// difference, and refined and grid points reproduce `rmtsweep point`. On a sweep of lines refine adds
// whole trials (lines over the grid's snr) and the refined threshold is the median of the trials' exact
// thresholds; where exact thresholds do not exist (causal:tau, a grid computed with lines = off) it bisects.
#include <nlohmann/json.hpp>
#include <optional>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/refine/design.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/refined_line_store.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// 2 sizes x 2 weightings x 5 snr x 4 trials = 80 grid points at d <= 80 (about 5 ms each), in 16 lines.
const std::vector<std::string> sweep_keys{"--d",
                                          "60,80",
                                          "--delta",
                                          "0.5",
                                          "--gamma",
                                          "0.5",
                                          "--snr",
                                          "0:2.4:5",
                                          "--trials",
                                          "4",
                                          "--seed",
                                          "5",
                                          "--table",
                                          "centered",
                                          "--weighting",
                                          "mean,optimal",
                                          "--store_spectra",
                                          "false"};
/// The grid's snr values as `point --snr` takes them (the same parser: the same doubles).
const std::string grid_snr = "0:2.4:5";
constexpr std::size_t grid_snr_count = 5;

std::vector<std::string> run_args(const std::string& output, std::vector<std::string> keys = sweep_keys) {
  std::vector<std::string> args{"run", "--output", output};
  args.insert(args.end(), keys.begin(), keys.end());
  return args;
}

std::vector<std::string> refine_args(const std::string& file, const std::string& tolerance = "0.06",
                                     const std::string& trials = "48") {
  return {"refine", file, "--tolerance", tolerance, "--trials", trials, "--max-points", "3000"};
}

/// Refined rows given to points, and of those done (serial reader, works while a writer runs).
std::pair<std::int64_t, std::int64_t> refined_counts(const std::string& path) {
  const store::SweepReader reader(path);
  const store::RefinedRows rows = store::read_refined_rows(reader.file());
  std::int64_t given = 0, done = 0;
  for (const std::int64_t s : rows.status) {
    given += s >= 0 ? 1 : 0;
    done += s == 1 ? 1 : 0;
  }
  return {given, done};
}

/// A finished grid in `path` (2 ranks).
void make_grid(const TempDir& dir, const std::string& name, std::vector<std::string> keys = sweep_keys) {
  const Finished grid = run(mpi_command(2, run_args(dir / name, std::move(keys))), dir / (name + ".log"));
  ASSERT_EQ(grid.exit_code, 0) << grid.output;
}

/// `rmtsweep point --json` of the line (d, weighting, trial) over `snr` (1 rank), with the sweep's other
/// keys.
nlohmann::json point_json(const TempDir& dir, long long d, const std::string& weighting, long long trial,
                          const std::string& snr) {
  const Finished point =
      run(mpi_command(1, {"point", "--json", "--d", std::to_string(d), "--delta", "0.5", "--gamma", "0.5",
                          "--snr", snr, "--table", "centered", "--seed", "5", "--trial",
                          std::to_string(trial), "--weighting", weighting}),
          dir / "point.log");
  EXPECT_EQ(point.exit_code, 0) << point.output;
  return nlohmann::json::parse(point.output.substr(point.output.find('{')));
}

/// The top eigenvalue of the record of `snr` in a line's `point --json` (one record per snr value).
double line_top(const nlohmann::json& line, double snr) {
  for (const auto& record : line["points"]) {
    if (record["params"]["snr"].get<double>() == snr)
      return record["empirical"]["top_eigenvalues"][0].get<double>();
  }
  ADD_FAILURE() << "no record of snr " << snr << " in " << line.dump();
  return std::nan("");
}

/// Relative difference allowed between two computations of the same line from the same draws by the same
/// engine: only BLAS's summation order may differ (with its thread count: the tests pin one thread per rank,
/// by hand one rank of `point` may take two; measured 3.5e-16 relative on an exact threshold).
constexpr double same_computation = 1e-12;

/// Whether a refine ended as it should, every line within the tolerance (0) or its budget spent first (4).
bool refine_ended(const Finished& refined) { return refined.exit_code == 0 || refined.exit_code == 4; }

/// The median of `values` (the mean of the middle two for an even count).
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

TEST(SweepRefine, OneAndTwoRanksGiveTheSameRefinedFile) {
  const TempDir dir;
  make_grid(dir, "one.h5");
  std::filesystem::copy_file(dir / "one.h5", dir / "two.h5");
  const Finished one = run(mpi_command(1, refine_args(dir / "one.h5")), dir / "one.log");
  ASSERT_TRUE(refine_ended(one)) << one.output;
  const Finished two = run(mpi_command(2, refine_args(dir / "two.h5")), dir / "two.log");
  ASSERT_TRUE(refine_ended(two)) << two.output;
  EXPECT_GT(refined_counts(dir / "one.h5").second, 40)
      << "the refinement added too few points to prove anything";
  expect_same_values(dir / "one.h5", dir / "two.h5");

  // assemble fits the refined lines and plot draws them.
  const Finished assembled = run(mpi_command(1, {"assemble", dir / "one.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  EXPECT_NE(assembled.output.find("refined (edge)"), std::string::npos) << assembled.output;
  {
    const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
    // The edge rule's, which refine refined (the top level of /phase is the default rule's).
    const auto threshold =
        io::read_doubles(io::open_dataset(file, "phase/detection/edge/refined_threshold_snr"));
    const auto points = io::read_ints(io::open_dataset(file, "phase/detection/edge/refined_points"));
    ASSERT_EQ(threshold.size(), 4u);  // 2 weightings x 2 sizes
    for (std::size_t l = 0; l < threshold.size(); ++l) {
      EXPECT_GT(points[l], 0) << "line " << l;
      EXPECT_TRUE(std::isfinite(threshold[l])) << "line " << l;
    }
  }
  const Finished plotted =
      run({RMTSWEEP_BINARY, "plot", dir / "one.h5", "--out", dir / "figures"}, dir / "plot.log");
  ASSERT_EQ(plotted.exit_code, 0) << plotted.output;
  EXPECT_EQ(read_text(dir / "figures/refinement.png").substr(0, 4), "\x89PNG");

  // A refined point of a new trial and a grid point each equal the record at their snr of `rmtsweep point`
  // over the grid's snr values (to BLAS's summation order): the draws depend on (seed, trial, d, delta, ...),
  // never on the snr or on which set holds the point, and a line is one computation whether the sweep, refine
  // or point makes it.
  const store::SweepReader reader(dir / "one.h5");
  const store::RefinedRows rows = store::read_refined_rows(reader.file());
  const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
  const auto weighting = io::read_strings(io::open_dataset(file, "refine/block_0/weighting"));
  const auto d = io::read_doubles(io::open_dataset(file, "refine/block_0/d"));
  std::size_t r = 0;
  while (r < rows.size() && !(rows.status[r] == 1 && rows.trial[r] >= 4)) ++r;
  ASSERT_LT(r, rows.size()) << "no refined point of a new trial";
  const auto grid_top = reader.reals(store::column::top_eigenvalue);
  const auto grid_snr_column = reader.reals(store::column::snr);
  const auto grid_trial = reader.integers(store::column::trial);
  const auto grid_d = reader.integers(store::column::d);
  const auto grid_weighting = reader.texts(store::column::weighting);
  const std::size_t g = 37;  // any grid point
  struct Case {
    double snr, top;
    long long trial, d;
    std::string weighting;
  };
  for (const Case& c :
       {Case{rows.snr[r], rows.top_eigenvalues[r * static_cast<std::size_t>(rows.k)],
             static_cast<long long>(rows.trial[r]), static_cast<long long>(d[r]), weighting[r]},
        Case{grid_snr_column[g], grid_top[g], static_cast<long long>(grid_trial[g]),
             static_cast<long long>(grid_d[g]), grid_weighting[g]}}) {
    const nlohmann::json line = point_json(dir, c.d, c.weighting, c.trial, grid_snr);
    EXPECT_NEAR(line_top(line, c.snr), c.top, same_computation * c.top)
        << "snr " << c.snr << " trial " << c.trial;
  }
}

// On a sweep of lines every trial has its exact threshold: refine adds whole trials over the grid's snr (no
// point between them), each trial's secular form beside its points, until the bootstrap error of the median
// of the exact thresholds meets the tolerance; assemble's refined threshold is that median.
TEST(SweepRefine, ASweepOfLinesIsRefinedByNewTrialsWhoseExactThresholdsGiveTheMedian) {
  const TempDir dir;
  make_grid(dir, "x.h5");
  const double tolerance = 0.08;
  const Finished refined = run(mpi_command(2, refine_args(dir / "x.h5", "0.08", "400")), dir / "x.log");
  ASSERT_EQ(refined.exit_code, 0) << refined.output;
  EXPECT_FALSE(contains(refined.output, "tolerance not reached")) << refined.output;
  EXPECT_FALSE(contains(refined.output, "bisect")) << refined.output;

  // No bisection: every refined point is at a grid snr of a new trial, each new trial at all of them.
  const std::vector<double> snr_axis = [&] {
    const io::File file = io::open_file(dir / "x.h5", io::Access::read_only);
    return io::read_doubles(io::open_dataset(file, "grid/snr"));
  }();
  ASSERT_EQ(snr_axis.size(), grid_snr_count);
  std::optional<store::SweepReader> reader(std::in_place, dir / "x.h5");
  const store::RefinedRows rows = store::read_refined_rows(reader->file());
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::size_t>
      points_of;  // (weighting, d, trial)
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] < 0) continue;
    EXPECT_EQ(rows.status[r], 1) << r;
    EXPECT_GE(rows.trial[r], 4) << r;
    EXPECT_NE(std::find(snr_axis.begin(), snr_axis.end(), rows.snr[r]), snr_axis.end())
        << "snr " << rows.snr[r];
    ++points_of[{rows.weighting_index[r], rows.d_index[r], rows.trial[r]}];
  }
  ASSERT_FALSE(points_of.empty());
  for (const auto& [key, count] : points_of) EXPECT_EQ(count, grid_snr_count) << "trial " << std::get<2>(key);
  // One secular form per new trial, every one written.
  const store::RefinedLineRows line_rows = store::read_refined_line_rows(reader->file());
  const auto forms = store::read_refined_lines(reader->file());
  reader.reset();  // assemble writes into the file
  std::size_t given = 0;
  for (std::size_t r = 0; r < line_rows.size(); ++r) given += line_rows.given(r) ? 1 : 0;
  EXPECT_EQ(given, points_of.size());
  EXPECT_EQ(forms.size(), points_of.size());

  const Finished assembled = run(mpi_command(1, {"assemble", "--quiet", dir / "x.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  const io::File file = io::open_file(dir / "x.h5", io::Access::read_only);
  const auto read = [&](const std::string& name) {
    return io::read_doubles(io::open_dataset(file, "phase/" + name));
  };
  // The edge rule's, which refine refined (the top level of /phase is the default rule's).
  const auto threshold = read("detection/edge/refined_threshold_snr"),
             err = read("detection/edge/refined_threshold_snr_err");
  const auto exact = read("detection/edge/refined_threshold_exact"),
             trials = read("detection/edge/refined_trials");
  const auto before_err = read("detection/edge/empirical_threshold_snr_err");
  const auto level = read("detection/edge/threshold");
  const auto grid_trial_threshold = read("detection/edge/trial_threshold_snr");  // lines x 4 grid trials
  const auto d_axis = read("d");
  ASSERT_EQ(threshold.size(), 4u);  // 2 weightings x 2 sizes
  bool refined_a_line = false;
  for (std::size_t l = 0; l < 4; ++l) {
    EXPECT_EQ(exact[l], 1.0) << "line " << l;
    EXPECT_LE(err[l], tolerance) << "line " << l;
    EXPECT_GE(trials[l], refine::min_exact_trials) << "line " << l;
    refined_a_line = refined_a_line || before_err[l] > tolerance;
    // The median of the grid trials' exact thresholds and of the refined trials', each from its stored form.
    std::vector<double> values(grid_trial_threshold.begin() + static_cast<std::ptrdiff_t>(4 * l),
                               grid_trial_threshold.begin() + static_cast<std::ptrdiff_t>(4 * l + 4));
    const std::size_t w = l / 2, n = l % 2;
    for (const auto& [row, stored] : forms) {
      const auto d_of_row = static_cast<double>(line_rows.d[row]);
      if (static_cast<std::size_t>(line_rows.weighting_index[row]) != w || d_of_row != d_axis[n]) continue;
      const spectral::LevelCrossing crossing = spectral::level_crossing(stored.secular, level[l]);
      values.push_back(crossing.r_from * crossing.r_from);
    }
    EXPECT_EQ(static_cast<double>(values.size()), trials[l]) << "line " << l;
    EXPECT_EQ(threshold[l], median(values)) << "line " << l;
  }
  EXPECT_TRUE(refined_a_line) << "every line met the tolerance on the grid alone: the test proves nothing";

  // A refined trial's stored form gives the exact threshold `rmtsweep point` computes for that line afresh.
  const std::size_t row = forms.front().first;
  const int d = static_cast<int>(line_rows.d[row]);
  const std::string weighting = line_rows.weighting_index[row] == 0 ? "mean" : "optimal";
  const nlohmann::json line = point_json(dir, d, weighting, line_rows.trial[row], grid_snr);
  const std::size_t l = 2 * static_cast<std::size_t>(line_rows.weighting_index[row]) + (d == 60 ? 0 : 1);
  const double at = line["thresholds"]["edge"]["level"].get<double>();
  EXPECT_NEAR(at, level[l], 1e-12 * level[l]) << "the edge rule's level (same theory, same margin)";
  const spectral::LevelCrossing crossing = spectral::level_crossing(forms.front().second.secular, at);
  const double fresh = line["thresholds"]["edge"]["threshold_snr"].get<double>();
  EXPECT_NEAR(crossing.r_from * crossing.r_from, fresh, same_computation * fresh);
}

// Where a line has no exact thresholds refine bisects in snr as before: causal:tau pooling (its weights
// depend on the data, so its points are computed one at a time), and every line of a grid computed with lines
// = off. A refined point of a new trial there equals `rmtsweep point` at its snr.
TEST(SweepRefine, LinesWithoutExactThresholdsAreBisected) {
  const TempDir dir;
  std::vector<std::string> keys = sweep_keys;
  keys[1] = "60";
  *std::find(keys.begin(), keys.end(), "mean,optimal") = "mean,causal:1";
  make_grid(dir, "c.h5", keys);
  std::filesystem::copy_file(dir / "c.h5", dir / "c1.h5");
  keys.insert(keys.end(), {"--lines", "off"});
  make_grid(dir, "off.h5", keys);
  for (const char* name : {"c.h5", "c1.h5", "off.h5"}) {
    const int ranks = std::string(name) == "c1.h5" ? 1 : 2;
    const Finished refined =
        run(mpi_command(ranks, refine_args(dir / name, "0.1")), dir / (std::string(name) + ".log"));
    ASSERT_TRUE(refine_ended(refined)) << refined.output;
  }
  // Bisected and exact lines in one file: the same refined file on 1 and 2 ranks.
  expect_same_values(dir / "c.h5", dir / "c1.h5");
  const auto off_grid = [&](const std::string& path, std::int64_t w) {
    const store::SweepReader reader(path);
    const store::RefinedRows rows = store::read_refined_rows(reader.file());
    const std::vector<double> axis{0.0, 0.6, 1.2, 1.8, 2.4};
    std::size_t between = 0, all = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows.status[r] != 1 || rows.weighting_index[r] != w) continue;
      ++all;
      bool on_grid = false;
      for (const double s : axis) on_grid = on_grid || std::abs(rows.snr[r] - s) < 1e-12;
      between += on_grid ? 0 : 1;
    }
    return std::make_pair(between, all);
  };
  // causal:1 (weighting 1) bisects, mean (weighting 0) adds whole trials beside it.
  const auto [causal_between, causal_all] = off_grid(dir / "c.h5", 1);
  EXPECT_GT(causal_between, 0u) << "causal:1 was not bisected";
  const auto [mean_between, mean_all] = off_grid(dir / "c.h5", 0);
  EXPECT_GT(mean_all, 0u);
  EXPECT_EQ(mean_between, 0u) << "the mean line (exact thresholds) was bisected";
  // With lines = off no line has its secular form: the mean line is bisected too, and /refine/lines stays
  // empty.
  EXPECT_GT(off_grid(dir / "off.h5", 0).first, 0u) << "a grid computed with lines = off was not bisected";
  EXPECT_EQ(store::read_refined_line_rows(store::SweepReader(dir / "off.h5").file()).size(), 0u);
  EXPECT_GT(store::read_refined_line_rows(store::SweepReader(dir / "c.h5").file()).size(), 0u);

  const Finished assembled = run(mpi_command(1, {"assemble", "--quiet", dir / "c.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  {
    const io::File file = io::open_file(dir / "c.h5", io::Access::read_only);
    const auto exact = io::read_ints(io::open_dataset(file, "phase/detection/edge/refined_threshold_exact"));
    const auto threshold =
        io::read_doubles(io::open_dataset(file, "phase/detection/edge/refined_threshold_snr"));
    EXPECT_EQ(exact, (std::vector<std::int64_t>{1, 0}));  // mean exact, causal:1 from brackets
    EXPECT_TRUE(std::isfinite(threshold[1])) << "the bisected line has a refined threshold";
  }

  // A bisected point of a new trial equals `rmtsweep point` at its snr.
  const store::SweepReader reader(dir / "c.h5");
  const store::RefinedRows rows = store::read_refined_rows(reader.file());
  std::size_t r = 0;
  while (r < rows.size() && !(rows.status[r] == 1 && rows.trial[r] >= 4 && rows.weighting_index[r] == 1)) ++r;
  ASSERT_LT(r, rows.size()) << "no refined point of a new causal trial";
  char snr[40];
  std::snprintf(snr, sizeof snr, "%.17g", rows.snr[r]);
  const nlohmann::json point = point_json(dir, 60, "causal:1", rows.trial[r], snr);
  const double top = rows.top_eigenvalues[r * static_cast<std::size_t>(rows.k)];
  EXPECT_NEAR(point["empirical"]["top_eigenvalues"][0].get<double>(), top, same_computation * top);
}

TEST(SweepRefine, KillNineAndTheSameCommandAgainEqualACleanRefine) {
  const TempDir dir;
  make_grid(dir, "ref.h5");
  std::filesystem::copy_file(dir / "ref.h5", dir / "k.h5");
  const Finished clean = run(mpi_command(2, refine_args(dir / "ref.h5", "0.04")), dir / "ref.log");
  ASSERT_TRUE(refine_ended(clean)) << clean.output;
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
  ASSERT_TRUE(refine_ended(rerun)) << rerun.output;
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

TEST(SweepRefine, ABudgetSpentBeforeTheToleranceIsReachedExitsFourNamingTheLines) {
  const TempDir dir;
  make_grid(dir, "b.h5");
  const Finished refined = run(
      mpi_command(2, {"refine", dir / "b.h5", "--tolerance", "0.001", "--trials", "8", "--max-points", "40"}),
      dir / "b.log");
  EXPECT_EQ(refined.exit_code, 4) << refined.output;
  EXPECT_TRUE(contains(refined.output, "(tolerance not reached)")) << refined.output;
  EXPECT_TRUE(contains(refined.output,
                       "the tolerance 0.001 is not reached on 4 line(s) and the budget is spent "
                       "(exit status 4)"))
      << refined.output;
  EXPECT_GT(refined_counts(dir / "b.h5").second, 0) << "the budget was spent on refined points";
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
  EXPECT_NE(refused.output.find("/points/T of point 0 holds 10, the stored config gives 12"),
            std::string::npos)
      << refused.output;
  EXPECT_FALSE(io::exists(io::open_file(dir / "e.h5", io::Access::read_only), "refine"))
      << "nothing is written";
}

// Single-token pooling (`last`, T_eff = 1): the finite-T rule judges each trial by the edge of its own
// token draws. refine with that rule gives the same file on 1 and 2 ranks, and assemble's detected
// fractions are those of each grid trial's lambda_1 against its own edge times (1 + d^(-2/3)), which
// here differ from judging every trial by trial 0's edge.
TEST(SweepRefine, TheFiniteTRuleJudgesEachTrialOfSingleTokenPoolingByItsOwnEdge) {
  const TempDir dir;
  const std::vector<std::string> keys{
      "--d",     "120",      "--delta",     "0.5",  "--gamma",         "0.5",
      "--snr",   "0:3:6",    "--trials",    "8",    "--seed",          "5",
      "--table", "centered", "--weighting", "last", "--store_spectra", "false"};
  std::vector<std::string> grid{"run", "--output", dir / "one.h5"};
  grid.insert(grid.end(), keys.begin(), keys.end());
  const Finished made = run(mpi_command(2, grid), dir / "grid.log");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  std::filesystem::copy_file(dir / "one.h5", dir / "two.h5");
  const std::vector<std::string> rule{"--detection", "finite_t_edge"};
  for (const char* name : {"one.h5", "two.h5"}) {
    auto args = refine_args(dir / name, "0.1");
    args.insert(args.end(), rule.begin(), rule.end());
    const Finished refined =
        run(mpi_command(name[0] == 'o' ? 1 : 2, args), dir / (std::string(name) + ".log"));
    ASSERT_TRUE(refine_ended(refined)) << refined.output;
    EXPECT_NE(refined.output.find("finite_t_edge judges each trial of 1 line(s)"), std::string::npos)
        << refined.output;
  }
  EXPECT_GT(refined_counts(dir / "one.h5").second, 0);
  expect_same_values(dir / "one.h5", dir / "two.h5");

  const Finished assembled =
      run(mpi_command(1, {"assemble", "--quiet", dir / "one.h5"}), dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  const io::File file = io::open_file(dir / "one.h5", io::Access::read_only);
  const auto fraction =
      io::read_doubles(io::open_dataset(file, "phase/detection/finite_t_edge/detected_fraction"));
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
  const store::SweepReader reader(dir / "one.h5");
  const auto top = reader.reals(store::column::top_eigenvalue);
  const auto snr = reader.reals(store::column::snr);
  const auto trial = reader.integers(store::column::trial);
  std::vector<double> by_own(6, 0.0), by_trial_0(6, 0.0);
  for (std::size_t i = 0; i < top.size(); ++i) {
    const auto s =
        static_cast<std::size_t>(std::find(snr_axis.begin(), snr_axis.end(), snr[i]) - snr_axis.begin());
    ASSERT_LT(s, 6u);
    by_own[s] += top[i] > own[static_cast<std::size_t>(trial[i])] * margin ? 1.0 / 8 : 0.0;
    by_trial_0[s] += top[i] > own[0] * margin ? 1.0 / 8 : 0.0;
  }
  for (std::size_t s = 0; s < 6; ++s) EXPECT_DOUBLE_EQ(fraction[s], by_own[s]) << "snr " << snr_axis[s];
  EXPECT_NE(by_own, by_trial_0)
      << "every trial is judged alike by its own edge and by trial 0's: the test proves nothing";
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
