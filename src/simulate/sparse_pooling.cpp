// PooledSequences::sparse_pooling: the training sequences as sparse vectors a_n over the
// vocabulary (c_n = E a_n), for the matrix-free Krylov path (krylov_operator.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "for_chunks.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

namespace rmtsweep::simulate {
namespace {

/// Sequences whose causal Grams are reduced in one message: 4096 x 55 doubles (1.8 MB) at T = 10.
constexpr std::int64_t gram_chunk = 4096;

}  // namespace

SparsePooling PooledSequences::sparse_pooling(std::int64_t N, SequenceStreams streams) const {
  if (N < 0 || N > std::numeric_limits<std::int32_t>::max())
    throw std::invalid_argument("PooledSequences::sparse_pooling: N must be in [0, 2^31)");
  if (table_->vocabulary() > std::numeric_limits<std::int32_t>::max())
    throw std::invalid_argument("PooledSequences::sparse_pooling: V must be below 2^31");
  const int T = params_.T;
  const auto uT = static_cast<std::size_t>(T);
  const bool causal = params_.weighting.data_dependent();
  std::vector<int> positions;
  for (int t = 0; t < T; ++t) {
    if (causal || weights_[static_cast<std::size_t>(t)] != 0.0) positions.push_back(t);
  }
  SparsePooling out;
  out.terms = static_cast<int>(positions.size());
  const auto terms = positions.size();
  const auto uN = static_cast<std::size_t>(N);
  out.tokens.resize(uN * terms);
  out.weights.resize(uN * terms);
  out.labels.resize(uN);
  // The signs are kept for causal:tau only (the signal enters its Gram).
  std::vector<std::int8_t> signs(causal ? uN * uT : 0);
  detail::for_chunks(N, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    std::vector<int> xi(uT);
    std::vector<std::int64_t> tokens(uT);
    for (std::int64_t n = begin; n < end; ++n) {
      draw_signs(rng_, streams.sign, params_.correlation, n, xi);
      draw_tokens(rng_, streams.token, table_->vocabulary(), n, xi, tokens);
      const auto un = static_cast<std::size_t>(n);
      out.labels[un] = static_cast<std::int8_t>(xi[0]);
      for (std::size_t j = 0; j < terms; ++j) {
        const auto t = static_cast<std::size_t>(positions[j]);
        out.tokens[un * terms + j] = static_cast<std::int32_t>(tokens[t]);
        out.weights[un * terms + j] = weights_[t];
      }
      if (causal) {
        for (std::size_t t = 0; t < uT; ++t) signs[un * uT + t] = static_cast<std::int8_t>(xi[t]);
      }
    }
  });
  if (!causal) return out;

  // causal:tau (model.md section 3): <X_s, X_t> over all d rows, summed over the process rows on
  // rank 0 and broadcast (not all-reduced) so that every rank gets the same bits, then the weights.
  const std::size_t packed = packed_size(T), lr = table_->global_rows().size();
  const double signal = std::sqrt(params_.snr);
  int column_rank = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(column_comm_, &column_rank));
  std::vector<double> gram;
  for (std::int64_t first = 0; first < N; first += gram_chunk) {
    const std::int64_t count = std::min(gram_chunk, N - first);
    gram.assign(packed * static_cast<std::size_t>(count), 0.0);
    detail::for_chunks(count, threads_, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for (std::int64_t j = begin; j < end; ++j) {
        const auto un = static_cast<std::size_t>(first + j);
        double* g = gram.data() + packed * static_cast<std::size_t>(j);
        for (int s = 0; s < T; ++s) {
          const double* zs = noise(out.tokens[un * terms + static_cast<std::size_t>(s)]);
          for (int t = 0; t <= s; ++t) {
            const double* zt = noise(out.tokens[un * terms + static_cast<std::size_t>(t)]);
            double dot = 0.0;
            for (std::size_t r = 0; r < lr; ++r) dot += zs[r] * zt[r];
            if (signal_row_ >= 0) {
              const auto r0 = static_cast<std::size_t>(signal_row_);
              const double xs = signal * signs[un * uT + static_cast<std::size_t>(s)];
              const double xt = signal * signs[un * uT + static_cast<std::size_t>(t)];
              dot += (zs[r0] + xs) * (zt[r0] + xt) - zs[r0] * zt[r0];
            }
            g[packed_index(s, t)] = dot;
          }
        }
      }
    });
    parallel::sum_on_root_then_broadcast(std::span<double>(gram), column_comm_);
    for (std::int64_t j = 0; j < count; ++j) {
      const auto un = static_cast<std::size_t>(first + j);
      const std::span<double> w(out.weights.data() + un * terms, terms);
      causal_weights(params_.weighting.tau, params_.d,
                     std::span<const double>(gram.data() + packed * static_cast<std::size_t>(j), packed), w);
      if (column_rank == 0) {
        for (std::size_t t = 0; t < uT; ++t) out.deviation_sum += std::abs(w[t] - weights_[t]);
      }
    }
  }
  return out;
}

}  // namespace rmtsweep::simulate
