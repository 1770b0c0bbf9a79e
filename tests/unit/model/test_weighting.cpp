#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "expect_invalid.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/model/weighting.hpp"

using namespace rmtsweep::model;

namespace {

std::vector<double> weights(const std::string& weighting, const std::string& correlation, int T) {
  return pooling_weights(parse_weighting(weighting, T), parse_correlation(correlation, T), T);
}

double gain(const std::vector<double>& w, const std::string& correlation) {
  const int T = static_cast<int>(w.size());
  return pooling_scalars(w, correlation_matrix(parse_correlation(correlation, T), T)).g;
}

double harmonic_number(int k) {
  double h = 0.0;
  for (int i = 1; i <= k; ++i) h += 1.0 / i;
  return h;
}

}  // namespace

TEST(Weighting, EveryDeterministicWeightingSumsToOne) {
  for (const char* name : {"mean", "last", "optimal", "harmonic", "causal:0", "causal:2.5", "causal:-3",
                           "custom:1,2,3,4,5,6,7"}) {
    const auto w = weights(name, "prefix:3", 7);
    ASSERT_EQ(w.size(), 7u);
    // Sum of 7 numbers of order 1: rounding is below 1e-14.
    EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-14) << name;
  }
}

TEST(Weighting, MeanAndLastAreWhatTheyNameAndCustomIsNormalised) {
  EXPECT_EQ(weights("mean", "iid", 4), (std::vector<double>{0.25, 0.25, 0.25, 0.25}));
  EXPECT_EQ(weights("last", "iid", 3), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(weights("custom:1,-2,5", "iid", 3), (std::vector<double>{0.25, -0.5, 1.25}));
}

TEST(Weighting, HarmonicIsProportionalToHTMinusOneMinusHtMinusOne) {
  const int T = 8;
  const auto w = weights("harmonic", "iid", T);
  double norm = 0.0;
  for (int t = 1; t <= T; ++t) norm += harmonic_number(T - 1) - harmonic_number(t - 1);
  for (int t = 1; t <= T; ++t) {
    EXPECT_NEAR(w[static_cast<std::size_t>(t - 1)], (harmonic_number(T - 1) - harmonic_number(t - 1)) / norm,
                1e-15);
  }
  EXPECT_EQ(w.back(), 0.0);
}

TEST(Weighting, HarmonicAndOptimalWithASingleTokenGiveWeightOne) {
  EXPECT_EQ(weights("harmonic", "iid", 1), (std::vector<double>{1.0}));
  EXPECT_EQ(weights("optimal", "prefix:1", 1), (std::vector<double>{1.0}));
}

TEST(Weighting, CausalAtZeroTemperatureEqualsHarmonicTailOverT) {
  for (int T : {1, 2, 5, 10, 33}) {
    const auto w = causal_limit_weights(0.0, T);
    for (int t = 1; t <= T; ++t) {
      // (H_T - H_{t-1})/T: sums of at most 33 terms, rounding well below 1e-14.
      EXPECT_NEAR(w[static_cast<std::size_t>(t - 1)], (harmonic_number(T) - harmonic_number(t - 1)) / T,
                  1e-14)
          << "T=" << T << " t=" << t;
    }
  }
}

TEST(Weighting, CausalLimitMatchesTheFormulaOfModelSection3) {
  const int T = 9;
  const double tau = 1.3, e = std::exp(tau);
  const auto w = causal_limit_weights(tau, T);
  for (int t = 1; t <= T; ++t) {
    double expected = e / (e + t - 1);
    for (int i = t + 1; i <= T; ++i) expected += 1.0 / (e + i - 1);
    EXPECT_NEAR(w[static_cast<std::size_t>(t - 1)], expected / T, 1e-15);
  }
}

TEST(Weighting, CausalLimitStaysFiniteForExtremeTemperatures) {
  // tau -> +inf: each token attends only to itself, w -> mean.
  for (double x : causal_limit_weights(1000.0, 6)) EXPECT_NEAR(x, 1.0 / 6, 1e-15);
  // tau -> -inf: w_1 = (1 + H_{T-1})/T, w_t = (H_{T-1} - H_{t-1})/T.
  const auto w = causal_limit_weights(-1000.0, 6);
  EXPECT_NEAR(w[0], (1 + harmonic_number(5)) / 6, 1e-15);
  for (int t = 2; t <= 6; ++t) {
    EXPECT_NEAR(w[static_cast<std::size_t>(t - 1)], (harmonic_number(5) - harmonic_number(t - 1)) / 6, 1e-15);
  }
}

TEST(Weighting, PrefixGainsHaveTheirClosedForms) {
  for (int T : {1, 4, 10, 25}) {
    for (int L = 1; L <= T; L += 3) {
      const std::string correlation = "prefix:" + std::to_string(L);
      // g = alpha/kappa from T-term sums: relative rounding ~1e-15, tolerance 1e-12.
      EXPECT_NEAR(gain(weights("mean", correlation, T), correlation), 1.0 + L * (L - 1.0) / T, 1e-12);
      EXPECT_NEAR(gain(weights("optimal", correlation, T), correlation), L, 1e-12);
    }
  }
}

TEST(Weighting, OptimalPutsEqualWeightOnThePrefix) {
  const auto w = weights("optimal", "prefix:3", 10);
  for (std::size_t t = 0; t < 10; ++t) EXPECT_NEAR(w[t], t < 3 ? 1.0 / 3 : 0.0, 1e-14);
}

TEST(Weighting, OptimalMaximisesTheGainOverRandomWeightVectors) {
  std::mt19937_64 rng(20260530);
  std::normal_distribution<double> normal;
  for (const char* correlation : {"prefix:3", "markov:0.6", "markov:-0.4", "iid", "markov:-0.5"}) {
    for (int T : {5, 8}) {
      const double best = gain(weights("optimal", correlation, T), correlation);
      for (int trial = 0; trial < 2000; ++trial) {
        std::vector<double> w(static_cast<std::size_t>(T));
        for (double& x : w) x = normal(rng);
        // The Rayleigh quotient never exceeds lambda_max; 1e-12 covers rounding of both sides.
        EXPECT_LE(gain(w, correlation), best + 1e-12) << correlation << " T=" << T;
      }
      // R has unit diagonal, so lambda_max >= trace/T = 1.
      EXPECT_GE(best, 1.0 - 1e-12);
    }
  }
}

TEST(Weighting, OptimalForNegativeMarkovWithEvenTIsStillTheTopEigenvector) {
  // The top eigenvector of phi^|t-s| with phi < 0 and even T is orthogonal to 1, so sum 1 is
  // impossible: the weights come back with unit norm instead and still reach lambda_max.
  const auto w = weights("optimal", "markov:-0.5", 6);
  EXPECT_NEAR(std::inner_product(w.begin(), w.end(), w.begin(), 0.0), 1.0, 1e-14);
  const auto w_odd = weights("optimal", "markov:-0.5", 7);
  EXPECT_NEAR(std::accumulate(w_odd.begin(), w_odd.end(), 0.0), 1.0, 1e-12);
}

TEST(Weighting, CanonicalTextRoundTrips) {
  for (const char* text :
       {"mean", "last", "optimal", "harmonic", "causal:0", "causal:-1.5", "custom:1,0.5,-0.25"}) {
    const Weighting parsed = parse_weighting(text, 3);
    EXPECT_EQ(to_string(parsed), text);
    EXPECT_EQ(parse_weighting(to_string(parsed), 3), parsed);
  }
}

TEST(Weighting, CustomWeightsOfTheWrongLengthAreRejected) {
  expect_invalid_option([] { parse_weighting("custom:1,2", 3); }, "weighting", "custom:1,2");
  expect_invalid_option([] { parse_weighting("custom:1,2,3,4", 3); }, "weighting", "custom:1,2,3,4");
}

TEST(Weighting, CustomWeightsSummingToZeroAreRejected) {
  expect_invalid_option([] { parse_weighting("custom:1,-1,0", 3); }, "weighting", "custom:1,-1,0");
  expect_invalid_option([] { parse_weighting("custom:0.1,0.2,-0.3", 3); }, "weighting",
                        "custom:0.1,0.2,-0.3");
  expect_invalid_option([] { parse_weighting("custom:0,0,0", 3); }, "weighting", "custom:0,0,0");
}

TEST(Weighting, NonNumbersAndUnknownNamesAreRejected) {
  for (const char* text : {"custom:1,x,2", "custom:1,,2", "custom:", "custom:1,2,nan",
                           "causal:", "causal:abc", "causal:inf", "Mean", "median", "", "optimal:1"}) {
    expect_invalid_option([&] { parse_weighting(text, 3, "w"); }, "w", text);
  }
}

TEST(Weighting, ABuiltWeightingValidatesItselfForT) {
  Weighting w;  // mean
  EXPECT_TRUE(w.valid_for(1));
  w.kind = Weighting::Kind::causal;
  w.tau = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(w.valid_for(3));
  w.tau = -2.0;
  EXPECT_TRUE(w.valid_for(3));
  w = Weighting{Weighting::Kind::custom, 0.0, {1.0, 2.0, 3.0}};
  EXPECT_TRUE(w.valid_for(3));
  EXPECT_FALSE(w.valid_for(4));  // T entries
  w.custom = {1.0, -1.0, 0.0};
  EXPECT_FALSE(w.valid_for(3));  // no sum to normalise by
  w.custom = {1.0, std::nan(""), 0.0};
  EXPECT_FALSE(w.valid_for(3));
}
