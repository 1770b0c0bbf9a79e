#pragma once
/// The signal outlier of S and its overlap at a finite number of pooled tokens, conditional on the token
/// draws (docs/finite_t.md, which derives it; model.md 5.6 is the same theory written differently for
/// `iid` tables). Pure functions of numbers: no MPI, no HDF5, no random draws. What turns a trial's
/// token draws into the numbers below lives in simulate/finite_t.hpp.
///
/// Given the tokens, S = (1/N) E A P A^T E^T (P = I - 1 1^T/N, A the V x N pooling weights at tokens,
/// E = Z + sqrt(snr) u s^T the table). With Sigma = A P A^T/N, B = Sigma^(1/2), Q = I - (1 1^T + s s^T)/V
/// and b = B s, the table splits exactly (B 1 = 0, Z Q and Z s independent Gaussians) into
///   X = E B = Z Q B + m b^T,   m = Z s/V + sqrt(snr) u,
/// the `centered` table's noise Z Q B plus a rank-one signal along m: m = sqrt(snr) u for `centered`, and
/// for `iid` a random vector with |m|^2 = snr + d/V (the class-mean noise, model.md 5.2's theta) and
/// (m^T u)^2/|m|^2 = snr/(snr + d/V) (its cap). The noise's population is Pi = B Q B, whose nonzero
/// eigenvalues tau_j are those of Q Sigma Q (theory::token_gram_spectrum), and with
/// G(zeta) = b^T (zeta - d Pi)^(-1) b = sum_j omega_j/(zeta - d tau_j), omega_j = (q_j^T b)^2:
///   z(zeta) = zeta (1 + sum_j tau_j/(zeta - d tau_j)),    z'(zeta) = 1 - d sum_j tau_j^2/(zeta - d tau_j)^2,
///   H(zeta) = snr_eff G(zeta),   snr_eff = snr (+ d/V for `iid`).
/// z has its minimum at zeta_e > d max tau; z(zeta_e) is the finite-T right edge (finite_t_bulk.hpp). The
/// outlier exists iff H(zeta_e) > 1, at lambda = z(zeta*) with H(zeta*) = 1 (H decreases on (zeta_e, inf)),
/// with overlap z'(zeta*)/(zeta* |H'(zeta*)|) with m/|m| (times snr/snr_eff with u for `iid`); the sample
/// threshold is snr_c = 1/G(zeta_e) (- d/V for `iid`).
#include <cstdint>
#include <span>
#include <vector>

#include "rmtsweep/model/params.hpp"

namespace rmtsweep::theory {

/// A positive measure on [0, inf) with finitely many atoms: nodes[i] with mass weights[i].
struct SpectralMeasure {
  std::vector<double> nodes;
  std::vector<double> weights;
};

/// The counting measure of `values` (an eigenvalue spectrum): equal values merged into one node whose
/// weight is their multiplicity, values <= 0 dropped (they add nothing to z, z' or G), nodes ascending.
SpectralMeasure counting_measure(std::span<const double> values);

/// zeta_e, where z(zeta) is smallest, and the finite-T right edge z(zeta_e) of a bulk measure (the bisection
/// of finite_t_edge, finite_t_bulk.hpp, on merged atoms). Throws std::invalid_argument without a positive
/// atom.
struct EdgePoint {
  double zeta = 0.0;
  double edge = 0.0;
};
EdgePoint finite_t_edge_point(const SpectralMeasure& bulk, int d);

/// The sums the theory is made of, for zeta > d max node: z(zeta) and z'(zeta) of a bulk measure, G(zeta) and
/// -G'(zeta) of a signal measure (the formulas at the top of this file). FiniteTOutlier evaluates them on its
/// measures, FiniteTTopLevels (finite_t_top_levels.hpp) on the rest of its.
double finite_t_z(const SpectralMeasure& bulk, int d, double zeta);
double finite_t_z_prime(const SpectralMeasure& bulk, int d, double zeta);
double finite_t_g(const SpectralMeasure& signal, int d, double zeta);
double finite_t_minus_g_prime(const SpectralMeasure& signal, int d, double zeta);

/// The signal outlier of a bulk and a signal measure at signal strength `strength` (|m|^2), where
/// strength G(edge_zeta) > 1: zeta with strength G(zeta) = 1, bisected on [edge_zeta, hi] to adjacent
/// doubles; its eigenvalue z(zeta); and its overlap with m/|m|, the residue z'(zeta)/(zeta strength
/// |G'(zeta)|). FiniteTOutlier::at takes it for the whole spectrum, FiniteTTopLevels for the rest of its.
struct SignalOutlier {
  double zeta = 0.0;
  double eigenvalue = 0.0;
  double overlap = 0.0;
};
SignalOutlier finite_t_signal_outlier(const SpectralMeasure& bulk, const SpectralMeasure& signal, int d,
                                      double edge_zeta, double strength);

/// What the finite-T theory predicts for one point.
struct FiniteTPrediction {
  double top_eigenvalue = 0.0;   ///< the outlier lambda where detectable, else the finite-T right edge
  double overlap = 0.0;          ///< |u_hat^T u|^2; 0 where not detectable
  double threshold_snr = 0.0;    ///< the sample threshold in snr, clipped at 0 (as model.md 5.2's)
  double bulk_edge_right = 0.0;  ///< z(zeta_e): the finite-T right edge (finite_t_bulk.hpp)
  bool detectable = false;       ///< H(zeta_e) > 1
};

/// The finite-T outlier of one trial's token draws, for every snr. Building it costs O(atoms) plus a
/// bisection; at() a bisection over the atoms (microseconds to milliseconds).
class FiniteTOutlier {
 public:
  /// `bulk`: spec Pi as a counting measure (the nonzero tau_j with multiplicities, counting_measure of
  /// token_gram_spectrum). `signal`: the spectral measure of b = B s under Pi, i.e. nodes tau_j and
  /// weights omega_j = (q_j^T B s)^2 (s the unnormalised +-1 class signs), or Gauss-quadrature nodes
  /// and weights that reproduce G on [zeta_e, inf). d, V and the table as in model.md 1. Throws
  /// std::invalid_argument for a bulk without a positive atom, nodes and weights of different lengths, a
  /// negative weight or a signal node at or above the edge's pole region (d max tau).
  FiniteTOutlier(SpectralMeasure bulk, SpectralMeasure signal, int d, std::int64_t vocabulary,
                 model::Table table);

  /// The prediction at `snr` >= 0.
  FiniteTPrediction at(double snr) const;
  /// The sample threshold in snr, clipped at 0.
  double threshold_snr() const;
  /// The threshold before clipping: 1/G(zeta_e) - d/V (`iid`) or 1/G(zeta_e) (`centered`). Infinite when
  /// G(zeta_e) = 0 (the pooled signal vanishes).
  double raw_threshold_snr() const;
  /// z(zeta_e), the finite-T right edge: finite_t_edge of the same tau up to summation order.
  double bulk_edge_right() const { return edge_; }
  /// zeta_e, where z is smallest.
  double edge_zeta() const { return edge_zeta_; }
  /// The two measures it was built from (after counting_measure's merging and the constructor's checks):
  /// spec Pi with multiplicities, and the spectral measure (tau_j, omega_j) of b = B s. What a finite-d model
  /// of the top levels takes (docs/finite_t.md, "A finite-d model of the top levels").
  const SpectralMeasure& bulk() const noexcept { return bulk_; }
  const SpectralMeasure& signal() const noexcept { return signal_; }

  /// The pieces, for tests and docs: z(zeta), z'(zeta), G(zeta) and -G'(zeta) for zeta > d max tau.
  double z(double zeta) const;
  double z_prime(double zeta) const;
  double g(double zeta) const;
  double minus_g_prime(double zeta) const;

 private:
  SpectralMeasure bulk_, signal_;
  int d_;
  double noise_snr_;  ///< d/V for `iid` (the class-mean noise), 0 for `centered`
  double edge_zeta_ = 0.0, edge_ = 0.0;
};

}  // namespace rmtsweep::theory
