#include "rmtsweep/parallel/eigen.hpp"

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <utility>

#include "elpa_eigen.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/parallel/tridiagonal.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {
namespace {

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
  const Tridiagonal factor(a);

  // 2. Every rank solves the same tridiagonal problem.
  const std::vector<double>& diag = factor.diagonal();
  const std::vector<double>& sub = factor.subdiagonal();
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
    y = factor.apply("T", system->rhs, 1);
    solve_shifted_tridiagonal(diag, sub, system->shift, y, 1, comm);
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
  factor.apply("N", v);
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
    case Reducer::lapack:
      return "lapack";
    case Reducer::scalapack:
      return "scalapack";
    case Reducer::elpa:
      return "elpa";
    case Reducer::spectra_lanczos:
      return "spectra-lanczos";
    case Reducer::spectra_davidson:
      return "spectra-davidson";
    case Reducer::block_lanczos:
      return "block-lanczos";
    case Reducer::lapack_line:
      return "lapack-line";
    case Reducer::scalapack_line:
      return "scalapack-line";
    case Reducer::lanczos_line:
      return "lanczos-line";
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
    throw std::invalid_argument(
        "symmetric_eigen: ELPA needs a square matrix with square blocks on more than one "
        "process and at least one block per process row and column");
  }
  if (system != nullptr && system->rhs.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument("symmetric_eigen: the right-hand side does not have n entries");
  return detail::elpa_eigen(a, std::clamp(k, 0, n), system);
}

}  // namespace rmtsweep::parallel
