// Block Lanczos for the top eigenpairs and the ridge in one basis (block_lanczos.hpp).
#include "block_lanczos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/lapack.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "table_kernels.hpp"

namespace rmtsweep::simulate {
namespace {

using Vector = std::vector<double>;

double norm2(const double* x, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i] * x[i];
  return std::sqrt(sum);
}

/// x (d x b, column-major) = Q R by Householder QR: x becomes Q; returns R (b x b, column-major,
/// upper triangular).
Vector orthonormalise(double* x, int d, int b) {
  Vector tau(static_cast<std::size_t>(b)), r(static_cast<std::size_t>(b) * b, 0.0);
  int info = 0, lwork = -1;
  double query = 0.0;
  dgeqrf_(&d, &b, x, &d, tau.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  Vector work(static_cast<std::size_t>(lwork));
  dgeqrf_(&d, &b, x, &d, tau.data(), work.data(), &lwork, &info);
  if (info != 0) throw NumericalFailure("block Lanczos: dgeqrf failed (info " + std::to_string(info) + ")");
  for (int j = 0; j < b; ++j) {
    for (int i = 0; i <= j; ++i)
      r[static_cast<std::size_t>(j) * b + i] = x[static_cast<std::size_t>(j) * d + i];
  }
  lwork = -1;
  dorgqr_(&d, &b, &b, x, &d, tau.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  work.resize(static_cast<std::size_t>(lwork));
  dorgqr_(&d, &b, &b, x, &d, tau.data(), work.data(), &lwork, &info);
  if (info != 0) throw NumericalFailure("block Lanczos: dorgqr failed (info " + std::to_string(info) + ")");
  return r;
}

/// y -= Q (Q^T y) for the d x b block y against the d x m basis q, twice (CGS2). With the table
/// kernels (b a multiple of 4) each pass streams q once for Q^T y and once for Q c on `threads`
/// threads, where dgemm would copy (pack) q for each of the four products.
void project_out(const double* q, int d, int m, double* y, int b, int threads) {
  if (m == 0) return;
  const auto ud = static_cast<std::size_t>(d), ub = static_cast<std::size_t>(b);
  Vector c(static_cast<std::size_t>(m) * ub);
  if (b % 4 == 0 && table_kernels_available()) {
    Vector lanes(ud * ub), qc(ud * ub);
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t j = 0; j < ub; ++j) {
        for (std::size_t i = 0; i < ud; ++i) lanes[i * ub + j] = y[j * ud + i];
      }
      stream_transpose_times(q, d, m, d, lanes.data(), b, c.data(), threads);
      stream_times(q, d, m, d, c.data(), b, qc.data(), threads);
      for (std::size_t j = 0; j < ub; ++j) {
        for (std::size_t i = 0; i < ud; ++i) y[j * ud + i] -= qc[i * ub + j];
      }
    }
    return;
  }
  for (int pass = 0; pass < 2; ++pass) {
    parallel::local_gemm('T', 'N', m, b, d, 1.0, q, d, y, d, 0.0, c.data(), m);
    parallel::local_gemm('N', 'N', d, b, m, -1.0, q, d, c.data(), m, 1.0, y, d);
  }
}

/// The k largest eigenpairs of the symmetric m x m matrix t (column-major): values descending,
/// vectors m x k.
void top_ritz(const Vector& t, int m, int k, Vector& values, Vector& vectors) {
  Vector a = t;
  const int il = m - k + 1, iu = m;
  const double none = 0.0, abstol = 0.0;
  int found = 0, info = 0, lwork = -1, liwork = -1, iquery = 0;
  double query = 0.0;
  Vector w(static_cast<std::size_t>(m)), z(static_cast<std::size_t>(m) * k);
  std::vector<int> support(2 * static_cast<std::size_t>(k));
  dsyevr_("V", "I", "L", &m, a.data(), &m, &none, &none, &il, &iu, &abstol, &found, w.data(), z.data(), &m,
          support.data(), &query, &lwork, &iquery, &liwork, &info, 1, 1, 1);
  lwork = std::max(1, static_cast<int>(query));
  liwork = std::max(1, iquery);
  Vector work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  dsyevr_("V", "I", "L", &m, a.data(), &m, &none, &none, &il, &iu, &abstol, &found, w.data(), z.data(), &m,
          support.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
  if (info != 0 || found != k)
    throw NumericalFailure("block Lanczos: dsyevr on the projected matrix failed (info " +
                           std::to_string(info) + ")");
  // dsyevr returns ascending: reverse to descending.
  values.assign(static_cast<std::size_t>(k), 0.0);
  vectors.assign(static_cast<std::size_t>(m) * k, 0.0);
  for (int j = 0; j < k; ++j) {
    values[static_cast<std::size_t>(j)] = w[static_cast<std::size_t>(k - 1 - j)];
    std::copy_n(z.begin() + static_cast<std::ptrdiff_t>(k - 1 - j) * m, m,
                vectors.begin() + static_cast<std::ptrdiff_t>(j) * m);
  }
}

/// The k largest eigenvalues of the band matrix, descending (dsbevx without vectors: O(n^2 b)).
Vector top_band_values(const BandMatrix& t, int k) {
  Vector ab = t.ab, w(static_cast<std::size_t>(t.n)), work(7 * static_cast<std::size_t>(t.n));
  std::vector<int> iwork(5 * static_cast<std::size_t>(t.n)), fail(static_cast<std::size_t>(t.n));
  const int ldab = t.kd + 1, il = t.n - k + 1, iu = t.n, one = 1;
  const double none = 0.0, abstol = 0.0;
  double unused = 0.0;
  int found = 0, info = 0;
  dsbevx_("N", "I", "L", &t.n, &t.kd, ab.data(), &ldab, &unused, &one, &none, &none, &il, &iu, &abstol,
          &found, w.data(), &unused, &one, work.data(), iwork.data(), fail.data(), &info, 1, 1, 1);
  if (info != 0 || found != k)
    throw NumericalFailure("block Lanczos: dsbevx on the projected matrix failed (info " +
                           std::to_string(info) + ")");
  Vector values(static_cast<std::size_t>(k));
  for (int j = 0; j < k; ++j) values[static_cast<std::size_t>(j)] = w[static_cast<std::size_t>(k - 1 - j)];
  return values;
}

/// The unit eigenvector of the band matrix for its eigenvalue theta, by two steps of inverse
/// iteration on the band LU of T - theta I (dgbsv: O(n b^2)). theta is accurate to rounding, so
/// the first solve already amplifies its eigenvector by ~1e12 over a neighbour 1e-3 away.
Vector band_eigenvector(const BandMatrix& t, double theta) {
  const int n = t.n, kd = t.kd, ldab = 3 * kd + 1, one = 1;
  Vector z(static_cast<std::size_t>(n), 1.0);
  std::vector<int> pivots(static_cast<std::size_t>(n));
  double shift = theta;
  for (int step = 0; step < 2; ++step) {
    for (int attempt = 0;; ++attempt) {
      Vector ab(static_cast<std::size_t>(ldab) * n, 0.0);
      for (int j = 0; j < n; ++j) {
        for (int i = std::max(0, j - kd); i < std::min(n, j + kd + 1); ++i) {
          const double x = i >= j ? t.at(i, j) : t.at(j, i);
          ab[static_cast<std::size_t>(j) * ldab + 2 * kd + i - j] = i == j ? x - shift : x;
        }
      }
      Vector rhs = z;
      int info = 0;
      dgbsv_(&n, &kd, &kd, &one, ab.data(), &ldab, pivots.data(), rhs.data(), &n, &info);
      if (info == 0) {
        z = std::move(rhs);
        break;
      }
      if (info < 0 || attempt == 3)
        throw NumericalFailure("block Lanczos: dgbsv in inverse iteration failed");
      shift = theta * (1.0 + 1e-14 * (attempt + 1));  // an exactly singular T - theta I: nudge the shift
    }
    const double norm = norm2(z.data(), z.size());
    for (double& x : z) x /= norm;
  }
  return z;
}

/// y with (T + lambda I) y = g (dpbsv, the band Cholesky: O(n b^2)); false if not positive definite.
bool band_ridge(const BandMatrix& t, double lambda, const Vector& g, Vector& y) {
  Vector ab = t.ab;
  for (int j = 0; j < t.n; ++j) ab[static_cast<std::size_t>(j) * (t.kd + 1)] += lambda;
  y = g;
  const int ldab = t.kd + 1, one = 1;
  int info = 0;
  dpbsv_("L", &t.n, &t.kd, &one, ab.data(), &ldab, y.data(), &t.n, &info, 1);
  return info == 0;
}

}  // namespace

BlockKrylov::BlockKrylov(const FactoredCovariance& s, Vector start, int b)
    : s_(s), d_(s.dimension()), b_(b), q_(std::move(start)), t_{b, 0, {}} {
  if (q_.size() != static_cast<std::size_t>(d_) * static_cast<std::size_t>(b_))
    throw std::invalid_argument("BlockKrylov: the start block is not d x b");
  start_r_ = orthonormalise(q_.data(), d_, b_);
  parallel::broadcast(std::span<double>(q_), s.communicator());
  previous_.assign(static_cast<std::size_t>(b_) * static_cast<std::size_t>(b_), 0.0);
}

bool BlockKrylov::step(long long budget) {
  if (s_.products() + b_ > budget) return false;
  if (m_ > 0) {
    // The block found by the previous step becomes part of the basis.
    if (!room()) return false;
    previous_ = coupling_;
    q_.resize(static_cast<std::size_t>(m_ + b_) * static_cast<std::size_t>(d_));
    std::copy(next_.begin(), next_.end(), q_.begin() + static_cast<std::ptrdiff_t>(m_) * d_);
  }
  const int d = d_, b = b_;
  const auto ud = static_cast<std::size_t>(d), ub = static_cast<std::size_t>(b);
  const MPI_Comm comm = s_.communicator();
  const double* qj = q_.data() + static_cast<std::size_t>(m_) * ud;
  Vector block_y(ud * ub);
  s_.apply(qj, block_y.data(), b);
  ++blocks_;
  // A_j = Q_j^T S Q_j, and the new directions S Q_j orthogonalised against the whole basis.
  Vector a(ub * ub);
  parallel::local_gemm('T', 'N', b, b, d, 1.0, qj, d, block_y.data(), d, 0.0, a.data(), b);
  for (int i = 0; i < b; ++i) {
    for (int j = 0; j < i; ++j) {
      const double mean =
          0.5 * (a[static_cast<std::size_t>(j) * ub + i] + a[static_cast<std::size_t>(i) * ub + j]);
      a[static_cast<std::size_t>(j) * ub + i] = mean;
      a[static_cast<std::size_t>(i) * ub + j] = mean;
    }
  }
  const int m_next = m_ + b;
  const double before = norm2(block_y.data(), block_y.size());
  project_out(q_.data(), d, m_next, block_y.data(), b, s_.threads());
  // R = Q_{j+1} B_j; ||B_j z|| = ||R z|| is the residual even where no next block fits (room).
  coupling_ = orthonormalise(block_y.data(), d, b);
  double smallest = before;
  for (std::size_t i = 0; i < ub; ++i) smallest = std::min(smallest, std::abs(coupling_[i * ub + i]));
  if (smallest < 1e-6 * before) {
    // A direction of R is (nearly) in the basis already (the Krylov space is close to invariant,
    // e.g. once it spans S's range where N < d): its column of Q_{j+1} is rounding noise, not
    // orthogonal to the basis. Orthogonalise the block once more; B_j stays (those columns
    // carry ~0 of S Q_j), and the new directions continue the space.
    project_out(q_.data(), d, m_next, block_y.data(), b, s_.threads());
    orthonormalise(block_y.data(), d, b);
  }
  // Rank 0's coefficients and next block for everyone: the same bits on every rank.
  Vector packed(2 * ub * ub + ud * ub);
  std::copy(a.begin(), a.end(), packed.begin());
  std::copy(coupling_.begin(), coupling_.end(), packed.begin() + static_cast<std::ptrdiff_t>(ub * ub));
  std::copy(block_y.begin(), block_y.end(), packed.begin() + static_cast<std::ptrdiff_t>(2 * ub * ub));
  if (parallel::size_of(comm) > 1) parallel::broadcast(std::span<double>(packed), comm);
  std::copy_n(packed.begin(), ub * ub, a.begin());
  std::copy_n(packed.begin() + static_cast<std::ptrdiff_t>(ub * ub), ub * ub, coupling_.begin());
  next_.assign(packed.begin() + static_cast<std::ptrdiff_t>(2 * ub * ub), packed.end());
  // T grows by a block row and column: A_j on the diagonal, B_{j-1} beside it.
  t_.append(a, previous_);
  m_ = m_next;
  return true;
}

/// ||B z_last|| for the b x b upper-triangular coupling B and the last b entries of the m-vector z.
double coupled_norm(const Vector& coupling, int b, const double* z_last) {
  double sum = 0.0;
  for (int i = 0; i < b; ++i) {
    double x = 0.0;
    for (int j = i; j < b; ++j) x += coupling[static_cast<std::size_t>(j) * b + i] * z_last[j];
    sum += x * x;
  }
  return std::sqrt(sum);
}

/// Fixed pseudo-random entries in [-1, 1) (a splitmix64 hash of the index), the same on every rank.
double hashed_uniform(std::uint64_t index) noexcept {
  std::uint64_t z = index + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

KrylovSolution block_lanczos(const FactoredCovariance& s, const Vector& rhs, const KrylovTargets& targets) {
  const int d = s.dimension(), b = std::max(1, std::min(targets.block, d)), k = std::min(targets.k, d);
  const auto ud = static_cast<std::size_t>(d), ub = static_cast<std::size_t>(b);
  if (rhs.size() != ud) throw std::invalid_argument("block_lanczos: rhs has the wrong length");
  const MPI_Comm comm = s.communicator();
  const double rhs_norm = norm2(rhs.data(), ud);

  // The start block [rhs, b - 1 fixed pseudo-random vectors], so that q e_1 = rhs / r_11.
  Vector start(ud * ub);
  std::copy(rhs.begin(), rhs.end(), start.begin());
  if (rhs_norm == 0.0) {
    for (std::size_t i = 0; i < ud; ++i) start[i] = hashed_uniform(i);
  }
  for (std::size_t j = 1; j < ub; ++j) {
    for (std::size_t i = 0; i < ud; ++i) start[j * ud + i] = hashed_uniform(j * ud + i);
  }
  BlockKrylov krylov(s, std::move(start), b);
  const Vector& start_r = krylov.start_coefficients();

  KrylovSolution out;
  Vector values, ritz, y, g;
  bool eigen_done = false, ridge_done = rhs_norm == 0.0;
  while (krylov.step(targets.budget)) {
    const BandMatrix& t = krylov.projected();
    const int m = krylov.size();
    const Vector& coupling = krylov.coupling();
    // Convergence from the recurrence: S Q z - theta Q z = Q_{j+1} B_j z_last for the Ritz pairs
    // (theta, z) of T, and (S + lambda I) Q y - rhs = Q_{j+1} B_j y_last for the ridge.
    const int kk = std::min(k, m);
    values = top_band_values(t, kk);
    double eigen_residual = 0.0;
    for (int j = 0; j < kk; ++j) {
      const Vector z = band_eigenvector(t, values[static_cast<std::size_t>(j)]);
      eigen_residual = std::max(eigen_residual, coupled_norm(coupling, b, z.data() + m - b));
    }
    double ridge_residual = 0.0;
    if (rhs_norm > 0.0) {
      g.assign(static_cast<std::size_t>(m), 0.0);
      for (int i = 0; i < b; ++i)
        g[static_cast<std::size_t>(i)] = start_r[static_cast<std::size_t>(i)];  // Q^T rhs
      if (!band_ridge(t, targets.lambda, g, y))
        throw NumericalFailure("block Lanczos: T + lambda I is not positive definite");
      ridge_residual = coupled_norm(coupling, b, y.data() + m - b) / rhs_norm;
    }
    const int met = parallel::decided_on_root(comm, [&] {
      return (kk == k && eigen_residual <= targets.eigen_tolerance * targets.scale ? 1 : 0) |
             (rhs_norm == 0.0 || ridge_residual <= targets.ridge_tolerance ? 2 : 0);
    });
    eigen_done = (met & 1) != 0;
    ridge_done = (met & 2) != 0;
    if ((eigen_done && ridge_done) || !krylov.room()) break;
  }
  out.converged = eigen_done && ridge_done;
  out.blocks = krylov.blocks();
  const int m = krylov.size();
  const Vector& q = krylov.basis();
  const BandMatrix& t = krylov.projected();

  // Ritz vectors X = Q Z (Z from dsyevr on T, once) and beta = Q y; then their residuals measured
  // with one more product.
  const int kk = static_cast<int>(values.size());
  if (kk > 0) top_ritz(t.dense(), m, kk, values, ritz);
  out.values = values;
  out.vectors.assign(ud * static_cast<std::size_t>(kk), 0.0);
  parallel::local_gemm('N', 'N', d, kk, m, 1.0, q.data(), d, ritz.data(), m, 0.0, out.vectors.data(), d);
  out.ridge.assign(ud, 0.0);
  if (rhs_norm > 0.0)
    parallel::local_gemm('N', 'N', d, 1, m, 1.0, q.data(), d, y.data(), m, 0.0, out.ridge.data(), d);
  const auto lanes = static_cast<std::size_t>(kk) + 1;
  Vector x(ud * lanes), sx(ud * lanes);
  std::copy(out.vectors.begin(), out.vectors.end(), x.begin());
  std::copy(out.ridge.begin(), out.ridge.end(), x.begin() + static_cast<std::ptrdiff_t>(ud) * kk);
  s.apply(x.data(), sx.data(), static_cast<int>(lanes));
  for (std::size_t j = 0; j < static_cast<std::size_t>(kk); ++j) {
    double sum = 0.0;
    for (std::size_t i = 0; i < ud; ++i) {
      const double r = sx[j * ud + i] - out.values[j] * out.vectors[j * ud + i];
      sum += r * r;
    }
    out.residual = std::max(out.residual, std::sqrt(sum) / std::abs(out.values[j]));
  }
  if (rhs_norm > 0.0) {
    double sum = 0.0;
    const double* sb = sx.data() + ud * static_cast<std::size_t>(kk);
    for (std::size_t i = 0; i < ud; ++i) {
      const double r = sb[i] + targets.lambda * out.ridge[i] - rhs[i];
      sum += r * r;
    }
    out.ridge_residual = std::sqrt(sum) / rhs_norm;
  }
  return out;
}

}  // namespace rmtsweep::simulate
