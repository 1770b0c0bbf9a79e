// Residuals, the finite-T target's constancy and the detection trend along d
// (include/rmtsweep/assemble/finite_size_trends.hpp).
#include "rmtsweep/assemble/finite_size_trends.hpp"

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rmtsweep::assemble {

MedianEstimate paired_residual(const std::vector<double>& trial_thresholds,
                               const std::vector<double>& finite_t_thresholds, std::uint64_t line) {
  if (trial_thresholds.size() != finite_t_thresholds.size())
    throw std::invalid_argument("paired_residual: one finite-T threshold per trial threshold needed");
  std::vector<double> differences;
  for (std::size_t t = 0; t < trial_thresholds.size(); ++t) {
    if (std::isnan(trial_thresholds[t]) || !std::isfinite(finite_t_thresholds[t])) continue;
    differences.push_back(trial_thresholds[t] - finite_t_thresholds[t]);  // +inf stays +inf
  }
  return bootstrap_median(differences, line);
}

TargetConstancy target_constancy(const std::vector<std::vector<double>>& values) {
  std::vector<double> means, weights, counts;
  for (const auto& size : values) {
    std::vector<double> finite;
    for (const double v : size) {
      if (std::isfinite(v)) finite.push_back(v);
    }
    if (finite.size() < 2) continue;
    const Moments m = moments(finite);
    if (!(m.std > 0.0)) continue;
    means.push_back(m.mean);
    counts.push_back(static_cast<double>(finite.size()));
    weights.push_back(counts.back() / (m.std * m.std));
  }
  TargetConstancy out;
  if (means.size() < 2) return out;
  const auto g = static_cast<double>(means.size());
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  out.mean = std::inner_product(weights.begin(), weights.end(), means.begin(), 0.0) / total;
  out.chi2 = 0.0;
  double lambda = 0.0;
  for (std::size_t n = 0; n < means.size(); ++n) {
    out.chi2 += weights[n] * (means[n] - out.mean) * (means[n] - out.mean);
    lambda += (1.0 - weights[n] / total) * (1.0 - weights[n] / total) / (counts[n] - 1.0);
  }
  out.sizes = static_cast<std::int64_t>(means.size());
  out.f = out.chi2 / (g - 1.0) / (1.0 + 2.0 * (g - 2.0) / (g * g - 1.0) * lambda);
  out.dof2 = (g * g - 1.0) / (3.0 * lambda);
  out.p_value = boost::math::cdf(
      boost::math::complement(boost::math::fisher_f_distribution<double>(g - 1.0, out.dof2), out.f));
  out.converges = out.p_value < target_constancy_level ? target_moves : target_holds;
  return out;
}

namespace {

/// The exact P(T >= observed) under the multivariate hypergeometric law of the detections given their total
/// (`total`), T = sum_n n x_n (scores = ranks): the generating function of prod_n C(k_n, x_n) over (count,
/// T), one size at a time, rescaled after each so that no product overflows (only ratios at count = total
/// matter).
double exact_trend_p_value(const std::vector<std::int64_t>& trials, std::int64_t total,
                           std::int64_t observed) {
  const auto counts = static_cast<std::size_t>(total) + 1;
  const std::size_t scores = static_cast<std::size_t>(total) * (trials.size() - 1) + 1;
  std::vector<double> weight(counts * scores, 0.0), next(counts * scores);
  weight[0] = 1.0;
  for (std::size_t n = 0; n < trials.size(); ++n) {
    std::fill(next.begin(), next.end(), 0.0);
    const std::int64_t k = trials[n];
    std::vector<double> choose(static_cast<std::size_t>(std::min(k, total)) + 1);
    for (std::size_t x = 0; x < choose.size(); ++x) {
      const auto xd = static_cast<double>(x), kd = static_cast<double>(k);
      choose[x] = std::exp(std::lgamma(kd + 1.0) - std::lgamma(xd + 1.0) - std::lgamma(kd - xd + 1.0));
    }
    double largest = 0.0;
    for (std::size_t c = 0; c < counts; ++c) {
      for (std::size_t t = 0; t < scores; ++t) {
        const double w = weight[c * scores + t];
        if (w == 0.0) continue;
        for (std::size_t x = 0; x < choose.size() && c + x < counts; ++x) {
          double& into = next[(c + x) * scores + t + n * x];
          into += w * choose[x];
          largest = std::max(largest, into);
        }
      }
    }
    for (double& w : next) w /= largest;
    std::swap(weight, next);
  }
  double all = 0.0, tail = 0.0;
  for (std::size_t t = 0; t < scores; ++t) {
    const double w = weight[static_cast<std::size_t>(total) * scores + t];
    all += w;
    if (static_cast<std::int64_t>(t) >= observed) tail += w;
  }
  return std::min(1.0, tail / all);
}

}  // namespace

DetectionTrend detection_trend(const std::vector<double>& d, const std::vector<std::int64_t>& detected,
                               const std::vector<std::int64_t>& trials) {
  if (d.size() != detected.size() || d.size() != trials.size())
    throw std::invalid_argument("detection_trend: sizes, detections and trials differ in length");
  std::vector<std::size_t> order;
  for (std::size_t n = 0; n < d.size(); ++n) {
    if (detected[n] < 0 || detected[n] > trials[n])
      throw std::invalid_argument("detection_trend: detections outside 0 ... trials");
    if (trials[n] > 0) order.push_back(n);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
  DetectionTrend out;
  if (order.size() < 2) return out;
  std::vector<std::int64_t> x, k;
  for (const std::size_t n : order) {
    x.push_back(detected[n]);
    k.push_back(trials[n]);
  }
  std::int64_t total = 0, all = 0, statistic = 0;
  for (std::size_t n = 0; n < x.size(); ++n) {
    total += x[n];
    all += k[n];
    statistic += static_cast<std::int64_t>(n) * x[n];
  }
  out.statistic = static_cast<double>(statistic);
  if (total == 0 || total == all) {  // nothing, or everything, detected at every size: no trend can show
    out.p_value = 1.0;
    out.exact = true;
    out.consistent = rule_consistent;
    return out;
  }
  double work = 0.0;
  const double states = static_cast<double>(total + 1) *
                        static_cast<double>(total * static_cast<std::int64_t>(x.size() - 1) + 1);
  for (const std::int64_t trials_n : k) work += states * static_cast<double>(std::min(trials_n, total) + 1);
  if (work <= max_exact_trend_work) {
    out.p_value = exact_trend_p_value(k, total, statistic);
    out.exact = true;
  } else {
    const double p = static_cast<double>(total) / static_cast<double>(all);
    double sum_ks = 0.0, sum_kss = 0.0;
    for (std::size_t n = 0; n < k.size(); ++n) {
      const auto s = static_cast<double>(n), kn = static_cast<double>(k[n]);
      sum_ks += kn * s;
      sum_kss += kn * s * s;
    }
    const double variance = p * (1.0 - p) * (sum_kss - sum_ks * sum_ks / static_cast<double>(all));
    const double z = (out.statistic - p * sum_ks) / std::sqrt(variance);
    out.p_value = 0.5 * std::erfc(z / std::sqrt(2.0));
  }
  out.consistent = out.p_value < detection_trend_level ? rule_inconsistent : rule_consistent;
  return out;
}

}  // namespace rmtsweep::assemble
