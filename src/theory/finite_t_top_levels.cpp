#include "rmtsweep/theory/finite_t_top_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"

namespace rmtsweep::theory {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// The unit eigenvector of the largest eigenvalue of the symmetric k x k matrix a.
std::vector<double> top_vector(const std::vector<double>& a, int k) {
  const model::SymmetricEigen e = model::symmetric_eigen(a, k);
  return std::vector<double>(e.vectors.end() - static_cast<std::ptrdiff_t>(k), e.vectors.end());
}

}  // namespace

/// tr R, tr R^2, mhat^T R mhat and mhat^T R^2 mhat at z = z_R(zeta), R = (z - S_R)^(-1), with S_R's
/// outlier taken out of the last two.
struct FiniteTTopLevels::Forms {
  double t = 0.0, t2 = 0.0, r = 0.0, r2 = 0.0, t3 = 0.0;
};

int kept_top_directions(const SpectralMeasure& bulk, int d, double level_unit) {
  if (d < 1 || !(level_unit > 0.0) || bulk.nodes.empty() || bulk.nodes.size() != bulk.weights.size())
    throw std::invalid_argument("kept_top_directions: needs d >= 1, level_unit > 0 and a bulk, got d = " +
                                std::to_string(d) + ", level_unit = " + std::to_string(level_unit));
  // Levels from the top: (level, directions), and the atoms of each.
  std::vector<std::size_t> order(bulk.nodes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return bulk.nodes[a] > bulk.nodes[b]; });
  std::vector<std::size_t> level_end;  // one past each level's last atom in `order`
  double total = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    total += std::round(bulk.weights[order[i]]);
    if (i + 1 == order.size() || std::llround(bulk.nodes[order[i + 1]] / level_unit) !=
                                     std::llround(bulk.nodes[order[i]] / level_unit))
      level_end.push_back(i + 1);
  }
  double kept = 0.0;
  std::size_t begin = 0;
  for (const std::size_t end : level_end) {
    if (end == order.size()) break;  // the bottom level has no rest below it
    SpectralMeasure rest;
    for (std::size_t i = end; i < order.size(); ++i) {
      rest.nodes.push_back(bulk.nodes[order[i]]);
      rest.weights.push_back(bulk.weights[order[i]]);
    }
    const double pole = d * bulk.nodes[order[begin]];
    for (std::size_t i = begin; i < end; ++i) kept += std::round(bulk.weights[order[i]]);
    begin = end;
    if (!(pole > finite_t_edge_point(rest, d).zeta)) break;  // the first subcritical level, kept, is the last
  }
  return static_cast<int>(std::clamp(kept, 1.0, std::max(1.0, total - 1.0)));
}

FiniteTTopLevels::FiniteTTopLevels(const SpectralMeasure& bulk, const SpectralMeasure& signal, int d,
                                   std::int64_t vocabulary, model::Table table, int k)
    : d_(d), vocabulary_(static_cast<double>(vocabulary)), table_(table) {
  if (k < 1) throw std::invalid_argument("FiniteTTopLevels: k must be >= 1, got " + std::to_string(k));
  if (d < 1 || vocabulary < 1)
    throw std::invalid_argument("FiniteTTopLevels: d and V must be >= 1, got " + std::to_string(d) + " and " +
                                std::to_string(vocabulary));
  if (bulk.nodes.size() != bulk.weights.size() || signal.nodes.size() != signal.weights.size())
    throw std::invalid_argument("FiniteTTopLevels: nodes and weights of different lengths");
  // Bulk atoms from the largest tau down; each signal atom on the bulk atom of its tau.
  std::vector<std::size_t> order(bulk.nodes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return bulk.nodes[a] > bulk.nodes[b]; });
  const double largest = order.empty() ? 0.0 : bulk.nodes[order.front()];
  std::vector<std::vector<double>> on_atom(bulk.nodes.size());
  for (std::size_t s = 0; s < signal.nodes.size(); ++s) {
    if (!(signal.weights[s] > 0.0)) continue;
    std::size_t best = bulk.nodes.size();
    double distance = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < bulk.nodes.size(); ++b) {
      const double x = std::abs(bulk.nodes[b] - signal.nodes[s]);
      if (x < distance) distance = x, best = b;
    }
    if (best < bulk.nodes.size() && distance <= 1e-9 * largest) {
      on_atom[best].push_back(signal.weights[s]);
    } else {
      rest_signal_.nodes.push_back(signal.nodes[s]);
      rest_signal_.weights.push_back(signal.weights[s]);
    }
  }
  for (const std::size_t b : order) {
    const auto multiplicity = static_cast<std::size_t>(std::llround(bulk.weights[b]));
    // Within an eigenspace of Pi the y_j are exchangeable, so b's part in it may be put on one direction: its
    // whole weight goes to the first direction of the atom (kept if any is), whatever basis the measures came
    // in.
    const double weight = std::accumulate(on_atom[b].begin(), on_atom[b].end(), 0.0);
    const std::size_t take = std::min(multiplicity, static_cast<std::size_t>(k) - tau_.size());
    for (std::size_t j = 0; j < take; ++j) {
      tau_.push_back(bulk.nodes[b]);
      beta_.push_back(j == 0 ? std::sqrt(weight) : 0.0);
    }
    if (take < multiplicity) {
      rest_.nodes.push_back(bulk.nodes[b]);
      rest_.weights.push_back(static_cast<double>(multiplicity - take));
    }
    if (take == 0 && weight > 0.0) {
      rest_signal_.nodes.push_back(bulk.nodes[b]);
      rest_signal_.weights.push_back(weight);
    }
  }
  if (tau_.size() < static_cast<std::size_t>(k) || rest_.nodes.empty())
    throw std::invalid_argument("FiniteTTopLevels: a bulk of " + std::to_string(tau_.size()) +
                                " directions or fewer, needs more than k = " + std::to_string(k));
  rest_edge_ = finite_t_edge_point(rest_, d_);
  for (const double node : rest_signal_.nodes) {
    if (!(d_ * node < rest_edge_.zeta))  // a signal node off every bulk atom, above the rest's bulk
      throw std::invalid_argument("FiniteTTopLevels: a signal node at d tau = " + std::to_string(d_ * node) +
                                  " >= the rest's zeta_e = " + std::to_string(rest_edge_.zeta));
  }
}

double FiniteTTopLevels::z(double zeta) const { return finite_t_z(rest_, d_, zeta); }
double FiniteTTopLevels::z_prime(double zeta) const { return finite_t_z_prime(rest_, d_, zeta); }
double FiniteTTopLevels::g(double zeta) const { return finite_t_g(rest_signal_, d_, zeta); }
double FiniteTTopLevels::minus_g_prime(double zeta) const {
  return finite_t_minus_g_prime(rest_signal_, d_, zeta);
}

FiniteTTopLevels::Forms FiniteTTopLevels::forms(double zeta, double m2, double outlier_z, double rho) const {
  const double zp = z_prime(zeta), h = m2 * g(zeta), hp = -m2 * minus_g_prime(zeta);
  const double den = zeta * (1.0 - h);
  // tr R^3 = -(1/2) d tr R^2/dz with tr R^2 = d/(zeta^2 z'): d/(zeta^3 z'^2) + d z''/(2 zeta^2 z'^3).
  double zpp = 0.0;
  for (std::size_t j = 0; j < rest_.nodes.size(); ++j) {
    const double q = zeta - d_ * rest_.nodes[j];
    zpp += 2.0 * d_ * rest_.weights[j] * rest_.nodes[j] * rest_.nodes[j] / (q * q * q);
  }
  Forms f{d_ / zeta, d_ / (zeta * zeta * zp), 1.0 / den, (1.0 - h - zeta * hp) / (den * den) / zp,
          d_ / (zeta * zeta * zeta * zp * zp) + d_ * zpp / (2.0 * zeta * zeta * zp * zp * zp)};
  if (!std::isnan(outlier_z)) {
    const double dz = z(zeta) - outlier_z;
    f.r -= rho / dz;
    f.r2 -= rho / (dz * dz);
  }
  return f;
}

FiniteTTopLevels::Forms FiniteTTopLevels::smooth_forms(double zeta, double m2, double outlier_zeta,
                                                       double outlier_z, double rho) const {
  // With the outlier's pole taken out the forms are smooth across it, but the subtraction cancels there:
  // linear between two points either side.
  const double eps = 1e-3 * (outlier_zeta - rest_edge_.zeta);
  if (std::isnan(outlier_zeta) || std::abs(zeta - outlier_zeta) >= eps)
    return forms(zeta, m2, outlier_z, rho);
  const Forms lo = forms(outlier_zeta - eps, m2, outlier_z, rho),
              hi = forms(outlier_zeta + eps, m2, outlier_z, rho);
  const double f = (zeta - (outlier_zeta - eps)) / (2.0 * eps);
  return {lo.t + f * (hi.t - lo.t), lo.t2 + f * (hi.t2 - lo.t2), lo.r + f * (hi.r - lo.r),
          lo.r2 + f * (hi.r2 - lo.r2), lo.t3 + f * (hi.t3 - lo.t3)};
}

TopLevelDraw FiniteTTopLevels::draw(double snr, const TopLevelDraws& draws, std::size_t i) const {
  const int k = this->k();
  const auto uk = static_cast<std::size_t>(k);
  double m2 = snr, cap = 1.0;
  if (table_ == model::Table::iid) {
    const double g1 = draws.g1[i], chi2 = d_ + std::sqrt(2.0 * d_) * draws.chi[i];
    m2 = snr + 2.0 * std::sqrt(snr / vocabulary_) * g1 + chi2 / vocabulary_;
    const double along = std::sqrt(snr) + g1 / std::sqrt(vocabulary_);
    cap = along * along / m2;
  }
  m2 = std::max(m2, 0.0);  // 0 for `centered` at snr = 0: the levels still stand above S_R
  // S_R's own signal outlier: H_R(zeta_o) = 1 above its edge (H_R falls there).
  double outlier_zeta = nan, outlier_z = nan, rho = 0.0;
  if (m2 * g(rest_edge_.zeta) > 1.0) {
    const SignalOutlier outlier = finite_t_signal_outlier(rest_, rest_signal_, d_, rest_edge_.zeta, m2);
    outlier_zeta = outlier.zeta;
    outlier_z = outlier.eigenvalue;
    rho = outlier.overlap;
  }
  const double* xi = draws.xi.data() + i * uk * uk;
  const double* gg = draws.g.data() + i * uk;
  const double* go = draws.go.data() + i * uk;
  const double m = std::sqrt(m2);
  std::vector<double> a(uk * uk), num(uk), uo(uk), l(uk * uk), w(uk * uk);
  // A(zeta) into a, and mhat^T (z - S_R)^(-1) x_j into num.
  const auto build = [&](double zeta) {
    const Forms f = smooth_forms(zeta, m2, outlier_zeta, outlier_z, rho);
    const double eta_sd = m * std::sqrt(std::max(f.r2, 0.0));
    // Y_K^T R Y_K = sum_i r_i w_i w_i^T (w_i iid N(0, I_k)) as b I + a W, W Wishart_k(n) by Bartlett from the
    // draws (xi below the diagonal, xi_pp/sqrt 2 through Wilson-Hilferty's chi^2), with a, n, b matching its
    // mean tr R, variance tr R^2 and third cumulant tr R^3: a Gaussian of the first two alone puts A's top
    // low by about k tr R^3/tr R^2 (docs/finite_t.md, "How many directions").
    const double t2 = std::max(f.t2, 1e-300), t3 = std::max(f.t3, 1e-300);
    const double scale = t3 / t2, dof = t2 * t2 * t2 / (t3 * t3), shift = f.t - t2 * t2 / t3;
    std::fill(l.begin(), l.end(), 0.0);
    for (std::size_t p = 0; p < uk; ++p) {
      const double nu = std::max(dof - static_cast<double>(p), 0.5), c = 2.0 / (9.0 * nu);
      const double cube = std::max(0.0, 1.0 - c + xi[p * uk + p] / std::sqrt(2.0) * std::sqrt(c));
      l[p * uk + p] = std::sqrt(nu * cube * cube * cube);
      for (std::size_t q = 0; q < p; ++q) l[p * uk + q] = xi[p * uk + q];
    }
    for (std::size_t p = 0; p < uk; ++p)
      for (std::size_t q = 0; q <= p; ++q) {
        double sum = 0.0;
        for (std::size_t r = 0; r <= q; ++r) sum += l[p * uk + r] * l[q * uk + r];
        w[p * uk + q] = w[q * uk + p] = shift * (p == q ? 1.0 : 0.0) + scale * sum;
      }
    const double pole = std::isnan(outlier_z) ? 0.0 : 1.0 / (z(zeta) - outlier_z);
    for (std::size_t p = 0; p < uk; ++p) {
      uo[p] = std::sqrt(tau_[p]) * go[p] + std::sqrt(rho) * m * beta_[p];
      num[p] = std::sqrt(tau_[p] * std::max(f.r2, 0.0)) * gg[p] + m * f.r * beta_[p] +
               std::sqrt(rho) * pole * uo[p];
    }
    for (std::size_t p = 0; p < uk; ++p) {
      for (std::size_t q = 0; q < uk; ++q) {
        const double yy = w[p * uk + q];
        a[p * uk + q] = std::sqrt(tau_[p] * tau_[q]) * yy + std::sqrt(tau_[p]) * eta_sd * gg[p] * beta_[q] +
                        beta_[p] * std::sqrt(tau_[q]) * eta_sd * gg[q] + m2 * f.r * beta_[p] * beta_[q] +
                        pole * uo[p] * uo[q];
      }
    }
  };
  const auto excess = [&](double zeta) {  // values only: the vectors are needed at the root alone
    build(zeta);
    // 1 - 1/lambda_max: the sign of lambda_max - 1, and nearly linear in zeta where one pole of A dominates,
    // so that regula falsi converges in a few steps.
    const double top = model::symmetric_eigenvalues(a, k).back();
    if (!std::isfinite(top))
      throw NumericalFailure("FiniteTTopLevels: the top eigenvalue of A at zeta = " + std::to_string(zeta) +
                             " is not finite (snr " + std::to_string(snr) + ")");
    return top > 1e-6 ? 1.0 - 1.0 / top : 1.0 - 1e6;
  };
  double lo = rest_edge_.zeta * (1.0 + 1e-9);
  if (!std::isnan(outlier_zeta)) {
    // Just above S_R's outlier, where A's pole 1/(z - outlier_z) is finite: an outlier just above the rest's
    // threshold lies so near the rest's edge (z' ~ 0) that 1e-7 of the gap can leave z(lo) = outlier_z in
    // doubles (measured: d = 2000, iid, k = 4, a gap of 2e-5 in zeta).
    const double gap = outlier_zeta - rest_edge_.zeta;
    double step = 1e-7 * gap;
    while (!(z(outlier_zeta + step) - outlier_z > 1e-12 * outlier_z) && step < 0.5 * gap) step *= 10.0;
    lo = outlier_zeta + step;
  }
  double f_lo = excess(lo);
  // Nothing of S above S_R: its top is S_R's outlier (overlap rho with m) or its edge. Rarely reached: near
  // the edge tr R^2, and with it the forms' fluctuations, diverge, so A's top eigenvalue exceeds 1 there.
  if (!(f_lo > 0.0)) return {std::isnan(outlier_z) ? rest_edge_.edge : outlier_z, rho * cap};
  double hi = 2.0 * lo, f_hi = excess(hi);
  while (f_hi > 0.0) hi *= 2.0, f_hi = excess(hi);
  // lambda_max(A) - 1 falls through 0 once on (lo, hi): the Illinois variant of regula falsi.
  int side = 0;
  for (int it = 0; it < 200 && hi - lo > 1e-9 * hi; ++it) {
    const double mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    const double x = (mid > lo && mid < hi) ? mid : 0.5 * (lo + hi);
    const double fx = excess(x);
    if (fx > 0.0) {
      lo = x, f_lo = fx;
      if (side == 1) f_hi *= 0.5;
      side = 1;
    } else {
      hi = x, f_hi = fx;
      if (side == -1) f_lo *= 0.5;
      side = -1;
    }
  }
  const double zeta = 0.5 * (lo + hi);
  build(zeta);
  const std::vector<double> c = top_vector(a, k);
  double along = 0.0;
  for (std::size_t p = 0; p < uk; ++p) along += c[p] * num[p];
  // -c^T A'(z) c = |(z - S_R)^(-1) X_K c|^2: A' by a central difference in zeta over z'(zeta).
  const double h = 1e-7 * zeta;
  build(zeta + h);
  const std::vector<double> up = a;
  build(zeta - h);
  double slope = 0.0;
  for (std::size_t p = 0; p < uk; ++p)
    for (std::size_t q = 0; q < uk; ++q) slope += c[p] * (up[p * uk + q] - a[p * uk + q]) * c[q];
  const double norm2 = -slope / (2.0 * h * z_prime(zeta));
  return {z(zeta), norm2 > 0.0 ? along * along / norm2 * cap : 0.0};
}

TopLevelPrediction FiniteTTopLevels::at(double snr, const TopLevelDraws& draws) const {
  if (!(snr >= 0.0) || !std::isfinite(snr))
    throw std::invalid_argument("FiniteTTopLevels::at: snr must be finite and >= 0, got " +
                                std::to_string(snr));
  const std::size_t n = draws.count(), uk = static_cast<std::size_t>(k());
  if (draws.k != k() || n < 2 || draws.xi.size() != n * uk * uk || draws.g.size() != n * uk ||
      draws.go.size() != n * uk || draws.chi.size() != n)
    throw std::invalid_argument("FiniteTTopLevels::at: draws for k = " + std::to_string(draws.k) + " and " +
                                std::to_string(n) + " table draws do not fit k = " + std::to_string(k()));
  double sum_lambda = 0.0, sum = 0.0, sum2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [lambda, overlap] = draw(snr, draws, i);
    sum_lambda += lambda;
    sum += overlap;
    sum2 += overlap * overlap;
  }
  const double mean = sum / static_cast<double>(n);
  const double var =
      std::max(0.0, (sum2 - static_cast<double>(n) * mean * mean) / static_cast<double>(n - 1));
  return {sum_lambda / static_cast<double>(n), mean, std::sqrt(var / static_cast<double>(n)), k(),
          static_cast<int>(n)};
}

}  // namespace rmtsweep::theory
