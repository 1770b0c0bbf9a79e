// The shared point options of src/app (compiled into this test), used by `theory`, `point` and sweeps.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "point_options.hpp"
#include "rmtsweep/common/error.hpp"

using namespace rmtsweep;
namespace po = boost::program_options;

namespace {

po::variables_map parse(std::vector<std::string> args) {
  args.insert(args.begin(), "test");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  po::options_description options;
  app::add_point_options(options);
  return app::parse_command_line(static_cast<int>(argv.size()), argv.data(), options, "test");
}

void expect_invalid(const std::function<void()>& call, const std::string& option, const std::string& value) {
  try {
    call();
    ADD_FAILURE() << "no InvalidOption for --" << option;
  } catch (const InvalidOption& e) {
    EXPECT_EQ(e.option(), option) << e.what();
    EXPECT_EQ(e.value(), value) << e.what();
  }
}

}  // namespace

TEST(PointOptions, DefaultsAreTheDocumentedPoint) {
  const model::PointParams p = app::point_params_from(parse({}));
  EXPECT_EQ(p.d, 400);
  EXPECT_EQ(p.T, 10);
  EXPECT_EQ(p.delta, 0.5);
  EXPECT_EQ(p.gamma, 0.25);
  EXPECT_EQ(p.snr, 1.0);
  EXPECT_EQ(p.weighting, model::parse_weighting("mean", 10));
  EXPECT_EQ(p.correlation, model::parse_correlation("prefix:3", 10));
  EXPECT_EQ(p.table, model::Table::iid);
  EXPECT_EQ(p.seed, 0u);
  EXPECT_EQ(p.trial, 0);
}

TEST(PointOptions, EveryOptionIsTakenFromTheCommandLine) {
  const model::PointParams p =
      app::point_params_from(parse({"--d", "64", "--T", "4", "--delta", "2", "--gamma", "0.5", "--snr", "3.5",
                                    "--weighting", "custom:1,2,3,4", "--correlation", "markov:-0.2",
                                    "--table", "centered", "--seed", "18446744073709551615", "--trial=7"}));
  EXPECT_EQ(p.d, 64);
  EXPECT_EQ(p.T, 4);
  EXPECT_EQ(p.delta, 2.0);
  EXPECT_EQ(p.gamma, 0.5);
  EXPECT_EQ(p.snr, 3.5);
  EXPECT_EQ(p.weighting, model::parse_weighting("custom:1,2,3,4", 4));
  EXPECT_EQ(p.correlation, model::parse_correlation("markov:-0.2", 4));
  EXPECT_EQ(p.table, model::Table::centered);
  EXPECT_EQ(p.seed, 18446744073709551615ull);
  EXPECT_EQ(p.trial, 7);
}

TEST(PointOptions, TextPairsGiveTheSamePointAndRefuseUnknownNames) {
  const model::PointParams p = app::point_params_from(std::map<std::string, std::string>{
      {"T", "5"}, {"correlation", "prefix:5"}, {"weighting", "optimal"}, {"delta", "1.5"}});
  EXPECT_EQ(p.T, 5);
  EXPECT_EQ(p.delta, 1.5);
  EXPECT_EQ(p.d, 400);
  EXPECT_EQ(p.weighting.kind, model::Weighting::Kind::optimal);
  expect_invalid(
      [] {
        app::point_params_from(std::map<std::string, std::string>{{"dimension", "3"}});
      },
      "dimension", "3");
}

TEST(PointOptions, NonNumbersAreInvalidOptionsNamingTheOption) {
  expect_invalid([] { app::point_params_from(parse({"--d", "4OO"})); }, "d", "4OO");
  expect_invalid([] { app::point_params_from(parse({"--T", "1e1"})); }, "T", "1e1");
  expect_invalid([] { app::point_params_from(parse({"--T", "99999999999"})); }, "T", "99999999999");
  expect_invalid([] { app::point_params_from(parse({"--gamma", "inf"})); }, "gamma", "inf");
  expect_invalid([] { app::point_params_from(parse({"--seed", "x"})); }, "seed", "x");
  expect_invalid([] { app::point_params_from(parse({"--trial", "-2"})); }, "trial", "-2");
}

TEST(PointOptions, IntegersBeyondThirtyTwoBitsAreRefusedWithTheBoundInTheMessage) {
  for (const char* name : {"d", "trial"}) {
    try {
      app::point_params_from(parse({std::string("--") + name, "2147483648"}));
      ADD_FAILURE() << "no InvalidOption for --" << name;
    } catch (const InvalidOption& e) {
      EXPECT_EQ(e.option(), name);
      EXPECT_NE(e.allowed().find("<= 2147483647"), std::string::npos) << e.what();
    }
  }
}

TEST(PointOptions, CommandLineErrorsBecomeInvalidOptions) {
  expect_invalid([] { parse({"--foo", "1"}); }, "foo", "--foo");
  expect_invalid([] { parse({"--del", "0.3"}); }, "del", "--del");  // no prefix guessing
  expect_invalid([] { parse({"--snr"}); }, "snr", "");
  expect_invalid([] { parse({"--d", "3", "--d", "4"}); }, "d", "4");
  expect_invalid([] { parse({"--d", "3", "extra"}); }, "<positional>", "extra");
}

namespace {

/// The message of the InvalidOption `call` throws.
std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidOption& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InvalidOption";
  return {};
}

}  // namespace

TEST(PointOptions, AStrayWordIsCalledAnUnexpectedArgument) {
  EXPECT_EQ(message_of([] {
              parse({"--d", "3", "extra"});
            }).rfind("unexpected argument 'extra': rmtsweep ", 0),
            0u)
      << message_of([] {
           parse({"--d", "3", "extra"});
         });
}

TEST(PointOptions, AnUnknownOptionIsCalledUnknownAndTheAllowedOnesAreListed) {
  EXPECT_EQ(message_of([] {
              parse({"--foo", "1"});
            }).rfind("unknown option '--foo'; allowed: --d, --T, --delta", 0),
            0u)
      << message_of([] {
           parse({"--foo", "1"});
         });
  EXPECT_EQ(message_of([] { parse({"--foo=1"}); }).rfind("unknown option '--foo=1'", 0), 0u);
}

TEST(PointOptions, ARepeatedOptionIsCalledRepeatedWithTheValuesAsTyped) {
  EXPECT_EQ(message_of([] {
              parse({"--snr", "1e0", "--snr=2"});
            }),
            "--snr given twice ('1e0' and '2'): give it once (see rmtsweep test --help)");
  EXPECT_EQ(message_of([] {
              parse({"--d", "3", "--d", "4", "--d", "5"});
            }).rfind("--d given 3 times ('3', '4' and '5')", 0),
            0u);
}

TEST(PointOptions, AMissingValueIsCalledMissing) {
  EXPECT_EQ(message_of([] { parse({"--snr"}); }), "--snr needs a value (see rmtsweep test --help)");
}
