// A line's threshold from its trials' brackets (include/rmtsweep/assemble/trial_brackets.hpp).
#include "rmtsweep/assemble/trial_brackets.hpp"

#include <algorithm>
#include <cmath>

namespace rmtsweep::assemble {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<TrialBracket> trial_brackets(const std::vector<Detection>& detections, int trials) {
  std::vector<TrialBracket> brackets(static_cast<std::size_t>(std::max(trials, 0)));
  for (std::size_t t = 0; t < brackets.size(); ++t) brackets[t].trial = static_cast<int>(t);
  for (const Detection& o : detections) {
    if (o.trial < 0 || o.trial >= trials || !o.detected) continue;
    TrialBracket& b = brackets[static_cast<std::size_t>(o.trial)];
    if (!(b.hi <= o.snr)) b.hi = o.snr;
  }
  for (const Detection& o : detections) {
    if (o.trial < 0 || o.trial >= trials || o.detected) continue;
    TrialBracket& b = brackets[static_cast<std::size_t>(o.trial)];
    if (std::isnan(b.hi) || o.snr < b.hi) {
      if (!(b.lo >= o.snr)) b.lo = o.snr;
    }
  }
  // Detected at snr 0 (or below): the threshold cannot lie lower.
  for (TrialBracket& b : brackets) {
    if (b.hi <= 0.0) b.lo = b.hi = 0.0;
  }
  return brackets;
}

LineEstimate estimate_line(const std::vector<TrialBracket>& brackets) {
  LineEstimate e;
  e.trials = static_cast<int>(brackets.size());
  if (brackets.size() < 2) return e;
  std::vector<double> lo, hi, mid;
  for (const TrialBracket& b : brackets) {
    if (!b.closed()) return e;
    lo.push_back(b.lo);
    hi.push_back(b.hi);
    mid.push_back(0.5 * (b.lo + b.hi));
  }
  e.median_lo = median(lo);
  e.median_hi = median(hi);
  e.threshold = 0.5 * (e.median_lo + e.median_hi);
  double mean = 0.0;
  for (const double m : mid) mean += m;
  mean /= static_cast<double>(mid.size());
  double ss = 0.0;
  for (const double m : mid) ss += (m - mean) * (m - mean);
  e.spread_sd = std::sqrt(ss / static_cast<double>(mid.size() - 1));
  e.resolution_err = (e.median_hi - e.median_lo) / std::sqrt(12.0);
  e.spread_err = median_factor * e.spread_sd / std::sqrt(static_cast<double>(mid.size()));
  e.err = std::hypot(e.resolution_err, e.spread_err);
  return e;
}

}  // namespace rmtsweep::assemble
