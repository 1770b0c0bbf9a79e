// The probit fit of a line's detections (include/rmtsweep/assemble/probit_fit.hpp).
#include "rmtsweep/assemble/probit_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace rmtsweep::assemble {
namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

/// Score of one observation with respect to (a, b) and its Fisher weight phi^2 / (p (1 - p)).
struct Term {
  double score_a, score_b, weight;
};

Term term(double a, double b, const Detection& o) {
  const double eta = a + b * o.snr;
  // Clamped away from 0 and 1 so that far tails keep a finite weight.
  const double p = std::clamp(normal_cdf(eta), 1e-12, 1.0 - 1e-12);
  const double phi = normal_pdf(eta);
  const double r = ((o.detected ? 1.0 : 0.0) - p) * phi / (p * (1.0 - p));
  return {r, r * o.snr, phi * phi / (p * (1.0 - p))};
}

}  // namespace

ProbitFit fit_probit(const std::vector<Detection>& points) {
  ProbitFit fit;
  fit.points = static_cast<std::int64_t>(points.size());
  std::map<int, int> trials;
  std::size_t detected = 0;
  double lo = INFINITY, hi = -INFINITY;
  for (const Detection& o : points) {
    ++trials[o.trial];
    detected += o.detected ? 1 : 0;
    lo = std::min(lo, o.snr);
    hi = std::max(hi, o.snr);
  }
  fit.trials = static_cast<std::int64_t>(trials.size());
  if (detected == 0 || detected == points.size() || trials.size() < 2 || !(hi > lo)) return fit;

  // Start: the mean snr of the points and a width of a quarter of their range.
  double mean = 0.0;
  for (const Detection& o : points) mean += o.snr;
  mean /= static_cast<double>(points.size());
  double b = 4.0 / (hi - lo), a = -mean * b;
  const double b_max = 1e6 / (hi - lo);  // beyond: a step, the data are separated
  double haa = 0, hab = 0, hbb = 0;
  for (fit.iterations = 1; fit.iterations <= 100; ++fit.iterations) {
    double ga = 0, gb = 0;
    haa = hab = hbb = 0;
    for (const Detection& o : points) {
      const Term t = term(a, b, o);
      ga += t.score_a;
      gb += t.score_b;
      haa += t.weight;
      hab += t.weight * o.snr;
      hbb += t.weight * o.snr * o.snr;
    }
    const double det = haa * hbb - hab * hab;
    if (!(det > 0)) return fit;
    double da = (hbb * ga - hab * gb) / det, db = (haa * gb - hab * ga) / det;
    // Damped: b stays positive (detection rises with snr) and moves at most by a factor 2 per step.
    double scale = 1.0;
    while (b + scale * db <= 0.5 * b || b + scale * db >= 2.0 * b + 1.0 / (hi - lo)) scale *= 0.5;
    da *= scale;
    db *= scale;
    const double mu_old = -a / b;
    a += da;
    b += db;
    if (b > b_max) return fit;
    const double mu = -a / b;
    if (scale == 1.0 && std::abs(mu - mu_old) <= 1e-10 * std::max(1.0, std::abs(mu)) &&
        std::abs(db) <= 1e-10 * b) {
      fit.converged = true;
      break;
    }
  }
  if (!fit.converged) return fit;
  // Fisher information at the maximum, its inverse, and the sandwich over trials.
  haa = hab = hbb = 0;
  std::map<int, std::pair<double, double>> cluster;
  for (const Detection& o : points) {
    const Term t = term(a, b, o);
    haa += t.weight;
    hab += t.weight * o.snr;
    hbb += t.weight * o.snr * o.snr;
    cluster[o.trial].first += t.score_a;
    cluster[o.trial].second += t.score_b;
  }
  const double det = haa * hbb - hab * hab;
  const double iaa = hbb / det, iab = -hab / det, ibb = haa / det;
  double maa = 0, mab = 0, mbb = 0;
  for (const auto& [trial, g] : cluster) {
    maa += g.first * g.first;
    mab += g.first * g.second;
    mbb += g.second * g.second;
  }
  const double k = static_cast<double>(cluster.size());
  const double small_sample = k / (k - 1.0);
  // C = I M I (2 x 2, symmetric).
  const double xa = iaa * maa + iab * mab, xb = iaa * mab + iab * mbb;  // row a of I M
  const double ya = iab * maa + ibb * mab, yb = iab * mab + ibb * mbb;  // row b of I M
  const double caa = (xa * iaa + xb * iab) * small_sample;
  const double cab = (xa * iab + xb * ibb) * small_sample;
  const double cbb = (ya * iab + yb * ibb) * small_sample;
  fit.mu = -a / b;
  fit.sigma = 1.0 / b;
  // mu = -a/b: d/da = -1/b, d/db = a/b^2; sigma = 1/b: d/db = -1/b^2.
  const double ma = -1.0 / b, mb = a / (b * b);
  fit.mu_err = std::sqrt(std::max(0.0, ma * ma * caa + 2 * ma * mb * cab + mb * mb * cbb));
  fit.sigma_err = std::sqrt(std::max(0.0, cbb)) / (b * b);
  return fit;
}

}  // namespace rmtsweep::assemble
