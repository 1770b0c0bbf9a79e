// The same point on 1, 2 and 4 ranks (grids 1x1, 2x1, 2x2) gives the same measurements: every
// draw is a pure function of its coordinates, so only the floating-point summation order
// differs (model.md section 7). Run on 4 ranks: the 1- and 2-rank computations use
// sub-communicators of MPI_COMM_WORLD, and rank 0 compares.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "point_fixture.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/simulate/point.hpp"

using namespace rmtsweep;

namespace {

/// simulate_point on the first `ranks` ranks of MPI_COMM_WORLD; empty on the others.
std::optional<simulate::PointResult> run_on(int ranks, const model::PointParams& params,
                                            const simulate::SimulationOptions& options) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto part = parallel::Communicator::split(MPI_COMM_WORLD, rank < ranks ? 0 : MPI_UNDEFINED, rank);
  std::optional<simulate::PointResult> result;
  if (!part.is_null()) result = simulate::simulate_point(params, options, part);
  MPI_Barrier(MPI_COMM_WORLD);
  return result;
}

// Tolerances: the results differ only by summation order, i.e. by a few ulps amplified by the
// conditioning of each quantity; 1e-9 (relative for eigenvalues, absolute for overlaps, whose
// eigenvalue gaps are >= 1e-3 of the norm here) leaves a margin of 1e4 or more. Eigenvalues
// that are zero in exact arithmetic (the Gram path's padding) are compared absolutely,
// relative to the largest.
void expect_same(const simulate::PointResult& a, const simulate::PointResult& b) {
  ASSERT_EQ(a.eigenvalues.size(), b.eigenvalues.size());
  const double scale = a.eigenvalues.back();
  for (std::size_t i = 0; i < a.eigenvalues.size(); ++i) {
    EXPECT_NEAR(a.eigenvalues[i], b.eigenvalues[i], 1e-9 * std::max(std::abs(a.eigenvalues[i]), 1e-6 * scale))
        << i;
  }
  ASSERT_EQ(a.top_eigenvalues.size(), b.top_eigenvalues.size());
  for (std::size_t j = 0; j < a.top_eigenvalues.size(); ++j) {
    EXPECT_NEAR(a.top_eigenvalues[j], b.top_eigenvalues[j], 1e-9 * a.top_eigenvalues[j]);
    EXPECT_NEAR(a.overlaps[j], b.overlaps[j], 1e-9);
  }
  EXPECT_EQ(a.ridge_accuracy, b.ridge_accuracy);
  ASSERT_EQ(a.weights_deviation.has_value(), b.weights_deviation.has_value());
  if (a.weights_deviation) {
    EXPECT_NEAR(*a.weights_deviation, *b.weights_deviation, 1e-12);
  }
}

void check_point_on_1_2_and_4_ranks(const model::PointParams& params) {
  simulate::SimulationOptions options;
  options.spectrum = true;
  const auto one = run_on(1, params, options);
  const auto two = run_on(2, params, options);
  const auto four = run_on(4, params, options);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ASSERT_EQ(size, 4) << "this test is registered with 4 ranks";
  if (rank != 0) return;
  ASSERT_TRUE(one && two && four);
  expect_same(*one, *two);
  expect_same(*one, *four);
}

}  // namespace

// d = 300 and N = 600 are not multiples of the 64 block or the 512 panel, so every grid has
// ragged blocks; causal:1 exercises the reduction of attention scores across process rows.
TEST(RankIndependence, CausalPointOnTheDirectPathIsTheSameOn1And2And4Ranks) {
  check_point_on_1_2_and_4_ranks(test::make_point(300, 0.5, 0.5, 2.0, "causal:1", "prefix:3", "iid"));
}

TEST(RankIndependence, CenteredPointOnTheGramPathIsTheSameOn1And2And4Ranks) {
  check_point_on_1_2_and_4_ranks(test::make_point(300, 0.7, 2.0, 3.0, "harmonic", "markov:0.5", "centered"));
}
