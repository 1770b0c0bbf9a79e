#pragma once
/// The two spectral measures of the finite-T theory (finite_t_outlier.hpp) from a trial's sparse token Gram,
/// at any size: docs/finite_t.md §7, "The bulk at any size", states the method and its accuracy. Pure
/// numerics: the random signs of the probes come from the caller (ProbeSigns), so this layer draws nothing
/// itself.
///
/// - The signal measure (tau_j, omega_j) is the Gauss quadrature of G(zeta) = r^T (zeta - d K)^(-1) r from a
///   Lanczos run on K from r (exact: it stops when G and G' no longer change at a zeta below every zeta
///   used).
/// - The bulk (the counting measure of spec Pi) is exact where it is cheap (dense_bulk_limit: one values-only
///   eigenvalue problem of size min(V, N)). Above, it is the top `deflated` eigenvalues of the smaller side
///   (Spectra's implicitly restarted Lanczos), each with weight 1, plus a stochastic Lanczos quadrature of
///   the rest: Rademacher probes projected off those eigenvectors, each run's Gauss nodes with weight
///   |probe|^2 (first component)^2 / probes, the weights then tilted (w_i exp(lambda . h(x_i)), h = the
///   powers 0..4 of x) so that the measure's first five moments equal the rest's exact ones
///   (TokenGram::trace_powers minus the deflated eigenvalues'). Probes are added in rounds until the
///   jackknife standard error over eight batches of probes, relative, of the edge z(zeta_e) and of
///   1/G(zeta_e) is at most `tolerance`.
#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/token_gram.hpp"

namespace rmtsweep::theory {

/// min(V, N) up to which the bulk is the exact spectrum (a dense values-only eigenvalue problem: about 0.5 s
/// at 2000 on one core); above it, the quadrature.
inline constexpr std::size_t dense_bulk_limit = 2000;

/// Steps of a Lanczos run (the signal's, or a probe's) before it gives up with NumericalFailure.
inline constexpr int max_quadrature_steps = 600;

struct BulkQuadratureOptions {
  int deflated = 32;              ///< top eigenpairs kept exactly
  double eigen_tolerance = 1e-8;  ///< their residuals, relative (their errors enter the traces squared)
  int first_probes = 32;          ///< probes of the first round (a multiple of 16, a block of probes)
  int max_probes = 512;           ///< probes at most; each round adds what the errors ask for
  double tolerance = 2.5e-5;      ///< asked relative standard error of the edge and of 1/G(zeta_e)
};

/// Fills `out` (the Gram's dimension on the side used) with the +-1 signs of probe `index`.
using ProbeSigns = std::function<void(std::size_t index, std::span<double> out)>;

/// The measures and what they cost.
struct GramMeasures {
  SpectralMeasure bulk;          ///< the counting measure of spec Pi, or its quadrature
  SpectralMeasure signal;        ///< (tau_j, omega_j) of b = B s, Gauss quadrature nodes and weights
  bool exact_bulk = true;        ///< the dense spectrum (no probes)
  int deflated = 0;              ///< top eigenvalues kept exactly (quadrature)
  int probes = 0;                ///< probes used (quadrature)
  int calibrated_moments = 0;    ///< moments the quadrature's weights were tilted to (highest power + 1)
  double edge_error = 0.0;       ///< jackknife relative standard error of z(zeta_e); 0 when exact
  double threshold_error = 0.0;  ///< the same for 1/G(zeta_e)
};

/// The signal measure: Lanczos on K from r = TokenGram::signal_start(), with full reorthogonalisation, until
/// G and G' at zeta_min (> d max tau) change by less than 1e-14 relative on two steps running or the Krylov
/// space is exhausted. Empty where r = 0 (no signal survives the pooling). Throws NumericalFailure past
/// max_quadrature_steps.
SpectralMeasure signal_measure(const TokenGram& gram, int d, double zeta_min);

/// Both measures of a trial with several pooled tokens: the bulk exact up to dense_bulk_limit, else by the
/// quadrature with `signs` as its probes (used only there).
GramMeasures token_gram_measures(const TokenGram& gram, int d, const ProbeSigns& signs,
                                 const BulkQuadratureOptions& options = {});

}  // namespace rmtsweep::theory
