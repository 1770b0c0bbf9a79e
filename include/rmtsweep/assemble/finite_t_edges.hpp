#pragma once
/// The right edge of the finite-T bulk (theory/finite_t_bulk.hpp) per (weighting, d, delta, gamma) line
/// of a sweep and, where few pooled tokens make it move from draw to draw, per trial: the bulk law of
/// the trial's own token draws, which stays right where few pooled tokens move the paper's edge
/// (model.md 5.5). The finite_t_edge detection rule compares lambda_1 with it. Pure functions of
/// numbers and the sweep's config; no MPI, no HDF5.
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"

namespace rmtsweep::assemble {

/// Lines whose min(V, N) exceeds theory::max_finite_t_gram get NaN (unless their points carry the edge):
/// the edge costs a values-only dsyevd of that size (milliseconds for single-token pooling), once per
/// line, or per trial where it moves.
using theory::max_finite_t_gram;

/// The finite-T right edges of a sweep's lines, each computed when first asked for and kept.
///
/// A line's reference edge is its trial 0's (the snr does not enter the token draws). Where the
/// paper's law is measurably off (theory::limit_law_measurably_off: T_eff below 2 up to d = 1000, 3
/// from d = 2000), every trial takes its own edge: there the edge of one draw does not stand for the
/// others. Measured (centered, delta 0.5, gamma 0.25, prefix:3, trials 0-7): at d = 400 the edges of
/// `last` (T_eff 1) spread over 3.767-3.904 (sd 1.2 %, against the rule's margin d^(-2/3) = 1.8 %),
/// of harmonic and optimal pooling (T_eff 5.3, 3) by 0.5-0.6 %, of mean pooling by 0.25 %; at
/// d = 1600 those of `last` over 3.831-4.006, each trial's lambda_1 below its own edge, so that one
/// edge for the line gave 50 % false detections (README, "Four rules, measured"). For `last` an edge
/// takes about a millisecond (theory::token_gram_spectrum's single-token path), otherwise a dense
/// eigenvalue problem of size min(V, N).
///
/// The cache is filled by const calls and is not guarded: one thread at a time (rank 0's, in refine).
class FiniteTEdges {
 public:
  /// The lines of `axes` for the sweep's base point (T, correlation, seed) and its weightings.
  FiniteTEdges(const model::PointParams& base, std::vector<model::Weighting> weightings, Axes axes);

  /// Trial 0's edge of the line: the finite-T rule's threshold is taken from it. NaN where
  /// min(V, N) > max_finite_t_gram.
  double reference(std::size_t line) const;
  /// reference() of every line, row-major as Axes::line.
  std::vector<double> references() const;
  /// Whether the line's trials each take their own edge.
  bool per_trial(std::size_t line) const { return per_trial_.at(line); }
  /// min(V, N) of the line: the size of each of its edges' eigenvalue problems.
  std::int64_t gram_size(std::size_t line) const;
  /// About how long one edge of the line takes on this project's 2-core machine: 2.5 s at
  /// gram_size 3200, as its cube, where several tokens carry weight (a dense values-only eigenvalue
  /// problem); about a millisecond where one does (`last`: diagonal plus low rank,
  /// theory::token_gram_spectrum); 0 where no edge is computed.
  double edge_seconds(std::size_t line) const;
  /// The trial's edge: its own where per_trial(line), else the reference.
  double edge(std::size_t line, int trial) const;
  /// reference / edge: lambda_1 times this exceeds the reference threshold exactly when lambda_1
  /// exceeds the trial's own (1 where the line has one edge, NaN where it has none).
  double scale(std::size_t line, int trial) const { return reference(line) / edge(line, trial); }
  /// The trial's top eigenvalues as the finite-T rule judges them against the line's reference
  /// threshold: times scale(line, trial) where per_trial(line), as they are elsewhere.
  std::vector<double> as_judged(std::size_t line, int trial, std::span<const double> top) const;

 private:
  double compute(std::size_t line, int trial) const;
  model::PointParams point(std::size_t line, int trial) const;

  model::PointParams base_;
  std::vector<model::Weighting> weightings_;
  Axes axes_;
  std::vector<bool> per_trial_;
  mutable std::map<std::pair<std::size_t, int>, double> edges_;
};

/// The records with their top eigenvalues as edges.as_judged gives them: what the finite-T rule,
/// whose threshold is the reference edge's, judges.
std::vector<PointRecord> scaled_by_trial_edge(const Axes& axes, std::vector<PointRecord> points, const FiniteTEdges& edges);
std::vector<RefinedRecord> scaled_by_trial_edge(std::vector<RefinedRecord> refined, const FiniteTEdges& edges);

}  // namespace rmtsweep::assemble
