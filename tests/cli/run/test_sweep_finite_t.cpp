// The finite-T theory in a sweep file (docs/finite_t.md): /points theory_finite_t_* are the library's
// predictions for each point's own token draws (and, for `last`, theory_finite_t_levels_* the finite-d model
// of its top levels), the same on 1 and 2 ranks; assemble turns them into
// /phase/theory_finite_t_*; a file written before those columns existed still assembles.
#include <cmath>
#include <fstream>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// `last` and a peaked two-token weighting (T_eff = 1.47: computed where the paper's law is measurably
/// off) beside mean pooling (T_eff = 10: not computed), d = 80, 3 snr, 2 trials: 18 points of a few ms.
std::string write_config(const TempDir& dir) {
  const std::string path = dir / "finite_t.ini";
  std::ofstream(path)
      << "d = 80\nT = 10\ncorrelation = prefix:3\nseed = 11\ntrials = 2\ndelta = 0.5\ngamma = 0.25\n"
         "snr = 0:4:3\nweighting = last,custom:0,0,0,0,0,0,0,0,1,4,mean\n";
  return path;
}

std::vector<double> read_column(const std::string& path, const std::string& name) {
  const io::File file = io::open_file(path, io::Access::read_only);
  return io::read_doubles(io::open_dataset(file, name));
}

const char* const finite_t_columns[] = {"theory_finite_t_top_eigenvalue", "theory_finite_t_overlap",
                                        "theory_finite_t_threshold_snr", "theory_finite_t_bulk_edge_right"};

TEST(SweepFiniteT, ColumnsHoldTheLibrarysPredictionForEachPointOnOneAndTwoRanks) {
  const TempDir dir;
  const std::string config = write_config(dir);
  for (const int ranks : {1, 2}) {
    const std::string out =
        dir /
        std::string("r").append(std::to_string(ranks)).append(".h5");  // GCC 12: -Wrestrict on "r" + string
    const Finished done = run(mpi_command(ranks, {"run", "--config", config, "--output", out}), out + ".log");
    ASSERT_EQ(done.exit_code, 0) << done.output;
  }
  expect_same_values(dir / "r1.h5", dir / "r2.h5");  // every /points column, the finite-T ones among them
  const std::string file = dir / "r2.h5";
  const auto weighting = read_column(file, "points/weighting_index"), snr = read_column(file, "points/snr"),
             trial = read_column(file, "points/trial"),
             top = read_column(file, "points/theory_finite_t_top_eigenvalue"),
             overlap = read_column(file, "points/theory_finite_t_overlap"),
             threshold = read_column(file, "points/theory_finite_t_threshold_snr"),
             edge = read_column(file, "points/theory_finite_t_bulk_edge_right"),
             levels_top = read_column(file, "points/theory_finite_t_levels_top_eigenvalue"),
             levels_overlap = read_column(file, "points/theory_finite_t_levels_overlap"),
             levels_error = read_column(file, "points/theory_finite_t_levels_overlap_error");
  const char* names[] = {"last", "custom:0,0,0,0,0,0,0,0,1,4", "mean"};
  ASSERT_EQ(top.size(), 18u);
  for (std::size_t p = 0; p < top.size(); ++p) {
    model::PointParams params;
    params.d = 80;
    params.seed = 11;
    params.correlation = model::parse_correlation("prefix:3", params.T);
    params.weighting = model::parse_weighting(names[static_cast<int>(weighting[p])], params.T);
    params.trial = static_cast<int>(trial[p]);
    params.snr = snr[p];
    const auto outlier = simulate::finite_t_outlier(params);
    ASSERT_TRUE(outlier.has_value()) << "every weighting carries the finite-T theory, mean pooling too";
    // The same code on the same draws (rank 0 computes, then broadcasts): the same bits.
    const auto expected = outlier->at(params.snr);
    EXPECT_EQ(top[p], expected.top_eigenvalue) << p;
    EXPECT_EQ(overlap[p], expected.overlap) << p;
    EXPECT_EQ(threshold[p], expected.threshold_snr) << p;
    EXPECT_EQ(edge[p], expected.bulk_edge_right) << p;
    // The finite-d model of the top levels: for the single-token weighting only, from the same measures
    // and the trial's own seeded draws.
    const double at[] = {params.snr};
    const auto levels = simulate::finite_t_levels_predictions(params, *outlier, at);
    if (levels.empty()) {
      EXPECT_NE(weighting[p], 0.0) << "only the single-token weighting has the top levels' model";
      EXPECT_TRUE(std::isnan(levels_top[p]) && std::isnan(levels_overlap[p]) && std::isnan(levels_error[p]));
      continue;
    }
    const auto& model = levels.front();
    EXPECT_EQ(levels_top[p], model.top_eigenvalue) << p;
    EXPECT_EQ(levels_overlap[p], model.overlap) << p;
    EXPECT_EQ(levels_error[p], model.overlap_error) << p;
  }
  const Finished assembled = run({RMTSWEEP_BINARY, "assemble", file}, dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  // /phase: weighting x d x delta x gamma (x snr); `last` trial means of the two trials.
  const auto phase_threshold = read_column(file, "phase/theory_finite_t_threshold_snr");
  ASSERT_EQ(phase_threshold.size(), 3u);
  EXPECT_NEAR(phase_threshold[0], 0.5 * (threshold[0] + threshold[1]), 1e-12);
  EXPECT_NEAR(phase_threshold[2], 0.5 * (threshold[4] + threshold[5]), 1e-12) << "mean pooling: points 4, 5";
  const auto phase_top = read_column(file, "phase/theory_finite_t_top_eigenvalue");
  ASSERT_EQ(phase_top.size(), 9u);
  EXPECT_NEAR(phase_top[1], 0.5 * (top[6] + top[7]), 1e-12) << "last at snr = 2: points 6, 7 (trial fastest)";
}

TEST(SweepFiniteT, AFileWrittenBeforeTheColumnsExistedStillAssemblesWithoutThem) {
  const TempDir dir;
  const std::string config = write_config(dir), file = dir / "old.h5";
  const Finished done = run(mpi_command(1, {"run", "--config", config, "--output", file}), dir / "run.log");
  ASSERT_EQ(done.exit_code, 0) << done.output;
  {
    const io::File f = io::open_file(file, io::Access::read_write);
    for (const char* name : finite_t_columns)
      ASSERT_GE(H5Ldelete(f, ("points/" + std::string(name)).c_str(), H5P_DEFAULT), 0) << name;
  }
  // Such a file is of schema_version 3 at most, from before checksums (whose point rows covered the columns
  // removed): made one, its checksums removed as such a file never had them.
  const std::string as_version_3 =
      "import sys, h5py, numpy\n"
      "f = h5py.File(sys.argv[1], 'r+')\n"
      "def strip(name, obj):\n"
      "    if isinstance(obj, h5py.Dataset) and 'checksum' in obj.attrs: del obj.attrs['checksum']\n"
      "f.visititems(strip)\n"
      "for size in list(f['lines']) if 'lines' in f else []:\n"
      "    group = f['lines'][size]\n"
      "    if 'checksum' in group:\n"
      "        group['checksum'].dims[0].detach_scale(group['line'])\n"
      "        del group['checksum']\n"
      "f['checksums/points'].dims[0].detach_scale(f['checksums/point'])\n"
      "del f['checksums']\n"
      "f.attrs['schema_version'] = numpy.int64(3)\n";
  const Finished stripped = run({RMTSWEEP_PYTHON, "-c", as_version_3, file}, dir / "strip.log");
  ASSERT_EQ(stripped.exit_code, 0) << stripped.output;
  const Finished before = run({RMTSWEEP_BINARY, "status", file}, dir / "before.log");
  EXPECT_EQ(before.exit_code, 0) << before.output;
  EXPECT_TRUE(contains(before.output, "checksums: not checksummed")) << before.output;
  const Finished assembled = run({RMTSWEEP_BINARY, "assemble", file}, dir / "assemble.log");
  ASSERT_EQ(assembled.exit_code, 0) << assembled.output;
  for (const double x : read_column(file, "phase/theory_finite_t_threshold_snr")) EXPECT_TRUE(std::isnan(x));
  const Finished status = run({RMTSWEEP_BINARY, "status", file}, dir / "status.log");
  EXPECT_EQ(status.exit_code, 0) << status.output;
}

}  // namespace
}  // namespace rmtsweep::test
