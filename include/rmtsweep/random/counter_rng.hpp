#pragma once
/// Counter-based random numbers (model.md section 7): every draw is a pure function of
/// (seed, trial, stream, index...), so any process can draw exactly the entries it owns,
/// in any order, and get the same numbers on any number of ranks.
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace rmtsweep::random {

/// The version of the map from coordinates to draws. Any change to it (a stream, a counter
/// layout, the Gaussian transform) changes every simulated number for the same seed and trial,
/// so sweep files record it and a sweep is never resumed with another version. 1: Box-Muller,
/// four tokens per Philox block; 2: ziggurat, each token's column in chunks of 64 rows.
inline constexpr std::int64_t draws_version = 2;

/// The library code the Gaussian draws also depend on: "Boost.Random <version>" (its ziggurat
/// tables and algorithm). Sweep files record it beside draws_version, and --resume refuses a
/// file drawn with another, since a change there would change the draws as surely.
std::string draws_library();

/// What a draw is for. Each stream is an independent family of draws; the values are part
/// of the reproducibility contract, so never renumber them.
enum class Stream : std::uint64_t {
  table_noise = 1,  ///< entry (i, v) of the embedding noise: draw i % 64 of gaussians(table_noise, v, i / 64)
  train_sign = 2,   ///< sign xi_t of training sequence n
  train_token = 3,  ///< token choice v_{n,t} of training sequence n
  test_sign = 4,    ///< sign of a ridge test sequence
  test_token = 5,   ///< token of a ridge test sequence
  top_levels =
      6,  ///< the finite-d top-level model's own draws (theory/finite_t_top_levels.hpp), not the table's
  finite_t_probes = 7,  ///< the +-1 probes of the finite-T bulk's quadrature: entry i of probe p is bit i %
                        ///< 256 of bits(finite_t_probes, p, i / 256) (theory/gram_quadrature.hpp)
};

/// Philox4x64-10 keyed by (seed, trial). Cheap to copy; stateless.
class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t trial) noexcept : key_{seed, trial} {}

  /// 256 random bits for (stream, a, b, c): the raw generator output.
  std::array<std::uint64_t, 4> bits(Stream stream, std::uint64_t a, std::uint64_t b,
                                    std::uint64_t c = 0) const noexcept;

  /// out[i] = the i-th standard normal draw of the sequence (stream, a, b), i = 0 .. out.size()-1:
  /// Boost.Random's ziggurat normal_distribution fed by the 64-bit words of Philox blocks
  /// (stream, a, b, j * 2^32), j = 0, 1, ... (Random123's MicroURNG counts in the high half of
  /// the last counter word; so bits(stream, a, b, 0) is block 0 of this sequence: never call
  /// bits() on a stream that gaussians() draws). A sequence's draws do not depend on how many
  /// are taken (a prefix of a longer fill is the shorter fill). The ziggurat takes one 64-bit
  /// word per draw except in its rare (about 1 %) edge and tail cases and needs no
  /// transcendental function otherwise: 3x cheaper than Box-Muller for the d x V table.
  void gaussians(Stream stream, std::uint64_t a, std::uint64_t b, std::span<double> out) const;

  /// The standard normal draw gaussians(stream, a, b, out)[i] for an out of size i + 1.
  double gaussian(Stream stream, std::uint64_t a, std::uint64_t b, std::uint64_t i) const;

  /// A uniform draw in (0, 1] for (stream, a, b).
  double uniform(Stream stream, std::uint64_t a, std::uint64_t b) const noexcept;

  /// An unbiased uniform integer in [0, m) for (stream, a, b), m >= 1, by rejection of the
  /// top partial range of 2^64 (so every value has exactly the same probability).
  std::uint64_t uniform_index(Stream stream, std::uint64_t a, std::uint64_t b,
                              std::uint64_t m) const noexcept;

 private:
  std::array<std::uint64_t, 2> key_;
};

}  // namespace rmtsweep::random
