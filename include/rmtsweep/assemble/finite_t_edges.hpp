#pragma once
/// The right edge of the finite-T bulk (theory/finite_t_bulk.hpp) of each trial of a sweep: the bulk law of
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

/// The finite-T right edges of a sweep's trials: each trial's own (its token draws'), taken from its points
/// where the sweep stored it (/points theory_finite_t_bulk_edge_right: every point of a sweep written since
/// the finite-T theory is computed for every line) and otherwise, in files written before, computed when
/// first asked for (simulate::build_finite_t) and kept.
///
/// Why each trial its own, on every line: the edge of one draw does not stand for the others, even where
/// many tokens are pooled. Measured on 512 null trials (d = 400, delta 0.5, gamma 0.25, prefix:3, seed 0;
/// studies/finite_t_edge_rule.py, docs/finite_t.md): the trials' edges spread by 0.19 % (mean pooling),
/// 0.6 % (harmonic, optimal) and 3.2 % (`last`), against the rule's margin d^(-2/3) = 1.8 %; judged by trial
/// 0's edge the rule gave 4.9 / 13.1 / 14.8 % false detections for harmonic / optimal / `last` (iid), by
/// each trial's own 7.0 / 10.0 / 2.9 %, by the paper's edge 9.6 / 13.1 / 33.8 %. Trial 0's harmonic edge
/// happened to lie 0.6 % above the trials' mean here; with another seed it lies below and the rule detected
/// more than the paper's edge (docs/finite_t.md §6).
///
/// The line's reference edge is its trial 0's: the finite-T rule's threshold (detection tables) is taken
/// from it and each trial's eigenvalues are scaled by reference/own (as_judged). The cache is filled by
/// const calls and is not guarded: one thread at a time (rank 0's, in refine; compute() runs its own threads
/// and fills it after they have joined).
class FiniteTEdges {
 public:
  /// The lines of `axes` for the sweep's base point (T, correlation, seed) and its weightings; `stored`, when
  /// given, are points whose finite_t_bulk_edge_right (where finite) is their trial's edge.
  FiniteTEdges(const model::PointParams& base, std::vector<model::Weighting> weightings, Axes axes,
               const std::vector<PointRecord>* stored = nullptr);

  /// Trial 0's edge of the line: the finite-T rule's threshold is taken from it.
  double reference(std::size_t line) const;
  /// reference() of every line, row-major as Axes::line.
  std::vector<double> references() const;
  /// min(V, N) of the line: the size of the token Gram each of its edges comes from.
  std::int64_t gram_size(std::size_t line) const;
  /// About how long one edge of the line takes to compute on one core of this project's machine, where it is
  /// not stored: the dense spectrum up to theory::dense_bulk_limit (0.47 s at 2000, as its cube), the
  /// quadrature of theory/gram_quadrature.hpp above it (about a second); about a millisecond for one pooled
  /// token.
  double edge_seconds(std::size_t line) const;
  /// Whether the trial's edge came with its points (no eigenvalue problem here).
  bool stored(std::size_t line, int trial) const { return stored_.count({line, trial}) > 0; }
  /// Whether the trial's edge is at hand, stored or computed: edge() returns it without an eigenvalue
  /// problem.
  bool at_hand(std::size_t line, int trial) const {
    return stored(line, trial) || edges_.count({line, trial}) > 0;
  }
  /// The trial's own edge.
  double edge(std::size_t line, int trial) const;
  /// Computes the edges of `keys` (line, trial) that are neither stored nor computed yet, up to `threads`
  /// of them at once, each on one thread with single-threaded BLAS (an edge is one values-only eigenvalue
  /// problem, which scales poorly on threads: measured at min(V, N) = 4000, one such problem on 2 threads
  /// took 1.9 s, two side by side on one thread each 2.6 s; as many as fit in half of MemAvailable
  /// (simulate::token_gram_bytes) run at once). edge() then returns them without computing. Each edge is
  /// the same whatever `threads`: every edge of this class is computed on one BLAS thread.
  void compute(std::span<const std::pair<std::size_t, int>> keys, int threads) const;
  /// reference / edge: lambda_1 times this exceeds the reference threshold exactly when lambda_1
  /// exceeds the trial's own (NaN where the line has no edge).
  double scale(std::size_t line, int trial) const { return reference(line) / edge(line, trial); }
  /// The trial's top eigenvalues as the finite-T rule judges them against the line's reference
  /// threshold: times scale(line, trial).
  std::vector<double> as_judged(std::size_t line, int trial, std::span<const double> top) const;

 private:
  double compute_one(std::size_t line, int trial) const;  // on the calling thread; BLAS as it is set
  model::PointParams point(std::size_t line, int trial) const;

  model::PointParams base_;
  std::vector<model::Weighting> weightings_;
  Axes axes_;
  std::map<std::pair<std::size_t, int>, double> stored_;
  mutable std::map<std::pair<std::size_t, int>, double> edges_;
};

/// The (line, trial) edges that scaled_by_trial_edge(axes, points, ...) and references() ask for: each
/// point's trial, and trial 0 of every line (the references), duplicates included: what FiniteTEdges::compute
/// takes.
std::vector<std::pair<std::size_t, int>> edges_asked_for(const Axes& axes,
                                                         const std::vector<PointRecord>& points);

/// The records with their top eigenvalues as edges.as_judged gives them: what the finite-T rule,
/// whose threshold is the reference edge's, judges.
std::vector<PointRecord> scaled_by_trial_edge(const Axes& axes, std::vector<PointRecord> points,
                                              const FiniteTEdges& edges);
std::vector<RefinedRecord> scaled_by_trial_edge(std::vector<RefinedRecord> refined,
                                                const FiniteTEdges& edges);

}  // namespace rmtsweep::assemble
