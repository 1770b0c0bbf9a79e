#pragma once
// The top eigenpairs of S and the ridge solve (S + lambda I) beta = rhs in ONE block Krylov basis
// (private to src/simulate). The start block is [rhs, b - 1 fixed pseudo-random vectors]: its
// Krylov space contains conjugate gradients' K_m(S, rhs), so the Galerkin ridge solution in it is
// at least as accurate as m CG steps, and the table is read once per block for both: fewer passes over
// the table than a library's eigensolver and CG after it (docs/performance.md, "Why not a library's
// solver"). No library in Debian builds one basis for both.
//
// Full reorthogonalisation (twice, classical Gram-Schmidt against the whole basis), no restarts:
// the basis is m = blocks x b vectors of length d (at d = 32000, 80 blocks of 8: 160 MiB against a
// 16 GiB table). The small problems are LAPACK's: dsyevr for the Ritz pairs of the block-
// tridiagonal T, dposv for (T + lambda I) y = Q^T rhs. Every rank runs the iteration on replicated
// vectors; rank 0's new block, its coefficients and every decision are broadcast, so all ranks
// hold the same bits whatever their BLAS threads.
#include <cstdint>
#include <vector>

#include "krylov_operator.hpp"

namespace rmtsweep::simulate {

/// T = Q^T S Q, block tridiagonal with bandwidth b, in LAPACK's lower band storage (uplo 'L'):
/// T(i, j) for j <= i <= j + b at ab[j (b + 1) + i - j]. Grows by b columns per block.
struct BandMatrix {
  int kd = 0, n = 0;
  std::vector<double> ab;

  double& at(int i, int j) { return ab[static_cast<std::size_t>(j) * (kd + 1) + (i - j)]; }
  double at(int i, int j) const { return ab[static_cast<std::size_t>(j) * (kd + 1) + (i - j)]; }

  /// Appends the block A_j (b x b, symmetric) on the diagonal, below the previous block's coupling
  /// B_{j-1} (b x b upper triangular: T(n + i, n - b + j) = B(i, j)).
  void append(const std::vector<double>& a, const std::vector<double>& coupling) {
    const int b = kd;
    ab.resize(static_cast<std::size_t>(n + b) * (kd + 1), 0.0);
    for (int j = 0; j < b; ++j) {
      for (int i = j; i < b; ++i) at(n + i, n + j) = a[static_cast<std::size_t>(j) * b + i];
    }
    if (n > 0) {
      for (int j = 0; j < b; ++j) {
        for (int i = 0; i <= j; ++i) at(n + i, n - b + j) = coupling[static_cast<std::size_t>(j) * b + i];
      }
    }
    n += b;
  }

  std::vector<double> dense() const {
    std::vector<double> t(static_cast<std::size_t>(n) * n, 0.0);
    for (int j = 0; j < n; ++j) {
      for (int i = j; i < std::min(n, j + kd + 1); ++i) {
        t[static_cast<std::size_t>(j) * n + i] = at(i, j);
        t[static_cast<std::size_t>(i) * n + j] = at(i, j);
      }
    }
    return t;
  }
};

/// The block Krylov iteration itself: the basis Q (d x m, replicated, the same bits on every rank) of
/// K_j(S, X_1) grown a block at a time with full reorthogonalisation (classical Gram-Schmidt, twice), and
/// the block tridiagonal T = Q^T S Q. What the point's solver (block_lanczos) and a line's (krylov_line.cpp)
/// drive with their own convergence tests: S Q = Q T + Q_{j+1} B_j E_j^T, so a Ritz pair (theta, z) of T has
/// the residual ||B_j z_last|| (coupled_norm).
class BlockKrylov {
 public:
  /// Orthonormalises the start block (d x b, column-major; its first column must not vanish) on rank 0's
  /// bits: start = Q_1 R (start_coefficients() is R, b x b upper triangular).
  BlockKrylov(const FactoredCovariance& s, std::vector<double> start, int b);
  /// One block product and its orthogonalisation (collective): T grows by a block. False, and nothing
  /// done, when the budget of products or the dimension leaves no room for another block.
  bool step(long long budget);
  int size() const noexcept { return m_; }
  int block() const noexcept { return b_; }
  int blocks() const noexcept { return blocks_; }
  /// T = Q^T S Q so far.
  const BandMatrix& projected() const noexcept { return t_; }
  /// B_j of the last step (b x b, upper triangular, column-major): Q_{j+1} B_j = the new directions.
  const std::vector<double>& coupling() const noexcept { return coupling_; }
  /// Q (d x m, column-major).
  const std::vector<double>& basis() const noexcept { return q_; }
  /// R of start = Q_1 R.
  const std::vector<double>& start_coefficients() const noexcept { return start_r_; }
  /// Whether another block fits in d dimensions.
  bool room() const noexcept { return m_ + b_ <= s_.dimension(); }

 private:
  const FactoredCovariance& s_;
  int d_ = 0, b_ = 1, m_ = 0, blocks_ = 0;
  std::vector<double> q_, start_r_, coupling_, previous_, next_;
  BandMatrix t_;
};

/// ||B z_last|| for the b x b upper-triangular coupling B and the last b entries of the m-vector z.
double coupled_norm(const std::vector<double>& coupling, int b, const double* z_last);

/// Fixed pseudo-random entries in [-1, 1) (a splitmix64 hash of the index), the same on every rank.
double hashed_uniform(std::uint64_t index) noexcept;

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

KrylovSolution block_lanczos(const FactoredCovariance& s, const std::vector<double>& rhs,
                             const KrylovTargets& targets);

}  // namespace rmtsweep::simulate
