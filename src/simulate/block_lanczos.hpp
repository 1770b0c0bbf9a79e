#pragma once
// The top eigenpairs of S and the ridge solve (S + lambda I) beta = rhs in ONE block Krylov basis
// (private to src/simulate). The start block is [rhs, b - 1 fixed pseudo-random vectors]: its
// Krylov space contains conjugate gradients' K_m(S, rhs), so the Galerkin ridge solution in it is
// at least as accurate as m CG steps, and the table is read once per block for both. Measured at
// d = 4000 (delta 0.5, gamma 0.25, prefix:3, k 4): Spectra's Lanczos and CG after it took 246
// products together; Spectra's block Davidson 71 passes of 8; this, with blocks of 8, 57 passes
// (eigenpairs converge by 56, the ridge by 59). No library in Debian builds one basis for both.
//
// Full reorthogonalisation (twice, classical Gram-Schmidt against the whole basis), no restarts:
// the basis is m = blocks x b vectors of length d (at d = 32000, 80 blocks of 8: 160 MiB against a
// 16 GiB table). The small problems are LAPACK's: dsyevr for the Ritz pairs of the block-
// tridiagonal T, dposv for (T + lambda I) y = Q^T rhs. Every rank runs the iteration on replicated
// vectors; rank 0's new block, its coefficients and every decision are broadcast, so all ranks
// hold the same bits whatever their BLAS threads.
#include <vector>

#include "krylov_operator.hpp"

namespace rmtsweep::simulate {

struct KrylovTargets {
  int k = 4;                       ///< eigenpairs wanted (the largest)
  int block = 8;                   ///< vectors per product
  long long budget = 2000;         ///< at most this many products (columns) before giving up
  double eigen_tolerance = 1e-10;  ///< ||S x - theta x|| <= eigen_tolerance * scale for each pair
  double scale = 1.0;              ///< e.g. kappa, the mean eigenvalue of S
  double lambda = 0.0;             ///< the ridge's lambda
  double ridge_tolerance = 1e-11;  ///< ||(S + lambda I) beta - rhs|| <= ridge_tolerance ||rhs||
};

struct KrylovSolution {
  std::vector<double> values;   ///< k, descending
  std::vector<double> vectors;  ///< d x k, column-major, orthonormal
  std::vector<double> ridge;    ///< beta, length d
  bool converged = false;       ///< both targets met (by the recurrence) within the budget
  int blocks = 0;               ///< block products in the iteration
  double residual = 0.0;        ///< max_j ||S x_j - lambda_j x_j|| / |lambda_j|, measured after the solve
  double ridge_residual = 0.0;  ///< ||(S + lambda I) beta - rhs|| / ||rhs||, measured after the solve
};

KrylovSolution block_lanczos(const FactoredCovariance& s, const std::vector<double>& rhs, const KrylovTargets& targets);

}  // namespace rmtsweep::simulate
