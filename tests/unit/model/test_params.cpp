#include <gtest/gtest.h>

#include <cmath>

#include "expect_invalid.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/parse_number.hpp"

using namespace rmtsweep::model;

TEST(Params, VocabularyIsEvenAndSequencesAreRounded) {
  PointParams p;
  EXPECT_EQ(p.vocabulary(), 800);
  EXPECT_EQ(p.sequences(), 1600);
  p.delta = 0.3;  // d/(2 delta) = 666.67 -> 667
  p.gamma = 3.0;  // d/gamma = 133.33 -> 133
  EXPECT_EQ(p.vocabulary(), 1334);
  EXPECT_EQ(p.sequences(), 133);
}

TEST(Params, DefaultsAreValid) { EXPECT_NO_THROW(validate(PointParams{})); }

TEST(Params, SnrUpToItsBoundIsValid) {
  PointParams p;
  p.snr = max_snr;
  EXPECT_NO_THROW(validate(p));
  p.snr = 0.0;
  EXPECT_NO_THROW(validate(p));
}

TEST(Params, EveryInvalidFieldIsReportedWithItsOption) {
  auto with = [](auto change) {
    PointParams p;
    change(p);
    return p;
  };
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.d = 0; })); }, "d", "0");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.T = 0; })); }, "T", "0");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.T = max_sequence_length + 1; })); }, "T",
                        std::to_string(max_sequence_length + 1));
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.delta = 0; })); }, "delta", "0");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.delta = -1; })); }, "delta", "-1");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.delta = 1000; })); }, "delta", "1000");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.gamma = 0; })); }, "gamma", "0");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.gamma = 500; })); }, "gamma", "500");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.snr = -0.5; })); }, "snr", "-0.5");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.snr = 1e300; })); }, "snr", "1e+300");
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.trial = -1; })); }, "trial", "-1");
  // The default correlation prefix:3 no longer fits once T = 2.
  expect_invalid_option([&] { validate(with([](PointParams& p) { p.T = 2; })); }, "correlation", "prefix:3");
  expect_invalid_option(
      [&] {
        validate(with([](PointParams& p) {
          p.weighting.kind = Weighting::Kind::custom;
          p.weighting.custom = {1, 2};
        }));
      },
      "weighting", "custom:1,2");
  // Checked on the values themselves, not on their text read back: a built markov:nan or causal:inf.
  expect_invalid_option(
      [&] {
        validate(with([](PointParams& p) { p.correlation = {Correlation::Kind::markov, 3, std::nan("")}; }));
      },
      "correlation", "markov:nan");
  expect_invalid_option(
      [&] {
        validate(with([](PointParams& p) { p.weighting = {Weighting::Kind::causal, HUGE_VAL, {}}; }));
      },
      "weighting", "causal:inf");
}

TEST(Params, TableParsesItsTwoNames) {
  EXPECT_EQ(parse_table("iid"), Table::iid);
  EXPECT_EQ(parse_table("centered"), Table::centered);
  EXPECT_EQ(to_string(Table::centered), "centered");
  expect_invalid_option([] { parse_table("centred"); }, "table", "centred");
}

TEST(ParseNumber, AcceptsPlainDecimalNumbers) {
  EXPECT_EQ(parse_double("0.25", "x", "allowed: any"), 0.25);
  EXPECT_EQ(parse_double("+2", "x", "allowed: any"), 2.0);
  EXPECT_EQ(parse_double("-1e-3", "x", "allowed: any"), -1e-3);
  EXPECT_EQ(parse_integer("+12", "x", "allowed: any"), 12);
  EXPECT_EQ(parse_integer("-7", "x", "allowed: any"), -7);
  EXPECT_EQ(parse_unsigned("18446744073709551615", "x", "allowed: any"), 18446744073709551615ull);
}

TEST(ParseNumber, RejectsAnythingThatIsNotExactlyOneFiniteNumber) {
  for (const char* text :
       {"", " 1", "1 ", "1x", "abc", "inf", "nan", "-inf", "1e999", "0x10", "+", "+-1", "1,5"}) {
    expect_invalid_option([&] { parse_double(text, "x", "allowed: a number"); }, "x", text);
  }
  for (const char* text : {"1.5", "1e3", "", "99999999999999999999", "--1"}) {
    expect_invalid_option([&] { parse_integer(text, "n", "allowed: an integer"); }, "n", text);
  }
  expect_invalid_option([] { parse_unsigned("-1", "seed", "allowed: an integer >= 0"); }, "seed", "-1");
}

TEST(ParseNumber, FormatsDoublesSoTheyParseBackExactly) {
  for (double x : {0.1, 1.0 / 3, -2.5e-300, 1e22, 0.0}) {
    EXPECT_EQ(parse_double(format_double(x), "x", "allowed: any"), x);
  }
}
