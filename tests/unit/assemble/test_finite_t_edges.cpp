// The finite-T edges of a sweep's trials (assemble/finite_t_edges.hpp): each trial's own, stored with its
// points or computed, and the finite-T rule judging each trial by its own edge.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_t_edges.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"

using namespace rmtsweep;

namespace {

/// d = 200 (or `d`), delta 0.5, gamma 0.25, T = 10, prefix:3, seed 3; lines `last` then `mean` along snr
/// {0, 1}.
struct SmallSweep {
  model::PointParams base;
  std::vector<model::Weighting> weightings;
  assemble::Axes axes;

  explicit SmallSweep(int d = 200) {
    base.d = d;
    base.seed = 3;
    base.correlation = model::parse_correlation("prefix:3", base.T);
    weightings = {model::parse_weighting("last", base.T), model::parse_weighting("mean", base.T)};
    axes.weighting = {"last", "mean"};
    axes.d = {d};
    axes.delta = {0.5};
    axes.gamma = {0.25};
    axes.snr = {0.0, 1.0};
  }

  /// The finite-T edge of one trial's own token draws, as `rmtsweep theory --bulk finite-T --trial` gives it.
  double edge_of(std::size_t weighting, int trial) const {
    model::PointParams p = base;
    p.weighting = weightings[weighting];
    p.delta = 0.5;
    p.gamma = 0.25;
    p.snr = 0.0;
    p.trial = trial;
    return simulate::build_finite_t(p).outlier->bulk_edge_right();
  }
};

TEST(FiniteTEdges, EveryTrialTakesItsOwnEdgeWhateverItsPooling) {
  // One draw's edge does not stand for the others even for mean pooling (0.19 % spread at d = 400).
  const SmallSweep s;
  const assemble::FiniteTEdges edges(s.base, s.weightings, s.axes);
  const std::size_t last = s.axes.line(0, 0, 0, 0), mean = s.axes.line(1, 0, 0, 0);
  EXPECT_EQ(edges.reference(last), s.edge_of(0, 0));
  EXPECT_EQ(edges.reference(mean), s.edge_of(1, 0));
  for (const int trial : {1, 2, 5}) {
    for (const std::size_t w : {0u, 1u}) {
      const std::size_t line = s.axes.line(w, 0, 0, 0);
      EXPECT_EQ(edges.edge(line, trial), s.edge_of(w, trial)) << trial;
      EXPECT_NE(edges.edge(line, trial), edges.reference(line)) << "draws differ, and so do their edges";
      EXPECT_DOUBLE_EQ(edges.scale(line, trial), s.edge_of(w, 0) / s.edge_of(w, trial)) << trial;
    }
  }
  EXPECT_EQ(edges.scale(mean, 0), 1.0);
  EXPECT_EQ(edges.references(), (std::vector<double>{edges.reference(last), edges.reference(mean)}));
}

namespace {

/// compute() over `keys` on each of `thread_counts` threads, with BLAS on 2 threads around it (the tests'
/// environment sets OPENBLAS_NUM_THREADS=1): every edge at hand afterwards, and the same bits as edge()
/// computing it alone.
void expect_side_by_side_equals_one_at_a_time(const SmallSweep& s,
                                              const std::vector<std::pair<std::size_t, int>>& keys,
                                              const std::vector<int>& thread_counts) {
  const int blas = parallel::blas_threads();
  parallel::set_blas_threads(2);
  assemble::PointRecord stored{1, 0, 0, 1, 0.4, 0.1, 0.5, {0.4, 0.39}, 0, 2};
  stored.finite_t_bulk_edge_right = 0.123;
  const std::vector<assemble::PointRecord> points{stored};
  const std::size_t mean = s.axes.line(1, 0, 0, 0);
  const assemble::FiniteTEdges one_at_a_time(s.base, s.weightings, s.axes, &points);
  for (const int threads : thread_counts) {
    const assemble::FiniteTEdges side_by_side(s.base, s.weightings, s.axes, &points);
    EXPECT_FALSE(side_by_side.at_hand(mean, 0));
    side_by_side.compute(keys, threads);
    for (const auto& [line, trial] : keys) {
      EXPECT_TRUE(side_by_side.at_hand(line, trial)) << "compute() left trial " << trial << " to edge()";
      // The same bits: every edge is computed on one BLAS thread, whichever way it is asked for.
      EXPECT_EQ(side_by_side.edge(line, trial), one_at_a_time.edge(line, trial)) << threads << " " << trial;
    }
    EXPECT_EQ(side_by_side.edge(mean, 2), 0.123) << "a stored edge is not computed over";
  }
  parallel::set_blas_threads(blas);
}

}  // namespace

TEST(FiniteTEdges, EdgesComputedSideBySideOnThreadsEqualThoseComputedOneAtATime) {
  const SmallSweep s;
  const std::size_t last = s.axes.line(0, 0, 0, 0), mean = s.axes.line(1, 0, 0, 0);
  std::vector<std::pair<std::size_t, int>> keys;
  for (int trial = 0; trial < 6; ++trial) keys.insert(keys.end(), {{mean, trial}, {last, trial}});
  keys.emplace_back(mean, 4);  // asked twice: computed once
  expect_side_by_side_equals_one_at_a_time(s, keys, {1, 2, 3});
}

TEST(FiniteTEdges, EdgesOfTheQuadratureSizeComputedSideBySideEqualThoseComputedOneAtATime) {
  // d = 1250: min(V, N) = 2500, where the bulk is the quadrature of theory/gram_quadrature.hpp (its probes
  // are the trial's own, so the same bits on any thread); two of them at once.
  const SmallSweep s(1250);
  const std::size_t mean = s.axes.line(1, 0, 0, 0);
  ASSERT_GT(static_cast<std::size_t>(assemble::FiniteTEdges(s.base, s.weightings, s.axes).gram_size(mean)),
            theory::dense_bulk_limit);
  expect_side_by_side_equals_one_at_a_time(s, {{mean, 0}, {mean, 1}}, {2});
}

TEST(FiniteTEdges, TakesTheEdgesItsPointsCarry) {
  const SmallSweep s;
  assemble::PointRecord stored{1, 0, 0, 1, 0.4, 0.1, 0.5, {0.4, 0.39}, 0, 2};
  stored.finite_t_bulk_edge_right = 0.123;  // not an edge of these draws: it must come from the point
  const std::vector<assemble::PointRecord> points{stored};
  const assemble::FiniteTEdges edges(s.base, s.weightings, s.axes, &points);
  const std::size_t mean = s.axes.line(1, 0, 0, 0);
  EXPECT_TRUE(edges.stored(mean, 2));
  EXPECT_EQ(edges.edge(mean, 2), 0.123);
  EXPECT_FALSE(edges.stored(mean, 3));
  EXPECT_EQ(edges.edge(mean, 3), s.edge_of(1, 3));
}

TEST(FiniteTEdges, ScalingMultipliesATrialsEigenvaluesByItsLinesEdgeOverItsOwn) {
  const SmallSweep s;
  const assemble::FiniteTEdges edges(s.base, s.weightings, s.axes);
  const std::vector<assemble::PointRecord> points{{0, 0, 0, 0, 3.9, 0.0, 0.5, {3.9, 3.8}, 0, 4},
                                                  {1, 0, 0, 0, 0.38, 0.0, 0.5, {0.38, 0.37}, 0, 4}};
  const auto scaled = assemble::scaled_by_trial_edge(s.axes, points, edges);
  const double factor = edges.scale(s.axes.line(0, 0, 0, 0), 4);
  EXPECT_EQ(scaled[0].top_eigenvalues, (std::vector<double>{3.9 * factor, 3.8 * factor}));
  EXPECT_EQ(scaled[0].top_eigenvalue, 3.9 * factor);
  const double mean_factor = edges.scale(s.axes.line(1, 0, 0, 0), 4);
  EXPECT_EQ(scaled[1].top_eigenvalues, (std::vector<double>{0.38 * mean_factor, 0.37 * mean_factor}));
  const std::vector<assemble::RefinedRecord> refined{{s.axes.line(0, 0, 0, 0), 0.7, 4, {3.9, 3.8}}};
  EXPECT_EQ(assemble::scaled_by_trial_edge(refined, edges)[0].top_eigenvalues, scaled[0].top_eigenvalues);
}

// One line with reference edge 1.25, margin 0: trial 1's lambda_1 = 1.3 lies above the line's edge but
// below its own (1.4); trial 0 at 1.2 below both. Judged by the line's edge trial 1 counts as a false
// detection; judged by its own it does not.
TEST(FiniteTEdges, ATrialAboveTheLinesEdgeButBelowItsOwnIsNotDetected) {
  assemble::Axes axes;
  axes.weighting = {"last"};
  axes.d = {400};
  axes.delta = {0.5};
  axes.gamma = {0.25};
  axes.snr = {0.0, 1.0};
  std::vector<assemble::PointRecord> points;
  for (int t = 0; t < 2; ++t) {
    const double l1 = t == 0 ? 1.2 : 1.3;
    points.push_back({0, 0, 0, 0, l1, 0.0, 0.5, {l1, l1 - 0.1, l1 - 0.2}, 0, t});
    points.push_back({0, 0, 0, 1, 3.0, 0.5, 0.8, {3.0, 1.0, 0.99}, 0, t});
  }
  std::vector<assemble::PointRecord> own = points;
  for (auto& p : own) {
    if (p.trial != 1) continue;
    for (double& x : p.top_eigenvalues) x *= 1.25 / 1.4;
  }
  const auto by_line = assemble::detection_tables(axes, points, {1.15}, {1.25}, 0.0);
  const auto by_trial =
      assemble::detection_tables(axes, points, {1.15}, {1.25}, 0.0, assemble::default_null_alpha, &own);
  EXPECT_EQ(by_line[3].detected_fraction, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(by_trial[3].detected_fraction, (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(by_trial[3].false_detection_rate[0], 0.0);
  EXPECT_EQ(by_trial[3].threshold[0], 1.25) << "the line's threshold stays its reference edge's";
  EXPECT_EQ(by_trial[0].detected_fraction, by_line[0].detected_fraction)
      << "the other rules judge the points";
}

}  // namespace
