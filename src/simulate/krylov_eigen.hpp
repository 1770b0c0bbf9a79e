#pragma once
// The top eigenpairs of S and the ridge solve by Krylov methods on FactoredCovariance (private to
// src/simulate). Every rank runs the same iteration on the same replicated vectors, so all hold
// bit-identical iterates (the operator's products are).
#include <vector>

#include "krylov_operator.hpp"

namespace rmtsweep::simulate {

/// Conjugate gradients on (S + lambda I) beta = rhs, one product of S per step. It can ride along
/// the eigen solver's block products (one more column, so the table is not read again for it)
/// and continue alone once that has finished.
class RidgeCg {
 public:
  /// Stops when ||r|| <= tolerance ||rhs|| (recurrence residual).
  RidgeCg(std::vector<double> rhs, double lambda, double tolerance);

  bool done() const noexcept { return done_; }
  /// The direction p whose product S p advance() wants next (length d).
  const std::vector<double>& direction() const noexcept { return p_; }
  /// One CG step from sp = S p.
  void advance(const double* sp);
  /// Steps alone (one product each) until done or `budget` products have been spent.
  void finish(const FactoredCovariance& s, long long budget);

  const std::vector<double>& solution() const noexcept { return beta_; }
  int steps() const noexcept { return steps_; }

 private:
  std::vector<double> beta_, r_, p_, q_;
  double lambda_, rr_ = 0.0, stop_ = 0.0;
  bool done_ = false;
  int steps_ = 0;
};

struct TopEigenpairs {
  std::vector<double> values;   ///< descending
  std::vector<double> vectors;  ///< d x k, column-major, orthonormal
  bool converged = false;       ///< the solver met its tolerance within the budget
  double residual = 0.0;        ///< max_j ||S x_j - lambda_j x_j|| / |lambda_j|, measured after the solve
};

/// The k largest eigenpairs of S to relative residual `tolerance` (convergence is tested as
/// ||r_j|| < tolerance * scale with scale <= lambda_k, e.g. kappa, the mean eigenvalue of S).
/// block == 1: implicitly restarted Lanczos (Spectra::SymEigsSolver); block > 1: block Davidson
/// (Spectra::DavidsonSymEigsSolver) adding `block` vectors per product. `ridge`, when not null,
/// rides along every product. At most about `budget` products (eigen and ridge columns).
TopEigenpairs top_eigenpairs(const FactoredCovariance& s, int k, int block, long long budget, double tolerance,
                             double scale, RidgeCg* ridge);

}  // namespace rmtsweep::simulate
