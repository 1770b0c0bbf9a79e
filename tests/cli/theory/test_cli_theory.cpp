#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/bulk.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/prediction.hpp"
#include "run_binary.hpp"

using nlohmann::json;

namespace {

json run_json(const std::vector<std::string>& args) {
  std::vector<std::string> full{"theory", "--json"};
  full.insert(full.end(), args.begin(), args.end());
  const RunResult run = run_rmtsweep(full);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  return json::parse(run.out);
}

/// The point of `theory --bulk finite-T --d 200 --trial 3 --weighting last --snr 3` (T = 10, prefix:3).
rmtsweep::model::PointParams last_pooling_at_d200_trial3() {
  rmtsweep::model::PointParams params;
  params.d = 200;
  params.trial = 3;
  params.snr = 3.0;
  params.weighting = rmtsweep::model::parse_weighting("last", params.T);
  params.correlation = rmtsweep::model::parse_correlation("prefix:3", params.T);
  return params;
}

// model.md 5.3 prints six decimals: a correct value is within 5e-7, hence 1e-6.
constexpr double table_tolerance = 1e-6;

}  // namespace

TEST(CliTheory, JsonHasExactlyTheDocumentedKeys) {
  const json out = run_json({});
  std::set<std::string> keys;
  for (const auto& item : out.items()) keys.insert(item.key());
  const std::set<std::string> expected{"alpha",
                                       "kappa",
                                       "theta",
                                       "bulk_edge_left",
                                       "bulk_edge_right",
                                       "pop_threshold_snr",
                                       "sample_threshold_snr",
                                       "pop_outlier",
                                       "pop_overlap",
                                       "top_eigenvalue",
                                       "overlap",
                                       "detectable",
                                       "effective_tokens",
                                       "finite_t_bulk_edge_right",
                                       "finite_t"};
  EXPECT_EQ(keys, expected);
  EXPECT_TRUE(out["finite_t"].is_null()) << "only with --bulk finite-T";
}

TEST(CliTheory, JsonGivesTheWorkedValuesOfTheDefaultPoint) {
  // Defaults: T = 10, prefix:3, delta = 0.5, gamma = 0.25, snr = 1, mean weighting, iid table.
  const json out = run_json({});
  EXPECT_NEAR(out["alpha"].get<double>(), 0.16, 1e-12);
  EXPECT_NEAR(out["kappa"].get<double>(), 0.1, 1e-12);
  EXPECT_NEAR(out["theta"].get<double>(), 2.4, 1e-12);
  EXPECT_NEAR(out["bulk_edge_right"].get<double>(), 0.374669, table_tolerance);
  EXPECT_NEAR(out["top_eigenvalue"].get<double>(), 0.414515, table_tolerance);
  EXPECT_NEAR(out["overlap"].get<double>(), 0.424875, table_tolerance);
  EXPECT_EQ(out["detectable"], true);
  EXPECT_TRUE(out["pop_outlier"].is_number());
}

TEST(CliTheory, JsonForOptimalPoolingAndACenteredTableMatchesTheWorkedValues) {
  const json optimal = run_json({"--weighting", "optimal"});
  EXPECT_NEAR(optimal["top_eigenvalue"].get<double>(), 1.992188, table_tolerance);
  EXPECT_NEAR(optimal["overlap"].get<double>(), 0.590686, table_tolerance);
  const json centered = run_json({"--table", "centered", "--snr", "3"});
  EXPECT_NEAR(centered["theta"].get<double>(), 4.8, 1e-12);
  EXPECT_NEAR(centered["top_eigenvalue"].get<double>(), 0.626025, table_tolerance);
  EXPECT_NEAR(centered["overlap"].get<double>(), 0.897361, table_tolerance);
}

TEST(CliTheory, JsonEqualsTheLibraryPredictionForAnyPoint) {
  const json out =
      run_json({"--d", "300", "--T", "6", "--delta", "1.7", "--gamma", "0.4", "--snr", "2.5", "--weighting",
                "harmonic", "--correlation", "markov:0.3", "--table", "centered"});
  rmtsweep::model::PointParams params;
  params.d = 300;
  params.T = 6;
  params.delta = 1.7;
  params.gamma = 0.4;
  params.snr = 2.5;
  params.weighting = rmtsweep::model::parse_weighting("harmonic", 6);
  params.correlation = rmtsweep::model::parse_correlation("markov:0.3", 6);
  params.table = rmtsweep::model::Table::centered;
  const auto p = rmtsweep::theory::predict(params);
  // JSON prints doubles so that they parse back exactly.
  EXPECT_EQ(out["alpha"].get<double>(), p.alpha);
  EXPECT_EQ(out["kappa"].get<double>(), p.kappa);
  EXPECT_EQ(out["bulk_edge_left"].get<double>(), p.bulk_edge_left);
  EXPECT_EQ(out["sample_threshold_snr"].get<double>(), p.sample_threshold_snr);
  EXPECT_EQ(out["top_eigenvalue"].get<double>(), p.top_eigenvalue);
  EXPECT_EQ(out["overlap"].get<double>(), p.overlap);
}

TEST(CliTheory, PopOutlierIsNullBelowThePopulationThreshold) {
  const json out = run_json({"--snr", "0.1"});
  EXPECT_TRUE(out["pop_outlier"].is_null());
  EXPECT_EQ(out["pop_overlap"].get<double>(), 0.0);
  EXPECT_EQ(out["detectable"], false);
  EXPECT_EQ(out["top_eigenvalue"].get<double>(), out["bulk_edge_right"].get<double>());
  EXPECT_EQ(out["overlap"].get<double>(), 0.0);
}

TEST(CliTheory, DensityAddsKPointsAcrossTheSupport) {
  const json out = run_json({"--density", "50", "--delta", "2", "--gamma", "0.5"});
  ASSERT_TRUE(out.contains("density"));
  const auto& density = out["density"];
  ASSERT_EQ(density.size(), 50u);
  const double left = out["bulk_edge_left"].get<double>(), right = out["bulk_edge_right"].get<double>();
  double previous_x = left;
  for (const auto& pair : density) {
    ASSERT_EQ(pair.size(), 2u);
    const double x = pair[0].get<double>(), f = pair[1].get<double>();
    EXPECT_GT(x, previous_x);
    EXPECT_LT(x, right);
    EXPECT_GT(f, 0.0);
    EXPECT_EQ(f, rmtsweep::theory::bulk_density(x, 2.0, 0.5, out["kappa"].get<double>()));
    previous_x = x;
  }
}

TEST(CliTheory, JsonGivesTheEffectiveTokensAndNoFiniteTEdgeByDefault) {
  const json out = run_json({});
  EXPECT_NEAR(out["effective_tokens"].get<double>(), 10.0, 1e-12);  // mean pooling, T = 10
  EXPECT_TRUE(out["finite_t_bulk_edge_right"].is_null());
}

TEST(CliTheory, BulkFiniteTStoresTheEdgeOfThePointsOwnTokenDraws) {
  const json out = run_json({"--bulk", "finite-T", "--d", "200", "--trial", "3", "--weighting", "last"});
  rmtsweep::model::PointParams params;
  params.d = 200;
  params.trial = 3;
  params.weighting = rmtsweep::model::parse_weighting("last", params.T);
  params.correlation = rmtsweep::model::parse_correlation("prefix:3", params.T);
  const double expected =
      rmtsweep::theory::finite_t_edge(rmtsweep::simulate::token_gram_spectrum(params), params.d);
  EXPECT_NEAR(out["finite_t_bulk_edge_right"].get<double>(), expected, 1e-12 * expected);
  EXPECT_NEAR(out["effective_tokens"].get<double>(), 1.0, 1e-12);
}

TEST(CliTheory, BulkFiniteTGivesTheOutlierOverlapAndThresholdOfThePointsOwnTokenDraws) {
  const json out =
      run_json({"--bulk", "finite-T", "--d", "200", "--trial", "3", "--weighting", "last", "--snr", "3"});
  const rmtsweep::model::PointParams params = last_pooling_at_d200_trial3();
  const auto expected = rmtsweep::simulate::build_finite_t_outlier(params).at(params.snr);
  const json& finite_t = out["finite_t"];
  EXPECT_EQ(finite_t["top_eigenvalue"].get<double>(), expected.top_eigenvalue);
  EXPECT_EQ(finite_t["overlap"].get<double>(), expected.overlap);
  EXPECT_EQ(finite_t["threshold_snr"].get<double>(), expected.threshold_snr);
  EXPECT_EQ(finite_t["bulk_edge_right"].get<double>(), out["finite_t_bulk_edge_right"].get<double>());
  EXPECT_TRUE(finite_t["detectable"].get<bool>());
  // The text says the same.
  const RunResult text = run_rmtsweep(
      {"theory", "--bulk", "finite-T", "--d", "200", "--trial", "3", "--weighting", "last", "--snr", "3"});
  char line[128];
  std::snprintf(line, sizeof line, "finite-T    outlier at %.6g, overlap %.6g (threshold snr %.6g)",
                expected.top_eigenvalue, expected.overlap, expected.threshold_snr);
  EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
}

TEST(CliTheory, BulkFiniteTJsonGivesTheSpectralMeasuresTheOutlierIsBuiltFrom) {
  const json out =
      run_json({"--bulk", "finite-T", "--d", "200", "--trial", "3", "--weighting", "last", "--snr", "3"});
  const rmtsweep::model::PointParams params = last_pooling_at_d200_trial3();
  const auto outlier = rmtsweep::simulate::build_finite_t_outlier(params);
  const json& measure = out["finite_t"]["measure"];
  EXPECT_EQ(measure["bulk"]["nodes"].get<std::vector<double>>(), outlier.bulk().nodes);
  EXPECT_EQ(measure["bulk"]["multiplicities"].get<std::vector<double>>(), outlier.bulk().weights);
  EXPECT_EQ(measure["signal"]["nodes"].get<std::vector<double>>(), outlier.signal().nodes);
  EXPECT_EQ(measure["signal"]["weights"].get<std::vector<double>>(), outlier.signal().weights);
  // A reader rebuilds the theory from them: G at twice the edge's zeta, summed from the JSON.
  const double zeta = 2.0 * outlier.edge_zeta();
  double g = 0.0;
  for (std::size_t j = 0; j < measure["signal"]["nodes"].size(); ++j)
    g += measure["signal"]["weights"][j].get<double>() /
         (zeta - params.d * measure["signal"]["nodes"][j].get<double>());
  EXPECT_NEAR(g, outlier.g(zeta), 1e-12 * outlier.g(zeta));
  // The multiplicities count the nonzero tau: min(V, N) less the table directions and any zero levels.
  double count = 0.0;
  for (const auto& m : measure["bulk"]["multiplicities"]) count += m.get<double>();
  EXPECT_GT(count, 0.0);
  EXPECT_LE(count, static_cast<double>(std::min(params.vocabulary(), params.sequences())));
}

TEST(CliTheory, BulkFiniteTWithDensityGivesTheFiniteTDensity) {
  const json out = run_json({"--bulk", "finite-T", "--d", "100", "--density", "20"});
  const auto& density = out["density"];
  ASSERT_EQ(density.size(), 20u);
  const double edge = out["finite_t_bulk_edge_right"].get<double>();
  // Midpoints of [0, edge]: the last one is edge (1 - 1/40).
  EXPECT_NEAR(density[19][0].get<double>(), edge * (1.0 - 1.0 / 40.0), 1e-12 * edge);
  EXPECT_GT(density[10][1].get<double>(), 0.0);
}

TEST(CliTheory, SaysWhenTheEffectiveTokensAreTooFewForTheLimitLaw) {
  const RunResult few = run_rmtsweep({"theory", "--weighting", "last"});
  EXPECT_NE(few.out.find("measurably off"), std::string::npos) << few.out;
  const RunResult many = run_rmtsweep({"theory"});
  EXPECT_EQ(many.out.find("measurably off"), std::string::npos) << many.out;
}

TEST(CliTheory, PrintsHumanReadableTextByDefault) {
  const RunResult run = run_rmtsweep({"theory"});
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("overlap 0.424875"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("alpha"), std::string::npos);
  EXPECT_FALSE(json::accept(run.out));
}

TEST(CliTheory, HelpListsEveryPointOptionAndExitsZero) {
  const RunResult run = run_rmtsweep({"theory", "--help"});
  EXPECT_EQ(run.status, 0);
  for (const char* option : {"--d ", "--T ", "--delta", "--gamma", "--snr", "--weighting", "--correlation",
                             "--table", "--seed", "--trial", "--json", "--density", "--bulk"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  }
}

struct BadInput {
  std::vector<std::string> args;
  std::string option, value;
};

class CliTheoryBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliTheoryBadInput, ExitsWithStatusTwoAndOneLineNamingTheOptionAndTheValue) {
  std::vector<std::string> args{"theory", "--json"};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  const RunResult run = run_rmtsweep(args);
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  ASSERT_FALSE(run.err.empty());
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.back(), '\n');
  EXPECT_NE(run.err.find("--" + GetParam().option + " '" + GetParam().value + "'"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("allowed"), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    EveryInvalidValue, CliTheoryBadInput,
    ::testing::Values(
        BadInput{{"--delta", "0"}, "delta", "0"}, BadInput{{"--delta", "-0.5"}, "delta", "-0.5"},
        BadInput{{"--gamma", "0"}, "gamma", "0"}, BadInput{{"--gamma", "-1"}, "gamma", "-1"},
        BadInput{{"--T", "0"}, "T", "0"}, BadInput{{"--T", "-3"}, "T", "-3"},
        BadInput{{"--T", "5000"}, "T", "5000"},
        BadInput{{"--correlation", "prefix:11"}, "correlation", "prefix:11"},
        BadInput{{"--T", "2"}, "correlation", "prefix:3"},
        BadInput{{"--correlation", "prefix:0"}, "correlation", "prefix:0"},
        BadInput{{"--correlation", "markov:1"}, "correlation", "markov:1"},
        BadInput{{"--correlation", "markov:-1.5"}, "correlation", "markov:-1.5"},
        BadInput{
            {"--T", "3", "--correlation", "iid", "--weighting", "custom:1,2"}, "weighting", "custom:1,2"},
        BadInput{{"--T", "3", "--correlation", "iid", "--weighting", "custom:1,-1,0"},
                 "weighting",
                 "custom:1,-1,0"},
        BadInput{{"--weighting", "softmax"}, "weighting", "softmax"},
        BadInput{{"--correlation", "block:2"}, "correlation", "block:2"},
        BadInput{{"--table", "centred"}, "table", "centred"}, BadInput{{"--d", "abc"}, "d", "abc"},
        BadInput{{"--T", "ten"}, "T", "ten"}, BadInput{{"--T", "2.5"}, "T", "2.5"},
        BadInput{{"--delta", "half"}, "delta", "half"}, BadInput{{"--gamma", "1x"}, "gamma", "1x"},
        BadInput{{"--snr", "nan"}, "snr", "nan"}, BadInput{{"--snr", "-1"}, "snr", "-1"},
        BadInput{{"--snr", "1e300"}, "snr", "1e300"},  // as given, not as the number formats
        // The finite-T bulk's sparse token Gram beyond this machine's memory (about 60 GB at d = 1e7):
        // refused at once, where it grew for a minute first before the check.
        BadInput{{"--bulk", "finite-T", "--d", "10000000"}, "d", "10000000"},
        BadInput{{"--weighting", "causal:x"}, "weighting", "causal:x"},
        BadInput{{"--correlation", "prefix:x"}, "correlation", "prefix:x"},
        BadInput{{"--correlation", "markov:y"}, "correlation", "markov:y"},
        BadInput{{"--seed", "-1"}, "seed", "-1"}, BadInput{{"--trial", "x"}, "trial", "x"},
        BadInput{{"--density", "0"}, "density", "0"}, BadInput{{"--density", "many"}, "density", "many"},
        BadInput{{"--bulk", "finite"}, "bulk", "finite"}));

TEST(CliTheory, UnknownOptionsAndStrayArgumentsExitWithStatusTwoAndOneLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"theory", "--foo", "3"}, {"theory", "--del", "0.3"}, {"theory", "stray"}, {"theory", "--d"}}) {
    const RunResult run = run_rmtsweep(args);
    EXPECT_EQ(run.status, 2) << args[1];
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_NE(run.err.find("--help"), std::string::npos) << run.err;
  }
}
