#pragma once
/// The token Gram of one trial as a sparse operator (docs/finite_t.md §7, "The bulk at any size"). Pure
/// numerics: no MPI, no HDF5, no random draws.
///
/// With A the V x N pooling weights at the tokens (column n holds sequence n's weights w_t at its tokens
/// v_{n,t}; its entries sum to 1), P = I - 1 1^T/N and Q = I - (1 1^T + s s^T)/V (finite_t_outlier.hpp), the
/// finite-T theory takes two operators with the same nonzero spectrum, tau_j:
///   Pi = Q A P A^T Q / N      (V x V, the `tokens` side),
///   K  = P A^T Q A P / N      (N x N, the `sequences` side; r = P A^T s/sqrt(N) lives here).
/// Each is applied in two passes over the N x T' tokens (T' the nonzero weights), never formed. Each is
/// also a sparse Gram plus a correction of rank three, X = G + U C U^T, which is how trace_powers finds
/// tr X^j exactly: with e = s/sqrt(V) (tokens) or 1/sqrt(N) (sequences), G = A A^T/N or A^T A/N, and
/// y = (I - e e^T) A 1 (tokens, c = 1/N^2) or P A^T s (sequences, c = 1/(N V)),
///   X = (I - e e^T) G (I - e e^T) - c y y^T,   U = [e, G e, y],   C = [[e^T G e, -1, 0], [-1, 0, 0], [0, 0,
///   -c]].
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rmtsweep::theory {

/// Which of the two operators.
enum class GramSide { tokens, sequences };

class TokenGram {
 public:
  /// w: the nonzero weights (length T'); tokens: N x T' row-major, sequence n's tokens at those terms, in
  /// [0, vocabulary); the class of token v is +1 for v < V/2, else -1 (model.md 1.1). A token that repeats
  /// in a sequence has its weights summed. Throws std::invalid_argument for no weights or a ragged token
  /// array and std::out_of_range for a token outside V.
  TokenGram(std::span<const double> w, std::span<const std::int64_t> tokens, std::int64_t vocabulary);

  std::size_t vocabulary() const noexcept { return V_; }
  std::size_t sequences() const noexcept { return N_; }
  /// V or N.
  std::size_t dimension(GramSide side) const noexcept { return side == GramSide::tokens ? V_ : N_; }
  /// The side of dimension min(V, N) (tokens when equal): where the bulk is cheapest.
  GramSide smaller_side() const noexcept { return V_ <= N_ ? GramSide::tokens : GramSide::sequences; }

  /// y = X x for `block` vectors held interleaved (x[i * block + j] is entry i of vector j), X = Pi or K.
  /// x and y have dimension(side) * block entries and must not overlap.
  void apply(GramSide side, std::span<const double> x, std::span<double> y, std::size_t block = 1) const;

  /// r = P A^T s / sqrt(N): the centred signal weight of each sequence (sum_t w_t xi_{n,t}) over sqrt(N), the
  /// start of the signal's Lanczos run (finite_t_outlier.hpp: b^T f(Pi) b = r^T f(K) r).
  std::vector<double> signal_start() const;

  /// tr X^j for j = 0, ..., 4 (j = 0: the dimension), exact up to rounding: tr G^j from G's rows (G is formed
  /// sparsely, about N T'^2 nonzeros on the tokens side; tr G^4 = sum_i |row i of G^2|^2 costs about
  /// dimension x (row length)^2), and the rank-three correction through the 3 x 3 forms U^T G^b U, b <= 3.
  std::array<double, 5> trace_powers(GramSide side) const;

 private:
  /// apply's work for blocks of B vectors (B = 0: any block), so that the loops over a block unroll.
  template <std::size_t B>
  void apply_blocked(GramSide side, std::span<const double> x, std::span<double> y, std::size_t block) const;

  std::size_t V_ = 0, N_ = 0;
  // A by sequence (CSR over n: the merged (token, weight) pairs of a_n) and by token (CSR over v).
  std::vector<std::size_t> seq_ptr_, tok_ptr_;
  std::vector<std::uint32_t> seq_token_, tok_seq_;
  std::vector<double> seq_weight_, tok_weight_;
};

}  // namespace rmtsweep::theory
