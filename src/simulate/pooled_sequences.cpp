#include "rmtsweep/simulate/pooled_sequences.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"

namespace rmtsweep::simulate {
namespace {

/// Runs body(chunk, begin, end) on `threads` contiguous chunks of [0, count), chunk = 0, 1, ...
/// in order along [0, count), the calling thread taking chunk 0. Generation is pure
/// (counter-based draws into disjoint outputs), so the generated data do not depend on the
/// number of threads (fill's fused sums do, to rounding: they are added per chunk); a rank that
/// owns several cores (1 rank with 2 BLAS threads) generates its data that much faster. No MPI
/// call inside.
template <class Body>
void for_chunks(std::int64_t count, int threads, const Body& body) {
  const std::int64_t chunks = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(count, 1));
  if (chunks == 1) {
    body(std::int64_t{0}, std::int64_t{0}, count);
    return;
  }
  const auto bound = [&](std::int64_t c) { return count * c / chunks; };
  // An exception in any chunk (out of memory, say) is caught where it happens and rethrown here
  // after every thread has joined, so that it reaches the caller instead of std::terminate.
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(chunks));
  const auto run = [&](std::int64_t c) {
    try {
      body(c, bound(c), bound(c + 1));
    } catch (...) {
      errors[static_cast<std::size_t>(c)] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> workers;
    for (std::int64_t c = 1; c < chunks; ++c) workers.emplace_back(run, c);
    run(0);
  }  // joined
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

/// One term w_t z_{v_t} of a pooled vector.
struct WeightedColumn {
  double weight;
  const double* column;
};

/// c[r] += sum of the terms' weight * column[r], in the terms' order, for r < rows. Eight
/// terms are added per pass over c, so the table columns are read as eight concurrent streams
/// (the table is far larger than the caches; one column at a time left the loads waiting) and
/// c is written once per eight terms. The sum is the same, in the same order, as adding one
/// term at a time.
void accumulate_terms(const std::vector<WeightedColumn>& terms, double* c, std::size_t rows) {
  constexpr std::size_t group = 8;
  for (std::size_t first = 0; first < terms.size(); first += group) {
    const std::size_t count = std::min(group, terms.size() - first);
    const WeightedColumn* g = terms.data() + first;
    if (count == group) {
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
        c[r] = x;
      }
      continue;
    }
    for (std::size_t r = 0; r < rows; ++r) {
      double x = c[r];
      for (std::size_t t = 0; t < count; ++t) x += g[t].weight * g[t].column[r];
      c[r] = x;
    }
  }
}

}  // namespace

PooledSequences::PooledSequences(const model::PointParams& params, const parallel::DistributedMatrix& like)
    : params_(params),
      rng_(params.seed, static_cast<std::uint64_t>(params.trial)),
      vocabulary_(params.vocabulary()),
      local_rows_(like.local_rows()),
      in_first_process_row_(like.grid().my_row() == 0),
      column_comm_(like.grid().column_comm()),
      weights_(model::pooling_weights(params.weighting, params.correlation, params.T)) {
  const auto& rows = like.row_map();
  global_size_ = static_cast<std::size_t>(rows.global);
  if (rows.global > 0 && rows.owner(0) == rows.me) signal_row_ = rows.to_local(0);
  const auto lr = static_cast<std::size_t>(local_rows_);
  // Not zero-filled first: every entry is drawn below, and the drawing threads touch the pages.
  table_ = std::make_unique_for_overwrite<double[]>(static_cast<std::size_t>(vocabulary_) * lr);
  // Entry (i, v) is draw i % 64 of the normal sequence (table_noise, v, i / 64): column v of
  // the table is drawn in chunks of 64 rows, written contiguously. A process draws the chunks
  // its rows fall in (whole chunks when its row blocks are multiples of 64, as by default) and
  // keeps its rows, so every entry is the same on any grid.
  std::vector<std::uint64_t> global(lr);
  global_rows_.resize(lr);
  for (std::size_t r = 0; r < lr; ++r) {
    global[r] = static_cast<std::uint64_t>(rows.to_global(static_cast<int>(r)));
    global_rows_[r] = static_cast<std::size_t>(global[r]);
  }
  threads_ = parallel::blas_threads();
  constexpr std::uint64_t chunk = 64;
  const auto d = static_cast<std::uint64_t>(rows.global);
  for_chunks(vocabulary_, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    std::array<double, chunk> draws{};
    for (std::int64_t v = begin; v < end; ++v) {
      double* z = table_.get() + static_cast<std::size_t>(v) * lr;
      std::uint64_t drawn = ~std::uint64_t{0};  // the chunk held in draws
      for (std::size_t r = 0; r < lr; ++r) {
        const std::uint64_t c = global[r] / chunk;
        if (c != drawn) {
          const std::uint64_t width = std::min(chunk, d - chunk * c);
          rng_.gaussians(random::Stream::table_noise, static_cast<std::uint64_t>(v), c,
                         std::span(draws.data(), width));
          drawn = c;
        }
        z[r] = draws[global[r] % chunk];
      }
    }
  });
  if (params.table != model::Table::centered) return;
  // 1 and s are orthogonal with squared norm V, so removing both projections is exact.
  const std::int64_t half = vocabulary_ / 2;
  std::vector<double> mean(lr, 0.0), class_mean(lr, 0.0);
  for (std::int64_t v = 0; v < vocabulary_; ++v) {
    const double s = v < half ? 1.0 : -1.0;
    const double* z = noise(v);
    for (std::size_t r = 0; r < lr; ++r) {
      mean[r] += z[r];
      class_mean[r] += s * z[r];
    }
  }
  const double inv_v = 1.0 / static_cast<double>(vocabulary_);
  for (std::int64_t v = 0; v < vocabulary_; ++v) {
    const double s = v < half ? 1.0 : -1.0;
    double* z = table_.get() + static_cast<std::size_t>(v) * lr;
    for (std::size_t r = 0; r < lr; ++r) z[r] -= (mean[r] + s * class_mean[r]) * inv_v;
  }
}

double PooledSequences::fill(parallel::DistributedMatrix& panel, std::int64_t first, std::int64_t count,
                             SequenceStreams streams, std::vector<int>& labels,
                             std::span<double> sums) const {
  if (!sums.empty() && sums.size() != 2 * global_size_ + 1)
    throw std::invalid_argument("PooledSequences::fill: sums must have 2 d + 1 entries");
  const int T = params_.T, cols = panel.local_cols();
  const auto lr = static_cast<std::size_t>(local_rows_);
  const auto uT = static_cast<std::size_t>(T);
  const double signal = std::sqrt(params_.snr);
  const bool causal = params_.weighting.data_dependent();
  std::vector<int> signs(uT * static_cast<std::size_t>(cols), 0);
  std::vector<std::int64_t> tokens(uT * static_cast<std::size_t>(cols), 0);
  labels.assign(static_cast<std::size_t>(cols), 0);
  std::vector<char> used(static_cast<std::size_t>(cols), 0);
  for_chunks(cols, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (auto lc = static_cast<int>(begin); lc < end; ++lc) {
      const std::int64_t j = panel.col_map().to_global(lc);
      if (j >= count) continue;
      const std::int64_t n = first + j;
      const std::span<int> xi(signs.data() + uT * static_cast<std::size_t>(lc), uT);
      draw_signs(rng_, streams.sign, params_.correlation, n, xi);
      draw_tokens(rng_, streams.token, vocabulary_, n, xi,
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
    for_chunks(cols, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
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
    RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, gram.data(), static_cast<int>(gram.size()), MPI_DOUBLE,
                                     MPI_SUM, column_comm_));
  }

  std::vector<double> column_deviation(static_cast<std::size_t>(cols), 0.0);
  // Each chunk adds its columns to sums of its own (sum c, sum y c, sum y at local rows); they
  // are added up in chunk order below, so the result does not depend on thread timing (but on
  // the number of chunks, to rounding).
  const bool summing = !sums.empty();
  std::vector<std::vector<double>> chunk_sums(static_cast<std::size_t>(std::max(1, threads_)));
  for_chunks(cols, threads_, [&](std::int64_t chunk, std::int64_t begin, std::int64_t end) {
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
      accumulate_terms(terms, c, lr);
      if (signal_row_ >= 0) c[signal_row_] += signal * signal_weight;
      if (summing) {
        const double y = labels[static_cast<std::size_t>(lc)];
        for (std::size_t r = 0; r < lr; ++r) {
          part[r] += c[r];
          part[lr + r] += y * c[r];
        }
        if (in_first_process_row_) part[2 * lr] += y;
      }
    }
  });
  if (summing) {
    const std::size_t d = global_size_;
    for (const auto& part : chunk_sums) {
      if (part.empty()) continue;
      for (std::size_t r = 0; r < lr; ++r) {
        sums[global_rows_[r]] += part[r];
        sums[d + global_rows_[r]] += part[lr + r];
      }
      sums[2 * d] += part[2 * lr];
    }
  }
  double deviation = 0.0;
  for (const double x : column_deviation) deviation += x;
  return deviation;
}

std::vector<double> PooledSequences::token_projections(const std::vector<double>& beta) const {
  const auto lr = static_cast<std::size_t>(local_rows_);
  std::vector<double> local_beta(lr), projections(static_cast<std::size_t>(vocabulary_), 0.0);
  for (std::size_t r = 0; r < lr; ++r) local_beta[r] = beta[global_rows_[r]];
  for_chunks(vocabulary_, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t v = begin; v < end; ++v) {
      const double* z = noise(v);
      double sum = 0.0;
      for (std::size_t r = 0; r < lr; ++r) sum += local_beta[r] * z[r];
      projections[static_cast<std::size_t>(v)] = sum;
    }
  });
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, projections.data(), static_cast<int>(projections.size()),
                                   MPI_DOUBLE, MPI_SUM, column_comm_));
  return projections;
}

}  // namespace rmtsweep::simulate
