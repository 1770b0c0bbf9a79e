#include "rmtsweep/parallel/eigen.hpp"

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <utility>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "elpa_eigen.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {
namespace {

/// Workspace size from a LWORK = -1 query result (WORK(1) holds it as a double).
int workspace_size(double query) { return std::max(1, static_cast<int>(query) + 1); }

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

/// The eigenvectors of the k largest eigenvalues of the tridiagonal (diag, sub), largest
/// first, as the columns of an n x k column-major array (dstevr; the same on every rank).
std::vector<double> top_tridiagonal_vectors(const std::vector<double>& diag, const std::vector<double>& sub,
                                            int k, MPI_Comm comm) {
  const int n = static_cast<int>(diag.size()), il = n - k + 1, iu = n, ldz = n;
  const double unused = 0.0, abstol = 2.0 * DBL_MIN;
  int found = 0, info = 0;
  std::vector<double> w(static_cast<std::size_t>(n)),
      z(static_cast<std::size_t>(n) * static_cast<std::size_t>(k));
  std::vector<int> isuppz(2 * static_cast<std::size_t>(k));
  int liwork = -1, iwork_query = 0, lwork = -1;
  double query = 0.0;
  std::vector<double> dc = diag, ec = sub;
  dstevr_("V", "I", &n, dc.data(), ec.data(), &unused, &unused, &il, &iu, &abstol, &found, w.data(), z.data(),
          &ldz, isuppz.data(), &query, &lwork, &iwork_query, &liwork, &info, 1, 1);
  check_info("dstevr", info, comm);
  lwork = workspace_size(query);
  liwork = std::max(1, iwork_query);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  dstevr_("V", "I", &n, dc.data(), ec.data(), &unused, &unused, &il, &iu, &abstol, &found, w.data(), z.data(),
          &ldz, isuppz.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
  check_info("dstevr", info, comm);
  if (found != k) throw ScalapackError("dstevr (eigenvectors found)", found - k);
  // dstevr returns them in ascending order: reverse the columns.
  std::vector<double> largest_first(z.size());
  for (int j = 0; j < k; ++j) {
    std::copy_n(z.begin() + static_cast<std::ptrdiff_t>(k - 1 - j) * n, n,
                largest_first.begin() + static_cast<std::ptrdiff_t>(j) * n);
  }
  return largest_first;
}

/// Q^T rhs on every rank: rhs (replicated) is laid out like A's rows without communication,
/// rotated by pdormtr and gathered (one Allreduce of n doubles).
std::vector<double> rotated_rhs(DistributedMatrix& a, std::vector<double>& tau,
                                const std::vector<double>& rhs) {
  const int n = a.rows();
  DistributedMatrix c(a.grid_ptr(), n, 1, a.row_map().block, a.col_map().block);
  c.set_column(0, rhs);
  apply_q(a, tau, "T", c);
  return c.gather_leading(n, 1);
}

/// z <- (T + shift I)^{-1} z for the tridiagonal (diag, sub) by LAPACK's dptsv (L D L^T), the
/// same on every rank. A pivot <= 0 means T + shift I is not positive definite: dptsv's info
/// > 0 becomes ScalapackError{"dptsv", info} on every rank.
void solve_shifted_tridiagonal(const std::vector<double>& diag, const std::vector<double>& sub, double shift,
                               std::vector<double>& z, MPI_Comm comm) {
  const int n = static_cast<int>(diag.size()), nrhs = 1;
  std::vector<double> d(diag), e(sub);  // dptsv overwrites both with the factorisation
  for (double& x : d) x += shift;
  int info = 0;
  dptsv_(&n, &nrhs, d.data(), e.data(), z.data(), &n, &info);
  check_info("dptsv", info, comm);
}

/// Global column j of M on every rank (one Allreduce of M.rows() doubles).
std::vector<double> replicated_column(const DistributedMatrix& m, int j) {
  std::vector<double> out(static_cast<std::size_t>(m.rows()), 0.0);
  if (m.col_map().owner(j) == m.col_map().me) {
    const double* column = m.local_column(m.col_map().to_local(j));
    for (int lr = 0; lr < m.local_rows(); ++lr)
      out[static_cast<std::size_t>(m.row_map().to_global(lr))] = column[lr];
  }
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, out.data(), m.rows(), MPI_DOUBLE, MPI_SUM, m.grid().comm()));
  return out;
}

/// symmetric_eigen with an optional shifted system (nullptr: none).
EigenResult eigen_and_solve(DistributedMatrix& a, int k, const ShiftedSystem* system) {
  const int n = a.rows();
  if (a.cols() != n) throw std::invalid_argument("symmetric_eigen: the matrix is not square");
  if (system != nullptr && system->rhs.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument("symmetric_eigen: the right-hand side does not have n entries");
  k = std::clamp(k, 0, n);
  const MPI_Comm comm = a.grid().comm();
  const int mb = a.row_map().block, nb = a.col_map().block;
  EigenResult result{{}, DistributedMatrix(a.grid_ptr(), n, k, mb, nb), {}};
  if (n == 0) return result;

  // 1. A = Q T Q^T.
  std::vector<double> tau;
  tridiagonalize(a, tau);

  // 2. Every rank solves the same tridiagonal problem.
  std::vector<double> diag, sub;
  gather_tridiagonal(a, diag, sub);
  result.values = diag;
  std::vector<double> sub_copy = sub;
  int info = 0;
  if (k == 0 && system == nullptr) {
    dsterf_(&n, result.values.data(), sub_copy.data(), &info);
    check_info("dsterf", info, comm);
    return result;
  }
  // All eigenvalues (dsterf, sequential: 0.07 s at n = 2000, 0.27 s at n = 4000) on a thread of
  // their own while this thread solves the shifted system and computes and back-transforms the
  // top k vectors. The thread makes no MPI call; it is joined before anything reads the
  // values, and on every exit path (std::jthread, declared after result). Meanwhile this
  // thread's BLAS calls stay on this thread, and OpenBLAS's workers, idle after the reduction,
  // are released instead of spinning on dsterf's core.
  const SingleThreadedBlas beside_dsterf;
  int sterf_info = 0;
  std::jthread all_values([&] { dsterf_(&n, result.values.data(), sub_copy.data(), &sterf_info); });

  // 3. (A + shift I) x = rhs  <=>  (T + shift I) y = Q^T rhs, x = Q y.
  std::vector<double> y;
  if (system != nullptr) {
    y = rotated_rhs(a, tau, system->rhs);
    solve_shifted_tridiagonal(diag, sub, system->shift, y, comm);
  }

  // 4. The eigenvectors of T (largest first) and y as the columns of one distributed
  // n x (k + 1) matrix (n x k without a system): one pdormtr maps them all back.
  const std::vector<double> z = k > 0 ? top_tridiagonal_vectors(diag, sub, k, comm) : std::vector<double>{};
  const int columns = k + (system != nullptr ? 1 : 0);
  DistributedMatrix v(a.grid_ptr(), n, columns, mb, nb);
  for (int lc = 0; lc < v.local_cols(); ++lc) {
    const int j = v.col_map().to_global(lc);
    const double* column =
        j < k ? z.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(n) : y.data();
    for (int lr = 0; lr < v.local_rows(); ++lr) v.local(lr, lc) = column[v.row_map().to_global(lr)];
  }
  apply_q(a, tau, "N", v);
  if (system == nullptr) {
    result.vectors = std::move(v);
  } else {
    // Columns 0..k-1 of v are, on every rank, the leading local columns: copy them locally.
    for (int lc = 0; lc < result.vectors.local_cols(); ++lc)
      std::copy_n(v.local_column(lc), v.local_rows(), result.vectors.local_column(lc));
    result.solution = replicated_column(v, k);
  }
  all_values.join();
  check_info("dsterf", sterf_info, comm);
  return result;
}

}  // namespace

const char* to_string(Reducer reducer) noexcept {
  switch (reducer) {
    case Reducer::lapack: return "lapack";
    case Reducer::scalapack: return "scalapack";
    case Reducer::elpa: return "elpa";
    case Reducer::spectra_lanczos: return "spectra-lanczos";
    case Reducer::spectra_davidson: return "spectra-davidson";
    case Reducer::block_lanczos: return "block-lanczos";
  }
  return "unknown";
}

bool elpa_applies(const DistributedMatrix& a) noexcept {
  const int block = a.row_map().block;
  return !single_process(a) && a.rows() == a.cols() && a.col_map().block == block &&
         a.rows() >= block * std::max(a.grid().rows(), a.grid().cols());
}

EigenResult symmetric_eigen(DistributedMatrix& a, int k) {
  return symmetric_eigen(a, k, nullptr, EigenSolver::automatic);
}

EigenResult symmetric_eigen(DistributedMatrix& a, int k, const ShiftedSystem& system) {
  return symmetric_eigen(a, k, &system, EigenSolver::automatic);
}

EigenResult symmetric_eigen(DistributedMatrix& a, int k, const ShiftedSystem* system, EigenSolver solver) {
  const bool elpa = solver == EigenSolver::elpa || (solver == EigenSolver::automatic && elpa_applies(a));
  if (!elpa) return eigen_and_solve(a, k, system);
  const int n = a.rows();
  if (!elpa_applies(a)) {
    throw std::invalid_argument("symmetric_eigen: ELPA needs a square matrix with square blocks on more than one "
                                "process and at least one block per process row and column");
  }
  if (system != nullptr && system->rhs.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument("symmetric_eigen: the right-hand side does not have n entries");
  return detail::elpa_eigen(a, std::clamp(k, 0, n), system);
}

}  // namespace rmtsweep::parallel
