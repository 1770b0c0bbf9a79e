#include "rmtsweep/theory/finite_t_outlier.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace rmtsweep::theory {

SpectralMeasure counting_measure(std::span<const double> values) {
  std::vector<double> sorted;
  sorted.reserve(values.size());
  for (const double x : values) {
    if (x > 0.0) sorted.push_back(x);
  }
  std::sort(sorted.begin(), sorted.end());
  SpectralMeasure measure;
  for (const double x : sorted) {
    if (!measure.nodes.empty() && measure.nodes.back() == x) {
      measure.weights.back() += 1.0;
    } else {
      measure.nodes.push_back(x);
      measure.weights.push_back(1.0);
    }
  }
  return measure;
}

namespace {

void check_measure(const SpectralMeasure& m, const char* what) {
  if (m.nodes.size() != m.weights.size())
    throw std::invalid_argument(std::string("FiniteTOutlier: ") + what +
                                " has nodes and weights of different lengths");
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    if (!(m.weights[i] >= 0.0) || !std::isfinite(m.weights[i]) || !std::isfinite(m.nodes[i]))
      throw std::invalid_argument(std::string("FiniteTOutlier: ") + what +
                                  " has a negative or non-finite atom");
  }
}

double largest_node(const SpectralMeasure& m) {
  double top = 0.0;
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    if (m.weights[i] > 0.0) top = std::max(top, m.nodes[i]);
  }
  return top;
}

}  // namespace

EdgePoint finite_t_edge_point(const SpectralMeasure& bulk, int d) {
  const double tau_max = largest_node(bulk);
  if (!(tau_max > 0.0))
    throw std::invalid_argument("finite_t_edge_point: the bulk measure has no positive atom");
  const double dd = d;
  // The bisection of finite_t_edge (finite_t_bulk.cpp), in y = d tau_max/zeta in (0, 1), where z'(zeta) = 0
  // reads d/y^2 = sum m r^2/(1 - y r)^2 (r = tau/tau_max): the left side falls in y, the right rises.
  const auto slope = [&](double y) {
    double sum = 0.0;
    for (std::size_t j = 0; j < bulk.nodes.size(); ++j) {
      const double r = bulk.nodes[j] / tau_max;
      sum += bulk.weights[j] * r * r / ((1.0 - y * r) * (1.0 - y * r));
    }
    return dd / (y * y) - sum;
  };
  double lo = 0.0, hi = 1.0;
  for (int step = 0; step < 200 && hi - lo > 1e-16; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (slope(mid) > 0.0 ? lo : hi) = mid;
  }
  const double y = 0.5 * (lo + hi);
  EdgePoint e;
  e.zeta = dd * tau_max / y;
  e.edge = e.zeta;
  for (std::size_t j = 0; j < bulk.nodes.size(); ++j)
    e.edge += bulk.weights[j] * bulk.nodes[j] / (1.0 - y * bulk.nodes[j] / tau_max);
  return e;
}

FiniteTOutlier::FiniteTOutlier(SpectralMeasure bulk, SpectralMeasure signal, int d, std::int64_t vocabulary,
                               model::Table table)
    : bulk_(std::move(bulk)),
      signal_(std::move(signal)),
      d_(d),
      noise_snr_(table == model::Table::iid ? static_cast<double>(d) / static_cast<double>(vocabulary)
                                            : 0.0) {
  check_measure(bulk_, "the bulk measure");
  check_measure(signal_, "the signal measure");
  if (d < 1 || vocabulary < 1) throw std::invalid_argument("FiniteTOutlier: d and V must be positive");
  const EdgePoint e = finite_t_edge_point(bulk_, d_);
  edge_zeta_ = e.zeta;
  edge_ = e.edge;
  const double dd = d_;
  if (!(dd * largest_node(signal_) < edge_zeta_)) {
    throw std::invalid_argument("FiniteTOutlier: a signal node lies at or above the bulk's edge (d tau = " +
                                std::to_string(dd * largest_node(signal_)) + " >= zeta_e = " +
                                std::to_string(edge_zeta_) + "); the signal measure must live on spec Pi");
  }
}

double finite_t_z(const SpectralMeasure& bulk, int d, double zeta) {
  double sum = 0.0;
  for (std::size_t j = 0; j < bulk.nodes.size(); ++j)
    sum += bulk.weights[j] * bulk.nodes[j] / (zeta - d * bulk.nodes[j]);
  return zeta * (1.0 + sum);
}

double finite_t_z_prime(const SpectralMeasure& bulk, int d, double zeta) {
  double sum = 0.0;
  for (std::size_t j = 0; j < bulk.nodes.size(); ++j) {
    const double q = bulk.nodes[j] / (zeta - d * bulk.nodes[j]);
    sum += bulk.weights[j] * q * q;
  }
  return 1.0 - d * sum;
}

double finite_t_g(const SpectralMeasure& signal, int d, double zeta) {
  double sum = 0.0;
  for (std::size_t i = 0; i < signal.nodes.size(); ++i)
    sum += signal.weights[i] / (zeta - d * signal.nodes[i]);
  return sum;
}

double finite_t_minus_g_prime(const SpectralMeasure& signal, int d, double zeta) {
  double sum = 0.0;
  for (std::size_t i = 0; i < signal.nodes.size(); ++i) {
    const double q = 1.0 / (zeta - d * signal.nodes[i]);
    sum += signal.weights[i] * q * q;
  }
  return sum;
}

double FiniteTOutlier::z(double zeta) const { return finite_t_z(bulk_, d_, zeta); }
double FiniteTOutlier::z_prime(double zeta) const { return finite_t_z_prime(bulk_, d_, zeta); }
double FiniteTOutlier::g(double zeta) const { return finite_t_g(signal_, d_, zeta); }
double FiniteTOutlier::minus_g_prime(double zeta) const { return finite_t_minus_g_prime(signal_, d_, zeta); }

double FiniteTOutlier::raw_threshold_snr() const {
  const double at_edge = g(edge_zeta_);
  if (!(at_edge > 0.0)) return std::numeric_limits<double>::infinity();
  return 1.0 / at_edge - noise_snr_;
}

double FiniteTOutlier::threshold_snr() const { return std::max(0.0, raw_threshold_snr()); }

FiniteTPrediction FiniteTOutlier::at(double snr) const {
  if (!(snr >= 0.0) || !std::isfinite(snr))
    throw std::invalid_argument("FiniteTOutlier::at: snr must be finite and >= 0, got " +
                                std::to_string(snr));
  FiniteTPrediction p;
  p.bulk_edge_right = edge_;
  p.threshold_snr = threshold_snr();
  p.top_eigenvalue = edge_;
  const double effective = snr + noise_snr_;
  p.detectable = effective * g(edge_zeta_) > 1.0;
  if (!p.detectable) return p;
  const SignalOutlier outlier = finite_t_signal_outlier(bulk_, signal_, d_, edge_zeta_, effective);
  p.top_eigenvalue = outlier.eigenvalue;
  // With u, times snr/snr_eff (`iid`).
  p.overlap = std::max(0.0, outlier.overlap * snr / effective);
  return p;
}

SignalOutlier finite_t_signal_outlier(const SpectralMeasure& bulk, const SpectralMeasure& signal, int d,
                                      double edge_zeta, double strength) {
  // H = strength G falls from above 1 at zeta_e to 0: bisect H(zeta) = 1 on [zeta_e, hi], where
  // G(hi) <= sum omega/(hi - d max node) = 1/(2 strength).
  double total = 0.0;
  for (const double w : signal.weights) total += w;
  double lo = edge_zeta, hi = std::max(edge_zeta, d * largest_node(signal) + 2.0 * strength * total);
  while (true) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (strength * finite_t_g(signal, d, mid) > 1.0 ? lo : hi) = mid;
  }
  const double zeta = 0.5 * (lo + hi);
  // The residue of m^T (S - x)^(-1) m/|m|^2 at the outlier.
  return {zeta, finite_t_z(bulk, d, zeta),
          finite_t_z_prime(bulk, d, zeta) / (zeta * strength * finite_t_minus_g_prime(signal, d, zeta))};
}

}  // namespace rmtsweep::theory
