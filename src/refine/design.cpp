// The round design of `rmtsweep refine` (include/rmtsweep/refine/design.hpp).
#include "rmtsweep/refine/design.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace rmtsweep::refine {
namespace {

double quantized(double snr, double quantum) { return std::max(0.0, std::round(snr / quantum) * quantum); }

/// The step that closes an open bracket after `seen` points on its side: first_step 2^(seen - 1),
/// at most 2^6 first steps.
double open_step(const DesignOptions& options, int seen) {
  return options.first_step * std::ldexp(1.0, std::clamp(seen - 1, 0, 6));
}

}  // namespace

double target_width(double tolerance) noexcept { return resolution_share * std::sqrt(12.0) * tolerance; }

double snr_quantum(double tolerance) noexcept {
  // A power of two, the same for every tolerance from 0.008 up: refines with other tolerances place their
  // points on the same lattice and share them, and bisections of dyadic brackets stay exact.
  return std::min(std::ldexp(1.0, -10),
                  std::ldexp(1.0, static_cast<int>(std::floor(std::log2(tolerance / 8.0)))));
}

bool line_finished(const assemble::LineEstimate& e, const DesignOptions& options) noexcept {
  if (!(e.err == e.err)) return false;
  if (e.err <= options.tolerance) return true;
  return e.trials >= options.max_trials && e.resolution_err <= resolution_share * options.tolerance;
}

std::vector<Proposal> design_line(const std::vector<assemble::Detection>& observations, int trials,
                                  const DesignOptions& options, int& trials_after) {
  trials_after = trials;
  const double quantum = snr_quantum(options.tolerance);
  const std::vector<assemble::TrialBracket> brackets = assemble::trial_brackets(observations, trials);
  // What each trial has seen below and above (for the doubling steps of open brackets).
  std::map<int, int> detected_count, undetected_count;
  for (const assemble::Detection& o : observations)
    ++(o.detected ? detected_count : undetected_count)[o.trial];

  std::vector<Proposal> out;
  const bool all_closed = std::all_of(brackets.begin(), brackets.end(),
                                      [](const assemble::TrialBracket& b) { return b.closed(); });
  if (!all_closed || brackets.size() < 2) {
    // First close every bracket: probes of the open ones only. A trial without data starts at the
    // estimate of the closed ones (or the theory's threshold).
    std::vector<assemble::TrialBracket> closed;
    for (const assemble::TrialBracket& b : brackets) {
      if (b.closed()) closed.push_back(b);
    }
    const assemble::LineEstimate partial = assemble::estimate_line(closed);
    const double start = partial.threshold == partial.threshold ? partial.threshold : options.start_snr;
    for (const assemble::TrialBracket& b : brackets) {
      if (b.closed()) continue;
      double snr = 0.0;
      if (std::isnan(b.lo) && std::isnan(b.hi)) {
        snr = quantized(start, quantum);
      } else if (std::isnan(b.lo)) {
        snr = quantized(std::max(0.0, b.hi - open_step(options, detected_count[b.trial])), quantum);
        if (snr >= b.hi) snr = 0.0;
      } else {
        snr = quantized(b.lo + open_step(options, undetected_count[b.trial]), quantum);
        if (snr <= b.lo) snr = b.lo + quantum;
      }
      out.push_back({snr, b.trial});
    }
    if (brackets.size() < 2 && trials < options.max_trials) {  // an estimate needs two trials
      trials_after = std::min(options.max_trials, 2);
      for (int t = trials; t < trials_after; ++t) out.push_back({quantized(start, quantum), t});
    }
    return out;
  }

  const assemble::LineEstimate e = assemble::estimate_line(brackets);
  if (line_finished(e, options)) return out;
  // Resolution: bisect the trials whose brackets decide the median.
  if (e.resolution_err > resolution_share * options.tolerance) {
    const double wide = target_width(options.tolerance);
    std::vector<Proposal> bisect, fine;
    for (const assemble::TrialBracket& b : brackets) {
      if (b.lo > e.median_hi || b.hi < e.median_lo) continue;
      const double width = b.hi - b.lo;
      const double mid = quantized(0.5 * (b.lo + b.hi), quantum);
      if (!(mid > b.lo && mid < b.hi)) continue;
      (width > wide ? bisect : fine).push_back({mid, b.trial});
    }
    // Where every deciding bracket is already narrower than the target width and the median
    // interval is still too wide, bisect them all further.
    for (const Proposal& p : bisect.empty() ? fine : bisect) out.push_back(p);
  }
  // Spread: more trials, about as many as the spread share needs (at most doubling per round, since
  // the sd is itself an estimate), each starting at the current estimate.
  if (e.spread_err > spread_share * options.tolerance && trials < options.max_trials) {
    const double needed =
        std::pow(assemble::median_factor * e.spread_sd / (spread_share * options.tolerance), 2.0);
    const int wanted = static_cast<int>(std::min<double>(std::ceil(needed), 2.0 * trials));
    trials_after = std::clamp(wanted, trials + 1, options.max_trials);
    for (int t = trials; t < trials_after; ++t) out.push_back({quantized(e.threshold, quantum), t});
  }
  std::sort(out.begin(), out.end(), [](const Proposal& a, const Proposal& b) {
    return a.trial != b.trial ? a.trial < b.trial : a.snr < b.snr;
  });
  return out;
}

bool exact_line_finished(const ExactEstimate& e, int trials, const DesignOptions& options) noexcept {
  return (e.err <= options.tolerance && e.trials >= min_exact_trials) || trials >= options.max_trials;
}

int exact_trials_after(const ExactEstimate& e, int trials, const DesignOptions& options) noexcept {
  if (exact_line_finished(e, trials, options)) return trials;
  const double n = std::max(e.trials, 0);
  double add = std::max(n, 2.0);
  if (std::isfinite(e.err) && e.trials >= 2) {
    const double needed = std::ceil(n * (e.err / options.tolerance) * (e.err / options.tolerance));
    add = std::clamp(needed - n, 1.0, n);
  }
  add = std::max(add, min_exact_trials - n);
  return static_cast<int>(std::min<double>(trials + add, options.max_trials));
}

}  // namespace rmtsweep::refine
