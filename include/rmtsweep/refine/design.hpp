#pragma once
/// The round design of `rmtsweep refine`: from the detections measured so far on one line
/// (weighting, d, delta, gamma), the points the next round adds. The line's threshold and its standard
/// error are assemble/trial_brackets.hpp's estimate from the trials' brackets. Pure functions of numbers
/// (no MPI, no HDF5): the same detections give the same design on every machine and for any number of
/// ranks.
///
/// The error budget splits as 0.6 tolerance for resolution and 0.8 tolerance for spread
/// (0.6^2 + 0.8^2 = 1). When spread_err exceeds its share the design adds trials (new trial indices
/// K, K + 1, ..., up to max_trials; drawn exactly as the grid's would be); while resolution_err
/// exceeds its share it bisects the brackets of the trials that decide the median (those meeting
/// [median(lo), median(hi)] and wider than 2.08 tolerance, so that median(hi) - median(lo) falls
/// below 0.6 sqrt(12) tolerance). Open brackets are closed by steps that double; a new trial's first
/// point is the current estimate (else the theory's sample threshold).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "rmtsweep/assemble/trial_brackets.hpp"

namespace rmtsweep::refine {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// What the design may do.
struct DesignOptions {
  double tolerance = 0.01;   ///< target standard error of the threshold [snr]
  int max_trials = 64;       ///< trials per line at most (grid trials included)
  double start_snr = 1.0;    ///< where to look without any data (the theory's sample threshold)
  double first_step = 0.25;  ///< the first step that closes an open bracket (then doubled)
};

/// A point the next round adds: snr and trial on the line.
struct Proposal {
  double snr = 0.0;
  int trial = 0;
  bool operator==(const Proposal&) const = default;
};

/// The resolution share of the error budget and the bracket width that meets it.
inline constexpr double resolution_share = 0.6, spread_share = 0.8;
double target_width(double tolerance) noexcept;
/// New snr values are rounded to multiples of this quantum: min(2^-10, the power of two at or below
/// tolerance / 8). Trials bisecting the same bracket share their snr values, refines with other
/// tolerances share their points, and a value is stored exactly as it is compared.
double snr_quantum(double tolerance) noexcept;

/// Whether a line is finished: its error is at most the tolerance, or it has reached max_trials
/// and its resolution meets its share (more points cannot help within the options).
bool line_finished(const assemble::LineEstimate& estimate, const DesignOptions& options) noexcept;

/// The next round's points of one line whose trials so far are 0..trials-1 (ascending trial, then
/// snr; empty when line_finished). trials_after is set to the line's trial count after the round.
std::vector<Proposal> design_line(const std::vector<assemble::Detection>& observations, int trials,
                                  const DesignOptions& options, int& trials_after);

/// Exact lines. Where every trial of a line has its exact threshold (its line's secular form: docs/model.md
/// section 9), there is nothing to bisect: the line's threshold is the median of the trials' exact thresholds
/// and its error the bootstrap standard error of that median (assemble/finite_size.hpp's bootstrap_median,
/// computed by the caller), which only more trials lower. Each new trial is a whole line over the grid's snr
/// values.
struct ExactEstimate {
  double threshold = nan;  ///< median of the exact thresholds
  double err = nan;        ///< its bootstrap standard error (NaN for fewer than two, or infinite medians)
  int trials = 0;          ///< trials with an exact threshold
};

/// The fewest trials with exact thresholds an exact line stops on: below it the bootstrap error of a median
/// is itself too uncertain (for normal values, 400 replicates, measured over 2000 samples: below half the
/// true standard error in 11 % of samples of 4, 4 % of 8, 2 % of 16), and stopping at the first error under
/// the tolerance would pick those.
inline constexpr int min_exact_trials = 16;

/// Whether an exact line is finished: its error is at most the tolerance with at least min_exact_trials
/// trials of exact threshold, or its `trials` (every index the line has given, failed trials included)
/// reached max_trials.
bool exact_line_finished(const ExactEstimate& estimate, int trials, const DesignOptions& options) noexcept;

/// The exact line's trial count after the next round (`trials` while finished): with n trials of exact
/// threshold the error falls as 1/sqrt(n), so about n (err / tolerance)^2 are needed; the round adds that
/// many minus n, at least one and at most n (doubling: the error is itself an estimate), or n, at least two,
/// without a finite error, and at least as many as min_exact_trials needs; never beyond max_trials.
int exact_trials_after(const ExactEstimate& estimate, int trials, const DesignOptions& options) noexcept;

}  // namespace rmtsweep::refine
