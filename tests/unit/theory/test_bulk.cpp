#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "rmtsweep/theory/bulk.hpp"

using namespace rmtsweep::theory;

namespace {

struct Shape {
  double delta, gamma;
};

// A spread of aspect ratios: both below 1, either or both above 1, very unequal, close to 1, equal.
const Shape shapes[] = {{0.5, 0.25}, {0.1, 0.1}, {2.0, 0.25}, {0.3, 3.0}, {4.0, 2.5}, {1.5, 1.2},
                        {0.05, 8.0}, {0.9, 1.2}, {10.0, 0.5}, {0.7, 0.7}, {1.0, 2.0}, {5.0, 1.0}};
// Shapes with a hard edge at 0 (the smallest of 1, 1/delta, 1/gamma reached twice).
const Shape hard_edge_shapes[] = {{1.0, 0.5}, {0.25, 1.0}, {1.0, 1.0}, {2.0, 2.0}, {1.5, 1.5}};

/// integral_a^b h(x) dx with x = a + (b - a) v(t)^p, v(t) = (1 - cos t)/2, t in [0, pi], by the midpoint
/// rule in t. With p = 1 and square-root edges, h(x(t)) x'(t) extends to an even smooth function of t at
/// both ends and the rule converges faster than any power of the number of nodes. At a hard edge 0 where
/// h ~ x^(-1/2) or x^(-2/3), p = 3 makes h x' bounded and the error O(nodes^-2) (~1e-6 here).
template <typename H>
double integrate_over(double a, double b, H&& h, int p = 1, int nodes = 4000) {
  double sum = 0.0;
  for (int k = 0; k < nodes; ++k) {
    const double t = std::numbers::pi * (k + 0.5) / nodes;
    const double v = (1.0 - std::cos(t)) / 2.0;
    const double jacobian = p * std::pow(v, p - 1) * std::sin(t) / 2.0;
    sum += h(a + (b - a) * std::pow(v, p)) * jacobian;
  }
  return sum * (b - a) * std::numbers::pi / nodes;
}

void expect_moments(double delta, double gamma, double kappa) {
  const BulkEdges e = bulk_edges(delta, gamma, kappa);
  const int p = e.left == 0.0 ? 3 : 1;
  auto f = [&](double x) { return bulk_density(x, delta, gamma, kappa); };
  const double mass = integrate_over(e.left, e.right, f, p);
  const double mean = integrate_over(
      e.left, e.right, [&](double x) { return x * f(x); }, p);
  const double second = integrate_over(
      e.left, e.right, [&](double x) { return x * x * f(x); }, p);
  // The tolerance 1e-4 (relative to kappa^k); the quadrature error is far smaller (see above).
  EXPECT_NEAR(mass, 1.0 - bulk_atom(delta, gamma), 1e-4) << delta << " " << gamma;
  EXPECT_NEAR(mean, kappa, 1e-4 * kappa) << delta << " " << gamma;
  EXPECT_NEAR(second, kappa * kappa * (1.0 + delta + gamma), 1e-4 * kappa * kappa) << delta << " " << gamma;
}

}  // namespace

TEST(Bulk, DensityIntegratesToOneMinusTheAtomWithMeanKappaAndSecondMomentKappaSquaredOnePlusDeltaPlusGamma) {
  for (const auto& [delta, gamma] : shapes) expect_moments(delta, gamma, 0.37);
}

TEST(Bulk, DensityWithAHardEdgeAtZeroHasTheSameMassAndMoments) {
  for (const auto& [delta, gamma] : hard_edge_shapes) {
    ASSERT_EQ(bulk_edges(delta, gamma).left, 0.0) << delta << " " << gamma;
    expect_moments(delta, gamma, 2.5);
  }
}

void expect_support_is_between_the_edges(double delta, double gamma, double kappa) {
  const BulkEdges e = bulk_edges(delta, gamma, kappa);
  ASSERT_LT(e.left, e.right);
  const double width = e.right - e.left;
  // A margin of 1e-6 of the width keeps the test out of the rounding-sized band around each edge,
  // where the two colliding roots of the cubic are known only to sqrt(eps).
  const double margin = 1e-6 * width;
  for (int k = 0; k <= 200; ++k) {
    const double inside = e.left + margin + (width - 2 * margin) * k / 200.0;
    EXPECT_GT(bulk_density(inside, delta, gamma, kappa), 0.0) << delta << " " << gamma << " x=" << inside;
    if (e.left > 0.0) {
      const double below = (e.left - margin) * k / 200.0;
      EXPECT_EQ(bulk_density(below, delta, gamma, kappa), 0.0) << delta << " " << gamma << " x=" << below;
    }
    const double above = e.right + margin + 3.0 * e.right * k / 200.0;
    EXPECT_EQ(bulk_density(above, delta, gamma, kappa), 0.0) << delta << " " << gamma << " x=" << above;
  }
  EXPECT_EQ(bulk_density(-1.0, delta, gamma, kappa), 0.0);
}

TEST(Bulk, DensityVanishesOutsideTheEdgesAndIsPositiveInside) {
  for (const auto& [delta, gamma] : shapes) {
    ASSERT_GT(bulk_edges(delta, gamma).left, 0.0) << delta << " " << gamma;
    expect_support_is_between_the_edges(delta, gamma, 1.7);
  }
  for (const auto& [delta, gamma] : hard_edge_shapes) expect_support_is_between_the_edges(delta, gamma, 1.7);
}

TEST(Bulk, TendsToMarchenkoPasturWhenGammaVanishes) {
  const double delta = 0.6, gamma = 1e-9;
  const double a = std::pow(1 - std::sqrt(delta), 2), b = std::pow(1 + std::sqrt(delta), 2);
  const BulkEdges e = bulk_edges(delta, gamma);
  // Edges and density move by O(sqrt(gamma)) ~ 3e-5 at most.
  EXPECT_NEAR(e.left, a, 1e-4);
  EXPECT_NEAR(e.right, b, 1e-4);
  for (double x = a + 0.01; x < b - 0.01; x += 0.05) {
    const double mp = std::sqrt((b - x) * (x - a)) / (2 * std::numbers::pi * delta * x);
    EXPECT_NEAR(bulk_density(x, delta, gamma, 1.0), mp, 1e-4) << x;
  }
}

TEST(Bulk, IsSymmetricInDeltaAndGamma) {
  // MP_delta [x] MP_gamma = MP_gamma [x] MP_delta: free multiplicative convolution commutes.
  for (const auto& [delta, gamma] : shapes) {
    const BulkEdges e = bulk_edges(delta, gamma), swapped = bulk_edges(gamma, delta);
    EXPECT_NEAR(e.left, swapped.left, 1e-12);
    EXPECT_NEAR(e.right, swapped.right, 1e-12);
    for (int k = 1; k < 50; ++k) {
      const double x = e.left + (e.right - e.left) * k / 50.0;
      const double f = bulk_density(x, delta, gamma, 1.0);
      EXPECT_NEAR(bulk_density(x, gamma, delta, 1.0), f, 1e-9 * (1 + f)) << delta << " " << gamma;
    }
  }
}

TEST(Bulk, EdgesScaleWithKappa) {
  const BulkEdges unit = bulk_edges(0.5, 0.25), scaled = bulk_edges(0.5, 0.25, 3.0);
  EXPECT_DOUBLE_EQ(scaled.left, 3.0 * unit.left);
  EXPECT_DOUBLE_EQ(scaled.right, 3.0 * unit.right);
}

TEST(Bulk, LeftEdgeIsZeroExactlyForHardEdgeShapes) {
  for (const auto& [delta, gamma] : hard_edge_shapes) EXPECT_EQ(bulk_edges(delta, gamma).left, 0.0);
  // delta = 1 but gamma = 2: 1/gamma alone is the minimum, and the continuous part starts above 0.
  EXPECT_GT(bulk_edges(1.0, 2.0).left, 0.05);
  // delta = gamma < 1: u has a double zero at phi = -delta that is not an edge.
  EXPECT_GT(bulk_edges(0.7, 0.7).left, 0.0);
  // delta = gamma = 1 is the Fuss-Catalan law of order 2, right edge 27/4.
  EXPECT_NEAR(bulk_edges(1.0, 1.0).right, 27.0 / 4.0, 1e-12);
}

TEST(Bulk, AtomIsOneMinusTheSmallestOfOneAndTheInverseRatios) {
  EXPECT_EQ(bulk_atom(0.5, 0.25), 0.0);
  EXPECT_DOUBLE_EQ(bulk_atom(4.0, 0.5), 0.75);
  EXPECT_DOUBLE_EQ(bulk_atom(2.0, 5.0), 0.8);
}

TEST(Bulk, DensityGridCoversTheSupportWithPositiveValues) {
  const double kappa = 0.1;
  const auto grid = bulk_density_grid(0.5, 0.25, kappa, 64);
  const BulkEdges e = bulk_edges(0.5, 0.25, kappa);
  ASSERT_EQ(grid.size(), 64u);
  const double step = (e.right - e.left) / 64;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    EXPECT_NEAR(grid[k][0], e.left + step * (static_cast<double>(k) + 0.5), 1e-12);
    EXPECT_EQ(grid[k][1], bulk_density(grid[k][0], 0.5, 0.25, kappa));
    EXPECT_GT(grid[k][1], 0.0);
  }
}
