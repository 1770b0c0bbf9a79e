// The counter-based generator: draws are pure functions of their coordinates and have the
// right distributions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "rmtsweep/random/counter_rng.hpp"

using rmtsweep::random::CounterRng;
using rmtsweep::random::Stream;

TEST(CounterRng, GivesTheSameDrawForTheSameCoordinatesInAnyOrder) {
  const CounterRng a(42, 3), b(42, 3);
  const double late = b.gaussian(Stream::table_noise, 999, 7, 5);
  const double first = a.gaussian(Stream::table_noise, 5, 6, 0);
  EXPECT_EQ(first, b.gaussian(Stream::table_noise, 5, 6, 0));
  EXPECT_EQ(late, a.gaussian(Stream::table_noise, 999, 7, 5));
}

TEST(CounterRng, GivesDifferentDrawsForDifferentSeedTrialStreamOrIndex) {
  const CounterRng base(1, 0);
  const double x = base.gaussian(Stream::table_noise, 2, 3, 1);
  EXPECT_NE(x, CounterRng(2, 0).gaussian(Stream::table_noise, 2, 3, 1));
  EXPECT_NE(x, CounterRng(1, 1).gaussian(Stream::table_noise, 2, 3, 1));
  EXPECT_NE(x, base.gaussian(Stream::test_sign, 2, 3, 1));
  EXPECT_NE(x, base.gaussian(Stream::table_noise, 3, 2, 1));
  EXPECT_NE(x, base.gaussian(Stream::table_noise, 2, 3, 2));
}

TEST(CounterRng, AShorterGaussianFillIsAPrefixOfALongerOne) {
  const CounterRng rng(9, 4);
  std::vector<double> longer(64), shorter(13);
  rng.gaussians(Stream::table_noise, 3, 1, longer);
  rng.gaussians(Stream::table_noise, 3, 1, shorter);
  for (std::size_t i = 0; i < shorter.size(); ++i) EXPECT_EQ(shorter[i], longer[i]) << "draw " << i;
  EXPECT_EQ(rng.gaussian(Stream::table_noise, 3, 1, 40), longer[40]);
}

TEST(CounterRng, NeighbouringGaussiansOfASequenceAreUncorrelated) {
  const CounterRng rng(13, 0);
  const int sequences = 2000, length = 64;
  std::vector<double> x(length);
  double lag1 = 0.0, lag4 = 0.0;
  for (int s = 0; s < sequences; ++s) {
    rng.gaussians(Stream::table_noise, 1, static_cast<std::uint64_t>(s), x);
    for (int i = 0; i + 4 < length; ++i) {
      lag1 += x[i] * x[i + 1];
      lag4 += x[i] * x[i + 4];
    }
  }
  // Means of n = 2000 * 60 products of independent N(0,1): standard error 1/sqrt(n); 5 of them.
  const double n = sequences * (length - 4.0);
  EXPECT_NEAR(lag1 / n, 0.0, 5.0 / std::sqrt(n));
  EXPECT_NEAR(lag4 / n, 0.0, 5.0 / std::sqrt(n));
}

TEST(CounterRng, GaussiansHaveMeanZeroUnitVarianceAndGaussianTails) {
  const CounterRng rng(7, 0);
  const int sequences = 3125, length = 64, n = sequences * length;  // 200000 draws
  double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
  int beyond3 = 0;
  std::vector<double> x(length);
  for (int s = 0; s < sequences; ++s) {
    rng.gaussians(Stream::table_noise, static_cast<std::uint64_t>(s % 500),
                  static_cast<std::uint64_t>(s / 500), x);
    for (const double v : x) {
      sum += v;
      sum2 += v * v;
      sum4 += v * v * v * v;
      beyond3 += std::abs(v) > 3.0;
    }
  }
  // Tolerances are 5 standard errors: sd(mean) = 1/sqrt(n), sd(x^2 mean) = sqrt(2/n),
  // sd(x^4 mean) = sqrt(96/n); P(|x| > 3) = 0.0026998, a binomial count with sd sqrt(n p).
  EXPECT_NEAR(sum / n, 0.0, 5.0 / std::sqrt(n));
  EXPECT_NEAR(sum2 / n, 1.0, 5.0 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sum4 / n, 3.0, 5.0 * std::sqrt(96.0 / n));
  const double tail = 0.0026998 * n;
  EXPECT_NEAR(beyond3, tail, 5.0 * std::sqrt(tail));
}

TEST(CounterRng, UniformsLieInTheHalfOpenUnitIntervalWithMeanOneHalf) {
  const CounterRng rng(7, 0);
  const int n = 100000;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform(Stream::train_sign, static_cast<std::uint64_t>(i), 0);
    ASSERT_GT(u, 0.0);
    ASSERT_LE(u, 1.0);
    sum += u;
  }
  // 5 standard errors of the mean of U(0,1): sd = sqrt(1/12/n).
  EXPECT_NEAR(sum / n, 0.5, 5.0 * std::sqrt(1.0 / 12.0 / n));
}

TEST(CounterRng, UniformIndexIsInRangeAndPassesAChiSquareTest) {
  const CounterRng rng(11, 2);
  const std::uint64_t m = 7;
  const int n = 70000;
  std::vector<int> counts(m, 0);
  for (int i = 0; i < n; ++i) {
    const auto v = rng.uniform_index(Stream::train_token, static_cast<std::uint64_t>(i), 1, m);
    ASSERT_LT(v, m);
    ++counts[v];
  }
  double chi2 = 0.0;
  const double expected = static_cast<double>(n) / static_cast<double>(m);
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  // 6 degrees of freedom: P(chi2 > 22.46) = 0.001.
  EXPECT_LT(chi2, 22.46);
}

TEST(CounterRng, UniformIndexOfASingletonIsZero) {
  EXPECT_EQ(CounterRng(1, 1).uniform_index(Stream::test_token, 4, 5, 1), 0u);
}
