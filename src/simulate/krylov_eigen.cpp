// Top eigenpairs of S by Spectra's Lanczos or block Davidson on FactoredCovariance, with the
// ridge's conjugate gradients riding along the products (krylov_eigen.hpp).
#include "krylov_eigen.hpp"

// Eigen hands its matrix products (the Ritz vectors and residuals of every Davidson step, d x m
// by m x m) to OpenBLAS: several times faster than its own kernels on one thread.
#define EIGEN_USE_BLAS
#include <Eigen/Core>
#include <Spectra/DavidsonSymEigsSolver.h>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace rmtsweep::simulate {
namespace {

using Matrix = Eigen::MatrixXd;

/// S on a block, with the ridge's CG direction appended as one more column when it is running:
/// the table is read once for both.
class RidingProduct {
 public:
  RidingProduct(const FactoredCovariance& s, RidgeCg* ridge) : s_(s), ridge_(ridge) {}

  /// y = S x for the b columns of x (d x b, leading dimension d).
  void operator()(const double* x, double* y, int b) const {
    const bool riding = ridge_ != nullptr && !ridge_->done();
    if (!riding) {
      s_.apply(x, y, b);
      return;
    }
    const auto ud = static_cast<std::size_t>(s_.dimension()), ub = static_cast<std::size_t>(b);
    in_.resize(ud * (ub + 1));
    out_.resize(ud * (ub + 1));
    std::copy(x, x + ud * ub, in_.begin());
    std::copy(ridge_->direction().begin(), ridge_->direction().end(), in_.begin() + static_cast<std::ptrdiff_t>(ud * ub));
    s_.apply(in_.data(), out_.data(), b + 1);
    std::copy(out_.begin(), out_.begin() + static_cast<std::ptrdiff_t>(ud * ub), y);
    ridge_->advance(out_.data() + ud * ub);
  }
  int dimension() const noexcept { return s_.dimension(); }

 private:
  const FactoredCovariance& s_;
  RidgeCg* ridge_;
  mutable std::vector<double> in_, out_;
};

/// Spectra's single-vector operator (SymEigsSolver): perform_op(x, y) is y = S x.
class LanczosOp {
 public:
  using Scalar = double;
  explicit LanczosOp(const RidingProduct& product) : product_(product) {}
  Eigen::Index rows() const noexcept { return product_.dimension(); }
  Eigen::Index cols() const noexcept { return product_.dimension(); }
  void perform_op(const double* x, double* y) const { product_(x, y, 1); }

 private:
  const RidingProduct& product_;
};

/// Spectra's block operator (DavidsonSymEigsSolver): op * X and the diagonal op(i, i), which
/// Davidson uses as the preconditioner (rho - diag S)^{-1} r. We give it a zero diagonal, i.e. no
/// preconditioner (corrections along the residuals, a block Krylov method with thick restarts):
/// S's diagonal is nearly constant (about kappa for every i), so it would not help, and it would
/// cost a pass over every pooled vector; (rho - S_ii) can also come near 0 for the lower wanted
/// pairs, where S_00 carries the signal.
class DavidsonOp {
 public:
  using Scalar = double;
  explicit DavidsonOp(const RidingProduct& product) : product_(product) {}
  Eigen::Index rows() const noexcept { return product_.dimension(); }
  Eigen::Index cols() const noexcept { return product_.dimension(); }
  double operator()(Eigen::Index, Eigen::Index) const noexcept { return 0.0; }
  Matrix operator*(const Eigen::Ref<const Matrix>& x) const {
    Matrix y(x.rows(), x.cols());
    if (x.outerStride() == x.rows()) {
      product_(x.data(), y.data(), static_cast<int>(x.cols()));
    } else {
      const Matrix copy = x;
      product_(copy.data(), y.data(), static_cast<int>(x.cols()));
    }
    return y;
  }

 private:
  const RidingProduct& product_;
};

/// A deterministic start block (the same on every rank): uniform entries in [-1, 1) from a
/// splitmix64 hash of the index, orthonormalised.
Matrix start_block(int d, int b) {
  Matrix x(d, b);
  for (Eigen::Index j = 0; j < b; ++j) {
    for (Eigen::Index i = 0; i < d; ++i) {
      std::uint64_t z = static_cast<std::uint64_t>(j * d + i) + 0x9E3779B97F4A7C15ULL;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      z ^= z >> 31;
      x(i, j) = static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
    }
  }
  Eigen::HouseholderQR<Matrix> qr(x);
  return qr.householderQ() * Matrix::Identity(d, b);
}

}  // namespace

RidgeCg::RidgeCg(std::vector<double> rhs, double lambda, double tolerance)
    : beta_(rhs.size(), 0.0), r_(rhs), p_(std::move(rhs)), q_(p_.size()), lambda_(lambda) {
  for (const double x : r_) rr_ += x * x;
  stop_ = tolerance * tolerance * rr_;
  done_ = rr_ == 0.0;
}

void RidgeCg::advance(const double* sp) {
  const std::size_t d = p_.size();
  double pq = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    q_[i] = sp[i] + lambda_ * p_[i];
    pq += p_[i] * q_[i];
  }
  const double alpha = rr_ / pq;
  double rr = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    beta_[i] += alpha * p_[i];
    r_[i] -= alpha * q_[i];
    rr += r_[i] * r_[i];
  }
  ++steps_;
  if (rr <= stop_ || !std::isfinite(rr)) {
    done_ = true;
    return;
  }
  const double ratio = rr / rr_;
  rr_ = rr;
  for (std::size_t i = 0; i < d; ++i) p_[i] = r_[i] + ratio * p_[i];
}

void RidgeCg::finish(const FactoredCovariance& s, long long budget) {
  std::vector<double> sp(p_.size());
  for (long long spent = 0; !done_ && spent < budget; ++spent) {
    s.apply(p_.data(), sp.data(), 1);
    advance(sp.data());
  }
}

TopEigenpairs top_eigenpairs(const FactoredCovariance& s, int k, int block, long long budget, double tolerance,
                             double scale, RidgeCg* ridge) {
  const int d = s.dimension();
  const RidingProduct product(s, ridge);
  const long long per_step = block + (ridge != nullptr ? 1 : 0);
  TopEigenpairs out;
  if (block <= 1) {
    LanczosOp op(product);
    // ncv = 20 for k = 4: 12 to 80 all took 195-219 products at d = 2000 (the bulk-edge cluster,
    // not the restarts, sets the count).
    const auto ncv = static_cast<Eigen::Index>(std::min(d - 1, std::max(2 * k + 1, 20)));
    Spectra::SymEigsSolver<LanczosOp> solver(op, k, ncv);
    solver.init();
    // Each restart costs about ncv - k products.
    const auto restarts = static_cast<Eigen::Index>(std::max<long long>(1, budget / per_step / (ncv - k)));
    solver.compute(Spectra::SortRule::LargestAlge, restarts, tolerance);
    out.converged = solver.info() == Spectra::CompInfo::Successful;
    const Eigen::VectorXd values = solver.eigenvalues();
    const Matrix vectors = solver.eigenvectors();
    out.values.assign(values.data(), values.data() + values.size());
    out.vectors.assign(vectors.data(), vectors.data() + vectors.size());
  } else {
    DavidsonOp op(product);
    // Thick restart to 3 blocks once the space passes 12 blocks: at d = 2000, block 8, (24, 96) took
    // 503 products against 479-495 for spaces of 128-200 (whose d m^2 Ritz updates cost more than
    // the saved products) and 551-639 for 48-64.
    const Eigen::Index initial = std::max<Eigen::Index>(2 * k, 3 * block);
    const Eigen::Index largest = std::max<Eigen::Index>(10 * k, 12 * block);
    Spectra::DavidsonSymEigsSolver<DavidsonOp> solver(op, k, initial, std::min<Eigen::Index>(largest, d / 2));
    solver.set_correction_size(block);
    const auto steps = static_cast<Eigen::Index>(std::max<long long>(1, (budget - initial) / per_step));
    solver.compute_with_guess(start_block(d, static_cast<int>(initial)), Spectra::SortRule::LargestAlge, steps,
                              tolerance * scale);
    out.converged = solver.info() == Spectra::CompInfo::Successful;
    const Eigen::VectorXd values = solver.eigenvalues();
    const Matrix vectors = solver.eigenvectors();
    out.values.assign(values.data(), values.data() + values.size());
    out.vectors.assign(vectors.data(), vectors.data() + vectors.size());
  }
  // The residuals measured on the returned pairs (one more block product), relative to |lambda|.
  const auto ud = static_cast<std::size_t>(d), uk = out.values.size();
  std::vector<double> sx(ud * uk);
  s.apply(out.vectors.data(), sx.data(), static_cast<int>(uk));
  for (std::size_t j = 0; j < uk; ++j) {
    double norm = 0.0;
    for (std::size_t i = 0; i < ud; ++i) {
      const double r = sx[j * ud + i] - out.values[j] * out.vectors[j * ud + i];
      norm += r * r;
    }
    out.residual = std::max(out.residual, std::sqrt(norm) / std::abs(out.values[j]));
  }
  return out;
}

}  // namespace rmtsweep::simulate
