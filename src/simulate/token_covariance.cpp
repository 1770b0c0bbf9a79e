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
#include <stdexcept>
#include <vector>

#include "for_chunks.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

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

/// Columns i0 .. i0 + cols - 1 of S's lower triangle: S(i, j) = alpha sum_v Z(i, v) h(j - i0, v)
/// for i >= j (the lower triangle of alpha Z H^T), h (cols x V, leading dimension
/// ldh) a block of H's rows, Z the token-major table (ld rows). One dgemm for the rows below the
/// block, then the diagonal block in bands of `diagonal_band` columns, so that the upper part
/// computed and thrown away is 1/4 of the block's (set back to zero: only the lower triangle
/// holds S).
void add_block_columns(const double* h, int ldh, int cols, int i0, const double* table, std::size_t ld,
                       std::int64_t vocabulary, double alpha, parallel::DistributedMatrix& s) {
  const int d = s.rows(), lds = s.lld(), V = static_cast<int>(vocabulary), ldz = static_cast<int>(ld);
  const auto at = [&](int i, int j) {
    return s.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(lds) + i;
  };
  const int below = i0 + cols;
  parallel::local_gemm('N', 'T', d - below, cols, V, alpha, table + below, ldz, h, ldh, 0.0, at(below, i0),
                       lds);
  for (int a = 0; a < cols; a += diagonal_band) {
    const int m = std::min(diagonal_band, cols - a);
    parallel::local_gemm('N', 'T', cols - a, m, V, alpha, table + i0 + a, ldz, h + a, ldh, 0.0,
                         at(i0 + a, i0 + a), lds);
    for (int j = 1; j < m; ++j) std::fill(at(i0 + a, i0 + a + j), at(i0 + a + j, i0 + a + j), 0.0);
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
  if (!single_process_ || params_.weighting.data_dependent()) return false;
  if (h_block_rows(params_.d, table_->vocabulary()) < std::min(params_.d, min_row_block)) return false;
  const auto terms = static_cast<std::int64_t>(term_positions(weights_).size());
  const double d = params_.d, V = static_cast<double>(table_->vocabulary());
  // The sequence index: tokens and occurrences (4 + 4 bytes per term), signal weight and label
  // (9 bytes per sequence), and each chunk's offsets into its occurrences (4 (V + 1) bytes).
  const double chunks = std::ceil(static_cast<double>(N) / static_cast<double>(sequence_chunk));
  const double index_bytes =
      static_cast<double>(N) * (8.0 * static_cast<double>(terms) + 9.0) + chunks * 4.0 * (V + 1.0);
  if (index_bytes > 2.0 * d * d) return false;
  // Cost in dgemm flops (0.01 ns each at ~100 GFLOP/s; the rest measured at d = 2000 on 2 cores):
  // panels d^2 N (dsyrk) + 34 N T d (pooling, 0.34 ns per multiply-add); tokens d^2 V + 128 d V
  // (the upper halves of the diagonal bands) + 2 x 31 N T d (pooling and H, 0.31 ns each). So
  // the vocabulary pays when d^2 (N - V) - 128 d V > 28 N T d.
  return d * (static_cast<double>(N) - V) - diagonal_band * V >
         tokens_cost_ratio * static_cast<double>(N) * static_cast<double>(terms);
}

double PooledSequences::covariance_by_tokens(parallel::DistributedMatrix& s, std::int64_t N,
                                             SequenceStreams streams, std::span<double> sums) const {
  const int d = params_.d, T = params_.T;
  const std::int64_t V = table_->vocabulary();
  if (!single_process_ || !parallel::single_process(s) || params_.weighting.data_dependent())
    throw std::logic_error("covariance_by_tokens: needs a 1 x 1 grid and weights independent of the data");
  if (s.rows() != d || s.cols() != d || sums.size() != 2 * static_cast<std::size_t>(d) + 1)
    throw std::invalid_argument("covariance_by_tokens: S must be d x d and sums have 2 d + 1 entries");
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

  // 2. Per block of rows of H (h_block_rows; strips of 16 rows split over the threads; each chunk of
  // sequences pooled in the strip and added into H at once), then S's columns of the block by
  // dgemm against Z (S = (1/N) Z H^T + the signal's term below).
  const double* table = table_->column(0);
  const std::size_t ld = ud;  // token-major table of d rows on a 1 x 1 grid
  const int block_rows = std::max(std::min(d, strip), h_block_rows(d, V));
  std::vector<double> h(static_cast<std::size_t>(block_rows) * uV);
  double h_signs_0 = 0.0;  // (H s)_0, s_v = +1 for v < V/2, -1 after
  for (std::int64_t n = 0; n < N; ++n) sums[2 * ud] += index.labels[static_cast<std::size_t>(n)];
  double pooling_seconds = std::chrono::duration<double>(now() - began).count();
  for (int i0 = 0; i0 < d; i0 += block_rows) {
    const int rows_here = std::min(block_rows, d - i0);
    std::fill(h.begin(), h.end(), 0.0);
    const int strips = (rows_here + strip - 1) / strip;
    detail::for_chunks(strips, threads_, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
      std::vector<double> pooled(static_cast<std::size_t>(std::min<std::int64_t>(N, sequence_chunk)) * strip);
      double pooling = 0.0;
      for (std::int64_t k = begin; k < end; ++k) {
        const int r0 = i0 + static_cast<int>(k) * strip, rows = std::min(strip, d - r0);
        std::array<double, strip> sum{}, label_sum{};
        double* h_strip = h.data() + static_cast<std::size_t>(k) * strip;
        for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
          const std::int64_t first = chunk * sequence_chunk,
                             count = std::min(N, first + sequence_chunk) - first;
          const auto mark = now();
          pool_strip(index.tokens.data() + static_cast<std::size_t>(first) * uterms, terms,
                     index.weights.data(), count, table, ld, static_cast<std::size_t>(r0), rows,
                     pooled.data());
          // The signal term on global row 0, then this strip's share of sum c and sum y c.
          if (r0 == 0) {
            for (std::int64_t n = 0; n < count; ++n)
              pooled[static_cast<std::size_t>(n) * strip] +=
                  signal * index.signal_weight[static_cast<std::size_t>(first + n)];
          }
          add_sums(pooled.data(), index.labels.data() + first, count, sum.data(), label_sum.data());
          pooling += std::chrono::duration<double>(now() - mark).count();
          add_to_h(V, index.starts.data() + static_cast<std::size_t>(chunk) * (uV + 1),
                   index.entries.data() + static_cast<std::size_t>(first) * uterms, index.weights.data(),
                   pooled.data(), h_strip, static_cast<std::size_t>(block_rows), rows);
        }
        for (int r = 0; r < rows; ++r) {
          sums[static_cast<std::size_t>(r0 + r)] += sum[static_cast<std::size_t>(r)];
          sums[ud + static_cast<std::size_t>(r0 + r)] += label_sum[static_cast<std::size_t>(r)];
        }
        if (r0 == 0) h_signs_0 = signed_sum(h_strip, static_cast<std::size_t>(block_rows), V);
      }
      if (part == 0) pooling_seconds += pooling;
    });
    add_block_columns(h.data(), block_rows, rows_here, i0, table, ld, V, 1.0 / static_cast<double>(N), s);
  }
  // S = (1/N) E H^T with E = Z + sqrt(snr) e_1 s^T; the dgemms used Z, which differs from E in
  // row 0 only, and the lower triangle's row 0 is S(0, 0): add (sqrt(snr)/N) (H s)_0 there.
  s.data()[0] += signal / static_cast<double>(N) * h_signs_0;
  return pooling_seconds;
}

}  // namespace rmtsweep::simulate
