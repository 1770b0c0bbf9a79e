// A line of snr values from one factorization against simulate_point on the same draws.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "point_fixture.hpp"
#include "rmtsweep/simulate/line.hpp"
#include "rmtsweep/simulate/point.hpp"

using namespace rmtsweep;

namespace {

const std::vector<double> line_snr = {0.0, 0.4, 1.1, 2.5, 7.0};

simulate::SimulationOptions options_for(simulate::Engine engine, bool spectrum) {
  simulate::SimulationOptions options;
  options.engine = engine;
  options.spectrum = spectrum;
  options.finite_t_theory = false;  // the measurements are compared here
  return options;
}

/// Line and points agree: eigenvalues to 1e-9 relative (both are backward stable reductions of the same S,
/// formed in another order: a few ulps of ||S|| apart), overlaps to 1e-7 relative to the larger of the
/// overlap and 1e-6 (an eigenvector's rounding error is eps ||S|| / gap; at gaps of 1e-6 ||S|| between
/// bulk eigenvalues that is 1e-10 absolute, so 1e-13 absolute where the overlap is tiny), and the same
/// ridge classifications (a test score moves by about 1e-13 of its scale, a sign only within that of 0).
void expect_line_equals_points(const model::PointParams& params, simulate::Engine engine, bool spectrum,
                               MPI_Comm comm = MPI_COMM_WORLD) {
  const auto options = options_for(engine, spectrum);
  const simulate::LineResult line = simulate::simulate_line(params, line_snr, options, comm);
  ASSERT_EQ(line.points.size(), line_snr.size());
  for (std::size_t i = 0; i < line_snr.size(); ++i) {
    model::PointParams point = params;
    point.snr = line_snr[i];
    const simulate::PointResult expected = simulate::simulate_point(point, options, comm);
    const simulate::PointResult& got = line.points[i];
    SCOPED_TRACE("snr " + std::to_string(line_snr[i]));
    EXPECT_TRUE(parallel::is_line(got.eigensolver));
    ASSERT_EQ(got.top_eigenvalues.size(), expected.top_eigenvalues.size());
    for (std::size_t j = 0; j < got.top_eigenvalues.size(); ++j) {
      EXPECT_NEAR(got.top_eigenvalues[j], expected.top_eigenvalues[j], 1e-9 * expected.top_eigenvalues[0])
          << j;
      EXPECT_NEAR(got.overlaps[j], expected.overlaps[j], 1e-7 * std::max(expected.overlaps[j], 1e-6)) << j;
    }
    EXPECT_EQ(got.ridge_accuracy, expected.ridge_accuracy);
    ASSERT_EQ(got.eigenvalues.size(), expected.eigenvalues.size());
    for (std::size_t j = 0; j < got.eigenvalues.size(); ++j)
      EXPECT_NEAR(got.eigenvalues[j], expected.eigenvalues[j], 1e-9 * expected.eigenvalues.back()) << j;
  }
}

}  // namespace

class DenseLine : public ::testing::TestWithParam<std::string> {};

// N > V (delta 0.5 > gamma 0.25) and both tables for every weighting whose weights do not depend on the data.
TEST_P(DenseLine, EqualsItsPointsOnBothTables) {
  for (const char* table : {"iid", "centered"}) {
    SCOPED_TRACE(table);
    expect_line_equals_points(test::make_point(96, 0.5, 0.25, 1.0, GetParam(), "prefix:3", table, 1),
                              simulate::Engine::dense, false);
  }
}

INSTANTIATE_TEST_SUITE_P(Weightings, DenseLine,
                         ::testing::Values("mean", "last", "optimal", "harmonic",
                                           "custom:3,1,1,1,0,0,0,0,0,2"));

TEST(DenseLineShapes, EqualsItsPointsWithFewerSequencesThanTokens) {
  expect_line_equals_points(test::make_point(90, 0.25, 0.5, 1.0, "mean", "prefix:3", "iid"),
                            simulate::Engine::dense, true);
}

TEST(DenseLineShapes, EqualsItsPointsOnTheGramPathWhereNIsBelowD) {
  expect_line_equals_points(test::make_point(100, 0.5, 2.0, 1.0, "optimal", "prefix:3", "centered"),
                            simulate::Engine::dense, true);
}

TEST(DenseLineShapes, EqualsItsPointsWhereTheTableHasFewerTokensThanD) {
  // delta = 2: V = 50 < d = 100, so S0' has d - V zero eigenvalues to deflate.
  expect_line_equals_points(test::make_point(100, 2.0, 0.25, 1.0, "harmonic", "markov:0.5", "iid"),
                            simulate::Engine::dense, true);
}

TEST(DenseLineShapes, RefusesCausalAttention) {
  EXPECT_THROW(simulate::simulate_line(test::make_point(60, 0.5, 0.25, 1.0, "causal:1", "prefix:3", "iid"),
                                       line_snr, options_for(simulate::Engine::dense, false), MPI_COMM_WORLD),
               std::invalid_argument);
}

namespace {

/// The Krylov line against the dense points: each snr's pairs meet a residual of 1e-9 kappa from the
/// recurrence, so (as for a Krylov point, test_krylov_point.cpp) eigenvalues agree to 1e-9 relative with a
/// wide margin, overlaps to 1e-6 (the bound 1e-9 kappa / gap for gaps of at least 1e-3 lambda), and the
/// ridge, converged to 1e-9 ||b||, classifies every test sequence alike.
void expect_krylov_line_equals_dense_points(const model::PointParams& params) {
  auto options = options_for(simulate::Engine::krylov, false);
  const simulate::LineResult line = simulate::simulate_line(params, line_snr, options, MPI_COMM_WORLD);
  options.engine = simulate::Engine::dense;
  ASSERT_EQ(line.points.size(), line_snr.size());
  EXPECT_TRUE(line.recomputed_alone.empty());
  for (std::size_t i = 0; i < line_snr.size(); ++i) {
    model::PointParams point = params;
    point.snr = line_snr[i];
    const simulate::PointResult expected = simulate::simulate_point(point, options, MPI_COMM_WORLD);
    const simulate::PointResult& got = line.points[i];
    SCOPED_TRACE("snr " + std::to_string(line_snr[i]));
    EXPECT_EQ(got.eigensolver, parallel::Reducer::lanczos_line);
    EXPECT_LE(got.residual, 1e-8);
    ASSERT_EQ(got.top_eigenvalues.size(), expected.top_eigenvalues.size());
    for (std::size_t j = 0; j < got.top_eigenvalues.size(); ++j) {
      EXPECT_NEAR(got.top_eigenvalues[j], expected.top_eigenvalues[j], 1e-9 * expected.top_eigenvalues[0])
          << j;
      EXPECT_NEAR(got.overlaps[j], expected.overlaps[j], 1e-6) << j;
    }
    EXPECT_EQ(got.ridge_accuracy, expected.ridge_accuracy);
  }
  // The Ritz values the line keeps for its exact thresholds are those of a basis of at most d vectors.
  EXPECT_LE(line.secular.size(), static_cast<std::size_t>(params.d));
}

}  // namespace

class KrylovLine : public ::testing::TestWithParam<std::string> {};

TEST_P(KrylovLine, EqualsTheDensePointsOnBothTables) {
  for (const char* table : {"iid", "centered"}) {
    SCOPED_TRACE(table);
    expect_krylov_line_equals_dense_points(
        test::make_point(300, 0.5, 0.25, 1.0, GetParam(), "prefix:3", table, 2));
  }
}

INSTANTIATE_TEST_SUITE_P(Weightings, KrylovLine, ::testing::Values("mean", "last", "optimal", "harmonic"));

TEST(KrylovLineShapes, EqualsTheDensePointsWithFewerSequencesThanTokens) {
  expect_krylov_line_equals_dense_points(test::make_point(300, 0.25, 0.5, 1.0, "mean", "prefix:3", "iid"));
}

TEST(KrylovLineShapes, EqualsTheDensePointsWhereNIsBelowD) {
  expect_krylov_line_equals_dense_points(
      test::make_point(300, 0.5, 2.0, 1.0, "optimal", "prefix:3", "centered"));
}

TEST(KrylovLineShapes, RecomputesAloneTheSnrValuesItsBasisDidNotConverge) {
  // A budget of two blocks cannot converge anything at d = 300: every point is computed alone.
  auto options = options_for(simulate::Engine::krylov, false);
  options.krylov_budget = 16;
  const auto params = test::make_point(300, 0.5, 0.25, 1.0, "mean", "prefix:3", "iid");
  const simulate::LineResult line = simulate::simulate_line(params, line_snr, options, MPI_COMM_WORLD);
  EXPECT_EQ(line.recomputed_alone.size(), line_snr.size());
  for (const auto& point : line.points) EXPECT_FALSE(parallel::is_line(point.eigensolver));
}
