#include "rmtsweep/theory/spike.hpp"

#include <algorithm>
#include <cmath>

#include "rmtsweep/theory/cubic.hpp"

namespace rmtsweep::theory {

SignalStrength signal_strength(double g, double snr, double delta, model::Table table) {
  SignalStrength signal;
  const bool iid = table == model::Table::iid;
  signal.theta = iid ? g * (snr + delta) : g * snr;
  signal.s = signal.theta - delta;
  signal.cap = iid ? snr / (snr + delta) : 1.0;
  return signal;
}

double detectability(double s, double delta, double gamma) {
  return s * s * s - (delta + gamma + delta * gamma) * s - 2.0 * delta * gamma;
}

double critical_signal(double delta, double gamma) {
  const CubicRoots roots = solve_monic_cubic(0.0, -(delta + gamma + delta * gamma), -2.0 * delta * gamma);
  // F(0) = -2 delta gamma < 0 and F -> +inf: the root of largest real part is the positive one.
  double largest = roots.roots[0].real();
  for (const auto& r : roots.roots) largest = std::max(largest, r.real());
  return largest;
}

std::optional<double> population_outlier(double s, double delta, double kappa) {
  if (!(s > std::sqrt(delta))) return std::nullopt;
  return kappa * (s + delta) * (s + 1.0) / s;
}

double population_overlap(double s, double delta, double cap) {
  if (!(s > std::sqrt(delta))) return 0.0;
  return cap * (1.0 - delta / (s * s));
}

bool sample_detectable(double s, double delta, double gamma) {
  return s > 0.0 && detectability(s, delta, gamma) > 0.0;
}

double sample_outlier(double s, double delta, double gamma, double kappa) {
  return kappa * (s + 1.0) * (s + delta) * (s + gamma) / (s * s);
}

double sample_overlap(double s, double delta, double gamma, double cap) {
  if (!sample_detectable(s, delta, gamma)) return 0.0;
  return cap * detectability(s, delta, gamma) / (s * s * (s + gamma));
}

double population_threshold_snr(double g, double delta, model::Table table) {
  const double raw = (delta + std::sqrt(delta)) / g - (table == model::Table::iid ? delta : 0.0);
  return std::max(0.0, raw);
}

double sample_threshold_snr(double g, double delta, double gamma, model::Table table) {
  const double raw = (critical_signal(delta, gamma) + delta) / g - (table == model::Table::iid ? delta : 0.0);
  return std::max(0.0, raw);
}

}  // namespace rmtsweep::theory
