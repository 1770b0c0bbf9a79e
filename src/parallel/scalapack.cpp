#include "rmtsweep/parallel/scalapack.hpp"

#include <algorithm>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {

bool single_process(const DistributedMatrix& m) noexcept {
  return m.grid().rows() == 1 && m.grid().cols() == 1;
}

void check_info(const char* routine, int info, MPI_Comm comm) {
  int extremes[2] = {info, -info};  // max info, -min info
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, extremes, 2, MPI_INT, MPI_MAX, comm));
  const int most_negative = -extremes[1];
  if (most_negative < 0) throw ScalapackError(routine, most_negative);
  if (extremes[0] > 0) throw ScalapackError(routine, extremes[0]);
}

void syrk_lower(char trans, int k, double alpha, const DistributedMatrix& a, double beta,
                DistributedMatrix& c) {
  const int n = c.rows();
  if (c.cols() != n) throw std::invalid_argument("syrk_lower: C is not square");
  if (trans == 'N' ? (a.rows() < n || a.cols() < k) : (a.cols() < n || a.rows() < k)) {
    throw std::invalid_argument("syrk_lower: A is too small");
  }
  if (n == 0) return;
  if (single_process(c)) {  // the same product without PBLAS's blocking overhead (~2x on one core)
    const int lda = a.lld(), ldc = c.lld();
    dsyrk_("L", trans == 'N' ? "N" : "T", &n, &k, &alpha, a.data(), &lda, &beta, c.data(), &ldc, 1, 1);
    return;
  }
  const int one = 1;
  pdsyrk_("L", trans == 'N' ? "N" : "T", &n, &k, &alpha, a.data(), &one, &one, a.desc(), &beta, c.data(),
          &one, &one, c.desc(), 1, 1);
}

void local_gemm(char transa, char transb, int m, int n, int k, double alpha, const double* a, int lda,
                const double* b, int ldb, double beta, double* c, int ldc) {
  if (m == 0 || n == 0) return;
  const char ta[2] = {transa, '\0'}, tb[2] = {transb, '\0'};
  dgemm_(ta, tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}

void gemm(char transa, char transb, int m, int n, int kk, double alpha, const DistributedMatrix& a,
          const DistributedMatrix& b, double beta, DistributedMatrix& c) {
  if (m == 0 || n == 0) return;
  if (single_process(c)) {
    local_gemm(transa, transb, m, n, kk, alpha, a.data(), a.lld(), b.data(), b.lld(), beta, c.data(),
               c.lld());
    return;
  }
  const char ta[2] = {transa, '\0'}, tb[2] = {transb, '\0'};
  const int one = 1;
  pdgemm_(ta, tb, &m, &n, &kk, &alpha, a.data(), &one, &one, a.desc(), b.data(), &one, &one, b.desc(), &beta,
          c.data(), &one, &one, c.desc(), 1, 1);
}

void cholesky_solve(DistributedMatrix& a, DistributedMatrix& b) {
  const int n = a.rows(), nrhs = b.cols(), one = 1;
  int info = 0;
  if (single_process(a)) {  // LAPACK on the whole matrix: ~2x faster than pdposv on one process
    const int lda = a.lld(), ldb = b.lld();
    if (n > 0) dposv_("L", &n, &nrhs, a.data(), &lda, b.data(), &ldb, &info, 1);
    check_info("dposv", info, a.grid().comm());
    return;
  }
  pdposv_("L", &n, &nrhs, a.data(), &one, &one, a.desc(), b.data(), &one, &one, b.desc(), &info, 1);
  check_info("pdposv", info, a.grid().comm());
}

}  // namespace rmtsweep::parallel
