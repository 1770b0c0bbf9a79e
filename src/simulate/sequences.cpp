#include "rmtsweep/simulate/sequences.hpp"

#include <algorithm>
#include <cmath>

namespace rmtsweep::simulate {

using random::CounterRng;
using random::Stream;

void draw_signs(const CounterRng& rng, Stream stream, const model::Correlation& correlation, std::int64_t n,
                std::span<int> xi) {
  const int T = static_cast<int>(xi.size());
  const auto u = [&](int t) {
    return rng.uniform(stream, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(t));
  };
  const auto fair = [&](int t) { return u(t) < 0.5 ? 1 : -1; };
  switch (correlation.kind) {
    case model::Correlation::Kind::iid:
      for (int t = 0; t < T; ++t) xi[static_cast<std::size_t>(t)] = fair(t);
      break;
    case model::Correlation::Kind::prefix: {
      const int y = fair(0);
      for (int t = 0; t < T; ++t)
        xi[static_cast<std::size_t>(t)] = t < correlation.prefix_length ? y : fair(t);
      break;
    }
    case model::Correlation::Kind::markov: {
      const double stay = (1.0 + correlation.phi) / 2.0;
      if (T > 0) xi[0] = fair(0);
      for (int t = 1; t < T; ++t) {
        const int previous = xi[static_cast<std::size_t>(t - 1)];
        xi[static_cast<std::size_t>(t)] = u(t) < stay ? previous : -previous;
      }
      break;
    }
  }
}

void draw_tokens(const CounterRng& rng, Stream stream, std::int64_t vocabulary, std::int64_t n,
                 std::span<const int> xi, std::span<std::int64_t> tokens) {
  const auto half = static_cast<std::uint64_t>(vocabulary / 2);
  for (std::size_t t = 0; t < xi.size(); ++t) {
    const auto index = rng.uniform_index(stream, static_cast<std::uint64_t>(n), t, half);
    tokens[t] = static_cast<std::int64_t>(xi[t] > 0 ? index : half + index);
  }
}

void causal_weights(double tau, int d, std::span<const double> gram_packed, std::span<double> w) {
  const int T = static_cast<int>(w.size());
  std::fill(w.begin(), w.end(), 0.0);
  const double scale = tau / static_cast<double>(d);
  for (int i = 0; i < T; ++i) {
    double top = -INFINITY;
    for (int j = 0; j <= i; ++j) top = std::max(top, scale * gram_packed[packed_index(i, j)]);
    double norm = 0.0;
    for (int j = 0; j <= i; ++j) norm += std::exp(scale * gram_packed[packed_index(i, j)] - top);
    for (int j = 0; j <= i; ++j) {
      w[static_cast<std::size_t>(j)] += std::exp(scale * gram_packed[packed_index(i, j)] - top) / (norm * T);
    }
  }
}

}  // namespace rmtsweep::simulate
