#pragma once
/// What a point's simulation measures and how (SimulationOptions) and the names of its choices: plain values,
/// no MPI, so that config/ builds them from a sweep's settings without the engine's headers.
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/eigen_kinds.hpp"

namespace rmtsweep::simulate {

class TableCache;    // noise_table.hpp
class FiniteTCache;  // finite_t.hpp

/// How S is formed and decomposed: `panels` streams panels of pooled vectors through dsyrk into
/// the d x d covariance, `tokens` forms the same S through the vocabulary (S = H E^T / N; weights
/// independent of the data only), `gram` uses the N x N Gram matrix.
/// `automatic` takes the Gram matrix when N < d, else `tokens` where PooledSequences::tokens_pay,
/// else `panels`. Forcing one is for tests (all give the same spectrum on the same data).
enum class CovariancePath { automatic, panels, tokens, gram };

/// "panels", "tokens", "gram" (and "automatic").
const char* to_string(CovariancePath path) noexcept;

/// How the top eigenpairs and the ridge are computed: `dense` forms S (or the Gram
/// matrix) and reduces it; `krylov` applies S = E M E^T through the table without forming it
/// (block Lanczos: the eigenpairs and the ridge solve from one Krylov basis, memory about the
/// table's; src/simulate/block_lanczos.hpp); `automatic` leaves the choice to the engine policy
/// (engine.hpp: choose_engine).
enum class Engine { automatic, dense, krylov };

/// "automatic", "dense", "krylov".
const char* to_string(Engine engine) noexcept;

/// What to measure beside the point's parameters.
struct SimulationOptions {
  int k = 4;                                        ///< top eigenvalues / eigenvectors measured
  double ridge = 0.1;                               ///< ridge lambda in units of kappa (model.md section 6)
  long long ntest = 0;                              ///< test sequences for the ridge classifier; 0 means N
  bool spectrum = false;                            ///< return all d eigenvalues of S
  CovariancePath path = CovariancePath::automatic;  ///< which decomposition
  /// Which library reduces S (or the Gram matrix) on a group of several ranks:
  /// automatic takes ELPA where parallel::elpa_applies. Forcing one is for tests and benchmarks.
  parallel::EigenSolver eigensolver = parallel::EigenSolver::automatic;
  /// Where to take the noise table from: a cache kept across the points of a sweep,
  /// so that points sharing a table (same seed, trial, d, delta, table) draw it once; null draws
  /// it for this point. The results are the same either way.
  TableCache* tables = nullptr;
  Engine engine = Engine::automatic;  ///< dense or matrix-free Krylov (see Engine)
  /// Krylov: the most products of S (each vector of a block counts) before the point
  /// is recomputed densely (PointResult::fell_back); 0 means a default of 2000 + 100 k.
  long long krylov_budget = 0;
  /// Krylov: the block size of block Lanczos, vectors per product of S (a line's engine
  /// takes at least 4); 0 means default_block (src/simulate/krylov_settings.hpp).
  int krylov_block = 0;
  /// Where to keep the finite-T outlier of the point's line (simulate/finite_t.hpp) across the points
  /// of a sweep that share it (all snr of one line); null builds it for this point. Results are the same.
  FiniteTCache* finite_t = nullptr;
  /// Whether a point or line carries the finite-T theory of its own token draws beside its measurements
  /// (PointResult::finite_t and finite_t_levels; docs/finite_t.md). A sweep always does; a caller that reads
  /// only the measurements and the paper's theory may leave it out, which at d = 1000 is about half the time.
  bool finite_t_theory = true;
};

/// The most products of S the Krylov engine makes for a point or a line (each vector of a block counted):
/// options.krylov_budget, or 2000 + 100 k where it is 0.
long long krylov_budget(const SimulationOptions& options) noexcept;

/// Refuses (InvalidArgument on gamma or delta, the value formatted) a point whose N sequences or V tokens do
/// not fit ScaLAPACK's 32-bit indices (below 2^31), which model::validate allows (the theory takes up to
/// 1e15): what `run` and `point` check up front (config/), before any point is computed, and simulate_point
/// again.
void check_simulable_sizes(const model::PointParams& params);

}  // namespace rmtsweep::simulate
