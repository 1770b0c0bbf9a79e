#include "rmtsweep/simulate/pooled_sequences.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "for_chunks.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/scalapack.hpp"

namespace rmtsweep::simulate {
namespace {

/// One term w_t z_{v_t} of a pooled vector.
struct WeightedColumn {
  double weight;
  const double* column;
};

/// Adds the terms g[0], ..., g[count - 1] to c in one pass over its rows, in that order, and
/// hands each row's new value x to store(r, x). Eight terms per pass read eight table columns
/// as concurrent streams (the table, 64 MB at d = 2000, is far larger than a core's L2; one
/// column at a time left the loads waiting), and c is written once per eight terms.
template <class Store>
void add_group(const WeightedColumn* g, std::size_t count, const double* c, std::size_t rows, Store store) {
  if (count == 8) {
    for (std::size_t r = 0; r < rows; ++r) {
      double x = c[r];
      x += g[0].weight * g[0].column[r];
      x += g[1].weight * g[1].column[r];
      x += g[2].weight * g[2].column[r];
      x += g[3].weight * g[3].column[r];
      x += g[4].weight * g[4].column[r];
      x += g[5].weight * g[5].column[r];
      x += g[6].weight * g[6].column[r];
      x += g[7].weight * g[7].column[r];
      store(r, x);
    }
    return;
  }
  for (std::size_t r = 0; r < rows; ++r) {
    double x = c[r];
    for (std::size_t t = 0; t < count; ++t) x += g[t].weight * g[t].column[r];
    store(r, x);
  }
}

/// c[r] += sum of the terms' weight * column[r] for r < rows, in the terms' order (the same sum
/// as adding one term at a time), eight terms per pass. When `sum` is not null, the pass that
/// adds the last terms also adds the final c[r] to sum[r] and y c[r] to ysum[r] while the row is
/// in a register, instead of one more pass over c.
void accumulate_terms(const std::vector<WeightedColumn>& terms, double* c, std::size_t rows, double* sum,
                      double* ysum, double y) {
  constexpr std::size_t group = 8;
  const auto store = [c](std::size_t r, double x) { c[r] = x; };
  const auto store_and_sum = [c, sum, ysum, y](std::size_t r, double x) {
    c[r] = x;
    sum[r] += x;
    ysum[r] += y * x;
  };
  if (terms.empty() && sum != nullptr) add_group(terms.data(), 0, c, rows, store_and_sum);
  for (std::size_t first = 0; first < terms.size(); first += group) {
    const std::size_t count = std::min(group, terms.size() - first);
    if (sum != nullptr && first + count == terms.size()) {
      add_group(terms.data() + first, count, c, rows, store_and_sum);
    } else {
      add_group(terms.data() + first, count, c, rows, store);
    }
  }
}

}  // namespace

PooledSequences::PooledSequences(const model::PointParams& params, const parallel::DistributedMatrix& like,
                                 std::shared_ptr<const NoiseTable> table)
    : params_(params),
      rng_(params.seed, static_cast<std::uint64_t>(params.trial)),
      table_(table ? std::move(table) : std::make_shared<const NoiseTable>(params, like)),
      threads_(parallel::blas_threads()),
      in_first_process_row_(like.grid().my_row() == 0),
      single_process_(parallel::single_process(like)),
      grid_rows_(like.grid().rows()),
      grid_cols_(like.grid().cols()),
      my_col_(like.grid().my_col()),
      row_block_(like.row_map().block),
      column_comm_(like.grid().column_comm()),
      weights_(model::pooling_weights(params.weighting, params.correlation, params.T)) {
  if (!table_->same_draws(params, like))
    throw std::invalid_argument("PooledSequences: the noise table was drawn for another point or row layout");
  const auto& rows = like.row_map();
  if (rows.global > 0 && rows.owner(0) == rows.me) signal_row_ = rows.to_local(0);
}

double PooledSequences::fill(parallel::DistributedMatrix& panel, std::int64_t first, std::int64_t count,
                             SequenceStreams streams, std::vector<int>& labels,
                             std::span<double> sums) const {
  if (!sums.empty() && sums.size() != 2 * static_cast<std::size_t>(params_.d) + 1)
    throw std::invalid_argument("PooledSequences::fill: sums must have 2 d + 1 entries");
  const int T = params_.T, cols = panel.local_cols();
  const std::size_t lr = table_->global_rows().size();
  const auto uT = static_cast<std::size_t>(T);
  const double signal = std::sqrt(params_.snr);
  const bool causal = params_.weighting.data_dependent();
  std::vector<int> signs(uT * static_cast<std::size_t>(cols), 0);
  std::vector<std::int64_t> tokens(uT * static_cast<std::size_t>(cols), 0);
  labels.assign(static_cast<std::size_t>(cols), 0);
  std::vector<char> used(static_cast<std::size_t>(cols), 0);
  detail::for_chunks(cols, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (auto lc = static_cast<int>(begin); lc < end; ++lc) {
      const std::int64_t j = panel.col_map().to_global(lc);
      if (j >= count) continue;
      const std::int64_t n = first + j;
      const std::span<int> xi(signs.data() + uT * static_cast<std::size_t>(lc), uT);
      draw_signs(rng_, streams.sign, params_.correlation, n, xi);
      draw_tokens(rng_, streams.token, table_->vocabulary(), n, xi,
                  std::span(tokens.data() + uT * static_cast<std::size_t>(lc), uT));
      labels[static_cast<std::size_t>(lc)] = xi[0];
      used[static_cast<std::size_t>(lc)] = 1;
    }
  });
  const auto token = [&](int lc, int t) {
    return tokens[uT * static_cast<std::size_t>(lc) + static_cast<std::size_t>(t)];
  };
  const auto sign = [&](int lc, int t) {
    return signs[uT * static_cast<std::size_t>(lc) + static_cast<std::size_t>(t)];
  };

  // causal:tau: <X_s, X_t> summed over all d rows (model.md section 3), one Allreduce per panel.
  std::vector<double> gram;
  const std::size_t packed = packed_size(T);
  if (causal) {
    gram.assign(packed * static_cast<std::size_t>(cols), 0.0);
    detail::for_chunks(cols, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for (auto lc = static_cast<int>(begin); lc < end; ++lc) {
        if (!used[static_cast<std::size_t>(lc)]) continue;
        double* g = gram.data() + packed * static_cast<std::size_t>(lc);
        for (int s = 0; s < T; ++s) {
          const double* zs = noise(token(lc, s));
          for (int t = 0; t <= s; ++t) {
            const double* zt = noise(token(lc, t));
            double dot = 0.0;
            for (std::size_t r = 0; r < lr; ++r) dot += zs[r] * zt[r];
            if (signal_row_ >= 0) {
              const auto r0 = static_cast<std::size_t>(signal_row_);
              dot += (zs[r0] + signal * sign(lc, s)) * (zt[r0] + signal * sign(lc, t)) - zs[r0] * zt[r0];
            }
            g[packed_index(s, t)] = dot;
          }
        }
      }
    });
    parallel::all_sum(std::span<double>(gram), column_comm_);
  }

  std::vector<double> column_deviation(static_cast<std::size_t>(cols), 0.0);
  // Each chunk adds its columns to sums of its own (sum c, sum y c, sum y at local rows); they
  // are added up in chunk order below, so the result does not depend on thread timing (but on
  // the number of chunks, to rounding).
  const bool summing = !sums.empty();
  std::vector<std::vector<double>> chunk_sums(static_cast<std::size_t>(std::max(1, threads_)));
  detail::for_chunks(cols, threads_, [&](std::int64_t chunk, std::int64_t begin, std::int64_t end) {
    std::vector<double>& part = chunk_sums[static_cast<std::size_t>(chunk)];
    if (summing) part.assign(2 * lr + 1, 0.0);
    std::vector<double> w = weights_;
    std::vector<WeightedColumn> terms;
    terms.reserve(uT);
    for (auto lc = static_cast<int>(begin); lc < end; ++lc) {
      double* c = panel.local_column(lc);
      std::fill(c, c + lr, 0.0);
      if (!used[static_cast<std::size_t>(lc)]) continue;
      if (causal) {
        causal_weights(params_.weighting.tau, params_.d,
                       std::span(gram.data() + packed * static_cast<std::size_t>(lc), packed), w);
        if (in_first_process_row_) {
          double& deviation = column_deviation[static_cast<std::size_t>(lc)];
          for (std::size_t t = 0; t < uT; ++t) deviation += std::abs(w[t] - weights_[t]);
        }
      }
      double signal_weight = 0.0;
      terms.clear();
      for (int t = 0; t < T; ++t) {
        const double wt = w[static_cast<std::size_t>(t)];
        if (wt == 0.0) continue;
        terms.push_back({wt, noise(token(lc, t))});
        signal_weight += wt * sign(lc, t);
      }
      // c starts as its signal term (on the process holding global row 0), then the noise
      // terms are added, with the sums in the same pass.
      if (signal_row_ >= 0) c[signal_row_] = signal * signal_weight;
      const double y = labels[static_cast<std::size_t>(lc)];
      accumulate_terms(terms, c, lr, summing ? part.data() : nullptr, summing ? part.data() + lr : nullptr,
                       y);
      if (summing && in_first_process_row_) part[2 * lr] += y;
    }
  });
  if (summing) {
    const auto d = static_cast<std::size_t>(params_.d);
    for (const auto& part : chunk_sums) {
      if (part.empty()) continue;
      for (std::size_t r = 0; r < lr; ++r) {
        sums[table_->global_rows()[r]] += part[r];
        sums[d + table_->global_rows()[r]] += part[lr + r];
      }
      sums[2 * d] += part[2 * lr];
    }
  }
  double deviation = 0.0;
  for (const double x : column_deviation) deviation += x;
  return deviation;
}

std::vector<double> PooledSequences::token_projections(const std::vector<double>& beta) const {
  const std::size_t lr = table_->global_rows().size();
  std::vector<double> local_beta(lr), projections(static_cast<std::size_t>(table_->vocabulary()), 0.0);
  for (std::size_t r = 0; r < lr; ++r) local_beta[r] = beta[table_->global_rows()[r]];
  detail::for_chunks(table_->vocabulary(), threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t v = begin; v < end; ++v) {
      const double* z = noise(v);
      double sum = 0.0;
      for (std::size_t r = 0; r < lr; ++r) sum += local_beta[r] * z[r];
      projections[static_cast<std::size_t>(v)] = sum;
    }
  });
  parallel::all_sum(std::span<double>(projections), column_comm_);
  return projections;
}

}  // namespace rmtsweep::simulate
