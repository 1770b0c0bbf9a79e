// `rmtsweep point` end to end under mpiexec: the JSON it promises, the human form, and how it
// fails (bad option: status 2; ScaLAPACK failure: non-zero on every rank, with the routine).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/prediction.hpp"
#include "run_command.hpp"

using nlohmann::json;

namespace {

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& item : object.items()) keys.insert(item.key());
  return keys;
}

}  // namespace

TEST(CliPoint, JsonOnTwoRanksHasParamsTheoryAndEmpiricalWithAllEigenvalues) {
  const auto run = run_point(2, {"--json", "--spectrum", "--d", "130", "--k", "5", "--weighting", "causal:1",
                                 "--table", "centered", "--trial", "2"});
  ASSERT_EQ(run.status, 0) << run.err;
  const json out = json::parse(run.out);  // printed once: a second object would not parse
  EXPECT_EQ(keys_of(out), (std::set<std::string>{"params", "theory", "empirical"}));
  EXPECT_EQ(out["params"]["d"], 130);
  EXPECT_EQ(out["params"]["weighting"], "causal:1");
  EXPECT_EQ(out["params"]["table"], "centered");
  EXPECT_EQ(out["params"]["trial"], 2);
  const json& e = out["empirical"];
  EXPECT_EQ(keys_of(e), (std::set<std::string>{"top_eigenvalues", "overlaps", "overlap", "ridge_accuracy",
                                               "weights_deviation", "covariance_path", "eigensolver",
                                               "seconds", "eigenvalues", "eigen_method", "operator_products",
                                               "solver_residual", "solver_fell_back"}));
  EXPECT_EQ(e["covariance_path"], "panels");  // 2 ranks and causal weights: never the vocabulary
  EXPECT_EQ(e["eigensolver"], "elpa");        // 2 x 1 grid, two whole blocks of 64 rows: ELPA applies
  EXPECT_EQ(e["top_eigenvalues"].size(), 5u);
  EXPECT_EQ(e["overlaps"].size(), 5u);
  EXPECT_EQ(e["eigenvalues"].size(), 130u);
  EXPECT_EQ(e["overlap"], e["overlaps"][0]);
  EXPECT_EQ(e["top_eigenvalues"][0], e["eigenvalues"][129]);
  EXPECT_EQ(keys_of(e["seconds"]),
            (std::set<std::string>{"generate", "covariance", "eigen", "ridge", "finite_t", "total"}));
  ASSERT_TRUE(out["theory"]["finite_t"].is_object()) << "every point carries the finite-T theory";
  EXPECT_TRUE(out["theory"]["finite_t"]["levels"].is_null())
      << "causal:1 pools several tokens: no levels model";
}

TEST(CliPoint, JsonGivesTheFiniteTTheoryOfThePointsOwnTokenDrawsOnOneAndTwoRanks) {
  const std::vector<std::string> args{"--json", "--d",     "150", "--weighting", "last", "--snr",
                                      "2.5",    "--trial", "1"};
  rmtsweep::model::PointParams params;
  params.d = 150;
  params.snr = 2.5;
  params.trial = 1;
  params.weighting = rmtsweep::model::parse_weighting("last", params.T);
  const auto outlier = rmtsweep::simulate::build_finite_t_outlier(params);
  const auto expected = outlier.at(params.snr);
  const double snr[] = {params.snr};
  const auto model = rmtsweep::simulate::finite_t_levels_predictions(params, outlier, snr);
  ASSERT_EQ(model.size(), 1u) << "single-token pooling carries the top levels at finite d";
  const auto& levels = model.front();
  for (const int ranks : {1, 2}) {
    const auto run = run_point(ranks, args);
    ASSERT_EQ(run.status, 0) << run.err;
    const json finite_t = json::parse(run.out)["theory"]["finite_t"];
    EXPECT_EQ(keys_of(finite_t), (std::set<std::string>{"top_eigenvalue", "overlap", "threshold_snr",
                                                        "bulk_edge_right", "detectable", "levels"}));
    EXPECT_EQ(keys_of(finite_t["levels"]),
              (std::set<std::string>{"top_eigenvalue", "overlap", "overlap_error", "k", "draws"}));
    EXPECT_EQ(finite_t["levels"]["overlap"].get<double>(), levels.overlap) << ranks;
    EXPECT_EQ(finite_t["levels"]["top_eigenvalue"].get<double>(), levels.top_eigenvalue) << ranks;
    // Rank 0 computes it by the same code from the same draws: the same bits on any number of ranks.
    EXPECT_EQ(finite_t["top_eigenvalue"].get<double>(), expected.top_eigenvalue) << ranks;
    EXPECT_EQ(finite_t["overlap"].get<double>(), expected.overlap) << ranks;
    EXPECT_EQ(finite_t["threshold_snr"].get<double>(), expected.threshold_snr) << ranks;
    EXPECT_EQ(finite_t["bulk_edge_right"].get<double>(), expected.bulk_edge_right) << ranks;
  }
}

TEST(CliPoint, JsonTheoryIsThePredictionOfTheSamePoint) {
  const auto run = run_point(1, {"--json", "--d", "100", "--weighting", "optimal", "--snr", "2"});
  ASSERT_EQ(run.status, 0) << run.err;
  const json theory = json::parse(run.out)["theory"];
  rmtsweep::model::PointParams params;
  params.d = 100;
  params.snr = 2.0;
  params.weighting = rmtsweep::model::parse_weighting("optimal", params.T);
  const auto expected = rmtsweep::theory::predict(params);
  EXPECT_DOUBLE_EQ(theory["top_eigenvalue"].get<double>(), expected.top_eigenvalue);
  EXPECT_DOUBLE_EQ(theory["overlap"].get<double>(), expected.overlap);
  EXPECT_DOUBLE_EQ(theory["kappa"].get<double>(), expected.kappa);
  EXPECT_EQ(theory["detectable"].get<bool>(), expected.detectable);
  EXPECT_FALSE(json::parse(run.out)["empirical"].contains("weights_deviation"));  // not causal
}

TEST(CliPoint, HumanOutputSetsMeasuredBesideTheory) {
  const auto run = run_point(2, {"--d", "80"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("measured"), std::string::npos);
  EXPECT_NE(run.out.find("theory"), std::string::npos);
  EXPECT_NE(run.out.find("ridge accuracy"), std::string::npos);
}

TEST(CliPoint, ABadOptionExitsWithStatus2NamingTheOption) {
  const auto run = run_point(2, {"--d", "50", "--k", "51"});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--k '51'"), std::string::npos) << run.err;
}

TEST(CliPoint, AKBelowFourIsRejectedNamingWhatIsAllowed) {
  const auto run = run_point(1, {"--d", "50", "--k", "2"});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--k '2'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("min(4, d) <= k <= d = 50"), std::string::npos) << run.err;
}

// ridge = -10 makes S + lambda I indefinite: the ridge solve (dptsv) fails on every rank, the
// program says so once, in the option's terms, and every rank exits with status 1 (no hang, no
// abort).
TEST(CliPoint, AScalapackFailureEndsEveryRankWithTheRoutineAndCode) {
  const auto run = run_point(2, {"--d", "60", "--ridge", "-10"});
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("dptsv failed with info = "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--ridge '-10': S + lambda I is not positive definite"), std::string::npos)
      << run.err;
  EXPECT_EQ(run.out, "");
}

// The same on a group of two ranks whose ridge system is solved by pdposv (d = 200: ELPA's path).
TEST(CliPoint, ANegativeRidgeThatBreaksTheSolveIsNamedOnAGroupOfTwo) {
  const auto run = run_point(2, {"--d", "200", "--ridge", "-0.5"});
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("--ridge '-0.5': S + lambda I is not positive definite"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("pdposv failed with info = "), std::string::npos) << run.err;
}

// One declaration per option (config::option_table): a point run with no options is the point a
// sweep with no keys computes, measured the same way.
TEST(CliPoint, WithNoOptionsComputesThePointOfASweepWithNoKeys) {
  const auto run = run_point(1, {"--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const json params = json::parse(run.out)["params"];
  const rmtsweep::config::SweepConfig sweep = rmtsweep::config::parse_sweep_config({});
  ASSERT_EQ(sweep.point_count(), 1);
  EXPECT_EQ(params["d"], sweep.d.front());
  EXPECT_EQ(params["T"], sweep.T);
  EXPECT_EQ(params["delta"], sweep.delta.front());
  EXPECT_EQ(params["gamma"], sweep.gamma.front());
  EXPECT_EQ(params["snr"], sweep.snr.front());
  EXPECT_EQ(params["weighting"], rmtsweep::model::to_string(sweep.weighting.front()));
  EXPECT_EQ(params["correlation"], rmtsweep::model::to_string(sweep.correlation));
  EXPECT_EQ(params["table"], rmtsweep::model::to_string(sweep.table));
  EXPECT_EQ(params["seed"], sweep.seed);
  EXPECT_EQ(params["trial"], 0);  // a sweep's first trial
  EXPECT_EQ(params["k"], sweep.k);
  EXPECT_EQ(params["ridge"], sweep.ridge);
  EXPECT_EQ(params["ntest"], sweep.ntest > 0 ? sweep.ntest : params["N"].get<long long>());
  EXPECT_EQ(json::parse(run.out)["empirical"]["eigensolver"], "lapack");  // one rank
}

// What `point` accepted and then crashed on, or computed for days, is refused up front with
// the option and the value as given (exit 2), without std::bad_alloc or MPI_Abort's banner.
namespace {

void expect_refused(const CommandResult& run, const std::string& option_and_value) {
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("rmtsweep point: invalid " + option_and_value), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("bad_alloc"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("MPI_ABORT"), std::string::npos) << run.err;
}

}  // namespace

TEST(CliPoint, APointLargerThanThisMachinesMemoryIsRefusedByItsEstimate) {
  const auto run = run_point(1, {"--d", "100000"});
  expect_refused(run, "--d '100000': allowed: a point that fits in memory");
  EXPECT_NE(run.err.find("--force-memory"), std::string::npos) << run.err;
}

TEST(CliPoint, AGammaWhoseSequencesOverflowTheIndicesIsRefusedAsGiven) {
  const auto run = run_point(1, {"--gamma", "1e-9"});
  expect_refused(run, "--gamma '1e-9': allowed for a simulation");
}

TEST(CliPoint, ASpectrumFromTheKrylovEngineIsRefusedNamingEigensolver) {
  const auto run = run_point(1, {"--eigensolver", "krylov", "--spectrum", "--d", "40"});
  expect_refused(run, "--eigensolver 'krylov': allowed with --spectrum");
  EXPECT_EQ(run.err.find("--engine"), std::string::npos) << run.err;
}

TEST(CliPoint, AnNtestBeyondAnyStatisticalUseWantsItsConsent) {
  expect_refused(run_point(1, {"--ntest", "1000000000000"}),
                 "--ntest '1000000000000': allowed: 0 <= ntest <= 100000000");
  // The smallest point (d = 4, T = 2): its 1e8 + 1 test sequences still take about 10 s.
  const auto consented = run_point(
      1, {"--d", "4", "--T", "2", "--correlation", "iid", "--ntest", "100000001", "--force-ntest", "--json"});
  EXPECT_EQ(consented.status, 0) << consented.err;
}
