// Sequence draws (model.md section 2) and the causal attention weights (section 3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/sequences.hpp"

using namespace rmtsweep;
using simulate::training_streams;

namespace {

constexpr int T = 10;
constexpr int sequences = 20000;

/// Empirical R_ts = E[xi_t xi_s] over many sequences.
std::vector<double> empirical_correlation(const std::string& text) {
  const auto correlation = model::parse_correlation(text, T);
  const random::CounterRng rng(3, 1);
  std::vector<double> r(T * T, 0.0);
  std::vector<int> xi(T);
  for (int n = 0; n < sequences; ++n) {
    simulate::draw_signs(rng, training_streams.sign, correlation, n, xi);
    for (int t = 0; t < T; ++t) {
      for (int s = 0; s < T; ++s) r[static_cast<std::size_t>(t * T + s)] += xi[t] * xi[s] / double(sequences);
    }
  }
  return r;
}

// Each R_ts is a mean of 20000 products of +-1: standard error <= 1/sqrt(20000) = 0.007;
// tolerance 0.04 is more than 5 standard errors.
void expect_correlation_matrix(const std::string& text) {
  const auto expected = model::correlation_matrix(model::parse_correlation(text, T), T);
  const auto measured = empirical_correlation(text);
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(measured[i], expected[i], 0.04) << text << " " << i;
}

}  // namespace

TEST(Sequences, IidSignsHaveIdentityCorrelation) { expect_correlation_matrix("iid"); }
TEST(Sequences, PrefixSignsHaveTheBlockCorrelation) { expect_correlation_matrix("prefix:3"); }
TEST(Sequences, MarkovSignsHaveGeometricCorrelation) { expect_correlation_matrix("markov:0.6"); }
TEST(Sequences, NegativeMarkovSignsHaveAlternatingCorrelation) { expect_correlation_matrix("markov:-0.5"); }

TEST(Sequences, TokensLieInTheClassOfTheirSign) {
  const random::CounterRng rng(5, 0);
  const std::int64_t V = 14;
  std::vector<int> xi(T);
  std::vector<std::int64_t> tokens(T);
  std::vector<int> seen(V, 0);
  for (int n = 0; n < 2000; ++n) {
    simulate::draw_signs(rng, training_streams.sign, model::parse_correlation("iid", T), n, xi);
    simulate::draw_tokens(rng, training_streams.token, V, n, xi, tokens);
    for (int t = 0; t < T; ++t) {
      ASSERT_GE(tokens[t], 0);
      ASSERT_LT(tokens[t], V);
      EXPECT_EQ(tokens[t]<V / 2, xi[t]> 0);
      ++seen[static_cast<std::size_t>(tokens[t])];
    }
  }
  for (int count : seen) EXPECT_GT(count, 0);
}

TEST(Sequences, TrainingAndTestStreamsDiffer) {
  const random::CounterRng rng(5, 0);
  const auto iid = model::parse_correlation("iid", T);
  int same = 0;
  std::vector<int> a(T), b(T);
  for (int n = 0; n < 100; ++n) {
    simulate::draw_signs(rng, simulate::training_streams.sign, iid, n, a);
    simulate::draw_signs(rng, simulate::test_streams.sign, iid, n, b);
    same += a == b;
  }
  EXPECT_LT(same, 5);  // equal by chance with probability 2^-10 each
}

TEST(CausalWeights, WithEqualScoresAreTheLimitWeightsAtTauZero) {
  // All Gram entries equal: every softmax row is uniform, i.e. the tau = 0 weights.
  std::vector<double> gram(simulate::packed_size(T), 2.5), w(T);
  simulate::causal_weights(1.0, 100, gram, w);
  const auto expected = model::causal_limit_weights(0.0, T);
  for (int t = 0; t < T; ++t) EXPECT_NEAR(w[t], expected[static_cast<std::size_t>(t)], 1e-15);
}

TEST(CausalWeights, WithSelfScoresTauAndCrossScoresZeroAreTheLimitWeights) {
  // <X_i, X_i> = d and <X_i, X_j> = 0 give scores tau and 0: the d -> infinity limit w(tau).
  const int d = 64;
  const double tau = 1.7;
  std::vector<double> gram(simulate::packed_size(T), 0.0), w(T);
  for (int i = 0; i < T; ++i) gram[simulate::packed_index(i, i)] = d;
  simulate::causal_weights(tau, d, gram, w);
  const auto expected = model::causal_limit_weights(tau, T);
  for (int t = 0; t < T; ++t) EXPECT_NEAR(w[t], expected[static_cast<std::size_t>(t)], 1e-14);
  EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-14);
}
