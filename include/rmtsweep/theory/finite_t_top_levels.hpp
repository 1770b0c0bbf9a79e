#pragma once
/// The finite-T outlier at finite d where the top of the spectrum is a few levels (docs/finite_t.md, "A
/// finite-d model of the top levels"). Pure: measures and Gaussian draws in, expectations out; the draws
/// come from simulate/finite_t.hpp (top_level_draws).
///
/// FiniteTOutlier is the d -> infinity limit given the tokens. For single-token pooling the top of spec S is
/// one or a few eigenvalues per count level of the most frequent tokens, whose places scatter by O(d^(-1/2))
/// from one table draw to the next; the limit puts them at the top of their island and misses the snr window
/// where the signal mixes with them. Here, in the basis of Pi's eigenvectors, the table is
/// X = sum_j (sqrt(tau_j) y_j + beta_j m) q_j^T (y_j iid N(0, I_d), independent of m; beta_j^2 = omega_j).
/// The k largest tau (K) are kept exactly and the rest (R) by the limit: S = S_R + X_K X_K^T, and above
/// spec S_R, z is an eigenvalue of S iff 1 is an eigenvalue of A(z) = X_K^T (z - S_R)^(-1) X_K, with
/// eigenvector (z - S_R)^(-1) X_K c (A c = c), so its overlap with m/|m| is
/// (mhat^T (z - S_R)^(-1) X_K c)^2 / (-c^T A'(z) c). The entries of A: tr (z - S_R)^(-1) = d/zeta_R,
/// tr (z - S_R)^(-2) = d/(zeta_R^2 z_R'), mhat^T (z - S_R)^(-1) mhat = 1/(zeta_R (1 - H_R)) from R's
/// measures (the finite-T theory on R), S_R's own signal outlier (where H_R(zeta_e^R) > 1) as an explicit
/// eigenpair of weight rho; the block Y_K^T R Y_K as b I + a W (W Wishart_k(n) by Bartlett from the given
/// normals) matching its mean tr R, variance tr R^2 and third cumulant tr R^3, whose omission lowered A's top
/// by about k tr R^3/tr R^2 and made the overlap grow with k; y_j^T R m and y_j's component along S_R's
/// outlier as the given standard normals times their exact standard deviation. For `iid` tables |m|^2 = snr +
/// 2 sqrt(snr/V) g1 + chi^2_d/V and the cap (mhat^T u)^2 are drawn too (chi^2_d as d + sqrt(2d) chi).
/// The prediction is the mean over the draws. Further approximations: A'(z) is the derivative of the model's
/// own A (the same draws at every z), the forms of mhat stay at their limit, chi^2_d is drawn as a normal.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"

namespace rmtsweep::theory {

/// Standard normal draws for `count` table draws of a k-direction model.
struct TopLevelDraws {
  int k = 0;
  std::vector<double> xi;       ///< count x k x k, symmetric: N(0, 2) on the diagonal, N(0, 1) off it
  std::vector<double> g, go;    ///< count x k: y_j^T R m over S_R's bulk, y_j along S_R's outlier
  std::vector<double> g1, chi;  ///< count: u^T of the class-mean noise, the standardised chi^2_d (`iid`)
  std::size_t count() const noexcept { return g1.size(); }
};

/// One table draw of the model: lambda_1 and the top eigenvector's overlap with u.
struct TopLevelDraw {
  double top_eigenvalue = 0.0;
  double overlap = 0.0;
};

/// The model's prediction at one snr: means over the draws.
struct TopLevelPrediction {
  double top_eigenvalue = 0.0;  ///< E lambda_1
  double overlap = 0.0;         ///< E |u_hat^T u|^2 of the top eigenvector
  double overlap_error = 0.0;   ///< the draws' standard error of `overlap`
  int k = 0;                    ///< directions kept exactly
  int draws = 0;                ///< table draws averaged
};

/// The constructor's default k (the sweep takes kept_top_directions'): before the rule, the top count level
/// and most of the next at the sizes measured.
inline constexpr int default_top_levels = 10;
/// The directions the model keeps exactly, by the rule of docs/finite_t.md ("How many directions"): the count
/// levels of Pi (its atoms grouped by round(tau / level_unit); for single-token pooling level_unit = w^2/N,
/// so a level is the tokens seen equally often) from the top down, each kept while it is supercritical for
/// the rest below it, d tau_level > zeta_e of that rest (its eigenvalues stand apart from the rest's bulk,
/// with the O(d^(-1/2)) scatter the limit misses), and the first subcritical level too (at the rest's edge);
/// the levels under it lie inside the rest's bulk. At least one direction, at most the bulk's less one.
/// Throws std::invalid_argument for d < 1, level_unit <= 0 or an empty bulk.
int kept_top_directions(const SpectralMeasure& bulk, int d, double level_unit);
/// Draws per point by default. Measured at d = 2000 (`last`, 32 trials): the standard error of one point's
/// overlap is at most 0.03 in the window and under 0.005 away from it, against a simulated overlap that
/// scatters by about 0.15 from one table draw to the next there; about 2.3 ms a point on one core.
inline constexpr int default_top_level_draws = 32;

class FiniteTTopLevels {
 public:
  /// `bulk` and `signal` as FiniteTOutlier takes them (FiniteTOutlier::bulk(), signal()); a signal node
  /// belongs to the bulk atom of the same tau (within 1e-9 of the largest). Throws std::invalid_argument for
  /// k < 1, d or V < 1, a bulk of fewer than k + 1 directions, nodes and weights of different lengths, or a
  /// signal node matching no bulk atom above the rest's bulk.
  FiniteTTopLevels(const SpectralMeasure& bulk, const SpectralMeasure& signal, int d, std::int64_t vocabulary,
                   model::Table table, int k = default_top_levels);

  /// The prediction at `snr` >= 0 over `draws` (draws.k == k()).
  TopLevelPrediction at(double snr, const TopLevelDraws& draws) const;
  /// One table draw (index `i` of draws).
  TopLevelDraw draw(double snr, const TopLevelDraws& draws, std::size_t i) const;

  int k() const noexcept { return static_cast<int>(tau_.size()); }
  /// The right edge of S_R's bulk: z_R(zeta_e^R).
  double rest_edge() const noexcept { return rest_edge_.edge; }

 private:
  struct Forms;
  Forms forms(double zeta, double m2, double outlier_z, double rho) const;
  Forms smooth_forms(double zeta, double m2, double outlier_zeta, double outlier_z, double rho) const;
  double z(double zeta) const;
  double z_prime(double zeta) const;
  double g(double zeta) const;
  double minus_g_prime(double zeta) const;

  std::vector<double> tau_, beta_;  ///< K: the k largest tau and beta_j = sqrt(omega_j) (0 without weight)
  SpectralMeasure rest_, rest_signal_;
  int d_;
  double vocabulary_;
  model::Table table_;
  EdgePoint rest_edge_;
};

}  // namespace rmtsweep::theory
