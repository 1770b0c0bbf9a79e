// The probit fit of a line's detections (include/rmtsweep/assemble/probit_fit.hpp).
#include "rmtsweep/assemble/probit_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace rmtsweep::assemble {
namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

/// Score of one observation with respect to (a, b), its Fisher weight (s phi)^2 / (p (1 - p)) and its
/// log-likelihood, for P = guess + s Phi(a + b snr), s = 1 - guess - lapse.
struct Term {
  double score_a, score_b, weight, log_likelihood;
};

Term term(double a, double b, const Detection& o, double guess, double lapse) {
  const double eta = a + b * o.snr;
  const double scale = 1.0 - guess - lapse;
  // Clamped away from 0 and 1 so that far tails keep a finite weight.
  const double p = std::clamp(guess + scale * normal_cdf(eta), 1e-12, 1.0 - 1e-12);
  const double phi = scale * normal_pdf(eta);
  const double r = ((o.detected ? 1.0 : 0.0) - p) * phi / (p * (1.0 - p));
  return {r, r * o.snr, phi * phi / (p * (1.0 - p)), std::log(o.detected ? p : 1.0 - p)};
}

/// Phi^-1 by bisection (the fit needs it once per (guess, lapse)).
double normal_quantile(double q) {
  double lo = -40.0, hi = 40.0;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (normal_cdf(mid) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// The points of one snr value: how many, how many detected (the likelihood's sufficient statistics).
struct Cell {
  double snr;
  double n, k;
};

/// Score, weight and log-likelihood of a cell of n points with k detected.
Term cell_term(double a, double b, const Cell& c, double guess, double lapse) {
  const double eta = a + b * c.snr;
  const double scale = 1.0 - guess - lapse;
  const double p = std::clamp(guess + scale * normal_cdf(eta), 1e-12, 1.0 - 1e-12);
  const double phi = scale * normal_pdf(eta);
  const double r = (c.k - c.n * p) * phi / (p * (1.0 - p));
  return {r, r * c.snr, c.n * phi * phi / (p * (1.0 - p)), c.k * std::log(p) + (c.n - c.k) * std::log(1.0 - p)};
}

ProbitFit fit_fixed_rates(const std::vector<Detection>& points, const std::vector<Cell>& cells, double guess,
                          double lapse);

}  // namespace

ProbitFit fit_probit(const std::vector<Detection>& points) {
  std::map<double, Cell> by_snr;
  for (const Detection& o : points) {
    Cell& c = by_snr.try_emplace(o.snr, Cell{o.snr, 0.0, 0.0}).first->second;
    c.n += 1.0;
    c.k += o.detected ? 1.0 : 0.0;
  }
  std::vector<Cell> cells;
  for (const auto& [snr, c] : by_snr) cells.push_back(c);
  ProbitFit best;
  for (int g = 0; g <= max_rate_steps_guess; ++g) {
    for (int l = 0; l <= max_rate_steps_lapse; ++l) {
      const ProbitFit fit = fit_fixed_rates(points, cells, g * rate_step, l * rate_step);
      // A fit that ran off to a step (separated data) still counts with the likelihood it reached: when
      // that is the largest, the maximum is a step and there is no fit.
      if (g == 0 && l == 0) best = fit;
      else if (fit.log_likelihood > best.log_likelihood || std::isnan(best.log_likelihood)) best = fit;
    }
  }
  if (!best.converged) {
    ProbitFit none;
    none.points = best.points;
    none.trials = best.trials;
    none.iterations = best.iterations;
    return none;
  }
  return best;
}

namespace {

ProbitFit fit_fixed_rates(const std::vector<Detection>& points, const std::vector<Cell>& cells, double guess,
                          double lapse) {
  ProbitFit fit;
  fit.guess = guess;
  fit.lapse = lapse;
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
  const auto likelihood = [&] {
    double sum = 0.0;
    for (const Cell& c : cells) sum += cell_term(a, b, c, guess, lapse).log_likelihood;
    return sum;
  };
  for (fit.iterations = 1; fit.iterations <= 100; ++fit.iterations) {
    double ga = 0, gb = 0;
    haa = hab = hbb = 0;
    for (const Cell& c : cells) {
      const Term t = cell_term(a, b, c, guess, lapse);
      ga += t.score_a;
      gb += t.score_b;
      haa += t.weight;
      hab += t.weight * c.snr;
      hbb += t.weight * c.snr * c.snr;
    }
    const double det = haa * hbb - hab * hab;
    if (!(det > 0)) {
      fit.log_likelihood = likelihood();
      return fit;
    }
    double da = (hbb * ga - hab * gb) / det, db = (haa * gb - hab * ga) / det;
    // Damped: b stays positive (detection rises with snr) and moves at most by a factor 2 per step.
    double scale = 1.0;
    while (b + scale * db <= 0.5 * b || b + scale * db >= 2.0 * b + 1.0 / (hi - lo)) scale *= 0.5;
    da *= scale;
    db *= scale;
    const double mu_old = -a / b;
    a += da;
    b += db;
    if (b > b_max) {
      fit.log_likelihood = likelihood();
      return fit;
    }
    const double mu = -a / b;
    if (scale == 1.0 && std::abs(mu - mu_old) <= 1e-10 * std::max(1.0, std::abs(mu)) &&
        std::abs(db) <= 1e-10 * b) {
      fit.converged = true;
      break;
    }
  }
  // A width far below the points' spacing is a step: separated data, no fit.
  if (!fit.converged || 1.0 / b < 1e-4 * (hi - lo)) {
    fit.converged = false;
    fit.log_likelihood = likelihood();
    return fit;
  }
  // Fisher information at the maximum, its inverse, and the sandwich over trials.
  haa = hab = hbb = 0;
  std::map<int, std::pair<double, double>> cluster;
  fit.log_likelihood = 0.0;
  for (const Detection& o : points) {
    const Term t = term(a, b, o, guess, lapse);
    fit.log_likelihood += t.log_likelihood;
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
  // The half crossing: Phi(a + b s) = (1/2 - guess) / (1 - guess - lapse) =: q, s = (z_q - a) / b.
  const double z = normal_quantile((0.5 - guess) / (1.0 - guess - lapse));
  fit.threshold = (z - a) / b;
  const double ta = -1.0 / b, tb = -(z - a) / (b * b);
  fit.threshold_err = std::sqrt(std::max(0.0, ta * ta * caa + 2 * ta * tb * cab + tb * tb * cbb));
  return fit;
}

}  // namespace

}  // namespace rmtsweep::assemble
