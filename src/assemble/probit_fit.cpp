// The interval-censored probit fit of a line's detections (include/rmtsweep/assemble/probit_fit.hpp).
#include "rmtsweep/assemble/probit_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace rmtsweep::assemble {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

double normal_pdf(double x) { return std::isinf(x) ? 0.0 : std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

/// Phi(b) - Phi(a) for a <= b, accurate in both tails.
double mass(double a, double b) {
  const double s = 1.0 / std::sqrt(2.0);
  if (a > 0) return 0.5 * (std::erfc(a * s) - std::erfc(b * s));
  if (b < 0) return 0.5 * (std::erfc(-b * s) - std::erfc(-a * s));
  return 1.0 - 0.5 * std::erfc(-a * s) - 0.5 * std::erfc(b * s);
}

struct Bracket {
  double lo = -inf, hi = inf;
};

/// A trial's log-likelihood term and its gradient in (mu, log sigma).
struct Term {
  double value, d_mu, d_log_sigma;
};

Term term(const Bracket& b, double mu, double sigma) {
  const double za = (b.lo - mu) / sigma, zb = (b.hi - mu) / sigma;
  const double d = std::max(mass(za, zb), 1e-300);
  const double pa = normal_pdf(za), pb = normal_pdf(zb);
  const double ta = std::isinf(za) ? 0.0 : za * pa, tb = std::isinf(zb) ? 0.0 : zb * pb;
  return {std::log(d), -(pb - pa) / (sigma * d), -(tb - ta) / d};
}

struct Sums {
  double value = 0, g_mu = 0, g_ls = 0;
};

Sums sums(const std::vector<Bracket>& brackets, double mu, double log_sigma) {
  Sums s;
  const double sigma = std::exp(log_sigma);
  for (const Bracket& b : brackets) {
    const Term t = term(b, mu, sigma);
    s.value += t.value;
    s.g_mu += t.d_mu;
    s.g_ls += t.d_log_sigma;
  }
  return s;
}

}  // namespace

ProbitFit fit_probit(const std::vector<Detection>& points) {
  ProbitFit fit;
  fit.points = static_cast<std::int64_t>(points.size());
  std::map<int, Bracket> by_trial;
  for (const Detection& o : points) {
    Bracket& b = by_trial[o.trial];
    if (o.detected) b.hi = std::min(b.hi, o.snr);
  }
  for (const Detection& o : points) {
    Bracket& b = by_trial[o.trial];
    if (!o.detected && o.snr < b.hi) b.lo = std::max(b.lo, o.snr);
  }
  std::vector<Bracket> brackets;
  std::vector<double> ends;
  bool finite_lo = false, finite_hi = false, some_width = false;
  for (const auto& [trial, b] : by_trial) {
    brackets.push_back(b);
    finite_lo = finite_lo || std::isfinite(b.lo);
    finite_hi = finite_hi || std::isfinite(b.hi);
    some_width = some_width || !(std::isfinite(b.lo) && std::isfinite(b.hi) && b.hi - b.lo < 1e-12);
    ends.push_back(std::isfinite(b.lo) && std::isfinite(b.hi) ? 0.5 * (b.lo + b.hi)
                                                              : (std::isfinite(b.lo) ? b.lo : b.hi));
  }
  fit.trials = static_cast<std::int64_t>(brackets.size());
  if (brackets.size() < 2 || !finite_lo || !finite_hi || !some_width) return fit;

  // Start at the median and the spread of the brackets' centres.
  std::sort(ends.begin(), ends.end());
  double mu = ends[ends.size() / 2];
  double spread = (ends.back() - ends.front()) / 4.0;
  double log_sigma = std::log(std::max(spread, 1e-3 * std::max(1.0, std::abs(mu))));
  Sums at = sums(brackets, mu, log_sigma);
  // The Hessian by central differences of the analytic gradient.
  const auto hessian = [&](double m, double ls, double h[3]) {
    const double e = 1e-5;
    const Sums mp = sums(brackets, m + e, ls), mm = sums(brackets, m - e, ls);
    const Sums lp = sums(brackets, m, ls + e), lm = sums(brackets, m, ls - e);
    h[0] = (mp.g_mu - mm.g_mu) / (2 * e);
    h[1] = 0.5 * ((mp.g_ls - mm.g_ls) / (2 * e) + (lp.g_mu - lm.g_mu) / (2 * e));
    h[2] = (lp.g_ls - lm.g_ls) / (2 * e);
  };
  for (fit.iterations = 1; fit.iterations <= 200; ++fit.iterations) {
    double h[3];
    hessian(mu, log_sigma, h);
    const double det = h[0] * h[2] - h[1] * h[1];
    double step_mu = 0, step_ls = 0;
    if (h[0] < 0 && det > 0) {  // Newton's step where the surface is concave
      step_mu = -(h[2] * at.g_mu - h[1] * at.g_ls) / det;
      step_ls = -(h[0] * at.g_ls - h[1] * at.g_mu) / det;
    } else {  // else up the gradient
      step_mu = 0.1 * at.g_mu / (1.0 + std::abs(at.g_mu)) * std::exp(log_sigma);
      step_ls = 0.1 * at.g_ls / (1.0 + std::abs(at.g_ls));
    }
    step_ls = std::clamp(step_ls, -1.0, 1.0);
    double scale = 1.0;
    Sums next = sums(brackets, mu + step_mu, log_sigma + step_ls);
    while (!(next.value >= at.value) && scale > 1e-12) {
      scale *= 0.5;
      next = sums(brackets, mu + scale * step_mu, log_sigma + scale * step_ls);
    }
    if (!(next.value >= at.value)) break;
    mu += scale * step_mu;
    log_sigma += scale * step_ls;
    at = next;
    if (log_sigma < std::log(1e-9 * std::max(1.0, std::abs(mu)))) return fit;  // a step: no width
    if (std::abs(scale * step_mu) < 1e-10 * std::max(1.0, std::abs(mu)) &&
        std::abs(scale * step_ls) < 1e-10) {
      fit.converged = true;
      break;
    }
  }
  if (!fit.converged) return fit;
  double h[3];
  hessian(mu, log_sigma, h);
  const double det = h[0] * h[2] - h[1] * h[1];
  if (!(h[0] < 0 && det > 0)) {
    fit.converged = false;
    return fit;
  }
  // Inverse of the observed information I = -H, and the sandwich over the trials.
  const double iaa = -h[2] / det, iab = h[1] / det, ibb = -h[0] / det;
  double maa = 0, mab = 0, mbb = 0;
  const double sigma = std::exp(log_sigma);
  for (const Bracket& b : brackets) {
    const Term t = term(b, mu, sigma);
    maa += t.d_mu * t.d_mu;
    mab += t.d_mu * t.d_log_sigma;
    mbb += t.d_log_sigma * t.d_log_sigma;
  }
  const double k = static_cast<double>(brackets.size());
  const double small_sample = k / (k - 1.0);
  const double xa = iaa * maa + iab * mab, xb = iaa * mab + iab * mbb;
  const double ya = iab * maa + ibb * mab, yb = iab * mab + ibb * mbb;
  const double caa = (xa * iaa + xb * iab) * small_sample;
  const double cbb = (ya * iab + yb * ibb) * small_sample;
  fit.mu = mu;
  fit.sigma = sigma;
  fit.mu_err = std::sqrt(std::max(0.0, caa));
  fit.sigma_err = sigma * std::sqrt(std::max(0.0, cbb));
  fit.log_likelihood = at.value;
  return fit;
}

}  // namespace rmtsweep::assemble
