#pragma once
/// Roots of real cubics, the work-horse of the bulk law and of the thresholds (model.md 5.1-5.2).
#include <array>
#include <complex>

namespace rmtsweep::theory {

/// The roots of x^3 + a x^2 + b x + c with real coefficients.
struct CubicRoots {
  /// With three real roots: all of them, descending, imaginary parts exactly 0.
  /// With one real root: roots[0] is it, roots[1] the complex root with Im > 0, roots[2] its conjugate.
  std::array<std::complex<double>, 3> roots;
  bool all_real = true;
};

/// Solves x^3 + a x^2 + b x + c = 0 in closed form (trigonometric / Cardano, in the numerically
/// careful arrangement of Numerical Recipes 5.6) and polishes each root with Newton steps that are
/// kept only while they reduce the residual, so accuracy does not degrade away from double roots.
CubicRoots solve_monic_cubic(double a, double b, double c);

}  // namespace rmtsweep::theory
