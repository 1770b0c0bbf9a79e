#include "rmtsweep/theory/cubic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rmtsweep::theory {
namespace {

template <typename Number>
Number residual(Number x, double a, double b, double c) {
  return ((x + a) * x + b) * x + c;
}

/// Newton steps on x^3 + a x^2 + b x + c, each accepted only if |p(x)| decreases.
template <typename Number>
Number polish(Number x, double a, double b, double c) {
  Number p = residual(x, a, b, c);
  for (int step = 0; step < 4 && std::abs(p) > 0.0; ++step) {
    const Number derivative = (3.0 * x + 2.0 * a) * x + b;
    if (std::abs(derivative) == 0.0) break;
    const Number candidate = x - p / derivative;
    const Number p_candidate = residual(candidate, a, b, c);
    if (!(std::abs(p_candidate) < std::abs(p))) break;
    x = candidate;
    p = p_candidate;
  }
  return x;
}

}  // namespace

CubicRoots solve_monic_cubic(double a, double b, double c) {
  const double Q = (a * a - 3.0 * b) / 9.0;
  const double R = (2.0 * a * a * a - 9.0 * a * b + 27.0 * c) / 54.0;
  const double shift = a / 3.0;
  // Step 1: one real root r, accurately. Cardano's test R^2 < Q^3 cancels badly when two roots are
  // close to each other and small compared with the third (the bulk cubic as u -> 0), so it only chooses
  // the formula here; whether the other two roots are real is decided after deflation.
  double real_root = 0.0;
  if (R * R < Q * Q * Q) {
    // Trigonometric form: take the root farthest from the other two, the best-conditioned one.
    const double sqrt_Q = std::sqrt(Q);
    const double angle = std::acos(std::clamp(R / (Q * sqrt_Q), -1.0, 1.0));
    std::array<double, 3> x{};
    for (std::size_t k = 0; k < 3; ++k) {
      x[k] =
          -2.0 * sqrt_Q * std::cos((angle + 2.0 * std::numbers::pi * static_cast<double>(k)) / 3.0) - shift;
    }
    double best_gap = -1.0;
    for (std::size_t k = 0; k < 3; ++k) {
      const double gap = std::min(std::abs(x[k] - x[(k + 1) % 3]), std::abs(x[k] - x[(k + 2) % 3]));
      if (gap > best_gap) {
        best_gap = gap;
        real_root = x[k];
      }
    }
  } else {
    const double A = -std::copysign(std::cbrt(std::abs(R) + std::sqrt(R * R - Q * Q * Q)), R);
    const double B = A == 0.0 ? 0.0 : Q / A;
    real_root = A + B - shift;
  }
  real_root = polish(real_root, a, b, c);

  // Step 2: the other two from the deflated quadratic x^2 + p x + q = (cubic)/(x - r), whose roots keep
  // their relative accuracy even when much smaller than r. q = -c/r is exact to rounding; p is a + r or
  // (q - b)/r, whichever cancels less.
  double p = a, q = b;
  if (real_root != 0.0) {
    q = -c / real_root;
    const double p_sum = a + real_root, p_vieta = (q - b) / real_root;
    const double error_sum = std::abs(a) + std::abs(real_root);
    const double error_vieta = (std::abs(q) + std::abs(b)) / std::abs(real_root);
    p = error_sum <= error_vieta ? p_sum : p_vieta;
  }
  CubicRoots result;
  const double discriminant = q - p * p / 4.0;
  if (discriminant > 0.0) {
    const std::complex<double> pair(-p / 2.0, std::sqrt(discriminant));
    result.roots = {std::complex<double>(real_root, 0.0), pair, std::conj(pair)};
    result.all_real = false;
    return result;
  }
  const double root = std::sqrt(-discriminant);
  const double big = -p / 2.0 - std::copysign(root, p);  // no cancellation; the other root is q/big
  std::array<double, 3> x{real_root, polish(big, a, b, c), big != 0.0 ? polish(q / big, a, b, c) : 0.0};
  std::sort(x.begin(), x.end(), std::greater<>());
  for (std::size_t k = 0; k < 3; ++k) result.roots[k] = x[k];
  result.all_real = true;
  return result;
}

}  // namespace rmtsweep::theory
