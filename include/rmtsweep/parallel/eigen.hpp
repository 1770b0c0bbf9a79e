#pragma once
/// The symmetric eigenproblem of a distributed matrix: all eigenvalues, top-k eigenvectors,
/// and optionally a shifted linear solve from the same tridiagonal reduction.
#include <vector>

#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/parallel/eigen_kinds.hpp"

namespace rmtsweep::parallel {

struct EigenResult {
  std::vector<double> values;    ///< all n eigenvalues, ascending (the same on every rank)
  DistributedMatrix vectors;     ///< n x k; column j is the unit eigenvector of the (j+1)-th largest
  std::vector<double> solution;  ///< x of (A + shift I) x = rhs when a ShiftedSystem was given
                                 ///< (n entries, the same on every rank); empty otherwise
  bool elpa = false;             ///< whether ELPA reduced A (else LAPACK or ScaLAPACK)
};

/// The linear system (A + shift I) x = rhs to solve alongside the eigenproblem of A.
struct ShiftedSystem {
  double shift = 0.0;
  std::vector<double> rhs;  ///< n entries, the same on every rank
};

/// Eigenvalues of the symmetric matrix A (its lower triangle) and the eigenvectors of the k
/// largest (collective over A's grid). A is destroyed. Where elpa_applies (several processes)
/// this is the ELPA path of the four-argument form below; otherwise, as described here and in
/// the next overload, one tridiagonal reduction (pdsytrd, or dsytrd on a 1 x 1 grid);
/// the tridiagonal matrix is replicated (O(n) data) and solved on every rank (dsterf for all
/// values, dstevr for the top k vectors); pdormtr maps the k vectors back. This costs one
/// 4n^3/3 reduction plus O(n^2 k), instead of two reductions for values and vectors.
EigenResult symmetric_eigen(DistributedMatrix& a, int k);

/// The same, and the solution x of (A + shift I) x = rhs from the same reduction A = Q T Q^T
/// (model.md section 6: the ridge coefficients with shift = lambda): x = Q (T + shift I)^{-1} Q^T rhs,
/// that is one more pass of Q^T over one vector (pdormtr), a replicated O(n) tridiagonal
/// solve (dptsv) and one more column in the pdormtr that maps the eigenvectors back; instead
/// of a copy of A and its n^3/3 Cholesky factorisation. T + shift I must be positive definite
/// (so must A + shift I, its orthogonal similarity); else ScalapackError{"dptsv", info > 0}
/// on every rank (on the ELPA path: {"pdposv", info > 0}). result.solution holds x on every rank.
EigenResult symmetric_eigen(DistributedMatrix& a, int k, const ShiftedSystem& system);

/// Whether ELPA can take A: a grid of more than one process, square blocks, and at least one
/// block of rows and of columns on every process (ELPA refuses a process without any).
bool elpa_applies(const DistributedMatrix& a) noexcept;

/// symmetric_eigen (with `system` when it is not null) through the given solver. The ELPA path
/// (its two-stage reduction, ELPA2) hands ELPA the full matrix -A, whose k smallest eigenpairs
/// are A's k largest, and solves the shifted system beforehand by a Cholesky factorisation
/// (pdposv) of a copy of A + shift I: it holds a second n x n matrix, which also receives ELPA's
/// eigenvectors. An indefinite A + shift I is then ScalapackError{"pdposv", info > 0}.
EigenResult symmetric_eigen(DistributedMatrix& a, int k, const ShiftedSystem* system, EigenSolver solver);

}  // namespace rmtsweep::parallel
