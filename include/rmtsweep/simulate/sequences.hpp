#pragma once
/// The random sequences of model.md section 1.2 and 2, and the finite-d causal attention
/// weights of section 3. Every draw is a pure function of (seed, trial, stream, n, t).
#include <cstdint>
#include <span>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/random/counter_rng.hpp"

namespace rmtsweep::simulate {

/// Which random streams a family of sequences uses: the training set and the ridge test set
/// draw from different streams, so they are independent but share the embedding table.
struct SequenceStreams {
  random::Stream sign;
  random::Stream token;
};
inline constexpr SequenceStreams training_streams{random::Stream::train_sign, random::Stream::train_token};
inline constexpr SequenceStreams test_streams{random::Stream::test_sign, random::Stream::test_token};

/// The signs xi_1..xi_T (+1/-1) of sequence n under `correlation` (model.md section 2): one
/// uniform u_{n,t} per position; iid: xi_t = +1 iff u < 1/2; prefix:L: y from u_{n,0}, xi_t = y
/// for t <= L, iid after; markov:phi: xi_1 iid, xi_{t+1} = xi_t iff u_{n,t} < (1 + phi)/2.
/// The label is y_n = xi_1.
void draw_signs(const random::CounterRng& rng, random::Stream stream, const model::Correlation& correlation,
                std::int64_t n, std::span<int> xi);

/// The tokens v_{n,t}, uniform in the class of xi_t: [0, V/2) for +1, [V/2, V) for -1.
void draw_tokens(const random::CounterRng& rng, random::Stream stream, std::int64_t vocabulary,
                 std::int64_t n, std::span<const int> xi, std::span<std::int64_t> tokens);

/// Number of entries of a packed lower triangle of a T x T matrix (i >= j, row by row).
constexpr std::size_t packed_size(int T) noexcept {
  return static_cast<std::size_t>(T) * static_cast<std::size_t>(T + 1) / 2;
}
/// Index of (i, j), i >= j, in the packed lower triangle.
constexpr std::size_t packed_index(int i, int j) noexcept {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(i + 1) / 2 + static_cast<std::size_t>(j);
}

/// The pooling weights of parameter-free causal self-attention (model.md section 3) from the
/// packed Gram G_ij = <X_i, X_j> (i >= j) of one sequence: a_ij = (tau/d) G_ij for j <= i,
/// A = row-wise softmax over j <= i, and c = (1/T) sum_i sum_{j<=i} A_ij X_j, so
/// w_j = (1/T) sum_{i >= j} A_ij. Writes w (length T, sums to 1).
void causal_weights(double tau, int d, std::span<const double> gram_packed, std::span<double> w);

}  // namespace rmtsweep::simulate
