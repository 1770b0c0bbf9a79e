// S = (1/N) sum_n c_n c_n^T through the vocabulary (PooledSequences::covariance_by_tokens).
//
// Every pooled vector is a combination of table columns: c_n = E a_n, a_n in R^V holding
// sequence n's weights w_t at its tokens v_{n,t}. Hence
//   S = (1/N) sum_n c_n (E a_n)^T = (1/N) H E^T,   H = sum_n c_n a_n^T  (d x V),
// column v of H being the weighted sum of the pooled vectors of every sequence that uses token
// v. H costs 2 N T d multiply-adds (pool c_n, add it into T columns) and H E^T is one dgemm of
// d^2 V flops (lower triangle, in blocks of columns), against d^2 N for dsyrk on the N pooled
// vectors. Worth it when V is well below N (delta > gamma); PooledSequences::tokens_pay decides.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "for_chunks.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"
#include "stages.hpp"

// The two loops below are short fixed-length vector loops (16 rows): x86-64's baseline SSE2
// runs them at half the speed of AVX2 + FMA. GCC/Clang compile a clone for x86-64-v3 and pick
// it at load time when the CPU has it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(RMTSWEEP_NO_CLONES)
#define RMTSWEEP_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RMTSWEEP_VECTOR_CLONES
#endif

namespace rmtsweep::simulate {
namespace {

/// Rows of c_n and of H handled together, held in registers.
constexpr int strip = 16;
/// Rows of H per block, at most: S's columns of a block are one dgemm (the block's rows are also
/// kept to 8 rows V bytes <= a quarter of S, and at least 64, see h_block_rows).
constexpr int row_block = 512;
constexpr int min_row_block = 64;
/// Sequences per pass: a strip of their pooled vectors (16 x 4096, 512 KB) stays in L2.
constexpr std::int64_t sequence_chunk = 4096;
/// Columns per dgemm on the diagonal blocks of S (the upper part computed there is thrown away).
constexpr int diagonal_band = 128;
/// An occurrence is stored as (n - first) << 12 | term in an int32.
constexpr int term_bits = 12;
static_assert(model::max_sequence_length <= (1 << term_bits), "a term index must fit in term_bits");
static_assert(sequence_chunk << term_bits <= std::int64_t{1} << 31, "an occurrence must fit in an int32");
/// Extra cost of the vocabulary's pooling and H per N T d over the panels' pooling, in dgemm
/// flops (see tokens_pay).
constexpr double tokens_cost_ratio = 28.0;
/// On several processes (see tokens_pay): the panels' pooling and the vocabulary's pooling and H per
/// N T d, in dgemm flops (34 and 2 x 31, as above); a Gaussian draw of the table (about 12 ns on
/// one thread, against 0.014 ns per dgemm flop); and pdsyrk's time per flop against a local dgemm's
/// (measured on 2 ranks: the covariance stage at d = 2000 and 4000 ran at 0.4-0.6 x the local
/// DGEMM rate per rank).
constexpr double panel_pooling_cost = 34.0, tokens_pooling_cost = 62.0, draw_cost = 850.0,
                 pdsyrk_slowdown = 1.5;

/// out[n * strip + r] = sum_t w[t] z_{tokens[n, t]}[r0 + r] for r < rows, n < count (rows <= strip).
RMTSWEEP_VECTOR_CLONES
void pool_strip(const std::int32_t* tokens, int terms, const double* w, std::int64_t count,
                const double* table, std::size_t ld, std::size_t r0, int rows, double* out) {
  for (std::int64_t n = 0; n < count; ++n) {
    double acc[strip] = {};
    const std::int32_t* v = tokens + n * terms;
    if (rows == strip) {
      for (int t = 0; t < terms; ++t) {
        const double* z = table + static_cast<std::size_t>(v[t]) * ld + r0;
        const double wt = w[t];
        for (int r = 0; r < strip; ++r) acc[r] += wt * z[r];
      }
    } else {
      for (int t = 0; t < terms; ++t) {
        const double* z = table + static_cast<std::size_t>(v[t]) * ld + r0;
        for (int r = 0; r < rows; ++r) acc[r] += w[t] * z[r];
      }
    }
    double* c = out + n * strip;
    for (int r = 0; r < strip; ++r) c[r] = acc[r];
  }
}

/// h[v * ldh + r] += sum over the occurrences o of token v of w[term(o)] pooled[n(o) * strip + r],
/// for r < rows; occurrences of v are entries[start[v] .. start[v + 1]).
RMTSWEEP_VECTOR_CLONES
void add_to_h(std::int64_t vocabulary, const std::int32_t* start, const std::int32_t* entries,
              const double* w, const double* pooled, double* h, std::size_t ldh, int rows) {
  constexpr std::int32_t term_mask = (1 << term_bits) - 1;
  for (std::int64_t v = 0; v < vocabulary; ++v) {
    if (start[v] == start[v + 1]) continue;
    double acc[strip] = {};
    for (std::int32_t o = start[v]; o < start[v + 1]; ++o) {
      const double* c = pooled + static_cast<std::size_t>(entries[o] >> term_bits) * strip;
      const double wt = w[entries[o] & term_mask];
      for (int r = 0; r < strip; ++r) acc[r] += wt * c[r];
    }
    double* column = h + static_cast<std::size_t>(v) * ldh;
    for (int r = 0; r < rows; ++r) column[r] += acc[r];
  }
}

/// sum[r] += sum_n c_n[r] and label_sum[r] += sum_n y_n c_n[r] over the strip's pooled vectors.
void add_sums(const double* pooled, const std::int8_t* labels, std::int64_t count, double* sum,
              double* label_sum) {
  double s[strip] = {}, ys[strip] = {};
  for (std::int64_t n = 0; n < count; ++n) {
    const double* c = pooled + n * strip;
    const double y = labels[n];
    for (int r = 0; r < strip; ++r) {
      s[r] += c[r];
      ys[r] += y * c[r];
    }
  }
  for (int r = 0; r < strip; ++r) {
    sum[r] += s[r];
    label_sum[r] += ys[r];
  }
}

/// sum_v s_v h[v * ldh] with s_v = +1 for v < V/2 and -1 after: (H s) at h's first row.
double signed_sum(const double* h, std::size_t ldh, std::int64_t vocabulary) {
  double sum = 0.0;
  for (std::int64_t v = 0; v < vocabulary; ++v)
    sum += (2 * v < vocabulary ? 1.0 : -1.0) * h[static_cast<std::size_t>(v) * ldh];
  return sum;
}

/// S's lower triangle in the local columns lc0 .. lc0 + w - 1 (global columns cols[0 .. w),
/// increasing): S(i, j) = alpha sum_v Z(i, v) h(c, v) for j = cols[c] and the local rows i >= j,
/// with h (w x V, leading dimension ldh) the rows of H for those columns and Z (local rows x V,
/// leading dimension ldz) the table's local rows, whose global indices are `rows` (increasing).
/// One dgemm for the local rows below the last column, then each run of consecutive columns in
/// bands of `diagonal_band` columns down to there; the band's upper part is computed and set
/// back to zero (1/4 of the band on one process; only the lower triangle holds S).
void add_block_columns(const double* h, int ldh, const std::vector<int>& cols, int lc0, const double* z,
                       int ldz, const std::vector<std::size_t>& rows, std::int64_t vocabulary, double alpha,
                       parallel::DistributedMatrix& s) {
  const int w = static_cast<int>(cols.size()), lds = s.lld(), V = static_cast<int>(vocabulary);
  const auto at = [&](int lr, int lc) {
    return s.data() + static_cast<std::size_t>(lc) * static_cast<std::size_t>(lds) + lr;
  };
  const auto first_row_from = [&](int global) {
    return static_cast<int>(std::lower_bound(rows.begin(), rows.end(), static_cast<std::size_t>(global)) -
                            rows.begin());
  };
  const int tail = first_row_from(cols.back() + 1), local_rows = static_cast<int>(rows.size());
  if (local_rows > tail)
    parallel::local_gemm('N', 'T', local_rows - tail, w, V, alpha, z + tail, ldz, h, ldh, 0.0, at(tail, lc0),
                         lds);
  for (int a = 0; a < w;) {
    int run_end = a + 1;
    while (run_end < w &&
           cols[static_cast<std::size_t>(run_end)] == cols[static_cast<std::size_t>(run_end - 1)] + 1)
      ++run_end;
    for (int b = a; b < run_end; b += diagonal_band) {
      const int m = std::min(diagonal_band, run_end - b),
                top = first_row_from(cols[static_cast<std::size_t>(b)]);
      if (tail <= top) continue;
      parallel::local_gemm('N', 'T', tail - top, m, V, alpha, z + top, ldz, h + b, ldh, 0.0, at(top, lc0 + b),
                           lds);
      for (int c = 1; c < m; ++c)
        std::fill(at(top, lc0 + b + c),
                  at(first_row_from(cols[static_cast<std::size_t>(b + c)]), lc0 + b + c), 0.0);
    }
    a = run_end;
  }
}

/// Rows of H per block: up to 512 (and d), a multiple of 16, with the block (8 rows V bytes) at
/// most a quarter of S (2 d^2 bytes); below 64 the vocabulary path is not taken (tokens_pay).
int h_block_rows(int d, std::int64_t vocabulary) {
  const double fit =
      2.0 * static_cast<double>(d) * static_cast<double>(d) / (8.0 * static_cast<double>(vocabulary));
  const int rows = static_cast<int>(std::min<double>(row_block, fit)) / strip * strip;
  return std::min(d, rows);
}

/// On several processes, the most columns w of S per group whose rows of H and of the table drawn
/// for them (2 x 8 w V bytes) fit within half of a process's share of S (8 d^2 / processes bytes).
double distributed_fit(int d, std::int64_t vocabulary, int processes) {
  return static_cast<double>(d) * static_cast<double>(d) /
         (4.0 * static_cast<double>(processes) * static_cast<double>(vocabulary));
}

/// Local columns of S per group on several processes: whole column blocks of `block` (so that no
/// strip of 16 rows of H crosses a run of consecutive global columns), within distributed_fit and
/// at most 512; at least one block.
int distributed_group_columns(int d, std::int64_t vocabulary, int processes, int block) {
  const double fit = distributed_fit(d, vocabulary, processes);
  return std::max(block, static_cast<int>(std::min<double>(row_block, fit)) / block * block);
}

/// The positions t with w_t != 0: the terms of every pooled vector.
std::vector<int> term_positions(const std::vector<double>& weights) {
  std::vector<int> positions;
  for (std::size_t t = 0; t < weights.size(); ++t) {
    if (weights[t] != 0.0) positions.push_back(static_cast<int>(t));
  }
  return positions;
}

/// The training sequences as the vocabulary path needs them: the tokens of each sequence's terms
/// (positions with w_t != 0), sum_t w_t xi_t, the label, and per chunk of sequences the
/// occurrences of each token (a CSR over V).
struct SequenceIndex {
  std::vector<double> weights;        ///< w_t of each term
  std::vector<std::int32_t> tokens;   ///< N x terms
  std::vector<double> signal_weight;  ///< sum_t w_t xi_t per sequence
  std::vector<std::int8_t> labels;    ///< y_n = xi_1
  std::vector<std::int32_t> starts;   ///< per chunk: V + 1 offsets into its entries
  std::vector<std::int32_t> entries;  ///< per chunk, by token then sequence then term
};

}  // namespace

bool PooledSequences::tokens_pay(std::int64_t N) const {
  if (params_.weighting.data_dependent()) return false;
  if (!single_process_ && !distributed_tokens_fit()) return false;
  if (single_process_ && h_block_rows(params_.d, table_->vocabulary()) < std::min(params_.d, min_row_block))
    return false;
  const auto terms = static_cast<std::int64_t>(term_positions(weights_).size());
  const double d = params_.d, V = static_cast<double>(table_->vocabulary());
  // The sequence index: tokens and occurrences (4 + 4 bytes per term), signal weight and label
  // (9 bytes per sequence), and each chunk's offsets into its occurrences (4 (V + 1) bytes).
  const double chunks = std::ceil(static_cast<double>(N) / static_cast<double>(sequence_chunk));
  const double index_bytes =
      static_cast<double>(N) * (8.0 * static_cast<double>(terms) + 9.0) + chunks * 4.0 * (V + 1.0);
  const double processes = static_cast<double>(grid_rows_) * static_cast<double>(grid_cols_);
  if (index_bytes > 2.0 * d * d / processes) return false;  // every process holds the whole index
  if (!single_process_) {
    // Per process, in dgemm flops: panels pdsyrk_slowdown d^2 N / (P Q) + 34 N T d / (P Q) (its
    // rows of its sequences); tokens d^2 V / (P Q) + 128 d V / (P Q) + 62 N T d / Q (H for its
    // columns, from every sequence) + 850 d V / Q x m (the table's rows for its columns that it
    // does not hold, drawn here). Times P Q / d. The constants were measured on a 2 x 1 grid only.
    // With row and column blocks alike, column block j is one of a process's row blocks when
    // j = p_r mod P; among its column blocks (j = p_c mod Q) a fraction gcd(P, Q) / P are, if
    // p_r = p_c mod gcd(P, Q), else none. So the busiest process misses m = 1 - 1/P of them
    // when gcd(P, Q) = 1 (P x 1 grids among them), and all of them otherwise.
    const double n = static_cast<double>(N), nt = n * static_cast<double>(terms), p = grid_rows_;
    const double missed = std::gcd(grid_rows_, grid_cols_) == 1 ? 1.0 - 1.0 / p : 1.0;
    const double draws = draw_cost * V * p * missed;
    return pdsyrk_slowdown * d * n + panel_pooling_cost * nt >
           d * V + diagonal_band * V + tokens_pooling_cost * nt * p + draws;
  }
  // Cost in dgemm flops (0.01 ns each at ~100 GFLOP/s; the rest measured at d = 2000 on 2 cores):
  // panels d^2 N (dsyrk) + 34 N T d (pooling, 0.34 ns per multiply-add); tokens d^2 V + 128 d V
  // (the upper halves of the diagonal bands) + 2 x 31 N T d (pooling and H, 0.31 ns each). So
  // the vocabulary pays when d^2 (N - V) - 128 d V > 28 N T d.
  return d * (static_cast<double>(N) - V) - diagonal_band * V >
         tokens_cost_ratio * static_cast<double>(N) * static_cast<double>(terms);
}

bool PooledSequences::distributed_tokens_fit() const {
  return row_block_ % strip == 0 &&
         distributed_fit(params_.d, table_->vocabulary(), grid_rows_ * grid_cols_) >= row_block_;
}

double PooledSequences::covariance_by_tokens(parallel::DistributedMatrix& s, std::int64_t N,
                                             SequenceStreams streams, std::span<double> sums) const {
  const int d = params_.d, T = params_.T;
  const std::int64_t V = table_->vocabulary();
  if (params_.weighting.data_dependent())
    throw std::logic_error("covariance_by_tokens: needs weights independent of the data");
  if (s.rows() != d || s.cols() != d || sums.size() != 2 * static_cast<std::size_t>(d) + 1)
    throw std::invalid_argument("covariance_by_tokens: S must be d x d and sums have 2 d + 1 entries");
  const std::vector<std::size_t>& rows = table_->global_rows();  // S's local rows too (checked)
  const bool same_rows = global_rows(s) == rows;
  const bool same_grid =
      s.grid().rows() == grid_rows_ && s.grid().cols() == grid_cols_ && s.grid().my_col() == my_col_;
  if (!same_rows || !same_grid || (grid_cols_ > 1 && s.col_map().block % strip != 0)) {
    throw std::logic_error(
        "covariance_by_tokens: S must be on the table's grid with its rows (and, on several process "
        "columns, column blocks of 16k)");
  }
  const auto ud = static_cast<std::size_t>(d);
  const double signal = std::sqrt(params_.snr);

  // 1. Draw every sequence (the same draws as fill) and index the occurrences of each token
  // (counted as generation, as the draws are in fill).
  const auto now = [] { return std::chrono::steady_clock::now(); };
  const auto began = now();
  SequenceIndex index;
  const std::vector<int> term_position = term_positions(weights_);
  for (const int t : term_position) index.weights.push_back(weights_[static_cast<std::size_t>(t)]);
  const int terms = static_cast<int>(term_position.size());
  const auto uN = static_cast<std::size_t>(N), uterms = static_cast<std::size_t>(terms);
  index.tokens.resize(uN * uterms);
  index.signal_weight.resize(uN);
  index.labels.resize(uN);
  detail::for_chunks(N, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    std::vector<int> xi(static_cast<std::size_t>(T));
    std::vector<std::int64_t> v(static_cast<std::size_t>(T));
    for (std::int64_t n = begin; n < end; ++n) {
      draw_signs(rng_, streams.sign, params_.correlation, n, xi);
      draw_tokens(rng_, streams.token, V, n, xi, v);
      double sw = 0.0;
      for (int t = 0; t < T; ++t)
        sw += weights_[static_cast<std::size_t>(t)] * xi[static_cast<std::size_t>(t)];
      for (std::size_t k = 0; k < uterms; ++k)
        index.tokens[static_cast<std::size_t>(n) * uterms + k] =
            static_cast<std::int32_t>(v[static_cast<std::size_t>(term_position[k])]);
      index.signal_weight[static_cast<std::size_t>(n)] = sw;
      index.labels[static_cast<std::size_t>(n)] = static_cast<std::int8_t>(xi[0]);
    }
  });
  const std::int64_t chunks = (N + sequence_chunk - 1) / sequence_chunk;
  const auto uV = static_cast<std::size_t>(V);
  index.starts.assign(static_cast<std::size_t>(chunks) * (uV + 1), 0);
  index.entries.resize(uN * uterms);
  for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
    const std::int64_t first = chunk * sequence_chunk, last = std::min(N, first + sequence_chunk);
    std::int32_t* start = index.starts.data() + static_cast<std::size_t>(chunk) * (uV + 1);
    std::int32_t* entries = index.entries.data() + static_cast<std::size_t>(first) * uterms;
    const std::int32_t* tokens = index.tokens.data() + static_cast<std::size_t>(first) * uterms;
    const std::size_t count = static_cast<std::size_t>(last - first) * uterms;
    for (std::size_t e = 0; e < count; ++e) ++start[tokens[e] + 1];
    for (std::size_t v = 0; v < uV; ++v) start[v + 1] += start[v];
    std::vector<std::int32_t> next(start, start + uV);
    for (std::size_t e = 0; e < count; ++e) {
      const auto local = static_cast<std::int32_t>(e / uterms), term = static_cast<std::int32_t>(e % uterms);
      entries[next[static_cast<std::size_t>(tokens[e])]++] = local << term_bits | term;
    }
  }

  // 2. Per group of S's local columns (on one process up to h_block_rows consecutive columns; on
  // several, whole column blocks of S), the rows of H for those columns (strips of 16 rows split
  // over the threads; each chunk of sequences pooled in the strip and added into H at once), then
  // S's local columns of the group by dgemm against the local rows of Z (S = (1/N) Z H^T + the
  // signal's term below). H's rows are pooled from Z's rows for the same columns: this process's
  // table where it holds every row (a 1 x 1 or 1 x Q grid), else a table for the group that
  // copies the rows this process holds and draws the others (the same entries: they depend on
  // (seed, trial, i, v) only). Each row's sums come from process row 0.
  const bool all_rows = rows.size() == ud;
  const int local_cols = s.local_cols();
  std::vector<int> columns(static_cast<std::size_t>(local_cols));
  for (int lc = 0; lc < local_cols; ++lc) columns[static_cast<std::size_t>(lc)] = s.col_map().to_global(lc);
  const int group = single_process_
                        ? std::max(std::min(d, strip), h_block_rows(d, V))
                        : distributed_group_columns(d, V, grid_rows_ * grid_cols_, s.col_map().block);
  std::vector<double> h(static_cast<std::size_t>(group) * uV);
  double h_signs_0 = 0.0;  // (H s)_0, s_v = +1 for v < V/2, -1 after
  const bool sums_here = in_first_process_row_;
  if (sums_here && my_col_ == 0) {
    for (std::int64_t n = 0; n < N; ++n) sums[2 * ud] += index.labels[static_cast<std::size_t>(n)];
  }
  double pooling_seconds = std::chrono::duration<double>(now() - began).count();
  // A process without rows of S has nothing to compute; it adds sums only from process row 0.
  const int groups_end = rows.empty() && !sums_here ? 0 : local_cols;
  for (int lc0 = 0; lc0 < groups_end; lc0 += group) {
    const int width = std::min(group, local_cols - lc0);
    const std::vector<int> cols(columns.begin() + lc0, columns.begin() + lc0 + width);
    std::unique_ptr<const NoiseTable> drawn;
    if (!all_rows) {
      const auto mark = now();
      drawn = std::make_unique<const NoiseTable>(params_, std::vector<std::size_t>(cols.begin(), cols.end()),
                                                 *table_);
      pooling_seconds += std::chrono::duration<double>(now() - mark).count();
    }
    const double* source = all_rows ? table_->column(0) : drawn->column(0);
    const std::size_t source_ld = all_rows ? ud : static_cast<std::size_t>(width);
    std::fill(h.begin(), h.end(), 0.0);
    const int strips = (width + strip - 1) / strip;
    detail::for_chunks(strips, threads_, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
      std::vector<double> pooled(static_cast<std::size_t>(std::min<std::int64_t>(N, sequence_chunk)) * strip);
      double pooling = 0.0;
      for (std::int64_t k = begin; k < end; ++k) {
        const int r0 = static_cast<int>(k) * strip, rows_here = std::min(strip, width - r0);
        const std::size_t from = all_rows ? static_cast<std::size_t>(cols[static_cast<std::size_t>(r0)])
                                          : static_cast<std::size_t>(r0);
        const bool row_0 = cols[static_cast<std::size_t>(r0)] == 0;
        std::array<double, strip> sum{}, label_sum{};
        double* h_strip = h.data() + r0;
        for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
          const std::int64_t first = chunk * sequence_chunk,
                             count = std::min(N, first + sequence_chunk) - first;
          const auto mark = now();
          pool_strip(index.tokens.data() + static_cast<std::size_t>(first) * uterms, terms,
                     index.weights.data(), count, source, source_ld, from, rows_here, pooled.data());
          // The signal term on global row 0, then this strip's share of sum c and sum y c.
          if (row_0) {
            for (std::int64_t n = 0; n < count; ++n)
              pooled[static_cast<std::size_t>(n) * strip] +=
                  signal * index.signal_weight[static_cast<std::size_t>(first + n)];
          }
          if (sums_here)
            add_sums(pooled.data(), index.labels.data() + first, count, sum.data(), label_sum.data());
          pooling += std::chrono::duration<double>(now() - mark).count();
          add_to_h(V, index.starts.data() + static_cast<std::size_t>(chunk) * (uV + 1),
                   index.entries.data() + static_cast<std::size_t>(first) * uterms, index.weights.data(),
                   pooled.data(), h_strip, static_cast<std::size_t>(group), rows_here);
        }
        for (int r = 0; sums_here && r < rows_here; ++r) {
          const auto i = static_cast<std::size_t>(cols[static_cast<std::size_t>(r0 + r)]);
          sums[i] += sum[static_cast<std::size_t>(r)];
          sums[ud + i] += label_sum[static_cast<std::size_t>(r)];
        }
        if (row_0) h_signs_0 = signed_sum(h_strip, static_cast<std::size_t>(group), V);
      }
      if (part == 0) pooling_seconds += pooling;
    });
    add_block_columns(h.data(), group, cols, lc0, table_->column(0),
                      std::max(1, static_cast<int>(rows.size())), rows, V, 1.0 / static_cast<double>(N), s);
    // S = (1/N) E H^T with E = Z + sqrt(snr) e_1 s^T; the dgemms used Z, which differs from E in
    // row 0 only, and the lower triangle's row 0 is S(0, 0): add (sqrt(snr)/N) (H s)_0 there.
    if (cols.front() == 0 && !rows.empty() && rows.front() == 0)
      s.local(0, lc0) += signal / static_cast<double>(N) * h_signs_0;
  }
  return pooling_seconds;
}

}  // namespace rmtsweep::simulate
