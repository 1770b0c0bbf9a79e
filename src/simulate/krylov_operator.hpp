#pragma once
// The centred sample covariance S applied without forming it (private to src/simulate):
//   S X = E M E^T X,   M = (1/N) sum_n a_n a_n^T - a-bar a-bar^T  (V x V, sparse),
// with E = Z + sqrt(snr) e_1 s^T the d x V table (c_n = E a_n, c-bar = E a-bar; model.md 1.2, 5.5).
// On a block of b vectors: U^T = X^T Z (2 d V b flops), the sparse M on U (4 N T b), Z W (2 d V b),
// the two table products by table_kernels (streaming the table once each) where the CPU has AVX2. Rows of Z
// are spread over the ranks of a P x 1 grid; X and S X are replicated and bit-identical on every rank (reduce
// to rank 0 + broadcast, then an all-gather).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

namespace rmtsweep::simulate {

class FactoredCovariance {
 public:
  /// S of the sequences `seqs` on the table rows `table` holds (rows distributed like a d-row
  /// matrix on a P x 1 grid over `comm`, block `row_block`). Keeps references to both.
  FactoredCovariance(const NoiseTable& table, const SparsePooling& seqs, int d, int row_block, double snr,
                     MPI_Comm comm);
  FactoredCovariance(const FactoredCovariance&) = delete;
  FactoredCovariance& operator=(const FactoredCovariance&) = delete;

  int dimension() const noexcept { return d_; }
  /// The group's ranks, over which every product is collective.
  MPI_Comm communicator() const noexcept { return comm_; }
  /// The threads of the block products (the BLAS threads when the operator was made).
  int threads() const noexcept { return threads_; }

  /// y = S x for the b columns of x (d x b, column-major, the same on every rank). Collective.
  void apply(const double* x, double* y, int b) const;

  /// E w for the b token-side vectors w (b x V, entry (j, v) at w[v b + j]): d x b, column-major,
  /// the same on every rank. Collective. c-bar = E a-bar and the ridge's right side are of this form.
  std::vector<double> table_times(const std::vector<double>& w, int b) const;

  /// a-bar = (1/N) sum_n a_n (so c-bar = E a-bar).
  const std::vector<double>& mean_weights() const noexcept { return mean_weights_; }
  /// (1/N) sum_n y_n a_n - a-bar y-bar (so the ridge's b = (1/N) sum (c_n - c-bar) y_n = E of it).
  const std::vector<double>& label_weights() const noexcept { return label_weights_; }

  /// Where N <= max_fraction V: forms this rank's rows of C = E A (d x N, the pooled vectors) once,
  /// and later products use S X = C (I - 11^T/N) C^T X / N: 4 d N flops instead of 4 d V. C is
  /// held beside the table, so max_fraction bounds the extra memory (a fraction of the table's).
  void compress(double max_fraction);
  bool compressed() const noexcept { return !pooled_.empty(); }

  /// Vectors multiplied by S so far (each column of a block counts one).
  long long products() const noexcept { return products_; }

 private:
  /// apply() on b columns as given (b a multiple of 4 where the kernels take it).
  void apply_block(const double* x, double* y, int b) const;
  /// Whether a block of b columns goes through table_kernels (else dgemv for 1, dgemm otherwise).
  bool kernel_lanes(int b) const noexcept;
  /// w = M u on the token side, both b x V.
  void apply_sparse(const double* u, double* w, int b) const;
  /// The d x b replicated result of columns (local rows x m, leading dimension the local rows) times
  /// w (b x m, entry (j, i) at w[i b + j]), plus the signal row's sqrt(snr) s^T w when `signal`.
  std::vector<double> columns_times(const double* columns, std::int64_t m, const std::vector<double>& w,
                                    int b, bool signal) const;
  /// The d x b replicated result from each rank's local rows y_local (lr x b): an all-gather.
  void gather_rows(const double* y_local, double* y, int b) const;

  const NoiseTable& table_;
  const SparsePooling& seqs_;
  int d_ = 0;
  std::int64_t V_ = 0, N_ = 0;
  double signal_ = 0.0;
  MPI_Comm comm_;
  int rank_ = 0, ranks_ = 1;
  std::vector<std::vector<std::size_t>> rows_of_;  ///< the global rows each rank holds
  std::vector<double> mean_weights_, label_weights_;
  std::vector<double> pooled_;  ///< compress(): this rank's rows of C = E A (local rows x N), else empty
  bool kernels_ = false;        ///< table_kernels_available()
  int threads_ = 1;             ///< the kernels' threads: the BLAS threads when the operator was made
  mutable long long products_ = 0;
  mutable std::vector<double> x_local_, u_, w_, y_local_, gathered_, rows_block_, padded_in_, padded_out_;
};

}  // namespace rmtsweep::simulate
