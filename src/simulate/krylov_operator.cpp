// FactoredCovariance: S X = E M E^T X without forming S (see krylov_operator.hpp).
#include "krylov_operator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/lapack.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "table_kernels.hpp"

namespace rmtsweep::simulate {
namespace {

/// y = alpha op(A) x for one vector: dgemv streams the table once, where OpenBLAS's dgemm with
/// one column also packs it (measured 2x slower for the d x V table).
void local_gemv(char trans, int m, int n, const double* a, int lda, const double* x, double* y) {
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  dgemv_(&trans, &m, &n, &alpha, a, &lda, x, &one, &beta, y, &one, 1);
}

/// s_v = +1 for v < V/2, -1 after (model.md section 1.1).
double token_class(std::int64_t v, std::int64_t vocabulary) noexcept {
  return 2 * v < vocabulary ? 1.0 : -1.0;
}

}  // namespace

FactoredCovariance::FactoredCovariance(const NoiseTable& table, const SparsePooling& seqs, int d,
                                       int row_block, double snr, MPI_Comm comm)
    : table_(table),
      seqs_(seqs),
      d_(d),
      V_(table.vocabulary()),
      N_(seqs.sequences()),
      signal_(std::sqrt(snr)),
      comm_(comm),
      kernels_(table_kernels_available()),
      threads_(parallel::blas_threads()) {
  if (N_ < 1) throw std::invalid_argument("FactoredCovariance: no sequences");
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm, &rank_));
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &ranks_));
  rows_of_.resize(static_cast<std::size_t>(ranks_));
  for (int r = 0; r < ranks_; ++r) {
    const parallel::BlockCyclic map{d, row_block, ranks_, r};
    auto& rows = rows_of_[static_cast<std::size_t>(r)];
    rows.resize(static_cast<std::size_t>(map.local_size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i] = static_cast<std::size_t>(map.to_global(static_cast<int>(i)));
  }
  if (rows_of_[static_cast<std::size_t>(rank_)] != table.global_rows())
    throw std::invalid_argument(
        "FactoredCovariance: the table's rows are not this rank's rows of a P x 1 grid");

  const auto uV = static_cast<std::size_t>(V_), terms = static_cast<std::size_t>(seqs.terms);
  mean_weights_.assign(uV, 0.0);
  label_weights_.assign(uV, 0.0);
  double label_mean = 0.0;
  for (std::size_t n = 0; n < static_cast<std::size_t>(N_); ++n) {
    const double y = seqs.labels[n];
    label_mean += y;
    for (std::size_t t = 0; t < terms; ++t) {
      const auto v = static_cast<std::size_t>(seqs.tokens[n * terms + t]);
      mean_weights_[v] += seqs.weights[n * terms + t];
      label_weights_[v] += y * seqs.weights[n * terms + t];
    }
  }
  const double inv_n = 1.0 / static_cast<double>(N_);
  label_mean *= inv_n;
  for (std::size_t v = 0; v < uV; ++v) {
    mean_weights_[v] *= inv_n;
    label_weights_[v] = label_weights_[v] * inv_n - mean_weights_[v] * label_mean;
  }
}

void FactoredCovariance::apply_sparse(const double* u, double* w, int b) const {
  const auto ub = static_cast<std::size_t>(b), terms = static_cast<std::size_t>(seqs_.terms);
  const auto uV = static_cast<std::size_t>(V_);
  std::fill(w, w + uV * ub, 0.0);
  const double inv_n = 1.0 / static_cast<double>(N_);
  std::vector<double> t(ub), g(ub, 0.0);
  // (1/N) sum_n a_n (a_n^T u): each sequence gathers its T columns of u and scatters them back.
  for (std::size_t n = 0; n < static_cast<std::size_t>(N_); ++n) {
    const std::int32_t* v = seqs_.tokens.data() + n * terms;
    const double* a = seqs_.weights.data() + n * terms;
    std::fill(t.begin(), t.end(), 0.0);
    for (std::size_t s = 0; s < terms; ++s) {
      const double* us = u + static_cast<std::size_t>(v[s]) * ub;
      for (std::size_t j = 0; j < ub; ++j) t[j] += a[s] * us[j];
    }
    for (std::size_t j = 0; j < ub; ++j) t[j] *= inv_n;
    for (std::size_t s = 0; s < terms; ++s) {
      double* ws = w + static_cast<std::size_t>(v[s]) * ub;
      for (std::size_t j = 0; j < ub; ++j) ws[j] += a[s] * t[j];
    }
  }
  // - a-bar (a-bar^T u): the centring.
  for (std::size_t v = 0; v < uV; ++v) {
    for (std::size_t j = 0; j < ub; ++j) g[j] += mean_weights_[v] * u[v * ub + j];
  }
  for (std::size_t v = 0; v < uV; ++v) {
    for (std::size_t j = 0; j < ub; ++j) w[v * ub + j] -= mean_weights_[v] * g[j];
  }
}

void FactoredCovariance::gather_rows(const double* y_local, double* y, int b) const {
  const auto ud = static_cast<std::size_t>(d_), ub = static_cast<std::size_t>(b);
  const auto& mine = rows_of_[static_cast<std::size_t>(rank_)];
  if (ranks_ == 1) {
    for (std::size_t j = 0; j < ub; ++j)
      std::copy(y_local + j * mine.size(), y_local + (j + 1) * mine.size(), y + j * ud);
    return;
  }
  std::vector<int> counts(static_cast<std::size_t>(ranks_)), displs(static_cast<std::size_t>(ranks_));
  int offset = 0;
  for (int r = 0; r < ranks_; ++r) {
    counts[static_cast<std::size_t>(r)] = static_cast<int>(rows_of_[static_cast<std::size_t>(r)].size() * ub);
    displs[static_cast<std::size_t>(r)] = offset;
    offset += counts[static_cast<std::size_t>(r)];
  }
  gathered_.resize(static_cast<std::size_t>(offset));
  parallel::all_gather(
      std::span<const double>(y_local, static_cast<std::size_t>(counts[static_cast<std::size_t>(rank_)])),
      std::span<double>(gathered_), counts, displs, comm_);
  for (int r = 0; r < ranks_; ++r) {
    const auto& rows = rows_of_[static_cast<std::size_t>(r)];
    const double* block = gathered_.data() + displs[static_cast<std::size_t>(r)];
    for (std::size_t j = 0; j < ub; ++j) {
      for (std::size_t i = 0; i < rows.size(); ++i) y[j * ud + rows[i]] = block[j * rows.size() + i];
    }
  }
}

std::vector<double> FactoredCovariance::table_times(const std::vector<double>& w, int b) const {
  return columns_times(table_.column(0), V_, w, b, true);
}

std::vector<double> FactoredCovariance::columns_times(const double* columns, std::int64_t m,
                                                      const std::vector<double>& w, int b,
                                                      bool signal) const {
  const auto ub = static_cast<std::size_t>(b), ud = static_cast<std::size_t>(d_);
  const auto lr = table_.global_rows().size();
  const int ld = static_cast<int>(std::max<std::size_t>(1, lr));
  y_local_.assign(std::max<std::size_t>(1, lr * ub), 0.0);
  if (lr > 0 && b == 1) {
    local_gemv('N', static_cast<int>(lr), static_cast<int>(m), columns, ld, w.data(), y_local_.data());
  } else if (lr > 0 && kernel_lanes(b)) {
    rows_block_.resize(lr * ub);
    stream_times(columns, static_cast<std::int64_t>(lr), m, ld, w.data(), b, rows_block_.data(), threads_);
    for (std::size_t i = 0; i < lr; ++i) {
      for (std::size_t j = 0; j < ub; ++j) y_local_[j * lr + i] = rows_block_[i * ub + j];
    }
  } else if (lr > 0) {
    parallel::local_gemm('N', 'T', static_cast<int>(lr), b, static_cast<int>(m), 1.0, columns, ld, w.data(),
                         b, 0.0, y_local_.data(), static_cast<int>(lr));
  }
  std::vector<double> y(ud * ub);
  gather_rows(y_local_.data(), y.data(), b);
  if (!signal) return y;
  // + sqrt(snr) e_1 (s^T w): the signal row, the same arithmetic on every rank.
  for (std::size_t j = 0; j < ub; ++j) {
    double sum = 0.0;
    for (std::int64_t v = 0; v < V_; ++v) sum += token_class(v, V_) * w[static_cast<std::size_t>(v) * ub + j];
    y[j * ud] += signal_ * sum;
  }
  return y;
}

bool FactoredCovariance::kernel_lanes(int b) const noexcept { return b > 1 && b % 4 == 0 && kernels_; }

void FactoredCovariance::apply(const double* x, double* y, int b) const {
  const int padded = (b + 3) / 4 * 4;
  if (b > 1 && padded != b && kernels_) {
    // Zero lanes up to a multiple of 4 for the kernels: they cost arithmetic, not another table pass.
    const auto ud = static_cast<std::size_t>(d_), ub = static_cast<std::size_t>(b);
    padded_in_.assign(ud * static_cast<std::size_t>(padded), 0.0);
    padded_out_.resize(padded_in_.size());
    std::copy(x, x + ud * ub, padded_in_.begin());
    apply_block(padded_in_.data(), padded_out_.data(), padded);
    std::copy(padded_out_.begin(), padded_out_.begin() + static_cast<std::ptrdiff_t>(ud * ub), y);
  } else {
    apply_block(x, y, b);
  }
  products_ += b;
}

void FactoredCovariance::apply_block(const double* x, double* y, int b) const {
  const auto ub = static_cast<std::size_t>(b), ud = static_cast<std::size_t>(d_);
  const auto& mine = table_.global_rows();
  const auto lr = mine.size();
  const int ld = static_cast<int>(std::max<std::size_t>(1, lr));
  // The columns multiplied: the table's V (E = Z + signal, the signal added on the token side) or
  // the pooled vectors' N (C = E A, the signal inside).
  const double* columns = compressed() ? pooled_.data() : table_.column(0);
  const std::int64_t m = compressed() ? N_ : V_;
  const auto um = static_cast<std::size_t>(m);
  // u^T = x^T E (b x m): this rank's rows, summed over the ranks on rank 0 and broadcast.
  x_local_.resize(std::max<std::size_t>(1, lr * ub));
  const bool lanes = kernel_lanes(b);  // x_local_ row-major for the kernels, else column-major for dgemm
  for (std::size_t j = 0; j < ub; ++j) {
    for (std::size_t i = 0; i < lr; ++i) x_local_[lanes ? i * ub + j : j * lr + i] = x[j * ud + mine[i]];
  }
  u_.assign(um * ub, 0.0);
  if (lr > 0 && b == 1) {
    local_gemv('T', static_cast<int>(lr), static_cast<int>(m), columns, ld, x_local_.data(), u_.data());
  } else if (lr > 0 && lanes) {
    stream_transpose_times(columns, static_cast<std::int64_t>(lr), m, ld, x_local_.data(), b, u_.data(),
                           threads_);
  } else if (lr > 0) {
    parallel::local_gemm('T', 'N', b, static_cast<int>(m), static_cast<int>(lr), 1.0, x_local_.data(), ld,
                         columns, ld, 0.0, u_.data(), b);
  }
  if (ranks_ > 1) {
    parallel::sum_on_root_then_broadcast(std::span<double>(u_), comm_);  // the same bits on every rank
  }
  w_.resize(um * ub);
  if (compressed()) {
    // w = (1/N) (I - 11^T / N) u: the centred covariance of the N columns.
    const double inv_n = 1.0 / static_cast<double>(N_);
    std::vector<double> mean(ub, 0.0);
    for (std::size_t n = 0; n < um; ++n) {
      for (std::size_t j = 0; j < ub; ++j) mean[j] += u_[n * ub + j];
    }
    for (std::size_t n = 0; n < um; ++n) {
      for (std::size_t j = 0; j < ub; ++j) w_[n * ub + j] = (u_[n * ub + j] - mean[j] * inv_n) * inv_n;
    }
  } else {
    for (std::size_t v = 0; v < um; ++v) {
      const double s = signal_ * token_class(static_cast<std::int64_t>(v), V_);
      for (std::size_t j = 0; j < ub; ++j) u_[v * ub + j] += s * x[j * ud];
    }
    apply_sparse(u_.data(), w_.data(), b);
  }
  const std::vector<double> result = columns_times(columns, m, w_, b, !compressed());
  std::copy(result.begin(), result.end(), y);
}

void FactoredCovariance::compress(double max_fraction) {
  const auto uN = static_cast<std::size_t>(N_);
  if (static_cast<double>(N_) > max_fraction * static_cast<double>(V_)) return;
  const auto& mine = table_.global_rows();
  const auto lr = mine.size(), terms = static_cast<std::size_t>(seqs_.terms);
  std::size_t signal_row = lr;
  for (std::size_t i = 0; i < lr; ++i) {
    if (mine[i] == 0) signal_row = i;
  }
  pooled_.assign(std::max<std::size_t>(1, lr * uN), 0.0);
  for (std::size_t n = 0; n < uN; ++n) {
    double* c = pooled_.data() + n * lr;
    double signal_weight = 0.0;
    for (std::size_t t = 0; t < terms; ++t) {
      const std::int32_t v = seqs_.tokens[n * terms + t];
      const double a = seqs_.weights[n * terms + t];
      const double* z = table_.column(v);
      for (std::size_t r = 0; r < lr; ++r) c[r] += a * z[r];
      signal_weight += a * token_class(v, V_);
    }
    if (signal_row < lr) c[signal_row] += signal_ * signal_weight;
  }
}

}  // namespace rmtsweep::simulate
