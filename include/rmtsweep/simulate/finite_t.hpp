#pragma once
/// The finite-T outlier theory (theory/finite_t_outlier.hpp, docs/finite_t.md) for a point's own token
/// draws: what turns a trial's draws into the numbers the theory takes. No MPI, no HDF5.
///
/// One call per (seed, trial, d, delta, gamma, T, weighting, correlation, table): the token draws, and
/// so the returned theory::FiniteTOutlier, do not depend on snr; evaluate it at each snr of the line
/// with FiniteTOutlier::at. Cost: for one nonzero weight (`last`, a custom weighting on one position)
/// O(N T) to draw plus O(V log V), milliseconds at d = 2000 and about two seconds at d = 10^6; with
/// several, the measures of theory/gram_quadrature.hpp on the sparse token Gram (theory/token_gram.hpp).
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <span>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/finite_t_top_levels.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"

namespace rmtsweep::simulate {

/// A trial's training tokens at the positions whose weight is nonzero (the terms of every pooled vector).
struct PooledTokens {
  std::vector<double> weights;       ///< w_t of each term (model::pooling_weights, `causal:tau` its w(tau))
  std::vector<std::int64_t> tokens;  ///< sequences x terms, row-major: sequence n's tokens at the terms
  std::int64_t vocabulary = 0;       ///< V; tokens below V/2 have class +1, the others -1 (model.md 1.1)
  std::int64_t sequences() const {
    return weights.empty() ? 0 : static_cast<std::int64_t>(tokens.size() / weights.size());
  }
};

/// The point's training signs and tokens exactly as simulate_point draws them (simulate::draw_signs and
/// draw_tokens on random::CounterRng(seed, trial), training streams), kept at the terms only.
PooledTokens draw_pooled_tokens(const model::PointParams& params);

/// tau for a point's own training draws (draw_pooled_tokens) and its deterministic weights (`causal:tau`
/// its w(tau)): theory::token_gram_spectrum with the table directions 1 and s removed, the bulk of the
/// finite-T edge (model.md 5.5).
std::vector<double> token_gram_spectrum(const model::PointParams& params);

/// The peak bytes token_gram_spectrum(params) allocates, for a refusal before it starts (unrefused, d = 1e5
/// ended in std::bad_alloc and 1e7 grew for a minute first): the N x T tokens (8 bytes each) and
/// their per-sequence columns (16 bytes a weight and about 40 a sequence), and on the dense path the
/// min(V, N)^2 Gram and, for N < V, the tokens' lists of sequences (16 bytes a pair, about 40 a token).
double token_gram_bytes(const model::PointParams& params);

/// The spectral measure of b = B s under Pi (theory/finite_t_outlier.hpp) for one term (pooled.weights
/// of length 1), exactly: Sigma is then (w^2/N)(D - c c^T/N) with D the token counts c, and the span of the
/// indicators of each count level and of the class signs on it holds b and is invariant under Sigma, B and
/// Pi; on it (at most two dimensions per count level) Sigma, B and Pi are formed and diagonalised densely.
/// O(V) plus eigenvalue problems of size 2 x (count levels).
theory::SpectralMeasure single_token_signal_measure(const PooledTokens& pooled);

/// min(V, N): the size of the token Gram's smaller side, where the bulk is computed.
std::int64_t finite_t_gram_size(const model::PointParams& params);

/// Whether finite_t_outlier computes the point: for every weighting and size (docs/finite_t.md §7). One
/// pooled token costs milliseconds; several, the dense spectrum up to theory::dense_bulk_limit and the
/// quadrature of theory/gram_quadrature.hpp above it (about a second at min(V, N) = 8000, a minute at most at
/// 64 000).
bool finite_t_computed(const model::PointParams& params);

/// The relative cost of build_finite_t in sweep::point_cost's flop-like units, for the schedule and the plan:
/// one pooled token O(N); several, up to theory::dense_bulk_limit the dense values-only eigenvalue problem
/// (4/3 n^3, n = min(V, N), about a dense line's own factorization at the example's sizes), above it the
/// quadrature's (about 2500 applications of the token Gram, each two memory-bound passes over the N T'
/// tokens, and the trace powers' n (row length)^2).
double finite_t_cost(const model::PointParams& params);

/// The +-1 probes of a trial's bulk quadrature: random::CounterRng(seed, trial), stream finite_t_probes, the
/// same for every snr, weighting and rank count.
theory::ProbeSigns finite_t_probe_signs(const model::PointParams& params);

/// The finite-T outlier of the point's own token draws (params.snr is ignored) and, where its bulk is a
/// quadrature, that quadrature's estimated relative standard errors (0 where the bulk is exact).
struct FiniteTBuild {
  std::optional<theory::FiniteTOutlier> outlier;  ///< always set by build_finite_t
  double edge_error = 0.0;                        ///< of the finite-T right edge
  double threshold_error = 0.0;                   ///< of 1/G(zeta_e), the threshold's snr scale
};

/// One builder, whatever the cost: one pooled token by its closed form (single_token_signal_measure), several
/// by theory::token_gram_measures on the trial's TokenGram with finite_t_probe_signs. Computed on one BLAS
/// thread, so the same bits on any number of ranks.
FiniteTBuild build_finite_t(const model::PointParams& params);

/// build_finite_t(params).outlier: for `rmtsweep theory --bulk finite-T`, which is asked for it.
theory::FiniteTOutlier build_finite_t_outlier(const model::PointParams& params);

/// build_finite_t_outlier where finite_t_computed(params), else nullopt. This is the one builder of a
/// sweep's points: simulate_point calls it once per line through FiniteTCache and evaluates it at its snr;
/// a caller holding a whole snr line calls it once and evaluates it at each snr.
std::optional<theory::FiniteTOutlier> finite_t_outlier(const model::PointParams& params);

/// Whether a point carries the finite-d model of the top levels (theory/finite_t_top_levels.hpp): for one
/// pooled token (`last`, a custom weighting on one position), where the top of the spectrum is the few
/// eigenvalues of the most frequent tokens. Elsewhere the top levels merge into a continuous edge.
bool finite_t_levels_computed(const model::PointParams& params);

/// The model's standard normals for a trial: `count` table draws of a k-direction model, from
/// random::CounterRng(seed, trial), stream top_levels (draw i: gaussians(top_levels, i, 0) of k^2 + 2k + 2
/// values: the k x k fluctuations symmetrised, then g, go, g1 and chi). The same for every snr of the trial.
theory::TopLevelDraws top_level_draws(const model::PointParams& params, int k, int count);

/// The model for the point's line from its finite-T outlier's measures, keeping the directions of
/// theory::kept_top_directions (the count levels tau = c w^2/N supercritical for the rest below them and
/// the first subcritical one; at least one), where finite_t_levels_computed; else nullopt.
std::optional<theory::FiniteTTopLevels> finite_t_levels(const model::PointParams& params,
                                                        const theory::FiniteTOutlier& outlier);

/// The model's predictions at each of `snr` (empty where finite_t_levels is nullopt), with
/// theory::default_top_level_draws of the trial's own draws, computed on one BLAS thread: the small
/// eigenvalue problems then give the same bits whatever the BLAS thread count of the caller (1 or 2 ranks, a
/// test).
std::vector<theory::TopLevelPrediction> finite_t_levels_predictions(const model::PointParams& params,
                                                                    const theory::FiniteTOutlier& outlier,
                                                                    std::span<const double> snr);

/// The finite_t_outlier of the lines seen last, each built once while it stays among the `capacity` most
/// recently used: a sweep runs the points of one noise table together, in grid order (gamma, snr,
/// weighting), so consecutive points belong to different lines when there are several weightings.
class FiniteTCache {
 public:
  explicit FiniteTCache(std::size_t capacity = 32) : capacity_(capacity) {}
  /// finite_t_outlier(params), built on the first call for its line (params.snr aside).
  const std::optional<theory::FiniteTOutlier>& get(const model::PointParams& params);
  /// How many lines were built (for tests).
  std::size_t built() const noexcept { return built_; }

 private:
  struct Entry {
    model::PointParams key;
    std::optional<theory::FiniteTOutlier> value;
  };
  std::size_t capacity_, built_ = 0;
  std::list<Entry> entries_;  ///< most recently used first
};

}  // namespace rmtsweep::simulate
