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

/// The 95 % quantile of R over exact draws of real Wishart spectra (studies/calibrate_eigengap.py; raw output
/// in studies/results/eigengap_calibration.txt), with bootstrap standard errors. Rows 1-6: `20000 20091`;
/// rows 7-8: `20000 20092` (other shapes); rows 9-14: `10000 20093`. No row differs from the pooled value
/// (6.885 +- 0.037) by more than 2.1 of its standard errors, and neither d nor the shape moves the rows.
constexpr std::array<EigengapCritical, 14> critical_table{{
    {100, 0.25, 20000, 6.908, 0.126},
    {200, 0.25, 20000, 7.058, 0.116},
    {400, 0.25, 20000, 6.935, 0.131},
    {800, 0.25, 20000, 6.746, 0.147},
    {1600, 0.25, 20000, 6.995, 0.149},
    {3200, 0.25, 20000, 6.829, 0.136},
    {400, 1.0, 20000, 6.719, 0.112},
    {400, 0.0625, 20000, 7.015, 0.112},
    {100, 0.25, 10000, 6.880, 0.155},
    {200, 0.25, 10000, 6.696, 0.153},
    {400, 0.25, 10000, 6.874, 0.168},
    {800, 0.25, 10000, 6.627, 0.179},
    {1600, 0.25, 10000, 6.679, 0.161},
    {3200, 0.25, 10000, 7.170, 0.140},
}};

struct Pooled {
  double value;
  double se;
};

/// The inverse-variance weighted mean of the rows and its standard error.
Pooled pooled_critical() {
  double weight = 0.0, sum = 0.0;
  for (const auto& row : critical_table) {
    const double w = 1.0 / (row.se * row.se);
    weight += w;
    sum += w * row.q95;
  }
  return {sum / weight, 1.0 / std::sqrt(weight)};
}

const Pooled& pooled() {
  static const Pooled value = pooled_critical();
  return value;
}

/// The three largest values, descending.
std::array<double, 3> largest_three(std::span<const double> values) {
  if (values.size() < 3) throw std::invalid_argument("eigengap_ratio: at least three eigenvalues needed");
  std::array<double, 3> top{-INFINITY, -INFINITY, -INFINITY};
  for (double v : values) {
    if (v > top[0])
      top = {v, top[0], top[1]};
    else if (v > top[1])
      top = {top[0], v, top[1]};
    else if (v > top[2])
      top[2] = v;
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

double eigengap_critical_value(int /*d*/) { return pooled().value; }

double eigengap_critical_standard_error() { return pooled().se; }

double null_quantile_threshold(std::vector<double> null_values, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0))
    throw std::invalid_argument("null_quantile_threshold: alpha must be in (0, 1)");
  if (null_values.empty()) return nan;
  const auto n = static_cast<double>(null_values.size());
  // k = ceil((1 - alpha)(n + 1)), computed with a guard against (1 - alpha)(n + 1) landing a rounding error
  // above an integer (0.95 * 20 = 19.000000000000004 would give 20).
  auto k = static_cast<std::size_t>(std::ceil((1.0 - alpha) * (n + 1.0) - 1e-9));
  k = std::clamp<std::size_t>(k, 1, null_values.size());
  std::nth_element(null_values.begin(), null_values.begin() + static_cast<std::ptrdiff_t>(k - 1),
                   null_values.end());
  return null_values[k - 1];
}

bool Detector::detects(std::span<const double> top) const {
  if (std::isnan(threshold)) return false;
  if (rule == Rule::eigengap) return eigengap_ratio(top) > threshold;
  if (top.empty()) throw std::invalid_argument("Detector::detects: no eigenvalues");
  return *std::max_element(top.begin(), top.end()) > threshold;
}

LineDetection detect_line(const std::vector<double>& snr,
                          const std::vector<std::vector<std::vector<double>>>& cells,
                          const Detector& detector) {
  if (snr.size() != cells.size()) throw std::invalid_argument("detect_line: one cell per snr value needed");
  LineDetection line;
  line.fraction.resize(snr.size());
  line.false_detection = nan;
  for (std::size_t s = 0; s < snr.size(); ++s) {
    const auto& trials = cells[s];
    std::size_t detected = 0;
    for (const auto& top : trials) detected += detector.detects(top) ? 1 : 0;
    line.fraction[s] =
        trials.empty() ? nan : static_cast<double>(detected) / static_cast<double>(trials.size());
    if (snr[s] == 0.0) line.false_detection = line.fraction[s];
  }
  line.threshold = half_crossing(snr, line.fraction);
  return line;
}

Detector null_detector(const std::vector<double>& snr,
                       const std::vector<std::vector<std::vector<double>>>& cells, double alpha) {
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
