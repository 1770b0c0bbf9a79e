#include "rmtsweep/assemble/detection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace rmtsweep::assemble {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// `scripts/calibrate_eigengap.py 20000 20091` (beta = 1, n = 4 d, i.e. gamma = 0.25): the 95 % quantile
/// of R over 20000 exact draws of the real Wishart spectrum per d. Monte-Carlo standard error of each entry
/// 0.12-0.15 (bootstrap): the entries agree with one value, 6.92, within it, as the d -> infinity limit
/// (Tracy-Widom beta = 1, shape free) says they should at these d. Shape: gamma = 1 at d = 400 gave 6.72
/// (+- 0.11). Check of the generator: beta = 2 at d = 400 gave 4.53 (+- 0.05), Onatski's Table I value 4.52.
constexpr std::array<EigengapCritical, 6> critical_table{{
    {100, 6.908},
    {200, 7.058},
    {400, 6.935},
    {800, 6.746},
    {1600, 6.995},
    {3200, 6.829},
}};

/// The three largest values, descending.
std::array<double, 3> largest_three(std::span<const double> values) {
  if (values.size() < 3) throw std::invalid_argument("eigengap_ratio: at least three eigenvalues needed");
  std::array<double, 3> top{-INFINITY, -INFINITY, -INFINITY};
  for (double v : values) {
    if (v > top[0]) top = {v, top[0], top[1]};
    else if (v > top[1]) top = {top[0], v, top[1]};
    else if (v > top[2]) top[2] = v;
  }
  return top;
}

}  // namespace

double eigengap_ratio(std::span<const double> top_eigenvalues) {
  const auto [l1, l2, l3] = largest_three(top_eigenvalues);
  const double gap = l1 - l2, below = l2 - l3;
  if (below == 0.0) return gap > 0.0 ? INFINITY : 0.0;
  return gap / below;
}

std::span<const EigengapCritical> eigengap_critical_table() { return critical_table; }

double eigengap_critical_value(int d) {
  const auto& t = critical_table;
  if (d <= t.front().d) return t.front().q95;
  if (d >= t.back().d) return t.back().q95;
  for (std::size_t k = 1; k < t.size(); ++k) {
    if (d <= t[k].d) {
      const double x = std::log(static_cast<double>(d)), x0 = std::log(static_cast<double>(t[k - 1].d)),
                   x1 = std::log(static_cast<double>(t[k].d));
      return t[k - 1].q95 + (t[k].q95 - t[k - 1].q95) * (x - x0) / (x1 - x0);
    }
  }
  return t.back().q95;
}

double null_quantile_threshold(std::vector<double> null_values, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("null_quantile_threshold: alpha must be in (0, 1)");
  if (null_values.empty()) return nan;
  const auto n = static_cast<double>(null_values.size());
  // k = ceil((1 - alpha) n), computed with a guard against (1 - alpha) n landing a rounding error above
  // an integer (0.95 * 20 = 19.000000000000004 would give 20).
  auto k = static_cast<std::size_t>(std::ceil((1.0 - alpha) * n - 1e-9));
  k = std::clamp<std::size_t>(k, 1, null_values.size());
  std::nth_element(null_values.begin(), null_values.begin() + static_cast<std::ptrdiff_t>(k - 1), null_values.end());
  return null_values[k - 1];
}

bool Detector::detects(std::span<const double> top) const {
  if (std::isnan(threshold)) return false;
  if (rule == Rule::eigengap) return eigengap_ratio(top) > threshold;
  if (top.empty()) throw std::invalid_argument("Detector::detects: no eigenvalues");
  return *std::max_element(top.begin(), top.end()) > threshold;
}

LineDetection detect_line(const std::vector<double>& snr,
                          const std::vector<std::vector<std::vector<double>>>& cells, const Detector& detector) {
  if (snr.size() != cells.size()) throw std::invalid_argument("detect_line: one cell per snr value needed");
  LineDetection line;
  line.fraction.resize(snr.size());
  line.false_detection = nan;
  for (std::size_t s = 0; s < snr.size(); ++s) {
    const auto& trials = cells[s];
    std::size_t detected = 0;
    for (const auto& top : trials) detected += detector.detects(top) ? 1 : 0;
    line.fraction[s] = trials.empty() ? nan : static_cast<double>(detected) / static_cast<double>(trials.size());
    if (snr[s] == 0.0) line.false_detection = line.fraction[s];
  }
  line.threshold = half_crossing(snr, line.fraction);
  return line;
}

Detector null_detector(const std::vector<double>& snr, const std::vector<std::vector<std::vector<double>>>& cells,
                       double alpha) {
  if (snr.size() != cells.size()) throw std::invalid_argument("null_detector: one cell per snr value needed");
  std::vector<double> null_top;
  for (std::size_t s = 0; s < snr.size(); ++s) {
    if (snr[s] != 0.0) continue;
    for (const auto& top : cells[s]) {
      if (top.empty()) throw std::invalid_argument("null_detector: a trial without eigenvalues");
      null_top.push_back(*std::max_element(top.begin(), top.end()));
    }
  }
  return {Rule::null, null_quantile_threshold(std::move(null_top), alpha)};
}

}  // namespace rmtsweep::assemble
