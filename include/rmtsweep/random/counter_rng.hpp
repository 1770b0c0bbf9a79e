#pragma once
/// Counter-based random numbers (model.md section 7): every draw is a pure function of
/// (seed, trial, stream, index...), so any process can draw exactly the entries it owns,
/// in any order, and get the same numbers on any number of ranks.
#include <array>
#include <cstdint>

namespace rmtsweep::random {

/// What a draw is for. Each stream is an independent family of draws; the values are part
/// of the reproducibility contract, so never renumber them.
enum class Stream : std::uint64_t {
  table_noise = 1,  ///< z_v entry (i, v) of the embedding noise
  train_sign = 2,   ///< sign xi_t of training sequence n
  train_token = 3,  ///< token choice v_{n,t} of training sequence n
  test_sign = 4,    ///< sign of a ridge test sequence
  test_token = 5,   ///< token of a ridge test sequence
};

/// Philox4x64-10 keyed by (seed, trial). Cheap to copy; stateless.
class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t trial) noexcept : key_{seed, trial} {}

  /// 256 random bits for (stream, a, b, c): the raw generator output.
  std::array<std::uint64_t, 4> bits(Stream stream, std::uint64_t a, std::uint64_t b,
                                    std::uint64_t c = 0) const noexcept;

  /// Four independent standard normal draws, for (stream, a, b) with b = 4 * block + 0..3: one
  /// Philox block gives two Box-Muller pairs. Filling a table row by blocks of 4 costs a quarter
  /// of the generator calls and half the transcendental functions of one draw at a time.
  std::array<double, 4> gaussians4(Stream stream, std::uint64_t a, std::uint64_t block) const noexcept;

  /// The standard normal draw for (stream, a, b): gaussians4(stream, a, b / 4)[b % 4].
  double gaussian(Stream stream, std::uint64_t a, std::uint64_t b) const noexcept {
    return gaussians4(stream, a, b / 4)[b % 4];
  }

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
