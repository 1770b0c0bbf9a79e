#include "rmtsweep/theory/bulk.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "rmtsweep/theory/cubic.hpp"

namespace rmtsweep::theory {

BulkEdges bulk_edges(double delta, double gamma, double kappa) {
  // Roots phi = 1/psi of phi^3 - (delta + gamma + delta gamma) phi - 2 delta gamma: one positive (s*),
  // two negative (equal only at delta = gamma = 1). They are all real, so real parts are taken.
  const CubicRoots phi = solve_monic_cubic(0.0, -(delta + gamma + delta * gamma), -2.0 * delta * gamma);
  auto u_of_phi = [&](double f) { return (f + 1.0) * (f + delta) * (f + gamma) / (f * f); };
  std::array<double, 3> roots{phi.roots[0].real(), phi.roots[1].real(), phi.roots[2].real()};
  std::sort(roots.begin(), roots.end(), std::greater<>());
  BulkEdges edges;
  edges.right = kappa * u_of_phi(roots[0]);
  // The left edge is the smallest strictly positive value of u at the two negative roots, or 0 (a hard
  // edge) when there is none. A zero of u is not an edge: when delta = gamma, or delta or gamma is 1, u has
  // a double zero at a root phi = -delta = -gamma (or -1), which rounding of phi turns into a tiny value of
  // either sign, at most ~1e-16 of the right edge (at delta = gamma = 1, where F has a double root). A
  // cut at 1e-14 of the right edge separates those from genuine edges (a genuine edge that small would be
  // reported as 0, an absolute error below 1e-14 of the right edge).
  const double u_right = u_of_phi(roots[0]);
  double left = 0.0;
  for (std::size_t k = 1; k < 3; ++k) {
    const double u = u_of_phi(roots[k]);
    if (u > 1e-14 * u_right && (left == 0.0 || u < left)) left = u;
  }
  edges.left = kappa * left;
  return edges;
}

double bulk_atom(double delta, double gamma) { return 1.0 - std::min({1.0, 1.0 / delta, 1.0 / gamma}); }

std::complex<double> bulk_cauchy_transform(double u, double delta, double gamma) {
  const double a = (1.0 - delta) * (1.0 - gamma) - u;
  const double b = (delta + gamma - 2.0 * delta * gamma) * u;
  const double c = delta * gamma * u * u;
  const CubicRoots H = solve_monic_cubic(a, b, c);
  if (!H.all_real) {
    // The complex root with Im H > 0 gives Im G = -Im H/|H|^2 < 0: the most negative of the three.
    return 1.0 / H.roots[1];
  }
  const auto largest = std::max_element(H.roots.begin(), H.roots.end(),
                                        [](auto x, auto y) { return std::abs(x) < std::abs(y); });
  return 1.0 / *largest;
}

double bulk_density(double x, double delta, double gamma, double kappa) {
  if (!(x > 0.0)) return 0.0;
  const std::complex<double> G = bulk_cauchy_transform(x / kappa, delta, gamma);
  return std::max(0.0, -G.imag() / (std::numbers::pi * kappa));
}

std::vector<std::array<double, 2>> bulk_density_grid(double delta, double gamma, double kappa, int points) {
  const BulkEdges edges = bulk_edges(delta, gamma, kappa);
  std::vector<std::array<double, 2>> grid;
  grid.reserve(static_cast<std::size_t>(std::max(points, 0)));
  for (int k = 0; k < points; ++k) {
    const double x = edges.left + (edges.right - edges.left) * (k + 0.5) / points;
    grid.push_back({x, bulk_density(x, delta, gamma, kappa)});
  }
  return grid;
}

}  // namespace rmtsweep::theory
