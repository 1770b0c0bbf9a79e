// Sweep config: axis syntax, the weighting-list rule, validation naming key/value/allowed, and the resolved
// text --resume compares.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "rejection.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/config.hpp"

namespace config = rmtsweep::config;
using rmtsweep::InvalidOption;

namespace {

using rmtsweep::test::rejection;

TEST(SweepAxis, AListIsTakenAsGiven) {
  EXPECT_EQ(config::parse_axis("0.5, 1,2e-1", "delta"), (std::vector<double>{0.5, 1.0, 0.2}));
}

TEST(SweepAxis, ALinearRangeIncludesBothEndsExactly) {
  EXPECT_EQ(config::parse_axis("0:2:5", "snr"), (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0}));
  EXPECT_EQ(config::parse_axis("3:3:1", "snr"), (std::vector<double>{3.0}));
}

TEST(SweepAxis, ALinearRangeHoldsTheDecimalsAUserWouldType) {
  // start + i step in binary gives 0.6000000000000001 and 1.2000000000000002 here; the range's own digits
  // (one decimal: 0.2, 1.6 and the step 0.2) say 0.6 and 1.2, and are what .sel(delta=0.6) looks for.
  EXPECT_EQ(config::parse_axis("0.2:1.6:8", "delta"),
            (std::vector<double>{0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6}));
  const std::vector<double> snr = config::parse_axis("0:3:16", "snr");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(snr[i], std::stod(std::to_string(2 * i) + "e-1")) << i;
  EXPECT_EQ(config::parse_axis("1e-3:5e-3:5", "gamma"),
            (std::vector<double>{0.001, 0.002, 0.003, 0.004, 0.005}));
  EXPECT_EQ(config::parse_axis("0.5:1:3", "gamma"), (std::vector<double>{0.5, 0.75, 1.0}));  // a decimal more
  EXPECT_EQ(config::parse_axis("-1:1:5", "snr"), (std::vector<double>{-1.0, -0.5, 0.0, 0.5, 1.0}));
  // The config stores them as typed, so the file's grid, /points and /phase hold 0.6 too.
  const std::string text = config::resolved_config_text(config::parse_sweep_config({{"delta", "0.2:1.6:8"}}));
  EXPECT_NE(text.find("delta = 0.2,0.4,0.6,0.8,1,1.2,1.4,1.6\n"), std::string::npos) << text;
}

TEST(SweepAxis, ALinearRangeWhoseStepIsNoFiniteDecimalStaysBinary) {
  // Thirds have no decimal to round to: the values are computed as before, both ends exact.
  const std::vector<double> thirds = config::parse_axis("0:1:4", "snr");
  ASSERT_EQ(thirds.size(), 4u);
  EXPECT_EQ(thirds[0], 0.0);
  EXPECT_DOUBLE_EQ(thirds[1], 1.0 / 3.0);  // within 4 ulp: one division and one product
  EXPECT_DOUBLE_EQ(thirds[2], 2.0 / 3.0);
  EXPECT_EQ(thirds[3], 1.0);
}

TEST(SweepAxis, ALogRangeIsGeometricWithExactEnds) {
  const std::vector<double> values = config::parse_axis("log:0.01:1:3", "gamma");
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], 0.01);
  EXPECT_EQ(values[1], 0.1);
  EXPECT_EQ(values[2], 1.0);
  const std::vector<double> halves = config::parse_axis("log:1:100:5", "snr");
  EXPECT_NEAR(halves[1], std::sqrt(10.0), 1e-15 * std::sqrt(10.0));
  EXPECT_NEAR(halves[3], 10.0 * std::sqrt(10.0), 1e-14 * std::sqrt(10.0));
}

TEST(SweepAxis, ALogRangePutsExactDecadesExactly) {
  EXPECT_EQ(config::parse_axis("log:1:100:3", "snr"), (std::vector<double>{1, 10, 100}));
  EXPECT_EQ(config::parse_axis("log:100:1:3", "snr"), (std::vector<double>{100, 10, 1}));
  EXPECT_EQ(config::parse_axis("log:1e-3:1e3:7", "snr"),
            (std::vector<double>{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3}));
  const std::vector<double> decades = config::parse_axis("log:1:1e12:13", "snr");
  for (int k = 0; k <= 12; ++k) EXPECT_EQ(decades[k], std::stod("1e" + std::to_string(k))) << k;
  const std::vector<double> thirds = config::parse_axis("log:0.1:100:10", "snr");  // 3 points per decade
  EXPECT_EQ(thirds[3], 1.0);
  EXPECT_EQ(thirds[6], 10.0);
  // The same sweep as the list of its values, which --resume compares.
  EXPECT_EQ(config::resolved_config_text(config::parse_sweep_config({{"snr", "log:1:100:3"}})),
            config::resolved_config_text(config::parse_sweep_config({{"snr", "1,10,100"}})));
}

TEST(SweepAxis, MalformedAxesAreRejectedNamingTheKey) {
  for (const char* bad : {"", "1,,2", "1:2", "1:2:0", "2:1:1", "log:0:1:3", "1,1", "a", "1:2:3:4", "nan"}) {
    const InvalidOption e = rejection([&] { (void)config::parse_axis(bad, "snr"); });
    EXPECT_EQ(e.option(), "snr") << bad;
    EXPECT_EQ(e.value(), bad);
    EXPECT_NE(e.allowed().find("start:stop:count"), std::string::npos);
  }
}

TEST(SweepWeightingList, NumbersContinueTheCustomItemBeforeThem) {
  EXPECT_EQ(config::split_weighting_list("mean,custom:1,0,0,causal:0.5,markov:0.3,optimal"),
            (std::vector<std::string>{"mean", "custom:1,0,0", "causal:0.5", "markov:0.3", "optimal"}));
  EXPECT_EQ(config::split_weighting_list("custom:1,2,custom:3,-4e-1"),
            (std::vector<std::string>{"custom:1,2", "custom:3,-4e-1"}));
}

TEST(SweepWeightingList, ANumberAfterANonCustomItemIsRejected) {
  const InvalidOption e = rejection([] { (void)config::split_weighting_list("mean,0.5"); });
  EXPECT_EQ(e.option(), "weighting");
  EXPECT_EQ(e.value(), "mean,0.5");
  EXPECT_EQ(rejection([] { (void)config::split_weighting_list("mean,,last"); }).option(), "weighting");
}

TEST(SweepConfig, DefaultsDescribeOnePoint) {
  const config::SweepConfig c = config::parse_sweep_config({});
  EXPECT_EQ(c.point_count(), 1);
  EXPECT_EQ(c.d, std::vector<int>{400});  // the one default of option_table, rmtsweep point's too
  EXPECT_TRUE(c.spectra_stored(400));     // auto: d <= 4096
  EXPECT_FALSE(config::parse_sweep_config({{"d", "5000"}, {"k", "4"}}).any_spectra());
}

TEST(SweepConfig, DIsAnAxisOfDistinctIntegersInConfigOrder) {
  EXPECT_EQ(config::parse_sweep_config({{"d", "500,1000,2000"}}).d, (std::vector<int>{500, 1000, 2000}));
  EXPECT_EQ(config::parse_sweep_config({{"d", "2000,500"}}).d, (std::vector<int>{2000, 500}));
  // A log range is rounded to integers: 250 * 2^i.
  EXPECT_EQ(config::parse_sweep_config({{"d", "log:250:4000:5"}}).d,
            (std::vector<int>{250, 500, 1000, 2000, 4000}));
  EXPECT_EQ(config::parse_sweep_config({{"d", "100:300:3"}}).d, (std::vector<int>{100, 200, 300}));
}

TEST(SweepConfig, ABadDAxisIsRefusedNamingD) {
  for (const char* text : {"500,500", "500,1000.5", "0,100", "-4", "log:1:3:5", "abc", ""}) {
    const auto e = rejection([&] { (void)config::parse_sweep_config({{"d", text}}); });
    EXPECT_EQ(e.option(), "d") << text;
    EXPECT_EQ(e.value(), text);
  }
}

TEST(SweepConfig, TheGridMultipliesTheSizesAndKFitsTheSmallest) {
  const config::SweepConfig c =
      config::parse_sweep_config({{"d", "8,100,50"}, {"snr", "0,1"}, {"trials", "3"}});
  EXPECT_EQ(c.point_count(), 3 * 2 * 3);
  EXPECT_EQ(c.points_per_d(), 2 * 3);
  EXPECT_EQ(c.smallest_d(), 8);
  EXPECT_EQ(c.k, 4);
  EXPECT_EQ(rejection([] { (void)config::parse_sweep_config({{"d", "3,100"}, {"k", "4"}}); }).option(), "k");
}

TEST(SweepConfig, AutoSpectraAreStoredForTheSizesUpTo4096Only) {
  const config::SweepConfig c = config::parse_sweep_config({{"d", "1000,8000"}});
  EXPECT_TRUE(c.spectra_stored(1000));
  EXPECT_FALSE(c.spectra_stored(8000));
  EXPECT_NE(config::resolved_config_text(c).find("store_spectra = auto\n"), std::string::npos);
  // A one-size config resolves auto to true or false, as the files written before d was an axis did.
  EXPECT_NE(config::resolved_config_text(config::parse_sweep_config({{"d", "1000"}}))
                .find("store_spectra = true\n"),
            std::string::npos);
  EXPECT_FALSE(config::parse_sweep_config({{"d", "1000,8000"}, {"store_spectra", "false"}}).any_spectra());
  EXPECT_TRUE(
      config::parse_sweep_config({{"d", "1000,8000"}, {"store_spectra", "true"}}).spectra_stored(8000));
}

TEST(SweepConfig, TheResolvedTextOfADAxisParsesBackToTheSameSweep) {
  const config::SweepConfig c = config::parse_sweep_config({{"d", "log:250:4000:5"}, {"snr", "0,1"}});
  const std::string text = config::resolved_config_text(c);
  EXPECT_NE(text.find("d = 250,500,1000,2000,4000\n"), std::string::npos);
  std::map<std::string, std::string> values;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find(" = ");
    values[line.substr(0, equals)] = line.substr(equals + 3);
  }
  EXPECT_EQ(config::resolved_config_text(config::parse_sweep_config(values)), text);
}

TEST(SweepConfig, TheDefaultKShrinksToDButAnExplicitKAboveDIsRejected) {
  EXPECT_EQ(config::parse_sweep_config({{"d", "3"}, {"delta", "0.5"}, {"gamma", "0.25"}}).k, 3);
  EXPECT_EQ(rejection([] { (void)config::parse_sweep_config({{"d", "3"}, {"k", "4"}}); }).option(), "k");
}

// model.md 1.2: every point of a new sweep records at least its top 4 eigenvalues; a stored
// config from before that rule (k from 1) still reads back, so its file assembles and resumes.
TEST(SweepConfig, ANewSweepWithKBelowFourIsRejectedUnlessDIsBelowFour) {
  const config::SweepConfig three = config::parse_sweep_config({{"d", "100"}, {"k", "3"}});
  EXPECT_EQ(three.k, 3) << "a stored k = 3 reads back";
  const InvalidOption e = rejection([&] { config::require_top_four(three); });
  EXPECT_EQ(e.option(), "k");
  EXPECT_NE(std::string(e.what()).find("min(4, d) <= k <= d = 100"), std::string::npos) << e.what();
  EXPECT_NO_THROW(config::require_top_four(config::parse_sweep_config({{"d", "100"}, {"k", "4"}})));
  EXPECT_NO_THROW(config::require_top_four(
      config::parse_sweep_config({{"d", "2"}, {"delta", "0.5"}, {"gamma", "0.25"}, {"k", "2"}})));
}

TEST(SweepConfig, EveryPointIsValidatedSoPrefixLongerThanTIsRejected) {
  const InvalidOption e = rejection([] {
    (void)config::parse_sweep_config({{"T", "4"}, {"correlation", "prefix:5"}});
  });
  EXPECT_EQ(e.option(), "correlation");
  EXPECT_EQ(e.value(), "prefix:5");
}

TEST(SweepConfig, CustomWeightsOfTheWrongLengthAreRejected) {
  const InvalidOption e = rejection([] {
    (void)config::parse_sweep_config({{"T", "3"}, {"weighting", "mean,custom:1,2"}});
  });
  EXPECT_EQ(e.option(), "weighting");
}

TEST(SweepConfig, BadScalarsAreRejectedNamingKeyAndValue) {
  const std::vector<std::pair<std::string, std::string>> cases{{"d", "0"},
                                                               {"T", "x"},
                                                               {"trials", "0"},
                                                               {"k", "500"},  // above the default d = 400
                                                               {"ridge", "0"},
                                                               {"ntest", "-1"},
                                                               {"seed", "-1"},
                                                               {"store_spectra", "maybe"},
                                                               {"ranks_per_point", "0"},
                                                               {"eigensolver", "lapack"},
                                                               {"table", "gaussian"},
                                                               {"fail_points", "99"},
                                                               {"unit_pause", "11"},
                                                               {"unit_pause", "-0.1"},
                                                               {"delta", "1e9"},
                                                               {"colour", "red"}};
  for (const auto& [key, value] : cases) {
    const InvalidOption e = rejection([&] { (void)config::parse_sweep_config({{key, value}}); });
    EXPECT_EQ(e.option(), key) << key << " = " << value << ": " << e.what();
    EXPECT_FALSE(e.allowed().empty());
  }
}

TEST(SweepConfig, TheTestsUnitPauseIsReadButLeftOutOfTheStoredConfig) {
  const config::SweepConfig paused = config::parse_sweep_config({{"unit_pause", "0.25"}});
  EXPECT_EQ(paused.unit_pause, 0.25);
  EXPECT_EQ(config::parse_sweep_config({}).unit_pause, 0.0);
  EXPECT_EQ(config::resolved_config_text(paused),
            config::resolved_config_text(config::parse_sweep_config({})))
      << "a pause changes no result: a sweep resumes with another";
}

TEST(SweepConfig, TheEigensolverIsAutomaticUnlessScalapackIsAskedFor) {
  EXPECT_EQ(config::parse_sweep_config({}).eigensolver, config::EigenSetting::automatic);
  EXPECT_EQ(config::parse_sweep_config({{"eigensolver", "auto"}}).eigensolver,
            config::EigenSetting::automatic);
  EXPECT_EQ(config::parse_sweep_config({{"eigensolver", "krylov"}, {"store_spectra", "false"}}).eigensolver,
            config::EigenSetting::krylov);
  EXPECT_EQ(config::parse_sweep_config({{"eigensolver", "dense"}}).eigensolver, config::EigenSetting::dense);
  EXPECT_EQ(config::engine_of(config::EigenSetting::krylov), rmtsweep::simulate::Engine::krylov);
  EXPECT_EQ(config::engine_of(config::EigenSetting::scalapack), rmtsweep::simulate::Engine::dense);
  EXPECT_EQ(config::reducer_of(config::EigenSetting::scalapack), rmtsweep::parallel::EigenSolver::scalapack);
  const InvalidOption e = rejection([] { (void)config::parse_sweep_config({{"eigensolver", "elpa2"}}); });
  EXPECT_EQ(e.value(), "elpa2");
  EXPECT_NE(e.allowed().find("scalapack"), std::string::npos) << e.allowed();
}

TEST(SweepConfig, DuplicateWeightingsAreRejected) {
  EXPECT_EQ(rejection([] {
              (void)config::parse_sweep_config({{"weighting", "mean,optimal,mean"}});
            }).option(),
            "weighting");
}

TEST(SweepConfig, AConfigTooLongForTheFilesConfigAttributeIsRejectedNamingTheLongestAxis) {
  // 15001 snr values written out take ~100 KB, more than one HDF5 attribute holds.
  const InvalidOption e = rejection([] {
    config::parse_sweep_config({{"d", "10"}, {"T", "3"}, {"correlation", "iid"}, {"snr", "0:4:15001"}});
  });
  EXPECT_EQ(e.option(), "snr");
  EXPECT_EQ(e.value(), "0:4:15001");
  // 4001 values (~24 KB) still fit.
  EXPECT_EQ(config::parse_sweep_config({{"d", "10"}, {"T", "3"}, {"correlation", "iid"}, {"snr", "0:4:4001"}})
                .point_count(),
            4001);
}

TEST(SweepConfig, AGridOfMoreThanTwoBillionPointsIsRejectedBeforeItsPointsAreValidated) {
  // 1000^3 x 1000 trials = 1e12 points; validating every combination would take hours.
  const InvalidOption e = rejection([] {
    config::parse_sweep_config({{"d", "10"},
                                {"delta", "1:2:1000"},
                                {"gamma", "1:2:1000"},
                                {"snr", "0:999:1000"},
                                {"trials", "1000000"}});
  });
  EXPECT_EQ(e.option(), "trials");
  EXPECT_EQ(e.value(), "1000000");
}

TEST(SweepConfig, TheResolvedTextIsAConfigThatResolvesToItself) {
  const config::SweepConfig c =
      config::parse_sweep_config({{"d", "80"},
                                  {"snr", "0:1:3"},
                                  {"weighting", "mean,custom:1,1,1,0,0,0,0,0,0,0,causal:0.5"},
                                  {"trials", "2"},
                                  {"ranks_per_point", "2"},
                                  {"eigensolver", "scalapack"}});
  EXPECT_EQ(c.eigensolver, config::EigenSetting::scalapack);
  const std::string text = config::resolved_config_text(c);
  EXPECT_NE(text.find("snr = 0,0.5,1\n"), std::string::npos) << text;
  for (const char* setting : {"ranks_per_point", "eigensolver"})
    EXPECT_EQ(text.find(setting), std::string::npos)
        << setting << ": execution settings are not compared on resume";
  std::map<std::string, std::string> values;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find(" = ");
    values[line.substr(0, eq)] = line.substr(eq + 3);
  }
  EXPECT_EQ(config::resolved_config_text(config::parse_sweep_config(values)), text);
}

TEST(SweepConfig, DifferencesListOnlyTheChangedLines) {
  EXPECT_EQ(config::config_differences("d = 1\nT = 2\n", "d = 1\nT = 3\n"),
            (std::vector<std::string>{"- T = 2", "+ T = 3"}));
}

TEST(SweepConfig, AFileWrittenWhileLogRangesMissedDecadesIsTheSameSweepAndResumesWithItsOwnValues) {
  // exp/log gave log:1:100:3 as 1,10.000000000000002,100: such a file's stored config.
  const std::string stored =
      config::resolved_config_text(config::parse_sweep_config({{"snr", "1,10.000000000000002,100"}}));
  const config::SweepConfig given = config::parse_sweep_config({{"snr", "log:1:100:3"}});
  const std::string resolved = config::resolved_config_text(given);
  ASSERT_NE(stored, resolved);
  EXPECT_TRUE(config::same_sweep(stored, resolved));
  EXPECT_TRUE(config::config_differences(stored, resolved).empty());
  EXPECT_EQ(config::with_stored_axes(given, stored).snr, (std::vector<double>{1, 10.000000000000002, 100}));
  EXPECT_EQ(config::resolved_config_text(config::with_stored_axes(given, stored)), stored);
}

TEST(SweepConfig, AFileWrittenBeforeLinearRangesHeldTheirDecimalsResumesWithItsOwnValues) {
  // Linear ranges were start + i step in binary: 0.2:1.6:8 was stored with 0.6000000000000001.
  const std::string stored = config::resolved_config_text(
      config::parse_sweep_config({{"delta", "0.2,0.4,0.6000000000000001,0.8,1,1.2000000000000002,1.4,1.6"}}));
  const config::SweepConfig given = config::parse_sweep_config({{"delta", "0.2:1.6:8"}});
  const std::string resolved = config::resolved_config_text(given);
  ASSERT_NE(stored, resolved);
  EXPECT_TRUE(config::same_sweep(stored, resolved));
  EXPECT_EQ(config::resolved_config_text(config::with_stored_axes(given, stored)), stored);
}

TEST(SweepConfig, AxisValuesThatReallyDifferAreNotTheSameSweep) {
  const std::string stored = config::resolved_config_text(config::parse_sweep_config({{"snr", "1,10,100"}}));
  for (const char* other : {"1,10.00001,100", "1,10", "1,10,100,1000", "1,100,10"}) {
    const std::string given = config::resolved_config_text(config::parse_sweep_config({{"snr", other}}));
    EXPECT_FALSE(config::same_sweep(stored, given)) << other;
    EXPECT_FALSE(config::config_differences(stored, given).empty()) << other;
  }
  const std::string other_d =
      config::resolved_config_text(config::parse_sweep_config({{"snr", "1,10,100"}, {"d", "201"}}));
  EXPECT_FALSE(config::same_sweep(stored, other_d));
}

// A list of a million items parses in linear time (each item's message value was copied before: a million
// items took 62 s, a 10 MB line would have taken 25 minutes). 10 s is 50 times what it takes here under load.
TEST(SweepAxis, AListOfAMillionItemsParsesInLinearTime) {
  std::string list = "0";
  for (int i = 1; i < 1000000; ++i) {
    list += ',';
    list += std::to_string(i);
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(config::parse_axis(list, "snr").size(), 1000000u);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
}

// The cap is what can fit the stored config (64000 bytes, two at least per value), and is said with it.
TEST(SweepAxis, ARangeCountAboveTheCapStatesTheCap) {
  const InvalidOption e = rejection([] { (void)config::parse_axis("0:1:2000000", "snr"); });
  EXPECT_EQ(e.value(), "0:1:2000000");
  EXPECT_NE(e.allowed().find("1 <= count <= 32000"), std::string::npos) << e.what();
  EXPECT_NE(e.allowed().find("fits in the 64000-byte config the file stores"), std::string::npos) << e.what();
  EXPECT_EQ(config::max_resolved_config_bytes / 2, 32000u);
}

// Accepted before, then every point failed (exit 3): N = d/gamma beyond ScaLAPACK's 32-bit indices, and
// the Krylov engine asked for spectra. Refused by the config, the value as given.
TEST(SweepConfig, AGammaTooSmallToSimulateIsRefusedWithTheValueAsGiven) {
  const InvalidOption e = rejection([] { (void)config::parse_sweep_config({{"gamma", "1e-9"}}); });
  EXPECT_EQ(e.option(), "gamma");
  EXPECT_EQ(e.value(), "1e-9");
  EXPECT_NE(e.allowed().find("below 2^31"), std::string::npos) << e.what();
}

TEST(SweepConfig, TheKrylovEngineIsRefusedWhereASpectrumIsStored) {
  for (const char* spectra : {"true", "auto"}) {  // auto stores the spectra of d <= 4096 (here 400)
    const InvalidOption e = rejection([&] {
      (void)config::parse_sweep_config({{"eigensolver", "krylov"}, {"store_spectra", spectra}});
    });
    EXPECT_EQ(e.option(), "eigensolver");
    EXPECT_EQ(e.value(), "krylov");
  }
  EXPECT_NO_THROW((void)config::parse_sweep_config({{"eigensolver", "krylov"}, {"store_spectra", "false"}}));
}

}  // namespace
