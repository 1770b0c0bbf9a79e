#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rmtsweep/theory/cubic.hpp"

using rmtsweep::theory::solve_monic_cubic;

TEST(Cubic, ThreeRealRootsComeBackDescending) {
  const auto r = solve_monic_cubic(0.0, -7.0, 6.0);  // (x - 2)(x - 1)(x + 3)
  ASSERT_TRUE(r.all_real);
  // Well-separated simple roots of an O(1) cubic: accurate to a few ulps.
  EXPECT_NEAR(r.roots[0].real(), 2.0, 1e-14);
  EXPECT_NEAR(r.roots[1].real(), 1.0, 1e-14);
  EXPECT_NEAR(r.roots[2].real(), -3.0, 1e-14);
  for (const auto& x : r.roots) EXPECT_EQ(x.imag(), 0.0);
}

TEST(Cubic, OneRealRootAndAConjugatePairWithThePositiveImaginaryPartSecond) {
  const auto r = solve_monic_cubic(-2.0, 1.0, -2.0);  // (x - 2)(x^2 + 1)
  ASSERT_FALSE(r.all_real);
  EXPECT_NEAR(r.roots[0].real(), 2.0, 1e-14);
  EXPECT_NEAR(r.roots[1].real(), 0.0, 1e-14);
  EXPECT_NEAR(r.roots[1].imag(), 1.0, 1e-14);
  EXPECT_EQ(r.roots[2], std::conj(r.roots[1]));
}

TEST(Cubic, ADoubleRootIsFoundToTheSquareRootOfRounding) {
  const auto r = solve_monic_cubic(0.0, -3.0, 2.0);  // (x - 1)^2 (x + 2)
  // A double root moves by sqrt(eps) ~ 1.5e-8 under rounding of the coefficients.
  std::vector<double> re;
  for (const auto& x : r.roots) {
    EXPECT_NEAR(x.imag(), 0.0, 1e-7);
    re.push_back(x.real());
  }
  std::sort(re.begin(), re.end());
  EXPECT_NEAR(re[0], -2.0, 1e-12);
  EXPECT_NEAR(re[1], 1.0, 1e-7);
  EXPECT_NEAR(re[2], 1.0, 1e-7);
}

TEST(Cubic, ANearlyRealPairKeepsItsSmallImaginaryPart) {
  // (x + 1)((x - 3)^2 + 1e-12): roots -1 and 3 +- 1e-6 i.
  const double eps2 = 1e-12;
  const auto r = solve_monic_cubic(-5.0, 3.0 + eps2, 9.0 + eps2);
  ASSERT_FALSE(r.all_real);
  // Near-double roots are ill-conditioned (sqrt of rounding ~ 1e-8 in absolute terms).
  EXPECT_NEAR(r.roots[1].real(), 3.0, 1e-8);
  EXPECT_NEAR(r.roots[1].imag(), 1e-6, 1e-8);
}

TEST(Cubic, RandomCubicsHaveSmallResiduals) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coefficient(-10.0, 10.0);
  for (int trial = 0; trial < 10000; ++trial) {
    const double a = coefficient(rng), b = coefficient(rng), c = coefficient(rng);
    const auto r = solve_monic_cubic(a, b, c);
    for (const auto& x : r.roots) {
      const auto p = ((x + a) * x + b) * x + c;
      const double scale =
          std::pow(std::abs(x), 3) + std::abs(a) * std::norm(x) + std::abs(b) * std::abs(x) + std::abs(c);
      // Backward-stable evaluation: residual is a few ulps of the size of the terms.
      EXPECT_LE(std::abs(p), 1e-13 * scale) << a << " " << b << " " << c;
    }
    // Vieta: the roots sum to -a.
    EXPECT_NEAR((r.roots[0] + r.roots[1] + r.roots[2]).real(), -a, 1e-10 * (1 + std::abs(a)));
  }
}
