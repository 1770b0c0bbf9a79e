#pragma once
/// The bulk of the spectrum of S: kappa * (MP_delta [x] MP_gamma), model.md section 5.1.
/// Pure functions of numbers; no MPI.
#include <array>
#include <complex>
#include <vector>

namespace rmtsweep::theory {

/// The edges of the continuous part of the bulk.
struct BulkEdges {
  double left = 0.0;   ///< edge of the continuous part nearest 0; 0 for a hard edge (see bulk_edges)
  double right = 0.0;  ///< kappa u(psi_+)
};

/// Edges of kappa (MP_delta [x] MP_gamma) (model.md 5.1): kappa u(psi) with
/// u(psi) = (1 + psi)(1 + delta psi)(1 + gamma psi)/psi at the real roots of
/// 2 delta gamma psi^3 + (delta + gamma + delta gamma) psi^2 - 1 = 0. With phi = 1/psi that cubic is
/// F(phi) = phi^3 - (delta + gamma + delta gamma) phi - 2 delta gamma of model.md 5.2, so psi_+ = 1/s*.
/// The left edge is the smallest strictly positive u at the two negative roots, and 0 when neither gives
/// a positive u. That happens when 1 - min(1, 1/delta, 1/gamma) is reached by two of the three (delta = 1
/// with gamma <= 1, gamma = 1 with delta <= 1, or delta = gamma >= 1): the law then has a hard edge at 0.
/// (model.md says "0 when delta = 1 or gamma = 1"; for delta = 1 and gamma > 1 the continuous part in
/// fact starts above 0, e.g. at 0.0567 kappa for gamma = 2, as the density itself confirms.)
BulkEdges bulk_edges(double delta, double gamma, double kappa = 1.0);

/// Mass of the bulk at 0: 1 - min(1, 1/delta, 1/gamma) (model.md 5.1).
double bulk_atom(double delta, double gamma);

/// G(u + i0) = integral dnu(x)/(u - x) of nu = MP_delta [x] MP_gamma (unit mean) at real u > 0: the root of
/// delta gamma u^2 G^3 + (delta + gamma - 2 delta gamma) u G^2 + ((1 - delta)(1 - gamma) - u) G + 1 = 0
/// with the most negative imaginary part (model.md 5.1). It is solved as the monic cubic of 1/G,
/// H^3 + ((1-delta)(1-gamma) - u) H^2 + (delta + gamma - 2 delta gamma) u H + delta gamma u^2 = 0, which
/// stays well conditioned as delta gamma -> 0. Outside the support every root is real: the result is then 1/H
/// for the root H of largest modulus, which is the physical branch above the right edge (G ~ 1/u as u ->
/// infinity); below the left edge only its zero imaginary part is meaningful.
std::complex<double> bulk_cauchy_transform(double u, double delta, double gamma);

/// Density of the continuous part of the eigenvalues of S at x:
/// f(x) = -Im G(x/kappa + i0) / (pi kappa) (model.md 5.1). Zero outside [left, right] and for x <= 0;
/// it integrates to 1 - bulk_atom(delta, gamma). At a hard edge with delta = gamma > 1 (f ~ x^(-1/2)),
/// values below x ~ 1e-14 kappa are lost to the conditioning of the cubic and come back as 0 (a missing
/// mass of order 1e-7).
double bulk_density(double x, double delta, double gamma, double kappa);

/// The density at `points` midpoints x_k = left + (right - left)(k + 1/2)/points, k = 0..points-1,
/// as pairs {x_k, f(x_k)}: the curve `theory --density K` prints and plots draw. Midpoints avoid the
/// edges, where f vanishes or (left edge 0, delta = 1 or gamma = 1) diverges.
std::vector<std::array<double, 2>> bulk_density_grid(double delta, double gamma, double kappa, int points);

}  // namespace rmtsweep::theory
