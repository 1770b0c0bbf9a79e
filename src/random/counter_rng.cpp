#include "rmtsweep/random/counter_rng.hpp"

#include <Random123/philox.h>

#include <Random123/MicroURNG.hpp>
#include <Random123/uniform.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/version.hpp>
#include <vector>

namespace rmtsweep::random {

std::string draws_library() { return "Boost.Random " BOOST_LIB_VERSION; }

std::array<std::uint64_t, 4> CounterRng::bits(Stream stream, std::uint64_t a, std::uint64_t b,
                                              std::uint64_t c) const noexcept {
  r123::Philox4x64 generator;
  const r123::Philox4x64::ctr_type counter = {{static_cast<std::uint64_t>(stream), a, b, c}};
  const r123::Philox4x64::key_type key = {{key_[0], key_[1]}};
  const auto out = generator(counter, key);
  return {out[0], out[1], out[2], out[3]};
}

void CounterRng::gaussians(Stream stream, std::uint64_t a, std::uint64_t b, std::span<double> out) const {
  // MicroURNG counts its Philox blocks in the high 32 bits of the last counter word, left 0 here.
  r123::MicroURNG<r123::Philox4x64> words({{static_cast<std::uint64_t>(stream), a, b, 0}},
                                          {{key_[0], key_[1]}});
  boost::random::normal_distribution<double> normal;
  for (double& x : out) x = normal(words);
}

double CounterRng::gaussian(Stream stream, std::uint64_t a, std::uint64_t b, std::uint64_t i) const {
  std::vector<double> draws(static_cast<std::size_t>(i) + 1);
  gaussians(stream, a, b, draws);
  return draws.back();
}

double CounterRng::uniform(Stream stream, std::uint64_t a, std::uint64_t b) const noexcept {
  return r123::u01<double>(bits(stream, a, b)[0]);
}

std::uint64_t CounterRng::uniform_index(Stream stream, std::uint64_t a, std::uint64_t b,
                                        std::uint64_t m) const noexcept {
  if (m <= 1) return 0;
  // 2^64 mod m values at the top of the range are rejected, so that the accepted ones are a
  // whole number of copies of [0, m) and r % m is exactly uniform. A rejection has probability
  // < m / 2^64; further words, then further counter blocks, are used if one happens.
  constexpr std::uint64_t max = ~std::uint64_t{0};
  const std::uint64_t rejected = (max % m + 1) % m;
  for (std::uint64_t attempt = 0;; ++attempt) {
    for (std::uint64_t r : bits(stream, a, b, attempt)) {
      if (r <= max - rejected) return r % m;
    }
  }
}

}  // namespace rmtsweep::random
