#pragma once
/// The pooled vectors built from this process's share of the embedding table (NoiseTable)
/// (model.md sections 1.1-1.2 and 3). Generation needs no communication, except the sum of
/// the causal-attention inner products over the process rows.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/simulate/noise_table.hpp"
#include "rmtsweep/simulate/sequences.hpp"

namespace rmtsweep::simulate {

/// The training sequences as sparse V-vectors: c_n = E a_n with a_n holding sequence
/// n's weights at its tokens (model.md section 5.5), for the matrix-free Krylov path. Every rank
/// holds all of it (about 12 bytes per term).
struct SparsePooling {
  int terms = 0;                     ///< terms per sequence (positions with w_t != 0; all T for causal)
  std::vector<std::int32_t> tokens;  ///< N x terms: v_{n, t}
  std::vector<double> weights;       ///< N x terms: the weight of each term (per sequence for causal)
  std::vector<std::int8_t> labels;   ///< y_n = xi_1
  double deviation_sum = 0.0;        ///< causal:tau, on rank 0 of the group only: sum_n ||w_n - w(tau)||_1
  std::int64_t sequences() const noexcept {
    return terms == 0 ? 0 : static_cast<std::int64_t>(tokens.size()) / terms;
  }
};

class PooledSequences {
 public:
  /// The pooled vectors of the point `params` on rows distributed like `like` (its row map),
  /// from the noise table `table` (drawn here when null; it must be the table of params and
  /// like: NoiseTable::same_draws, else std::invalid_argument), and the deterministic weights.
  PooledSequences(const model::PointParams& params, const parallel::DistributedMatrix& like,
                  std::shared_ptr<const NoiseTable> table = nullptr);

  /// Fills columns [0, count) of `panel` (d rows, same row map as `like`) with the pooled
  /// vectors c_n = sum_t w_t X_t of sequences first .. first + count - 1 of `streams`, where
  /// X_t = xi_t sqrt(snr) e_1 + z_{v_t}; later columns are zero. labels[lc] gets y_n of local
  /// column lc (0 for unused columns). For causal:tau returns sum_n ||w_n - w(tau)||_1 over
  /// this process's columns when it is in process row 0 (else 0), so that a sum over all
  /// ranks counts each sequence once. Collective over the grid's column communicator.
  ///
  /// When `sums` is not empty (2 d + 1 entries, global row positions) it also adds this
  /// process's sum_n c_n into sums[0, d), sum_n y_n c_n into sums[d, 2d) and, from process row 0,
  /// sum_n y_n into sums[2d], in the same pass over each column that adds its last terms.
  double fill(parallel::DistributedMatrix& panel, std::int64_t first, std::int64_t count,
              SequenceStreams streams, std::vector<int>& labels, std::span<double> sums = {}) const;

  /// Whether covariance_by_tokens can serve N training sequences (weights that do not depend on
  /// the data; its index of the sequences, about 8 bytes per term and held whole by every
  /// process, at most a quarter of this process's share of S; on several processes, column
  /// blocks of S of whole strips of 16 rows whose H and table rows fit in half of that share)
  /// and costs less than streaming N pooled vectors through dsyrk or pdsyrk, by a cost model
  /// measured here (see token_covariance.cpp).
  bool tokens_pay(std::int64_t N) const;

  /// The lower triangle of S = (1/N) sum_n c_n c_n^T over sequences 0 .. N-1 of `streams`
  /// (`s`: d x d with the table's row layout, on any grid; entries above the diagonal that the
  /// dgemms touch are set back to zero), through the vocabulary instead of N columns: c_n = E a_n, a_n
  /// holding sequence n's weights at its tokens, so S = (1/N) E H^T with H = sum_n c_n a_n^T (d x V), built
  /// up to 512 rows at a time (pooled vectors in strips of 16 rows kept in L2, never a d x N array) and
  /// multiplied by dgemm: d^2 V flops instead of d^2 N, plus 2 N T d for the pooling and H. E = Z + sqrt(snr)
  /// e_1 s^T, so S = (1/N) (Z H^T + sqrt(snr) e_1 (H s)^T), whose second term is S(0, 0)'s alone in the lower
  /// triangle. On several processes each one builds the rows of H for its columns of S from every sequence,
  /// pooling them from the table's rows for those columns (copied where it holds them, drawn here where not),
  /// and multiplies its local rows of Z: no communication. `sums` as in fill (all 2 d + 1 entries; from
  /// process row 0, sum y from process (0, 0), so that their sum over the grid counts each term once).
  /// Returns the seconds spent drawing and indexing the sequences and, on the calling thread,
  /// pooling them (the generation share of the time; the rest is building H and the dgemm).
  double covariance_by_tokens(parallel::DistributedMatrix& s, std::int64_t N, SequenceStreams streams,
                              std::span<double> sums) const;

  /// p_v = beta^T z_v for every token v, beta a replicated d-vector: the projections of the
  /// (centred, for `table = centered`) noise table, summed over the process rows (collective
  /// over the grid's column communicator; the same on every rank up to summation order).
  /// With deterministic weights, beta^T c_n = sum_t w_t p_{v_t} + sqrt(snr) beta_0 sum_t w_t xi_t,
  /// which scores a sequence in O(T) instead of O(T d).
  std::vector<double> token_projections(const std::vector<double>& beta) const;

  /// Sequences 0 .. N-1 of `streams` as sparse vectors over the vocabulary, the same
  /// draws and weights as fill. For causal:tau each sequence's Gram <X_s, X_t> is summed over the
  /// process rows by a reduction to the column's first process and a broadcast, so that every rank
  /// holds bit-identical weights. Collective over the grid's column communicator; on a grid of one
  /// process column (P x 1) every rank holds the same result.
  SparsePooling sparse_pooling(std::int64_t N, SequenceStreams streams) const;

  /// The rows of the noise table this process holds.
  const NoiseTable& table() const noexcept { return *table_; }

  /// The deterministic weights w (for causal:tau, the limit w(tau)).
  const std::vector<double>& weights() const noexcept { return weights_; }

 private:
  /// On several processes: whether the rows of H and of the table for one column block of S fit
  /// in half of this process's share of S, and the blocks are whole strips of 16 rows.
  bool distributed_tokens_fit() const;

  /// Local row r of token v's noise z_v.
  const double* noise(std::int64_t v) const noexcept { return table_->column(v); }

  model::PointParams params_;
  random::CounterRng rng_;
  std::shared_ptr<const NoiseTable> table_;
  int threads_ = 1;      ///< threads generating: this rank's BLAS threads
  int signal_row_ = -1;  ///< local index of global row 0 (the signal axis u = e_1), or -1
  bool in_first_process_row_ = false;
  bool single_process_ = false;                     ///< a 1 x 1 grid: this rank holds all of S and the table
  int grid_rows_ = 1, grid_cols_ = 1, my_col_ = 0;  ///< the grid's shape and this process's column
  int row_block_ = 1;                               ///< the row block of the table (and of S)
  MPI_Comm column_comm_ = MPI_COMM_NULL;
  std::vector<double> weights_;
};

}  // namespace rmtsweep::simulate
