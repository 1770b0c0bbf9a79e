// Gram path against direct path, causal weights against their limit, ridge ordering, and a
// ScaLAPACK failure inside simulate_point.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "point_fixture.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/simulate/point.hpp"

using namespace rmtsweep;

namespace {

simulate::PointResult run(const model::PointParams& params, simulate::CovariancePath path,
                          long long ntest = 0, MPI_Comm comm = MPI_COMM_WORLD) {
  simulate::SimulationOptions options;
  options.spectrum = true;
  options.path = path;
  options.ntest = ntest;
  options.finite_t_theory = false;  // the measurements are compared here (and below with the theory)
  return simulate::simulate_point(params, options, comm);
}

/// Two computations of the same S (up to summation order and a backward-stable reduction): the
/// spectrum to 1e-10 of its top, the overlaps to 1e-9 (a well-separated outlier) and the same
/// ridge classifications.
void expect_same_measurements(const simulate::PointResult& a, const simulate::PointResult& b) {
  ASSERT_EQ(a.eigenvalues.size(), b.eigenvalues.size());
  const double scale = a.eigenvalues.back();
  for (std::size_t i = 0; i < a.eigenvalues.size(); ++i)
    EXPECT_NEAR(a.eigenvalues[i], b.eigenvalues[i], 1e-10 * scale) << i;
  for (std::size_t j = 0; j < a.overlaps.size(); ++j) EXPECT_NEAR(a.overlaps[j], b.overlaps[j], 1e-9);
  EXPECT_EQ(a.ridge_accuracy, b.ridge_accuracy);
}

/// The same point with S from panels of pooled vectors (dsyrk) and through the vocabulary
/// (S = H E^T / N), on this rank alone unless `comm` says otherwise: the same S up to summation
/// order, so the spectrum to 1e-10 of its top, the overlaps to 1e-9 and the same ridge
/// classifications (the mean and sum y c come from the same pooled vectors).
void expect_token_path_equal_to_panel_path(const model::PointParams& params, MPI_Comm comm = MPI_COMM_SELF) {
  const auto panels = run(params, simulate::CovariancePath::panels, 0, comm);
  const auto tokens = run(params, simulate::CovariancePath::tokens, 0, comm);
  EXPECT_EQ(panels.path, simulate::CovariancePath::panels);
  EXPECT_EQ(tokens.path, simulate::CovariancePath::tokens);
  expect_same_measurements(panels, tokens);
}

}  // namespace

// Same data, two decompositions: S = C~ C~^T / N (d x d) and K = C~^T C~ / N (N x N) share
// their nonzero eigenvalues exactly; rounding differs by a few ulps of ||S||, so 1e-9 relative
// to the largest eigenvalue, and 1e-9 on the overlaps (well-separated top eigenvalues).
// The finite-T theory is computed beside the measurements, from the point's token draws: leaving it out
// (finite_t_theory = false) leaves the measurements bit for bit and the finite-T results empty.
TEST(PointPaths, WithoutTheFiniteTTheoryThePointHasTheSameMeasurementsAndNoFiniteTResults) {
  const auto params = test::make_point(120, 0.5, 0.5, 2.0, "harmonic", "prefix:3", "iid");
  simulate::SimulationOptions options;
  options.spectrum = true;
  const auto with = simulate::simulate_point(params, options, MPI_COMM_WORLD);
  options.finite_t_theory = false;
  const auto without = simulate::simulate_point(params, options, MPI_COMM_WORLD);
  ASSERT_TRUE(with.finite_t.has_value());
  EXPECT_FALSE(without.finite_t.has_value());
  EXPECT_FALSE(without.finite_t_levels.has_value());
  EXPECT_EQ(with.eigenvalues, without.eigenvalues);
  EXPECT_EQ(with.top_eigenvalues, without.top_eigenvalues);
  EXPECT_EQ(with.overlaps, without.overlaps);
  EXPECT_EQ(with.ridge_accuracy, without.ridge_accuracy);
}

TEST(PointPaths, GramPathGivesTheSameSpectrumOverlapsAndRidgeAsTheDirectPath) {
  const auto params = test::make_point(200, 0.5, 2.0, 4.0, "mean", "prefix:3", "iid");
  const auto direct = run(params, simulate::CovariancePath::panels);
  const auto gram = run(params, simulate::CovariancePath::gram);
  ASSERT_EQ(direct.eigenvalues.size(), gram.eigenvalues.size());
  const double scale = direct.eigenvalues.back();
  for (std::size_t i = 0; i < direct.eigenvalues.size(); ++i) {
    EXPECT_NEAR(direct.eigenvalues[i], gram.eigenvalues[i], 1e-9 * scale) << i;
  }
  for (std::size_t j = 0; j < direct.overlaps.size(); ++j) {
    EXPECT_NEAR(direct.top_eigenvalues[j], gram.top_eigenvalues[j], 1e-9 * scale);
    EXPECT_NEAR(direct.overlaps[j], gram.overlaps[j], 1e-9);
  }
  EXPECT_EQ(direct.ridge_accuracy, gram.ridge_accuracy);
}

// d = 600: a block of 512 rows of H and one of 88, whose last strip has 8 rows; N = 6000: two
// chunks of sequences (4096 + 1904); snr = 4 puts an outlier above the bulk.
TEST(PointPaths, TokenPathGivesTheSameSpectrumOverlapsAndRidgeAsPanelsAcrossBlocksAndChunks) {
  expect_token_path_equal_to_panel_path(test::make_point(600, 1.0, 0.1, 4.0, "mean", "prefix:3", "iid"));
}

// On this test's 2 ranks (a 2 x 1 grid of 64-row blocks), where each process draws the table's
// rows for its columns: d = 300 (5 blocks, the last of 44 rows), V = 300, N = 3000.
TEST(PointPaths, TokenPathGivesTheSameResultsAsPanelsOnTwoRanks) {
  expect_token_path_equal_to_panel_path(test::make_point(300, 1.0, 0.1, 4.0, "mean", "prefix:3", "iid"),
                                        MPI_COMM_WORLD);
}

// Left to itself, the same point (V = 600 against N = 6000) forms S through the vocabulary.
TEST(PointPaths, AutomaticTakesTheVocabularyWhereVIsWellBelowN) {
  const auto result = run(test::make_point(600, 1.0, 0.1, 4.0, "mean", "prefix:3", "iid"),
                          simulate::CovariancePath::automatic, 0, MPI_COMM_SELF);
  EXPECT_EQ(result.path, simulate::CovariancePath::tokens);
}

// `last` pooling has one nonzero weight (one term per sequence), the centred table another Z,
// and d = 203 a single partial block.
TEST(PointPaths, TokenPathGivesTheSameResultsWithOneTermAndACentredTable) {
  expect_token_path_equal_to_panel_path(
      test::make_point(203, 0.5, 0.5, 2.0, "last", "markov:0.5", "centered"));
}

// Scores are (tau/d)<X_i, X_j>: the self-score tends to tau and cross-scores to 0 with
// fluctuations ~ d^{-1/2}, so mean_n ||w_n - w(tau)||_1 should fall like d^{-1/2}: by about 4
// from d = 100 to d = 1600. Asserted: strictly decreasing, and at least a factor 2.5 overall.
TEST(PointPaths, CausalWeightsApproachTheirLimitAsTheDimensionGrows) {
  double previous = INFINITY, first = 0.0, last = 0.0;
  for (int d : {100, 400, 1600}) {
    const auto result = run(test::make_point(d, 0.5, 4.0, 1.0, "causal:1", "prefix:3", "iid"),
                            simulate::CovariancePath::automatic, 1);
    ASSERT_TRUE(result.weights_deviation.has_value());
    const double deviation = *result.weights_deviation;
    EXPECT_LT(deviation, previous) << "d = " << d;
    if (d == 100) first = deviation;
    last = deviation;
    previous = deviation;
  }
  EXPECT_LT(last, first / 2.5);
}

TEST(PointPaths, CausalWeightsAtTauZeroAreExactlyTheLimitWeights) {
  const auto result = run(test::make_point(100, 0.5, 2.0, 1.0, "causal:0", "prefix:3", "iid"),
                          simulate::CovariancePath::automatic, 1);
  ASSERT_TRUE(result.weights_deviation.has_value());
  EXPECT_LT(*result.weights_deviation, 1e-14);  // uniform softmax: exact up to rounding
}

// prefix:3, T = 10, snr = 2: all three weightings well above the sample threshold (theory:
// lambda_S / edge = 1.33, 1.81, 2.08). Accuracies here are about 0.75, 0.98, 0.997; with 8000
// paired test sequences their standard errors are below 0.005, far below the gaps.
TEST(PointPaths, RidgeAccuracyOrdersOptimalAboveHarmonicAboveMean) {
  double accuracy[3];
  const char* weightings[3] = {"optimal", "harmonic", "mean"};
  for (int i = 0; i < 3; ++i) {
    accuracy[i] = run(test::make_point(400, 0.5, 0.5, 2.0, weightings[i], "prefix:3", "iid"),
                      simulate::CovariancePath::automatic, 8000)
                      .ridge_accuracy;
  }
  EXPECT_GT(accuracy[0], accuracy[1]);
  EXPECT_GT(accuracy[1], accuracy[2]);
}

// ridge = -10: S - 10 kappa I is indefinite (the bulk lies below 3 kappa), so the direct path's
// ridge solve (dptsv on T - 10 kappa I, from the eigen reduction S = Q T Q^T) meets a pivot
// <= 0; every rank must get the same ScalapackError.
TEST(PointPaths, AScalapackFailureBecomesTheSameExceptionOnEveryRank) {
  const auto params = test::make_point(100, 0.5, 0.5, 1.0, "mean", "prefix:3", "iid");
  simulate::SimulationOptions options;
  options.ridge = -10.0;
  try {
    simulate::simulate_point(params, options, MPI_COMM_WORLD);
    ADD_FAILURE() << "no exception";
  } catch (const ScalapackError& e) {
    EXPECT_EQ(e.routine(), "dptsv");
    EXPECT_GT(e.info(), 0);
  }
}

// On this test's 2 ranks (a 2 x 1 grid, d = 200: two whole blocks of 64 rows per process row)
// the point's S is reduced by ELPA unless ScaLAPACK is asked for. The same S either way, two
// backward-stable reductions: the spectrum to 1e-10 of its top, overlaps to 1e-9 (well-separated
// outlier at snr 4), and the ridge solutions (pdposv on a copy, or from pdsytrd's reduction)
// agree to ~1e-13, far below what would flip a test sequence's sign: the same accuracy.
TEST(PointPaths, ElpaAndScalapackGiveTheSameSpectrumOverlapsAndRidgeOnTwoRanks) {
  const auto params = test::make_point(200, 0.5, 0.5, 4.0, "mean", "prefix:3", "iid");
  simulate::SimulationOptions options;
  options.spectrum = true;
  const auto automatic = simulate::simulate_point(params, options, MPI_COMM_WORLD);
  options.eigensolver = parallel::EigenSolver::scalapack;
  const auto scalapack = simulate::simulate_point(params, options, MPI_COMM_WORLD);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  EXPECT_EQ(automatic.eigensolver, ranks > 1 ? parallel::Reducer::elpa : parallel::Reducer::lapack);
  EXPECT_EQ(scalapack.eigensolver, ranks > 1 ? parallel::Reducer::scalapack : parallel::Reducer::lapack);
  expect_same_measurements(scalapack, automatic);
}
