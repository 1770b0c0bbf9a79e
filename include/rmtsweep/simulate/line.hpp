#pragma once
/// A whole line of snr values (everything of a point fixed but snr) from one factorization
/// (docs/model.md section 9). The points of a line share their noise table, sequences and weights;
/// only the signal differs, and it enters through one rank-one term: with r = sqrt(snr), u = e_1 and
/// sigma_n = sum_t w_t xi_{n,t}, each pooled vector is c_n = Z a_n + r sigma_n u, so
///   S(r) = S0' + q v v^T,  S0' = S0 - p p^T / q,  v = r u + p / q,
/// S0 = C~ C~^T / N the centred noise-only covariance, p = C~ sigma~ / N, q = ||sigma~||^2 / N.
/// S0' is factored once; every snr is then a rank-one update in its eigenbasis (spectral/rank_one.hpp),
/// and the ridge solution lies in the fixed span of (S0' + lambda I)^{-1} [b0, u, p] (Sherman-Morrison).
/// With N < d the N x N Gram matrix takes the same form. Weights that depend on the data (causal:tau)
/// break the structure: those points stay per point (simulate_point).
#include <mpi.h>

#include <span>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

namespace rmtsweep::simulate {

/// Whether the points along snr of `params` can be computed as one line: weights that do not depend
/// on the data (every weighting but causal:tau).
bool line_applies(const model::PointParams& params) noexcept;

/// What a line gives.
struct LineResult {
  /// One per snr value asked, in that order: what simulate_point gives for the point (eigensolver is
  /// a *_line reducer; seconds are the line's stage times divided among its points).
  std::vector<PointResult> points;
  /// The snr-free part's eigenvalues and the update's vectors in its eigenbasis (r = sqrt(snr)):
  /// lambda_1(snr) above any level, and so each trial's exact detection threshold, follows from it
  /// (spectral::level_crossing). From the Krylov engine these are Ritz values of its basis.
  spectral::RankOneLine secular;
  StageSeconds seconds;  ///< the whole line's stage times (slowest rank)
  /// Positions of the points the line's Krylov basis did not converge for, recomputed one at a time by
  /// simulate_point (their eigensolver says which engine computed them). Every point, with `secular`
  /// empty, where the line has no rank-one form: the training sequences' signal weights sigma_n do not
  /// vary (q = 0, e.g. d = 1, or markov:-0.99999999 under mean pooling).
  std::vector<std::size_t> recomputed_alone;
};

/// Simulates the points (params with snr = each of `snr`) on all ranks of `comm` (collective), equal
/// to simulate_point's results to rounding. params.snr is ignored; `snr` must not be empty, each value
/// in [0, max_snr]. Engine::dense factors S0' (or the Gram matrix) with LAPACK or ScaLAPACK (never
/// ELPA, which does not expose its orthogonal factor); Engine::krylov builds one block Krylov basis for
/// every snr; automatic chooses as simulate_point does. Throws std::invalid_argument where
/// line_applies is false, and what simulate_point throws.
LineResult simulate_line(const model::PointParams& params, std::span<const double> snr,
                         const SimulationOptions& options, MPI_Comm comm);

}  // namespace rmtsweep::simulate
