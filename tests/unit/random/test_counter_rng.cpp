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
  const double late = b.gaussian(Stream::table_noise, 999, 7);
  const double first = a.gaussian(Stream::table_noise, 5, 6);
  EXPECT_EQ(first, b.gaussian(Stream::table_noise, 5, 6));
  EXPECT_EQ(late, a.gaussian(Stream::table_noise, 999, 7));
}

TEST(CounterRng, GivesDifferentDrawsForDifferentSeedTrialStreamOrIndex) {
  const CounterRng base(1, 0);
  const double x = base.gaussian(Stream::table_noise, 2, 3);
  EXPECT_NE(x, CounterRng(2, 0).gaussian(Stream::table_noise, 2, 3));
  EXPECT_NE(x, CounterRng(1, 1).gaussian(Stream::table_noise, 2, 3));
  EXPECT_NE(x, base.gaussian(Stream::test_sign, 2, 3));
  EXPECT_NE(x, base.gaussian(Stream::table_noise, 3, 2));
}

TEST(CounterRng, SingleGaussiansAreTheEntriesOfTheirBlockOfFour) {
  const CounterRng rng(9, 4);
  for (std::uint64_t b = 0; b < 12; ++b) {
    EXPECT_EQ(rng.gaussian(Stream::table_noise, 3, b), rng.gaussians4(Stream::table_noise, 3, b / 4)[b % 4]);
  }
}

TEST(CounterRng, TheFourGaussiansOfABlockAreUncorrelated) {
  const CounterRng rng(13, 0);
  const int n = 50000;
  double cross[3] = {0.0, 0.0, 0.0};  // x0*x1 (same Box-Muller pair), x0*x2, x1*x3
  for (int i = 0; i < n; ++i) {
    const auto g = rng.gaussians4(Stream::table_noise, 1, static_cast<std::uint64_t>(i));
    cross[0] += g[0] * g[1] / n;
    cross[1] += g[0] * g[2] / n;
    cross[2] += g[1] * g[3] / n;
  }
  // Each is a mean of n products of independent N(0,1): standard error 1/sqrt(n); 5 of them.
  for (double c : cross) EXPECT_NEAR(c, 0.0, 5.0 / std::sqrt(n));
}

TEST(CounterRng, GaussiansHaveMeanZeroAndUnitVariance) {
  const CounterRng rng(7, 0);
  const int n = 200000;
  double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.gaussian(Stream::table_noise, static_cast<std::uint64_t>(i % 500),
                                  static_cast<std::uint64_t>(i / 500));
    sum += x;
    sum2 += x * x;
    sum4 += x * x * x * x;
  }
  // Tolerances are 5 standard errors: sd(mean) = 1/sqrt(n), sd(x^2 mean) = sqrt(2/n),
  // sd(x^4 mean) = sqrt(96/n).
  EXPECT_NEAR(sum / n, 0.0, 5.0 / std::sqrt(n));
  EXPECT_NEAR(sum2 / n, 1.0, 5.0 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sum4 / n, 3.0, 5.0 * std::sqrt(96.0 / n));
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
