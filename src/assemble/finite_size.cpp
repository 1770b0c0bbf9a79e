#include "rmtsweep/assemble/finite_size.hpp"

#include <algorithm>
#include <array>
#include <boost/math/distributions/fisher_f.hpp>
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
  return 0.5 *
         (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half)) + upper);
}

}  // namespace

MedianEstimate bootstrap_median(const std::vector<double>& values, std::uint64_t line,
                                std::size_t replicates) {
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

namespace {

struct Entry {
  double x, y, w;
};

/// The usable entries of a fit: finite d > 0, finite threshold, finite error > 0.
std::vector<Entry> usable_entries(const std::vector<double>& d, const std::vector<double>& thr,
                                  const std::vector<double>& err) {
  if (d.size() != thr.size() || d.size() != err.size()) {
    throw std::invalid_argument("extrapolate_threshold: d, thresholds and errors differ in length");
  }
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!std::isfinite(d[i]) || d[i] <= 0.0 || !std::isfinite(thr[i]) || !std::isfinite(err[i]) ||
        err[i] <= 0.0) {
      continue;
    }
    entries.push_back({finite_size_variable(d[i]), thr[i], 1.0 / (err[i] * err[i])});
  }
  return entries;
}

Fit fit_entries(const std::vector<Entry>& entries, int terms) {
  Fit fit;
  fit.sizes_used = static_cast<std::int64_t>(entries.size());
  const std::size_t p = static_cast<std::size_t>(terms) + 1;
  if (terms < 1 || terms > 2) throw std::invalid_argument("fit_threshold: terms must be 1 or 2");
  if (entries.size() < (terms == 1 ? min_sizes_for_extrapolation : min_sizes_for_quadratic_term)) return fit;

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

  // chi2 over all sizes; the scale factor's chi2 over those with leverage >= min_scale_leverage p / n.
  const double leverage_cut =
      min_scale_leverage * static_cast<double>(p) / static_cast<double>(entries.size());
  double chi2 = 0.0, chi2_scale = 0.0;
  std::size_t in_scale = 0;
  for (const auto& e : entries) {
    const std::array<double, 3> row{1.0, e.x, e.x * e.x};
    double leverage = 0.0;
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t j = 0; j < p; ++j) leverage += row[i] * inverse[i][j] * row[j];
    }
    leverage *= e.w;
    const double residual = e.y - (beta[0] + beta[1] * e.x + (p == 3 ? beta[2] * e.x * e.x : 0.0));
    chi2 += e.w * residual * residual;
    if (leverage >= leverage_cut) {
      chi2_scale += e.w * residual * residual;
      ++in_scale;
    }
  }
  fit.terms = terms;
  fit.thr_inf = beta[0];
  fit.a = beta[1];
  fit.b = terms == 2 ? beta[2] : nan;
  fit.chi2 = chi2;
  fit.dof = static_cast<std::int64_t>(entries.size() - p);
  fit.chi2_per_dof = chi2 / static_cast<double>(fit.dof);
  // Too few sizes left above the cut to count a degree of freedom: the scale factor takes them all.
  const double scale_chi2_per_dof =
      in_scale > p ? chi2_scale / static_cast<double>(in_scale - p) : fit.chi2_per_dof;
  fit.scale_factor = std::max(1.0, std::sqrt(scale_chi2_per_dof));
  fit.thr_inf_err = std::sqrt(inverse[0][0]) * fit.scale_factor;
  return fit;
}

}  // namespace

Fit fit_threshold(const std::vector<double>& d, const std::vector<double>& thr,
                  const std::vector<double>& err, int terms) {
  return fit_entries(usable_entries(d, thr, err), terms);
}

Extrapolation extrapolate_threshold(const std::vector<double>& d, const std::vector<double>& thr,
                                    const std::vector<double>& err) {
  const std::vector<Entry> entries = usable_entries(d, thr, err);
  Extrapolation out;
  out.sizes_used = static_cast<std::int64_t>(entries.size());
  out.alternative.sizes_used = out.sizes_used;
  if (entries.size() < min_sizes_for_extrapolation) return out;
  const Fit line = fit_entries(entries, 1);
  if (line.terms == 0) return out;  // a singular design: no fit at all
  const Fit quadratic = entries.size() >= min_sizes_for_quadratic_term ? fit_entries(entries, 2)
                                                                       : Fit{.sizes_used = out.sizes_used};
  bool add_term = false;
  if (quadratic.terms == 2) {
    // The nested-model F-test of b = 0 on one added parameter (docs/finite_size.md, "Which terms").
    const double fall = line.chi2 - quadratic.chi2;
    const auto dof = static_cast<double>(quadratic.dof);
    if (!(fall > 0.0)) {
      out.quadratic_f = 0.0;
      out.quadratic_p_value = 1.0;
    } else if (!(quadratic.chi2 > 0.0)) {
      out.quadratic_f = std::numeric_limits<double>::infinity();
      out.quadratic_p_value = 0.0;
    } else {
      out.quadratic_f = fall / (quadratic.chi2 / dof);
      out.quadratic_p_value = boost::math::cdf(
          boost::math::complement(boost::math::fisher_f_distribution<double>(1.0, dof), out.quadratic_f));
    }
    add_term = out.quadratic_p_value < quadratic_term_level;
  }
  static_cast<Fit&>(out) = add_term ? quadratic : line;
  out.alternative = add_term ? line : quadratic;
  return out;
}

}  // namespace rmtsweep::assemble
