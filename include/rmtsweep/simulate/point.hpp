#pragma once
/// One point of model.md simulated on the ranks of a communicator with ScaLAPACK.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/eigen_kinds.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/simulate/options.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/finite_t_top_levels.hpp"

namespace rmtsweep::simulate {

/// Wall-clock seconds of each stage of one point.
struct StageSeconds {
  double generate = 0.0;
  double covariance = 0.0;
  double eigen = 0.0;
  double ridge = 0.0;
  double total = 0.0;
  double finite_t = 0.0;  ///< the finite-T theory of the point's token draws (in total; ~0 when cached)
};

/// The measurements of one point.
struct PointResult {
  std::vector<double> top_eigenvalues;      ///< the k largest eigenvalues of S, descending
  std::vector<double> overlaps;             ///< |u_j^T u|^2 of the matching eigenvectors
  double overlap = 0.0;                     ///< overlaps[0]
  double ridge_accuracy = 0.0;              ///< fraction of test sequences classified right
  std::optional<double> weights_deviation;  ///< causal:tau only: mean_n ||w_n - w(tau)||_1
  StageSeconds seconds;
  CovariancePath path = CovariancePath::automatic;            ///< how S was formed: panels, tokens or gram
  parallel::Reducer eigensolver = parallel::Reducer::lapack;  ///< what reduced S (or K)
  /// Whether the Krylov engine computed the point (S never formed).
  bool krylov() const noexcept { return parallel::is_krylov(eigensolver); }
  std::vector<double> eigenvalues;  ///< all d eigenvalues ascending, with options.spectrum
  long long products = 0;           ///< Krylov: products of S, each block vector counted
  double residual = 0.0;            ///< Krylov: max_j ||S x_j - l_j x_j|| / |l_j|, top k
  bool fell_back = false;           ///< Krylov did not converge; recomputed densely
  /// The finite-T theory of the point's own token draws at its snr (simulate/finite_t.hpp; docs/finite_t.md),
  /// absent where simulate::finite_t_computed says it is not computed, where the options leave it out
  /// (SimulationOptions::finite_t_theory), or where it failed (rank 0 then warns on stderr; the measurements
  /// stand).
  std::optional<theory::FiniteTPrediction> finite_t;
  /// The finite-d model of the top levels (theory/finite_t_top_levels.hpp) where finite_t_levels_computed;
  /// absent elsewhere and where it failed (rank 0 then warns; finite_t stands).
  std::optional<theory::TopLevelPrediction> finite_t_levels;
};

/// Simulates one point on all ranks of `comm` (collective). The result is the same on every
/// rank of `comm`, and does not depend on the number of ranks beyond floating-point summation
/// order. Throws (ScalapackError, MpiError, ...) on failure, on every rank alike.
PointResult simulate_point(const model::PointParams& params, const SimulationOptions& options, MPI_Comm comm);

}  // namespace rmtsweep::simulate
