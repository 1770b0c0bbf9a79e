#include "rmtsweep/assemble/finite_size.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace rmtsweep::assemble {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::size_t longest_row(const DetectionMatrix& detected) {
  std::size_t trials = 0;
  for (const auto& row : detected) trials = std::max(trials, row.size());
  return trials;
}

/// Sample sd (n - 1) of the crossings of bracketed replicates; NaN for fewer than two.
double crossing_sd(const std::vector<Crossing>& crossings) {
  std::vector<double> values;
  for (const auto& c : crossings) {
    if (c.bracket == bracket_found) values.push_back(c.snr);
  }
  if (values.size() < 2) return nan;
  return moments(values).std;
}

}  // namespace

std::vector<double> detected_fraction(const DetectionMatrix& detected) {
  std::vector<double> fraction(detected.size(), nan);
  for (std::size_t s = 0; s < detected.size(); ++s) {
    double sum = 0.0;
    std::size_t present = 0;
    for (double value : detected[s]) {
      if (std::isnan(value)) continue;
      sum += value;
      ++present;
    }
    if (present > 0) fraction[s] = sum / static_cast<double>(present);
  }
  return fraction;
}

std::uint64_t bootstrap_seed(std::uint64_t line) {
  std::uint64_t z = 0x726d747377656570ULL + line * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<Crossing> bootstrap_crossings(const std::vector<double>& snr, const DetectionMatrix& detected,
                                          std::uint64_t line, std::size_t replicates) {
  if (snr.size() != detected.size()) {
    throw std::invalid_argument("bootstrap_crossings: one row of detections per snr cell needed");
  }
  const std::size_t trials = longest_row(detected);
  std::vector<Crossing> crossings;
  if (trials == 0) return std::vector<Crossing>(replicates, Crossing{nan, bracket_no_data});
  crossings.reserve(replicates);
  std::mt19937_64 engine(bootstrap_seed(line));
  // A replicate is the multiplicity of each trial index; every cell reads the same multiplicities.
  std::vector<double> multiplicity(trials);
  std::vector<double> fraction(snr.size());
  for (std::size_t r = 0; r < replicates; ++r) {
    std::fill(multiplicity.begin(), multiplicity.end(), 0.0);
    for (std::size_t k = 0; k < trials; ++k) multiplicity[engine() % trials] += 1.0;
    for (std::size_t s = 0; s < snr.size(); ++s) {
      double sum = 0.0, present = 0.0;
      const auto& row = detected[s];
      for (std::size_t t = 0; t < row.size(); ++t) {
        if (std::isnan(row[t])) continue;
        sum += multiplicity[t] * row[t];
        present += multiplicity[t];
      }
      fraction[s] = present > 0.0 ? sum / present : nan;
    }
    crossings.push_back(half_crossing(snr, fraction));
  }
  return crossings;
}

ThresholdEstimate bootstrap_threshold(const std::vector<double>& snr, const DetectionMatrix& detected,
                                      std::uint64_t line, std::size_t replicates) {
  if (snr.size() != detected.size()) {
    throw std::invalid_argument("bootstrap_threshold: one row of detections per snr cell needed");
  }
  const Crossing full = half_crossing(snr, detected_fraction(detected));
  ThresholdEstimate estimate{full.snr, full.bracket, nan, 0, 0};
  if (full.bracket != bracket_found) return estimate;

  const std::vector<Crossing> crossings = bootstrap_crossings(snr, detected, line, replicates);
  estimate.replicates = static_cast<std::int64_t>(crossings.size());
  for (const auto& c : crossings) estimate.unbracketed_replicates += c.bracket != bracket_found ? 1 : 0;
  const double unbracketed = static_cast<double>(estimate.unbracketed_replicates);
  if (unbracketed <= max_unbracketed_replicate_fraction * static_cast<double>(estimate.replicates)) {
    estimate.snr_err = crossing_sd(crossings);
  }
  return estimate;
}

namespace {

double median_of(std::vector<double> values) {
  const std::size_t n = values.size(), half = n / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
  const double upper = values[half];
  if (n % 2 == 1) return upper;
  return 0.5 * (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half)) + upper);
}

}  // namespace

MedianEstimate bootstrap_median(const std::vector<double>& values, std::uint64_t line, std::size_t replicates) {
  if (values.empty()) return {nan, nan};
  MedianEstimate out{median_of(values), nan};
  if (values.size() < 2) return out;
  std::mt19937_64 engine(bootstrap_seed(line));
  std::vector<double> medians, drawn(values.size());
  medians.reserve(replicates);
  for (std::size_t r = 0; r < replicates; ++r) {
    for (double& x : drawn) x = values[engine() % values.size()];
    medians.push_back(median_of(drawn));
  }
  if (std::all_of(medians.begin(), medians.end(), [](double m) { return std::isfinite(m); }))
    out.median_err = moments(medians).std;
  return out;
}

double finite_size_variable(double d) { return std::cbrt(1.0 / d); }

Extrapolation extrapolate_threshold(const std::vector<double>& d, const std::vector<double>& thr,
                                    const std::vector<double>& err) {
  if (d.size() != thr.size() || d.size() != err.size()) {
    throw std::invalid_argument("extrapolate_threshold: d, thresholds and errors differ in length");
  }
  struct Entry {
    double x, y, w;
  };
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!std::isfinite(d[i]) || d[i] <= 0.0 || !std::isfinite(thr[i]) || !std::isfinite(err[i]) ||
        err[i] <= 0.0) {
      continue;
    }
    entries.push_back({finite_size_variable(d[i]), thr[i], 1.0 / (err[i] * err[i])});
  }

  Extrapolation fit;
  fit.sizes_used = static_cast<std::int64_t>(entries.size());
  if (entries.size() < min_sizes_for_extrapolation) return fit;
  const int terms = entries.size() >= min_sizes_for_quadratic_term ? 2 : 1;
  const std::size_t p = static_cast<std::size_t>(terms) + 1;

  // Normal equations N beta = v with N = X^T W X, v = X^T W y, columns 1, x, x^2.
  std::array<std::array<double, 3>, 3> normal{};
  std::array<double, 3> rhs{};
  for (const auto& e : entries) {
    const std::array<double, 3> row{1.0, e.x, e.x * e.x};
    for (std::size_t i = 0; i < p; ++i) {
      rhs[i] += e.w * row[i] * e.y;
      for (std::size_t j = 0; j < p; ++j) normal[i][j] += e.w * row[i] * row[j];
    }
  }
  // Equilibrate to a unit diagonal (the columns 1, x, x^2 differ in scale by 1/x^2 ~ 100 at d ~ 1000),
  // then Cholesky N' = L L^T.
  std::array<double, 3> scale{};
  for (std::size_t i = 0; i < p; ++i) scale[i] = 1.0 / std::sqrt(normal[i][i]);
  std::array<std::array<double, 3>, 3> l{};
  for (std::size_t j = 0; j < p; ++j) {
    double pivot = normal[j][j] * scale[j] * scale[j];
    for (std::size_t k = 0; k < j; ++k) pivot -= l[j][k] * l[j][k];
    if (!(pivot > 1e-12)) return fit;  // singular (or NaN): no fit
    l[j][j] = std::sqrt(pivot);
    for (std::size_t i = j + 1; i < p; ++i) {
      double value = normal[i][j] * scale[i] * scale[j];
      for (std::size_t k = 0; k < j; ++k) value -= l[i][k] * l[j][k];
      l[i][j] = value / l[j][j];
    }
  }
  // Inverse of N' column by column (forward then backward substitution), then N^{-1} = D N'^{-1} D.
  std::array<std::array<double, 3>, 3> inverse{};
  for (std::size_t c = 0; c < p; ++c) {
    std::array<double, 3> z{};
    for (std::size_t i = 0; i < p; ++i) {
      double value = i == c ? 1.0 : 0.0;
      for (std::size_t k = 0; k < i; ++k) value -= l[i][k] * z[k];
      z[i] = value / l[i][i];
    }
    for (std::size_t i = p; i-- > 0;) {
      double value = z[i];
      for (std::size_t k = i + 1; k < p; ++k) value -= l[k][i] * inverse[k][c];
      inverse[i][c] = value / l[i][i];
    }
  }
  std::array<double, 3> beta{};
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      inverse[i][j] *= scale[i] * scale[j];
    }
  }
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) beta[i] += inverse[i][j] * rhs[j];
  }

  double chi2 = 0.0;
  for (const auto& e : entries) {
    const double residual = e.y - (beta[0] + beta[1] * e.x + beta[2] * e.x * e.x);
    chi2 += e.w * residual * residual;
  }
  fit.terms = terms;
  fit.thr_inf = beta[0];
  fit.a = beta[1];
  fit.b = terms == 2 ? beta[2] : nan;
  fit.chi2 = chi2;
  fit.dof = static_cast<std::int64_t>(entries.size() - p);
  fit.chi2_per_dof = fit.dof > 0 ? chi2 / static_cast<double>(fit.dof) : nan;
  const double scale_factor = fit.dof > 0 ? std::max(1.0, std::sqrt(fit.chi2_per_dof)) : 1.0;
  fit.thr_inf_err = std::sqrt(inverse[0][0]) * scale_factor;
  return fit;
}

}  // namespace rmtsweep::assemble
