#pragma once
/// The right edge of the finite-T bulk (theory/finite_t_bulk.hpp) per (weighting, d, delta, gamma) line
/// of a sweep: the bulk law of the line's own token draws, which stays right where few pooled tokens
/// move the paper's edge (model.md 5.5). The finite_t_edge detection rule compares lambda_1 with it.
/// Pure functions of numbers and the sweep's config; no MPI, no HDF5.
#include <cstdint>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/model/params.hpp"

namespace rmtsweep::assemble {

/// Lines whose min(V, N) exceeds this get NaN: the edge costs a values-only dsyevd of that size
/// (about 2 s at 3200, 16 s at 6400 on this machine), once per line.
inline constexpr std::int64_t max_finite_t_gram = 6400;

/// Per line (row-major as Axes::line): finite_t_edge(token_gram_spectrum(p), d) for the point p of the
/// line with trial 0 (its token draws; the snr does not enter them), NaN where min(V, N) exceeds
/// max_finite_t_gram. The edge of one draw stands for the line's trials. That holds where many tokens are
/// pooled, not for one: for `last` at d = 1600 the edges of trials 0-7 spread over +-2 % (3.831-4.006),
/// and each trial's lambda_1 lay below its own edge, so the rule's level is off there (README, "Three
/// rules, measured"); per-trial edges would fix it at one eigenvalue problem per trial.
std::vector<double> finite_t_edges(const model::PointParams& base, const std::vector<model::Weighting>& weightings,
                                   const Axes& axes);

}  // namespace rmtsweep::assemble
