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
/// faster from n of about a hundred; other rounding than dsyev): for the projected matrices of a Krylov basis.
SymmetricEigen symmetric_eigen_dc(std::vector<double> a, int n);

/// The eigenvalues only (ascending) of the symmetric n x n matrix `a`, by LAPACK dsyevd with jobz = N:
/// for the V x V token Gram of theory/finite_t_bulk.hpp, where V reaches thousands. Throws
/// ScalapackError{"dsyevd", info} if LAPACK fails.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);

}  // namespace rmtsweep::model
