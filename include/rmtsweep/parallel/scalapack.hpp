#pragma once
/// Checked PBLAS / ScaLAPACK calls on DistributedMatrix. Every call that reports an info
/// agrees on it over the grid (one small Allreduce) and throws ScalapackError{routine, info}
/// on every rank alike, so a failure can be handled collectively.
#include <mpi.h>

#include "rmtsweep/parallel/distributed_matrix.hpp"

namespace rmtsweep::parallel {

/// True on a 1 x 1 grid, where the local buffer is the whole matrix (column-major, lld) and
/// the plain BLAS/LAPACK routine does the same work without PBLAS's overhead.
bool single_process(const DistributedMatrix& m) noexcept;

/// Throws ScalapackError(routine, info) on every rank of `comm` when any rank has
/// info != 0 (the most negative code first: an illegal argument; else the largest).
void check_info(const char* routine, int info, MPI_Comm comm);

/// pdsyrk on the lower triangle of C (n x n, n = C.rows()):
/// trans 'N': C = alpha A(:, 0:k) A(:, 0:k)^T + beta C (A has n rows);
/// trans 'T': C = alpha A(0:k, :)^T A(0:k, :) + beta C (A has n columns).
void syrk_lower(char trans, int k, double alpha, const DistributedMatrix& a, double beta,
                DistributedMatrix& c);

/// pdgemm on leading submatrices: C(0:m, 0:n) = alpha op(A) op(B) + beta C(0:m, 0:n),
/// op(A) m x kk, op(B) kk x n.
void gemm(char transa, char transb, int m, int n, int kk, double alpha, const DistributedMatrix& a,
          const DistributedMatrix& b, double beta, DistributedMatrix& c);

/// BLAS dgemm on this process's own column-major arrays: C (m x n) = alpha op(A) op(B) + beta C.
void local_gemm(char transa, char transb, int m, int n, int k, double alpha, const double* a, int lda,
                const double* b, int ldb, double beta, double* c, int ldc);

/// pdposv (dposv on a 1 x 1 grid): solves A X = B for symmetric positive definite A (lower
/// triangle used); A is overwritten by its Cholesky factor and B by X. Not positive definite
/// -> ScalapackError{"pdposv" (or "dposv"), info > 0}.
void cholesky_solve(DistributedMatrix& a, DistributedMatrix& b);

}  // namespace rmtsweep::parallel
