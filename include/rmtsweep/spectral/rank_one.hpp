#pragma once
/// The eigenproblem of a diagonal matrix plus a positive rank-one term whose vector is affine in a
/// parameter r >= 0 (the signal amplitude sqrt(snr)):
///
///   M(r) = diag(poles) + rho z(r) z(r)^T,   z(r) = r g + a.
///
/// This is how a whole line of snr values looks in the eigenbasis of its snr-free part
/// (docs/model.md section 9): S(r) = S0' + q v v^T with v = r u + p / q (direct form), or the
/// N x N Gram K(r) = K0' + m m^T / N with m = c0 + r sigma (Gram form). Per r the eigenvalues are
/// the roots of the secular equation 1 + rho sum_i z_i^2 / (poles_i - lambda) = 0, one per interval
/// between consecutive poles (LAPACK's dlaed4), after deflating the components that cannot move
/// (zero z_i, repeated poles: LAPACK's dlaed2). Pure functions of numbers: no MPI, no I/O.
#include <span>
#include <vector>

namespace rmtsweep::spectral {

/// How the overlap |x^T u|^2 of an eigenvector of the original matrix with the signal direction u
/// follows from an eigenvector x of M(r).
enum class OverlapForm {
  /// M is S itself in its snr-free eigenbasis: overlap = (w^T g)^2 for the unit eigenvector w of M
  /// (g = Q^T u, the signal direction in that basis).
  direct,
  /// M is the Gram matrix K = C^T C / N and u's row of C is sqrt(N) z(r)^T Q^T: the eigenvector
  /// C w / sqrt(N lambda) of S has overlap (w^T z)^2 rho / lambda (0 where lambda = 0).
  gram,
};

/// One line: the snr-free part's eigenvalues and the two vectors of the update, in its eigenbasis.
struct RankOneLine {
  std::vector<double> poles;   ///< eigenvalues of the snr-free part, ascending
  std::vector<double> signal;  ///< g: the part of z proportional to r
  std::vector<double> offset;  ///< a: the part of z at r = 0
  double rho = 1.0;            ///< > 0
  OverlapForm form = OverlapForm::direct;

  std::size_t size() const noexcept { return poles.size(); }
  /// Throws std::invalid_argument unless the three vectors have one length, poles ascend and rho > 0.
  void check() const;
};

/// The same line in a form that does not depend on how its eigenbasis was computed (the basis of a repeated
/// eigenvalue and each eigenvector's sign are arbitrary: LAPACK and ScaLAPACK, or different process grids,
/// pick different ones). Within each cluster of poles equal to rounding (dlaed2's tolerance: the d - V or d -
/// N zeros of a rank-deficient S0', repeated eigenvalues) the vectors are rotated so that g has one nonzero
/// component (the cluster's last) and a two (its last two); then every component is signed so that g_i >= 0
/// (a_i >= 0 where g_i = 0). M(r)'s eigenvalues, overlaps and level crossings are unchanged: the rotations
/// act within eigenspaces.
RankOneLine canonical(RankOneLine line);

/// What one value of r gives.
struct RankOneSolution {
  std::vector<double> top;       ///< the k largest eigenvalues of M(r), descending
  std::vector<double> overlaps;  ///< the overlap of each of them (OverlapForm)
  std::vector<double> all;       ///< every eigenvalue, ascending (only when asked)
};

/// The k largest eigenvalues of M(r) and their overlaps, and every eigenvalue when `all_values`:
/// O(n) for the deflation and O(n) per root (dlaed4); all n roots cost O(n^2).
RankOneSolution solve(const RankOneLine& line, double r, int k, bool all_values = false);

/// Where the largest eigenvalue of M(r) exceeds a level L, as a set of r >= 0. For L above the
/// largest pole, lambda_1(r) > L  <=>  rho z(r)^T (L - D)^{-1} z(r) > 1, a quadratic condition
/// A r^2 + 2 B r + C > 1 in r: the set is r outside [r_minus, r_plus] (the quadratic's roots). For L
/// at or below the largest pole lambda_1 >= the largest pole (interlacing) detects every r.
struct LevelCrossing {
  /// The smallest r from which every larger r is detected: max(r_plus, 0); 0 when every r is;
  /// +infinity when no r >= 0 beyond some point is (only where g = 0).
  double r_from = 0.0;
  /// Whether r = 0 itself is detected.
  bool at_zero = false;
  /// Detected on [0, r_below) too, below an undetected stretch (a "dip"): r_below > 0 only then.
  double r_below = 0.0;
};
LevelCrossing level_crossing(const RankOneLine& line, double level);

}  // namespace rmtsweep::spectral
