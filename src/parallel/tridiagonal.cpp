// A = Q T Q^T of a distributed symmetric matrix (include/rmtsweep/parallel/tridiagonal.hpp).
#include "rmtsweep/parallel/tridiagonal.hpp"

#include <algorithm>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {
namespace {

/// The tridiagonal (diagonal, subdiagonal) that pdsytrd left in the lower triangle of A,
/// replicated on every rank.
void gather_tridiagonal(const DistributedMatrix& a, std::vector<double>& diag, std::vector<double>& sub) {
  const int n = a.rows();
  std::vector<double> both(2 * static_cast<std::size_t>(n), 0.0);
  for (int lc = 0; lc < a.local_cols(); ++lc) {
    const int j = a.col_map().to_global(lc);
    for (int i : {j, j + 1}) {
      if (i >= n || a.row_map().owner(i) != a.row_map().me) continue;
      both[static_cast<std::size_t>(i == j ? j : n + j)] = a.local(a.row_map().to_local(i), lc);
    }
  }
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, both.data(), 2 * n, MPI_DOUBLE, MPI_SUM, a.grid().comm()));
  diag.assign(both.begin(), both.begin() + n);
  sub.assign(both.begin() + n, both.end());  // sub[n-1] is 0, unused
}

/// A = Q T Q^T in place (lower triangle; T on the diagonal and subdiagonal, Q as reflectors
/// below with their factors in tau). On a 1 x 1 grid LAPACK's dsytrd does the same faster.
void tridiagonalize(DistributedMatrix& a, std::vector<double>& tau) {
  const int n = a.rows(), one = 1;
  const MPI_Comm comm = a.grid().comm();
  const std::size_t local_cols = static_cast<std::size_t>(std::max(1, a.local_cols()));
  std::vector<double> d(local_cols), e(local_cols);
  tau.assign(local_cols, 0.0);
  int info = 0, lwork = -1;
  double query = 0.0;
  if (single_process(a)) {
    const int lda = a.lld();
    dsytrd_("L", &n, a.data(), &lda, d.data(), e.data(), tau.data(), &query, &lwork, &info, 1);
    check_info("dsytrd", info, comm);
    lwork = workspace_size(query);
    std::vector<double> work(static_cast<std::size_t>(lwork));
    dsytrd_("L", &n, a.data(), &lda, d.data(), e.data(), tau.data(), work.data(), &lwork, &info, 1);
    check_info("dsytrd", info, comm);
    return;
  }
  pdsytrd_("L", &n, a.data(), &one, &one, a.desc(), d.data(), e.data(), tau.data(), &query, &lwork, &info, 1);
  check_info("pdsytrd", info, comm);
  lwork = workspace_size(query);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  pdsytrd_("L", &n, a.data(), &one, &one, a.desc(), d.data(), e.data(), tau.data(), work.data(), &lwork,
           &info, 1);
  check_info("pdsytrd", info, comm);
}

/// Up to this many columns, Q is applied on one process unblocked. Measured (dormtr after dsytrd,
/// best of 3, 1 and 2 OpenBLAS threads, SkylakeX kernels): at n = 2000 the unblocked code takes
/// 1.9 / 4.9 / 8.0 ms for 1 / 5 / 9 columns against the blocked 7.6 / 8.2 / 8.8 ms; at n = 4000
/// 13 / 25 / 31 ms against 30 / 35 / 39 ms; from 17 columns on the blocked code is faster.
constexpr int unblocked_max_columns = 8;

/// C <- Q C (trans "N") or Q^T C (trans "T") with Q from tridiagonalize (pdormtr, or dormtr on
/// a 1 x 1 grid). C has A's row distribution (same row block size and source).
void apply_q(DistributedMatrix& a, std::vector<double>& tau, const char* trans, DistributedMatrix& c) {
  const int n = a.rows(), k = c.cols(), one = 1;
  const MPI_Comm comm = a.grid().comm();
  int info = 0, lwork = -1;
  double query = 0.0;
  if (single_process(a)) {
    const int lda = a.lld(), ldc = c.lld();
    if (k <= unblocked_max_columns) {
      // The minimal workspace LWORK = k makes dormtr apply the reflectors one by one (dorm2l):
      // one pass over them instead of the blocked code's several, and no triangular factors.
      lwork = std::max(1, k);
      std::vector<double> work(static_cast<std::size_t>(lwork));
      dormtr_("L", "L", trans, &n, &k, a.data(), &lda, tau.data(), c.data(), &ldc, work.data(), &lwork, &info,
              1, 1, 1);
      check_info("dormtr", info, comm);
      return;
    }
    dormtr_("L", "L", trans, &n, &k, a.data(), &lda, tau.data(), c.data(), &ldc, &query, &lwork, &info, 1, 1,
            1);
    check_info("dormtr", info, comm);
    lwork = workspace_size(query);
    std::vector<double> work(static_cast<std::size_t>(lwork));
    dormtr_("L", "L", trans, &n, &k, a.data(), &lda, tau.data(), c.data(), &ldc, work.data(), &lwork, &info,
            1, 1, 1);
    check_info("dormtr", info, comm);
    return;
  }
  pdormtr_("L", "L", trans, &n, &k, a.data(), &one, &one, a.desc(), tau.data(), c.data(), &one, &one,
           c.desc(), &query, &lwork, &info, 1, 1, 1);
  check_info("pdormtr", info, comm);
  lwork = workspace_size(query);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  pdormtr_("L", "L", trans, &n, &k, a.data(), &one, &one, a.desc(), tau.data(), c.data(), &one, &one,
           c.desc(), work.data(), &lwork, &info, 1, 1, 1);
  check_info("pdormtr", info, comm);
}

}  // namespace

Tridiagonal::Tridiagonal(DistributedMatrix& a) : a_(a) {
  if (a.cols() != a.rows()) throw std::invalid_argument("Tridiagonal: the matrix is not square");
  if (a.rows() == 0) return;
  tridiagonalize(a_, tau_);
  gather_tridiagonal(a_, diag_, sub_);
}

void Tridiagonal::apply(const char* trans, DistributedMatrix& c) const {
  if (c.rows() != size()) throw std::invalid_argument("Tridiagonal::apply: C does not have n rows");
  if (size() == 0 || c.cols() == 0) return;
  apply_q(a_, tau_, trans, c);
}

std::vector<double> Tridiagonal::apply(const char* trans, const std::vector<double>& x, int b) const {
  const int n = size();
  if (x.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(b))
    throw std::invalid_argument("Tridiagonal::apply: x is not n x b");
  DistributedMatrix c(a_.grid_ptr(), n, b, a_.row_map().block, a_.col_map().block);
  for (int j = 0; j < b; ++j) {
    for (int lc = 0; lc < c.local_cols(); ++lc) {
      if (c.col_map().to_global(lc) != j) continue;
      for (int lr = 0; lr < c.local_rows(); ++lr)
        c.local(lr, lc) = x[static_cast<std::size_t>(j) * static_cast<std::size_t>(n) +
                            static_cast<std::size_t>(c.row_map().to_global(lr))];
    }
  }
  apply(trans, c);
  return c.gather_leading(n, b);
}

void solve_shifted_tridiagonal(const std::vector<double>& diag, const std::vector<double>& sub, double shift,
                               std::vector<double>& z, int nrhs, MPI_Comm comm) {
  const int n = static_cast<int>(diag.size());
  if (z.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(nrhs))
    throw std::invalid_argument("solve_shifted_tridiagonal: z is not n x nrhs");
  if (n == 0) return;
  std::vector<double> d(diag), e(sub);  // dptsv overwrites both with the factorisation
  for (double& x : d) x += shift;
  int info = 0;
  dptsv_(&n, &nrhs, d.data(), e.data(), z.data(), &n, &info);
  check_info("dptsv", info, comm);
}

TridiagonalEigen tridiagonal_eigen(const std::vector<double>& diag, const std::vector<double>& sub) {
  const int n = static_cast<int>(diag.size());
  TridiagonalEigen out{diag, std::vector<double>(static_cast<std::size_t>(n) * static_cast<std::size_t>(n))};
  if (n == 0) return out;
  std::vector<double> e(sub);
  e.resize(static_cast<std::size_t>(std::max(1, n - 1)) + 1, 0.0);
  int info = 0, lwork = -1, liwork = -1, iquery = 0;
  double query = 0.0;
  dstedc_("I", &n, out.values.data(), e.data(), out.vectors.data(), &n, &query, &lwork, &iquery, &liwork,
          &info, 1);
  if (info != 0) throw ScalapackError("dstedc (workspace query)", info);
  lwork = workspace_size(query);
  liwork = std::max(1, iquery);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  dstedc_("I", &n, out.values.data(), e.data(), out.vectors.data(), &n, work.data(), &lwork, iwork.data(),
          &liwork, &info, 1);
  if (info != 0) throw ScalapackError("dstedc", info);
  return out;
}

}  // namespace rmtsweep::parallel
