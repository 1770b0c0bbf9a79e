#pragma once
/// Eigen-decomposition of a small dense symmetric matrix (LAPACK dsyev), for the T x T
/// positional correlation R: the `optimal` weights are its top eigenvector (model.md section 3).
#include <vector>

namespace rmtsweep::model {

/// Eigenvalues and unit eigenvectors of a symmetric matrix, as dsyev returns them.
struct SymmetricEigen {
  std::vector<double> values;   ///< ascending
  std::vector<double> vectors;  ///< eigenvector k is vectors[k*n .. k*n + n), unit norm
};

/// All eigenvalues and eigenvectors of the symmetric n x n matrix `a` (row- or column-major alike).
/// Throws ScalapackError{"dsyev", info} if LAPACK fails.
SymmetricEigen symmetric_eigen(std::vector<double> a, int n);

/// All eigenvalues and eigenvectors as symmetric_eigen, by LAPACK's divide and conquer dsyevd (several times
/// faster from n of about a hundred; other rounding than dsyev): for the projected matrices of a Krylov
/// basis.
SymmetricEigen symmetric_eigen_dc(std::vector<double> a, int n);

/// The eigenvalues only (ascending) of the symmetric n x n matrix `a`: for the token Gram of
/// theory/finite_t_bulk.hpp, where min(V, N) reaches thousands. From n = two_stage_from by LAPACK's
/// dsyevd_2stage (jobz = N), whose reduction to tridiagonal form goes through a band matrix in blocked
/// (BLAS-3) steps where dsyevd's dsytrd does half its flops as memory-bound matrix-vector products; below it
/// by dsyevd (the times of both: docs/performance.md). The values agree to 1e-14 of the largest. Throws
/// ScalapackError{"dsyevd" or "dsyevd_2stage", info} if LAPACK fails.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);

/// The size from which symmetric_eigenvalues takes the two-stage reduction: between 2000, where dsyevd is
/// still faster, and 3000, where dsyevd_2stage is 1.4 times faster on one thread.
inline constexpr int two_stage_from = 2500;

}  // namespace rmtsweep::model
