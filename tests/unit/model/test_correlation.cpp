#include <gtest/gtest.h>

#include <cmath>

#include "expect_invalid.hpp"
#include "rmtsweep/model/correlation.hpp"

using namespace rmtsweep::model;

TEST(Correlation, ParsesTheThreeKinds) {
  EXPECT_EQ(parse_correlation("iid", 10).kind, Correlation::Kind::iid);
  const Correlation prefix = parse_correlation("prefix:4", 10);
  EXPECT_EQ(prefix.kind, Correlation::Kind::prefix);
  EXPECT_EQ(prefix.prefix_length, 4);
  const Correlation markov = parse_correlation("markov:-0.25", 10);
  EXPECT_EQ(markov.kind, Correlation::Kind::markov);
  EXPECT_EQ(markov.phi, -0.25);
}

TEST(Correlation, CanonicalTextRoundTrips) {
  for (const char* text : {"iid", "prefix:1", "prefix:10", "markov:0.3", "markov:-0.999", "markov:0"}) {
    const Correlation parsed = parse_correlation(text, 10);
    EXPECT_EQ(to_string(parsed), text);
    EXPECT_EQ(parse_correlation(to_string(parsed), 10), parsed);
  }
}

TEST(Correlation, PrefixLengthMustLieBetweenOneAndT) {
  expect_invalid_option([] { parse_correlation("prefix:11", 10); }, "correlation", "prefix:11");
  expect_invalid_option([] { parse_correlation("prefix:0", 10); }, "correlation", "prefix:0");
  expect_invalid_option([] { parse_correlation("prefix:-2", 10); }, "correlation", "prefix:-2");
}

TEST(Correlation, MarkovPhiMustBeStrictlyInsideMinusOneOne) {
  expect_invalid_option([] { parse_correlation("markov:1", 10); }, "correlation", "markov:1");
  expect_invalid_option([] { parse_correlation("markov:-1", 10); }, "correlation", "markov:-1");
  expect_invalid_option([] { parse_correlation("markov:1.5", 10); }, "correlation", "markov:1.5");
}

TEST(Correlation, NonNumbersAndUnknownNamesAreRejectedWithTheOptionName) {
  for (const char* text : {"prefix:", "prefix:abc", "prefix:2.5", "prefix:3x", "markov:x", "markov:nan",
                           "markov:inf", "markov:", "Prefix:3", "foo", "", "iid:2"}) {
    expect_invalid_option([&] { parse_correlation(text, 10, "corr"); }, "corr", text);
  }
}

TEST(Correlation, PrefixMatrixIsAllOnesBlockThenIdentity) {
  const int T = 5, L = 3;
  const auto R = correlation_matrix(parse_correlation("prefix:3", T), T);
  for (int t = 0; t < T; ++t) {
    for (int s = 0; s < T; ++s) {
      const double expected = (t == s || (t < L && s < L)) ? 1.0 : 0.0;
      EXPECT_EQ(R[static_cast<std::size_t>(t * T + s)], expected) << t << "," << s;
    }
  }
}

TEST(Correlation, MarkovMatrixDecaysAsPhiToTheLag) {
  const int T = 6;
  const double phi = -0.7;
  const auto R = correlation_matrix(parse_correlation("markov:-0.7", T), T);
  for (int t = 0; t < T; ++t) {
    for (int s = 0; s < T; ++s) {
      // Both sides are products of the same |t-s| factors: equal to rounding (1e-15).
      EXPECT_NEAR(R[static_cast<std::size_t>(t * T + s)], std::pow(phi, std::abs(t - s)), 1e-15);
    }
  }
}

TEST(Correlation, IidMatrixIsTheIdentity) {
  const auto R = correlation_matrix(parse_correlation("iid", 3), 3);
  EXPECT_EQ(R, (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST(Correlation, ABuiltCorrelationValidatesItselfForT) {
  Correlation c;  // prefix:3
  EXPECT_TRUE(c.valid_for(3));
  EXPECT_FALSE(c.valid_for(2));
  c.prefix_length = 0;
  EXPECT_FALSE(c.valid_for(10));
  c = Correlation{Correlation::Kind::markov, 3, std::nan("")};
  EXPECT_FALSE(c.valid_for(10));
  c.phi = -0.999;
  EXPECT_TRUE(c.valid_for(10));
  c.phi = 1.0;
  EXPECT_FALSE(c.valid_for(10));
  EXPECT_TRUE(Correlation{Correlation::Kind::iid}.valid_for(1));
}

TEST(Correlation, TheParserRefusesWithTheAllowedTextOfT) {
  try {
    parse_correlation("prefix:11", 10);
    ADD_FAILURE() << "prefix:11 accepted for T = 10";
  } catch (const rmtsweep::InvalidOption& e) {
    EXPECT_EQ(e.allowed(), allowed_correlations(10));
  }
}
