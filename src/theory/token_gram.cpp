#include "rmtsweep/theory/token_gram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace rmtsweep::theory {
namespace {

/// The sparse symmetric Gram G (rows in CSR) and the products with it that trace_powers needs.
struct SparseGram {
  std::size_t n = 0;
  std::vector<std::size_t> ptr;
  std::vector<std::uint32_t> col;
  std::vector<double> val;

  std::vector<double> times(const std::vector<double>& x) const {
    std::vector<double> y(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (std::size_t k = ptr[i]; k < ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
      y[i] = sum;
    }
    return y;
  }
};

/// G = B B^T / N for B given by rows (row i: its (column, weight) pairs in b_ptr/b_col/b_val) and by columns
/// (c_ptr/c_row/c_val): row i of G accumulates b_{i,k} b_{j,k} over k in row i and j in column k.
SparseGram outer_gram(std::size_t rows, const std::vector<std::size_t>& b_ptr,
                      const std::vector<std::uint32_t>& b_col, const std::vector<double>& b_val,
                      const std::vector<std::size_t>& c_ptr, const std::vector<std::uint32_t>& c_row,
                      const std::vector<double>& c_val, double N) {
  SparseGram g;
  g.n = rows;
  g.ptr.assign(rows + 1, 0);
  std::vector<double> acc(rows, 0.0);
  std::vector<std::uint32_t> touched;
  std::vector<char> seen(rows, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t a = b_ptr[i]; a < b_ptr[i + 1]; ++a) {
      const std::uint32_t k = b_col[a];
      const double bik = b_val[a];
      for (std::size_t b = c_ptr[k]; b < c_ptr[k + 1]; ++b) {
        const std::uint32_t j = c_row[b];
        if (!seen[j]) {
          seen[j] = 1;
          touched.push_back(j);
        }
        acc[j] += bik * c_val[b];
      }
    }
    std::sort(touched.begin(), touched.end());
    for (const std::uint32_t j : touched) {
      g.col.push_back(j);
      g.val.push_back(acc[j] / N);
      acc[j] = 0.0;
      seen[j] = 0;
    }
    touched.clear();
    g.ptr[i + 1] = g.col.size();
  }
  return g;
}

/// tr G^j, j = 1..4, from G's rows (sorted by column): the upper triangle of G^2 row by row, (G^2)_ij for
/// j >= i accumulated densely from the rows of G it combines, each row of G entered at its first column >= i;
/// G and G^2 are symmetric, so tr G^3 = sum_ij (G^2)_ij G_ij and tr G^4 = sum_ij (G^2)_ij^2 count the entries
/// off the diagonal twice. Half the work of the whole rows.
std::array<double, 5> sparse_trace_powers(const SparseGram& g) {
  std::array<double, 5> t{static_cast<double>(g.n), 0.0, 0.0, 0.0, 0.0};
  std::vector<double> acc(g.n, 0.0);  // row i of G^2 from column i on, zero again after each row
  std::vector<std::size_t> from;      // per entry a of row i: where row k = col[a] reaches column i
  for (std::size_t i = 0; i < g.n; ++i) {
    const std::size_t row_begin = g.ptr[i], row_end = g.ptr[i + 1];
    from.resize(row_end - row_begin);
    for (std::size_t a = row_begin; a < row_end; ++a) {
      const std::uint32_t k = g.col[a];
      const double gik = g.val[a];
      if (k == i) t[1] += gik;
      t[2] += gik * gik;
      const auto first = std::lower_bound(g.col.begin() + static_cast<std::ptrdiff_t>(g.ptr[k]),
                                          g.col.begin() + static_cast<std::ptrdiff_t>(g.ptr[k + 1]),
                                          static_cast<std::uint32_t>(i));
      const auto b0 = static_cast<std::size_t>(first - g.col.begin());
      from[a - row_begin] = b0;
      for (std::size_t b = b0; b < g.ptr[k + 1]; ++b) acc[g.col[b]] += gik * g.val[b];
    }
    // (G^3)_ii summed over i: (G^2)_il G_il over l >= i, twice off the diagonal.
    for (std::size_t a = row_begin; a < row_end; ++a) {
      const std::uint32_t l = g.col[a];
      if (l >= i) t[3] += (l == i ? 1.0 : 2.0) * acc[l] * g.val[a];
    }
    // (G^4)_ii summed over i: (G^2)_ij^2 over j >= i, twice off the diagonal; the same entries visited again,
    // each read once and zeroed.
    const double diagonal = acc[i];
    t[4] -= diagonal * diagonal;  // counted twice below, once it should be
    for (std::size_t a = row_begin; a < row_end; ++a) {
      const std::uint32_t k = g.col[a];
      for (std::size_t b = from[a - row_begin]; b < g.ptr[k + 1]; ++b) {
        double& x = acc[g.col[b]];
        t[4] += 2.0 * x * x;
        x = 0.0;
      }
    }
  }
  return t;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

using Mat3 = std::array<double, 9>;

Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

/// tr (G + U C U^T)^j for j = 1..4 from tr G^j and the forms Ub = U^T G^b U (b = 0..3): every word in the two
/// letters G and L = U C U^T, each with at least one L rotated to start with it, L G^{b1} L G^{b2} ... L
/// G^{bq}, has trace tr(C U_{b1} C U_{b2} ... C U_{bq}).
std::array<double, 5> corrected_trace_powers(const std::array<double, 5>& g_powers,
                                             const std::array<Mat3, 4>& forms, const Mat3& C) {
  std::array<double, 5> t = g_powers;
  for (int j = 1; j <= 4; ++j) {
    double correction = 0.0;
    for (unsigned word = 1; word < (1u << j); ++word) {  // bit i set: letter i is L
      int first = 0;
      while (!((word >> first) & 1u)) ++first;
      Mat3 product{1, 0, 0, 0, 1, 0, 0, 0, 1};
      int gap = 0;
      bool started = false;
      for (int step = 0; step < j; ++step) {
        const int letter = (first + step) % j;
        if ((word >> letter) & 1u) {
          if (started) product = multiply(product, forms[static_cast<std::size_t>(gap)]);
          product = multiply(product, C);
          started = true;
          gap = 0;
        } else {
          ++gap;
        }
      }
      product = multiply(product, forms[static_cast<std::size_t>(gap)]);
      correction += product[0] + product[4] + product[8];
    }
    t[static_cast<std::size_t>(j)] += correction;
  }
  return t;
}

}  // namespace

TokenGram::TokenGram(std::span<const double> w, std::span<const std::int64_t> tokens,
                     std::int64_t vocabulary) {
  const std::size_t T = w.size();
  if (T == 0 || tokens.size() % T != 0)
    throw std::invalid_argument("TokenGram: tokens must be N x T' with T' >= 1");
  if (vocabulary < 2 || static_cast<std::uint64_t>(vocabulary) > std::numeric_limits<std::uint32_t>::max() ||
      tokens.size() / T > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("TokenGram: V must be in [2, 2^32) and N below 2^32");
  V_ = static_cast<std::size_t>(vocabulary);
  N_ = tokens.size() / T;
  seq_ptr_.assign(N_ + 1, 0);
  std::vector<std::size_t> count(V_, 0);
  for (std::size_t n = 0; n < N_; ++n) {
    const std::size_t start = seq_token_.size();
    for (std::size_t t = 0; t < T; ++t) {
      const std::int64_t v = tokens[n * T + t];
      if (v < 0 || static_cast<std::size_t>(v) >= V_)
        throw std::out_of_range("TokenGram: token " + std::to_string(v) +
                                " outside V = " + std::to_string(V_));
      const auto u = static_cast<std::uint32_t>(v);
      std::size_t k = start;
      while (k < seq_token_.size() && seq_token_[k] != u) ++k;
      if (k == seq_token_.size()) {
        seq_token_.push_back(u);
        seq_weight_.push_back(w[t]);
        ++count[u];
      } else {
        seq_weight_[k] += w[t];
      }
    }
    seq_ptr_[n + 1] = seq_token_.size();
  }
  tok_ptr_.assign(V_ + 1, 0);
  for (std::size_t v = 0; v < V_; ++v) tok_ptr_[v + 1] = tok_ptr_[v] + count[v];
  tok_seq_.resize(seq_token_.size());
  tok_weight_.resize(seq_token_.size());
  std::vector<std::size_t> next(tok_ptr_.begin(), tok_ptr_.end() - 1);
  for (std::size_t n = 0; n < N_; ++n) {
    for (std::size_t k = seq_ptr_[n]; k < seq_ptr_[n + 1]; ++k) {
      const std::size_t slot = next[seq_token_[k]]++;
      tok_seq_[slot] = static_cast<std::uint32_t>(n);
      tok_weight_[slot] = seq_weight_[k];
    }
  }
}

void TokenGram::apply(GramSide side, std::span<const double> x, std::span<double> y,
                      std::size_t block) const {
  const std::size_t n = dimension(side);
  if (block == 0 || x.size() != n * block || y.size() != n * block)
    throw std::invalid_argument("TokenGram::apply: x and y must hold dimension x block entries");
  // The probes' blocks (gram_quadrature.cpp) and Spectra's single vectors take loops of known length.
  if (block == 16) return apply_blocked<16>(side, x, y, block);
  if (block == 1) return apply_blocked<1>(side, x, y, block);
  apply_blocked<0>(side, x, y, block);
}

template <std::size_t B>
void TokenGram::apply_blocked(GramSide side, std::span<const double> x, std::span<double> y,
                              std::size_t block) const {
  const std::size_t b = B != 0 ? B : block;
  const double inv_N = 1.0 / static_cast<double>(N_), inv_V = 1.0 / static_cast<double>(V_);
  const std::size_t half = (V_ + 1) / 2;  // tokens below V/2 have class +1
  // The intermediate vectors (on the other side) and the per-vector sums, kept between calls of this thread.
  thread_local std::vector<double> middle, sums, sums2;
  sums.assign(b, 0.0);
  sums2.assign(b, 0.0);
  if (side == GramSide::tokens) {
    // Pi x = Q A P A^T Q x / N; Q x = x - s (s^T x)/V (A^T 1 = 1 and P 1 = 0 remove the 1 direction anyway).
    for (std::size_t v = 0; v < V_; ++v) {
      const double sv = v < half ? inv_V : -inv_V;
      for (std::size_t j = 0; j < b; ++j) sums[j] += sv * x[v * b + j];  // (s^T x)/V
    }
    middle.assign(N_ * b, 0.0);
    for (std::size_t s = 0; s < N_; ++s) {
      double* ts = middle.data() + s * b;
      for (std::size_t k = seq_ptr_[s]; k < seq_ptr_[s + 1]; ++k) {
        const std::size_t v = seq_token_[k];
        const double wk = seq_weight_[k], ws = v < half ? wk : -wk;
        const double* xv = x.data() + v * b;
        for (std::size_t j = 0; j < b; ++j) ts[j] += wk * xv[j] - ws * sums[j];
      }
      for (std::size_t j = 0; j < b; ++j) sums2[j] += ts[j];
    }
    for (std::size_t j = 0; j < b; ++j) sums2[j] *= inv_N;  // the mean over sequences (P)
    std::fill(sums.begin(), sums.end(), 0.0);
    for (std::size_t v = 0; v < V_; ++v) {
      double* yv = y.data() + v * b;
      std::fill(yv, yv + b, 0.0);
      double wsum = 0.0;
      for (std::size_t k = tok_ptr_[v]; k < tok_ptr_[v + 1]; ++k) {
        const double wk = tok_weight_[k];
        const double* ts = middle.data() + static_cast<std::size_t>(tok_seq_[k]) * b;
        for (std::size_t j = 0; j < b; ++j) yv[j] += wk * ts[j];
        wsum += wk;
      }
      const double sv = v < half ? inv_V : -inv_V;
      for (std::size_t j = 0; j < b; ++j) {
        yv[j] -= wsum * sums2[j];
        sums[j] += sv * yv[j];
      }
    }
    for (std::size_t v = 0; v < V_; ++v) {
      const double sv = v < half ? 1.0 : -1.0;
      for (std::size_t j = 0; j < b; ++j) y[v * b + j] = (y[v * b + j] - sv * sums[j]) * inv_N;
    }
    return;
  }
  // K x = P A^T Q A P x / N.
  for (std::size_t s = 0; s < N_; ++s)
    for (std::size_t j = 0; j < b; ++j) sums[j] += x[s * b + j];
  for (std::size_t j = 0; j < b; ++j) sums[j] *= inv_N;  // the mean (P)
  middle.assign(V_ * b, 0.0);
  std::vector<double> one(b, 0.0);
  std::fill(sums2.begin(), sums2.end(), 0.0);
  for (std::size_t v = 0; v < V_; ++v) {
    double* uv = middle.data() + v * b;
    double wsum = 0.0;
    for (std::size_t k = tok_ptr_[v]; k < tok_ptr_[v + 1]; ++k) {
      const double wk = tok_weight_[k];
      const double* xs = x.data() + static_cast<std::size_t>(tok_seq_[k]) * b;
      for (std::size_t j = 0; j < b; ++j) uv[j] += wk * xs[j];
      wsum += wk;
    }
    const double sv = v < half ? inv_V : -inv_V;
    for (std::size_t j = 0; j < b; ++j) {
      uv[j] -= wsum * sums[j];
      one[j] += inv_V * uv[j];
      sums2[j] += sv * uv[j];
    }
  }
  std::fill(sums.begin(), sums.end(), 0.0);
  for (std::size_t s = 0; s < N_; ++s) {
    double* ys = y.data() + s * b;
    std::fill(ys, ys + b, 0.0);
    for (std::size_t k = seq_ptr_[s]; k < seq_ptr_[s + 1]; ++k) {
      const std::size_t v = seq_token_[k];
      const double wk = seq_weight_[k], ws = v < half ? wk : -wk;
      const double* uv = middle.data() + v * b;
      for (std::size_t j = 0; j < b; ++j) ys[j] += wk * (uv[j] - one[j]) - ws * sums2[j];
    }
    for (std::size_t j = 0; j < b; ++j) sums[j] += ys[j];
  }
  for (std::size_t j = 0; j < b; ++j) sums[j] *= inv_N;
  for (std::size_t s = 0; s < N_; ++s)
    for (std::size_t j = 0; j < b; ++j) y[s * b + j] = (y[s * b + j] - sums[j]) * inv_N;
}

std::vector<double> TokenGram::signal_start() const {
  std::vector<double> r(N_, 0.0);
  double mean = 0.0;
  for (std::size_t s = 0; s < N_; ++s) {
    for (std::size_t k = seq_ptr_[s]; k < seq_ptr_[s + 1]; ++k)
      r[s] += seq_weight_[k] * (2 * static_cast<std::size_t>(seq_token_[k]) < V_ ? 1.0 : -1.0);
    mean += r[s];
  }
  mean /= static_cast<double>(N_);
  const double scale = 1.0 / std::sqrt(static_cast<double>(N_));
  for (double& x : r) x = (x - mean) * scale;
  return r;
}

std::array<double, 5> TokenGram::trace_powers(GramSide side) const {
  const double Nd = static_cast<double>(N_), Vd = static_cast<double>(V_);
  const std::size_t n = dimension(side);
  const SparseGram g =
      side == GramSide::tokens
          ? outer_gram(V_, tok_ptr_, tok_seq_, tok_weight_, seq_ptr_, seq_token_, seq_weight_, Nd)
          : outer_gram(N_, seq_ptr_, seq_token_, seq_weight_, tok_ptr_, tok_seq_, tok_weight_, Nd);
  // e, y and c of the header.
  std::vector<double> e(n), y(n, 0.0);
  double c = 0.0;
  if (side == GramSide::tokens) {
    for (std::size_t v = 0; v < V_; ++v) {
      e[v] = (2 * v < V_ ? 1.0 : -1.0) / std::sqrt(Vd);
      y[v] = static_cast<double>(0);
      for (std::size_t k = tok_ptr_[v]; k < tok_ptr_[v + 1]; ++k) y[v] += tok_weight_[k];  // a = A 1
    }
    const double ea = dot(e, y);
    for (std::size_t v = 0; v < V_; ++v) y[v] -= ea * e[v];
    c = 1.0 / (Nd * Nd);
  } else {
    std::fill(e.begin(), e.end(), 1.0 / std::sqrt(Nd));
    y = signal_start();
    for (double& x : y) x *= std::sqrt(Nd);  // P A^T s
    c = 1.0 / (Nd * Vd);
  }
  const std::vector<double> ge = g.times(e);
  const std::array<std::vector<double>, 3> U{e, ge, y};
  std::array<std::vector<double>, 3> power = U;  // G^b U
  std::array<Mat3, 4> forms{};
  for (std::size_t b = 0; b < 4; ++b) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        forms[b][static_cast<std::size_t>(3 * i + j)] =
            dot(U[static_cast<std::size_t>(i)], power[static_cast<std::size_t>(j)]);
    if (b < 3)
      for (auto& p : power) p = g.times(p);
  }
  const Mat3 C{dot(e, ge), -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -c};
  return corrected_trace_powers(sparse_trace_powers(g), forms, C);
}

}  // namespace rmtsweep::theory
