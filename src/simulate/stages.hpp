#pragma once
// The stages of simulate_point, shared by its translation units (private to src/simulate).
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

namespace rmtsweep::simulate {

/// Columns per streamed panel: wide enough for an efficient pdsyrk, small enough that the
/// panel (d x 512) stays far below S (d x d) in memory.
inline constexpr int panel_width = 512;

/// The global row index of each local row of `m`.
inline std::vector<std::size_t> global_rows(const parallel::DistributedMatrix& m) {
  std::vector<std::size_t> rows(static_cast<std::size_t>(m.local_rows()));
  for (std::size_t lr = 0; lr < rows.size(); ++lr) {
    rows[lr] = static_cast<std::size_t>(m.row_map().to_global(static_cast<int>(lr)));
  }
  return rows;
}

/// The slowest rank's stage times, so that every rank of `comm` reports the same (collective).
inline StageSeconds slowest_rank(const StageSeconds& mine, MPI_Comm comm) {
  double seconds[5] = {mine.generate, mine.covariance, mine.eigen, mine.ridge, mine.total};
  parallel::all_max(std::span<double>(seconds), comm);
  StageSeconds slowest = mine;
  slowest.generate = seconds[0];
  slowest.covariance = seconds[1];
  slowest.eigen = seconds[2];
  slowest.ridge = seconds[3];
  slowest.total = seconds[4];
  return slowest;
}

struct PointContext {
  const model::PointParams& params;
  const SimulationOptions& options;
  std::shared_ptr<const parallel::BlacsGrid> grid;
  int N = 0;            ///< training sequences
  double lambda = 0.0;  ///< ridge lambda = ridge * kappa (model.md section 6)
  StageSeconds seconds{};
};

/// What the covariance and eigen stages leave for the result and the ridge test.
struct Measurements {
  std::vector<double> eigenvalues;  ///< all d eigenvalues of S, ascending (same on every rank)
  std::vector<double> overlaps;     ///< |u_j^T e_1|^2 of the top eigenvectors, largest first
  std::vector<double> beta;         ///< ridge coefficients (d, replicated)
  std::vector<double> mean;         ///< training mean c-bar (d, replicated)
  double deviation_sum = 0.0;       ///< causal:tau: this rank's share of sum_n ||w_n - w(tau)||_1
  CovariancePath path = CovariancePath::automatic;  ///< panels, tokens or gram
  bool elpa = false;                                ///< whether ELPA reduced S (or K)
};

/// The centred sample covariance S (lower triangle, d x d), the training mean c-bar and the ridge's
/// right-hand side b = (1/N) sum (c_n - c-bar) y_n (model.md sections 1.2 and 6), formed by panels
/// (dsyrk) or through the vocabulary (PooledSequences::tokens_pay).
struct FormedCovariance {
  parallel::DistributedMatrix s;
  std::vector<double> mean;    ///< c-bar (d, replicated)
  std::vector<double> rhs;     ///< b (d, replicated)
  double deviation_sum = 0.0;  ///< causal:tau, as Measurements::deviation_sum
  CovariancePath path = CovariancePath::panels;
};
FormedCovariance form_covariance(PointContext& context, const PooledSequences& pooled);

/// The centred pooled vectors C~ = [c_n - c-bar] (d x N) and c-bar, for the Gram path (N < d).
struct CentredData {
  parallel::DistributedMatrix c;
  std::vector<double> mean;    ///< c-bar (d, replicated)
  double deviation_sum = 0.0;  ///< causal:tau, as Measurements::deviation_sum
};
CentredData centred_data(PointContext& context, const PooledSequences& pooled);

/// N >= d: S = (1/N) sum (c - c-bar)(c - c-bar)^T streamed by panels with pdsyrk (memory
/// independent of N) or, where PooledSequences::tokens_pay, through the vocabulary, eigen of S, and the ridge
/// solve (S + lambda I) beta = b from the same tridiagonal reduction S = Q T Q^T (dptsv on T + lambda I; no
/// copy of S), or, where ELPA reduces S (groups of several ranks), by pdposv on a copy.
Measurements direct_path(PointContext& context, const PooledSequences& pooled);

/// N < d: the centred data C~ (d x N) and its Gram K = C~^T C~ / N; S has K's eigenvalues
/// plus d - N zeros, eigenvectors C~ v / sqrt(N lambda); ridge through the push-through
/// identity beta = C~ (K + lambda I)^{-1} y / N.
Measurements gram_path(PointContext& context, const PooledSequences& pooled);

/// The Krylov engine's point (krylov_point.cpp) and whether it converged within the budget; when
/// not, only the solver fields (products, residual, top eigenvalues so far) are meaningful.
struct KrylovOutcome {
  PointResult result;
  bool converged = false;
};
KrylovOutcome krylov_point(const model::PointParams& params, const SimulationOptions& options, MPI_Comm comm);

/// The finite-T predictions (simulate/finite_t.hpp) of the line of `params` (its snr aside) at each of `snr`:
/// the outlier built once on rank 0 of `comm` (through options.finite_t where set) and broadcast, so that
/// every rank holds the same bits. The theory is beside the measurement, not part of it: where it is not
/// computed (finite_t_computed) or fails (a Lanczos run that does not converge, memory; rank 0 then says so
/// on stderr) the values are absent and the points keep their measurements. With them, where
/// finite_t_levels_computed, the finite-d model of the top levels from the same measures.
struct FiniteTPoint {
  std::optional<theory::FiniteTPrediction> finite_t;
  std::optional<theory::TopLevelPrediction> levels;
};
std::vector<FiniteTPoint> finite_t_predictions(const model::PointParams& params, std::span<const double> snr,
                                               const SimulationOptions& options, MPI_Comm comm);

/// Fraction of ntest fresh sequences (test streams, same table) with
/// sign(beta^T (c - c-bar)) = y (model.md section 6).
double test_accuracy(PointContext& context, const PooledSequences& pooled, const std::vector<double>& beta,
                     const std::vector<double>& mean, std::int64_t ntest);

}  // namespace rmtsweep::simulate
