#pragma once
/// One point of model.md simulated on the ranks of a communicator with ScaLAPACK.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/finite_t_top_levels.hpp"

namespace rmtsweep::simulate {

/// How S is formed and decomposed: `panels` streams panels of pooled vectors through dsyrk into
/// the d x d covariance, `tokens` forms the same S through the vocabulary (S = H E^T / N; weights
/// independent of the data only), `gram` uses the N x N Gram matrix.
/// `automatic` takes the Gram matrix when N < d, else `tokens` where PooledSequences::tokens_pay,
/// else `panels`. Forcing one is for tests (all give the same spectrum on the same data).
enum class CovariancePath { automatic, panels, tokens, gram };

/// "panels", "tokens", "gram" (and "automatic").
const char* to_string(CovariancePath path) noexcept;

/// (addition) How the top eigenpairs and the ridge are computed: `dense` forms S (or the Gram
/// matrix) and reduces it; `krylov` applies S = E M E^T through the table without forming it
/// (block Lanczos: the eigenpairs and the ridge solve from one Krylov basis, memory about the
/// table's; src/simulate/block_lanczos.hpp); `automatic` takes krylov where no full spectrum is
/// asked and krylov_pays says it is faster.
enum class Engine { automatic, dense, krylov };

/// "automatic", "dense", "krylov".
const char* to_string(Engine engine) noexcept;

/// What to measure beside the point's parameters.
struct SimulationOptions {
  int k = 4;               ///< top eigenvalues / eigenvectors measured
  double ridge = 0.1;      ///< ridge lambda in units of kappa (model.md section 6)
  long long ntest = 0;     ///< test sequences for the ridge classifier; 0 means N
  bool spectrum = false;   ///< return all d eigenvalues of S
  CovariancePath path = CovariancePath::automatic;  ///< (addition) which decomposition
  /// (addition) Which library reduces S (or the Gram matrix) on a group of several ranks:
  /// automatic takes ELPA where parallel::elpa_applies. Forcing one is for tests and benchmarks.
  parallel::EigenSolver eigensolver = parallel::EigenSolver::automatic;
  /// (addition) Where to take the noise table from: a cache kept across the points of a sweep,
  /// so that points sharing a table (same seed, trial, d, delta, table) draw it once; null draws
  /// it for this point. The results are the same either way.
  TableCache* tables = nullptr;
  Engine engine = Engine::automatic;  ///< (addition) dense or matrix-free Krylov (see Engine)
  /// (addition) Krylov: the most products of S (each vector of a block counts) before the point
  /// is recomputed densely (PointResult::fell_back); 0 means a default of 2000 + 100 k.
  long long krylov_budget = 0;
  /// (addition) Krylov: the block size of block Lanczos, vectors per product of S (a line's engine
  /// takes at least 4); 0 means default_block (src/simulate/krylov_settings.hpp).
  int krylov_block = 0;
  /// Where to keep the finite-T outlier of the point's line (simulate/finite_t.hpp) across the points
  /// of a sweep that share it (all snr of one line); null builds it for this point. Results are the same.
  FiniteTCache* finite_t = nullptr;
};

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
  std::vector<double> top_eigenvalues;       ///< the k largest eigenvalues of S, descending
  std::vector<double> overlaps;              ///< |u_j^T u|^2 of the matching eigenvectors
  double overlap = 0.0;                      ///< overlaps[0]
  double ridge_accuracy = 0.0;               ///< fraction of test sequences classified right
  std::optional<double> weights_deviation;   ///< causal:tau only: mean_n ||w_n - w(tau)||_1
  StageSeconds seconds;
  CovariancePath path = CovariancePath::automatic;  ///< how S was formed: panels, tokens or gram
  parallel::Reducer eigensolver = parallel::Reducer::lapack;  ///< what reduced S (or K)
  /// Whether the Krylov engine computed the point (S never formed).
  bool krylov() const noexcept { return parallel::is_krylov(eigensolver); }
  std::vector<double> eigenvalues;           ///< all d eigenvalues ascending, with options.spectrum
  long long products = 0;                    ///< (addition) Krylov: products of S, each block vector counted
  double residual = 0.0;                     ///< (addition) Krylov: max_j ||S x_j - l_j x_j|| / |l_j|, top k
  bool fell_back = false;                    ///< (addition) Krylov did not converge; recomputed densely
  /// The finite-T theory of the point's own token draws at its snr (simulate/finite_t.hpp; docs/finite_t.md),
  /// absent where simulate::finite_t_computed says it is not computed, or where it failed (rank 0 then warns
  /// on stderr; the measurements stand).
  std::optional<theory::FiniteTPrediction> finite_t;
  /// The finite-d model of the top levels (theory/finite_t_top_levels.hpp) where finite_t_levels_computed;
  /// absent elsewhere and where it failed (rank 0 then warns; finite_t stands).
  std::optional<theory::TopLevelPrediction> finite_t_levels;
};

/// The most products of S the Krylov engine makes for a point or a line (each vector of a block counted):
/// options.krylov_budget, or 2000 + 100 k where it is 0.
long long krylov_budget(const SimulationOptions& options) noexcept;

/// Simulates one point on all ranks of `comm` (collective). The result is the same on every
/// rank of `comm`, and does not depend on the number of ranks beyond floating-point summation
/// order. Throws (ScalapackError, MpiError, ...) on failure, on every rank alike.
PointResult simulate_point(const model::PointParams& params, const SimulationOptions& options, MPI_Comm comm);

/// Refuses (InvalidOption on gamma or delta, the value formatted) a point whose N sequences or V tokens do
/// not fit ScaLAPACK's 32-bit indices (below 2^31), which model::validate allows (the theory takes up to
/// 1e15): what `run` and `point` check up front, before any point is computed, and simulate_point again.
void check_simulable_sizes(const model::PointParams& params);

/// (addition) Whether the Krylov engine is expected to be faster than the dense one for this
/// point (options.spectrum must be false), by a cost model measured on this machine
/// (krylov_point.cpp).
bool krylov_pays(const model::PointParams& params, const SimulationOptions& options, int ranks);

/// Whether the dense path's S (or K) and its workspace fit in this node's available memory on `ranks` ranks
/// (reads /proc/meminfo; true where it cannot be read).
bool dense_fits_on(const model::PointParams& params, int ranks);

/// Whether simulate_point takes the Krylov engine for this point on `ranks` ranks: options.engine
/// krylov, or automatic where krylov_pays (which reads this node's free memory).
bool takes_krylov(const model::PointParams& params, const SimulationOptions& options, int ranks);

/// The two engines' modelled costs of a point's covariance and eigen stages, in dgemm flops of the
/// dense path (krylov_pays compares them; the sweep orders its points by them).
struct EngineCosts {
  double dense = 0.0;
  double krylov = 0.0;
};
EngineCosts engine_costs(const model::PointParams& params, const SimulationOptions& options);

/// krylov_pays without its memory check (no file read, a few flops): no spectrum asked and the
/// Krylov engine's modelled cost below the dense one's. For ordering a sweep's points, where it is
/// evaluated for every point.
bool krylov_modelled_faster(const model::PointParams& params, const SimulationOptions& options);

}  // namespace rmtsweep::simulate
