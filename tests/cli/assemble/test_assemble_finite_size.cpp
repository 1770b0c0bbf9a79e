// `rmtsweep assemble` along d (docs/finite_size.md, docs/detection.md): the default rule at the top
// of /phase, both fits beside the F-test's choice, the residuals against the trials' own finite-T thresholds,
// the rules' consistency along d, the flags and the warnings, on small sweeps of `last` pooling (whose points
// carry their finite-T thresholds) at five sizes d = 40 ... 640: about 15 s on 2 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/assemble/finite_size_trends.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace {

using rmtsweep::test::run_rmtsweep;
using rmtsweep::test::run_rmtsweep_mpi;
using rmtsweep::test::ScratchDir;
namespace io = rmtsweep::io;
namespace assemble = rmtsweep::assemble;

constexpr int trials = 20;  // >= 19 snr = 0 trials: the null rule reaches its level
const std::vector<double> sizes{40, 80, 160, 320, 640};
const std::vector<std::string> rules{"edge", "eigengap", "null", "finite_t_edge"};

class AssembleFiniteSize : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = std::make_unique<ScratchDir>("rmtsweep-finite-size");
    file_ = (*scratch_ / "sweep.h5").string();
    const auto sweep = run_rmtsweep_mpi(
        2, "run --output " + file_ +
               " --d 40,80,160,320,640 --T 10 --correlation prefix:3 --table centered --seed 3 --trials 20 "
               "--delta 0.5 --gamma 0.25 --snr 0:3:7 --weighting last --store_spectra false");
    ASSERT_EQ(sweep.status, 0) << sweep.output;
    const auto assembled = run_rmtsweep("assemble " + file_);
    ASSERT_EQ(assembled.status, 0) << assembled.output;
    output_ = assembled.output;
  }
  static void TearDownTestSuite() { scratch_.reset(); }

  static std::vector<double> doubles(const std::string& name) {
    const auto file = io::open_file(file_, io::Access::read_only);
    return io::read_doubles(io::open_dataset(file, name));
  }
  static std::vector<std::int64_t> ints(const std::string& name) {
    const auto file = io::open_file(file_, io::Access::read_only);
    return io::read_ints(io::open_dataset(file, name));
  }
  static std::string group(const std::string& rule) { return "phase/detection/" + rule + "/"; }

  static inline std::unique_ptr<ScratchDir> scratch_;
  static inline std::string file_, output_;
};

TEST_F(AssembleFiniteSize, TheTopLevelCarriesFiniteTEdgeWhichComesFirstOfTheDefaultRules) {
  EXPECT_EQ(ints("phase/default_detection_rule"), (std::vector<std::int64_t>{3}));  // 3: finite_t_edge
  for (const std::string name :
       {"detected_fraction", "empirical_threshold_snr", "empirical_threshold_snr_err",
        "extrapolated_threshold_snr", "extrapolated_threshold_snr_err", "residual_snr",
        "extrapolated_residual_snr", "extrapolated_threshold_snr_alternative"}) {
    const auto top = doubles("phase/" + name), own = doubles(group("finite_t_edge") + name);
    ASSERT_EQ(top.size(), own.size()) << name;
    for (std::size_t k = 0; k < top.size(); ++k) {
      if (std::isnan(own[k]))
        EXPECT_TRUE(std::isnan(top[k])) << name << " " << k;
      else
        EXPECT_EQ(top[k], own[k]) << name << " " << k;
    }
  }
  EXPECT_EQ(ints("phase/threshold_flags"), ints(group("finite_t_edge") + "threshold_flags"));
  EXPECT_NE(output_.find("default rule: finite_t_edge"), std::string::npos) << output_;
}

TEST_F(AssembleFiniteSize, EveryRuleStoresTheFitTheFTestChoseAndTheOtherBesideIt) {
  int compared = 0;
  for (const auto& rule : rules) {
    const auto threshold = doubles(group(rule) + "empirical_threshold_snr");
    const auto error = doubles(group(rule) + "empirical_threshold_snr_err");
    const auto expected = assemble::extrapolate_threshold(sizes, threshold, error);
    const auto terms = ints(group(rule) + "extrapolation_terms");
    EXPECT_EQ(terms.front(), expected.terms) << rule;
    if (expected.terms == 0) continue;
    ++compared;
    EXPECT_EQ(doubles(group(rule) + "extrapolated_threshold_snr").front(), expected.thr_inf) << rule;
    EXPECT_EQ(doubles(group(rule) + "extrapolated_threshold_snr_err").front(), expected.thr_inf_err) << rule;
    EXPECT_EQ(ints(group(rule) + "extrapolation_terms_alternative").front(), expected.alternative.terms)
        << rule;
    EXPECT_EQ(doubles(group(rule) + "extrapolated_threshold_snr_alternative").front(),
              expected.alternative.thr_inf)
        << rule;
    const double p = doubles(group(rule) + "extrapolation_quadratic_p_value").front();
    EXPECT_EQ(p, expected.quadratic_p_value) << rule;
    if (expected.sizes_used < 5) continue;  // the quadratic needs five sizes
    EXPECT_EQ(terms.front(), p < assemble::quadratic_term_level ? 2 : 1) << rule;
    EXPECT_EQ(ints(group(rule) + "extrapolation_terms_alternative").front(), 3 - terms.front()) << rule;
  }
  EXPECT_GE(compared, 2) << "too few rules with five sizes of thresholds to test the choice";
}

TEST_F(AssembleFiniteSize, TheResidualIsTheMedianOfEachTrialsThresholdLessItsOwnFiniteTThreshold) {
  // /points in grid order: one weighting, d_index is the position on the (ascending) d axis.
  const auto d_index = ints("points/d_index"), trial = ints("points/trial");
  const auto finite_t = doubles("points/theory_finite_t_threshold_snr");
  const auto exact = ints(group("finite_t_edge") + "empirical_threshold_exact");
  const auto trial_threshold = doubles(group("finite_t_edge") + "trial_threshold_snr");  // d x trials
  const auto residual = doubles(group("finite_t_edge") + "residual_snr");
  const auto residual_err = doubles(group("finite_t_edge") + "residual_snr_err");
  for (std::size_t n = 0; n < sizes.size(); ++n) {
    ASSERT_EQ(exact[n], 1) << "d = " << sizes[n];
    std::vector<double> own(trials, std::nan("")), measured(trials);
    for (std::size_t p = 0; p < trial.size(); ++p) {
      if (static_cast<std::size_t>(d_index[p]) == n) own[static_cast<std::size_t>(trial[p])] = finite_t[p];
    }
    for (int t = 0; t < trials; ++t)
      measured[static_cast<std::size_t>(t)] = trial_threshold[n * trials + static_cast<std::size_t>(t)];
    const auto expected = assemble::paired_residual(measured, own, n);
    EXPECT_TRUE(std::isfinite(expected.median)) << "d = " << sizes[n];
    EXPECT_EQ(residual[n], expected.median) << "d = " << sizes[n];
    EXPECT_EQ(residual_err[n], expected.median_err) << "d = " << sizes[n];
  }
  const auto fit = assemble::extrapolate_threshold(sizes, residual, residual_err);
  EXPECT_EQ(doubles(group("finite_t_edge") + "extrapolated_residual_snr").front(), fit.thr_inf);
  EXPECT_EQ(ints(group("finite_t_edge") + "residual_extrapolation_terms").front(), fit.terms);
  const auto converges = ints("phase/target_converges").front();
  EXPECT_TRUE(converges == assemble::target_holds || converges == assemble::target_moves) << converges;
}

TEST_F(AssembleFiniteSize, ThePapersEdgeRuleIsInconsistentForOneTokenAndItsLinesAreFlagged) {
  // `last`'s bulk reaches above the paper's edge more often as d grows (docs/detection.md): its snr = 0
  // detections grow with d. The null rule's leave-one-out rate is 1/20 at every size.
  EXPECT_EQ(ints(group("edge") + "consistent"), (std::vector<std::int64_t>{assemble::rule_inconsistent}));
  EXPECT_LT(doubles(group("edge") + "consistency_p_value").front(), assemble::detection_trend_level);
  for (const auto flags : ints(group("edge") + "threshold_flags"))
    EXPECT_NE(flags & assemble::threshold_flag::inconsistent_rule, 0);
  EXPECT_EQ(ints(group("null") + "consistent"), (std::vector<std::int64_t>{assemble::rule_consistent}));
  for (const auto flags : ints(group("null") + "threshold_flags")) EXPECT_EQ(flags, 0);
  EXPECT_NE(output_.find("edge inconsistent"), std::string::npos) << output_;
}

TEST_F(AssembleFiniteSize, TheTableSaysWhichRowExtrapolatesTheThresholdAndWhichTheResidual) {
  EXPECT_NE(output_.find("inf thr"), std::string::npos) << output_;
  EXPECT_NE(output_.find("inf res"), std::string::npos) << output_;
  EXPECT_NE(output_.find("residual (threshold - finite-T) extrapolated"), std::string::npos) << output_;
  EXPECT_NE(output_.find("edge (paper)"), std::string::npos) << output_;
  EXPECT_EQ(output_.find("warning"), std::string::npos)
      << output_;  // snr 0 with 20 trials: nothing to warn of
}

// Two sizes, 4 trials, two snr values: enough to show what the grid cannot tell.
TEST(AssembleFiniteSizeWarnings, FewNullTrialsAndNoSnrZeroAreSaid) {
  const ScratchDir scratch("rmtsweep-finite-size-warnings");
  const std::string few = (scratch / "few.h5").string(), none = (scratch / "none.h5").string();
  const std::string common =
      " --d 40,80 --T 10 --correlation prefix:3 --table centered --seed 5 --trials 4 --delta 0.5 "
      "--gamma 0.25 --weighting last --store_spectra false";
  ASSERT_EQ(run_rmtsweep_mpi(2, "run --output " + few + common + " --snr 0,2").status, 0);
  ASSERT_EQ(run_rmtsweep_mpi(2, "run --output " + none + common + " --snr 0.6,2").status, 0);

  const auto with_few = run_rmtsweep("assemble " + few);
  ASSERT_EQ(with_few.status, 0) << with_few.output;
  EXPECT_NE(with_few.output.find("fewer than 19 snr = 0 trials"), std::string::npos) << with_few.output;
  {
    const auto file = io::open_file(few, io::Access::read_only);
    for (const auto flags : io::read_ints(io::open_dataset(file, "phase/detection/null/threshold_flags")))
      EXPECT_NE(flags & assemble::threshold_flag::few_null_trials, 0);
    // Too few for the null rule: finite_t_edge is the default.
    EXPECT_EQ(io::read_ints(io::open_dataset(file, "phase/default_detection_rule")),
              (std::vector<std::int64_t>{3}));
  }

  const auto without = run_rmtsweep("assemble --quiet " + none);
  ASSERT_EQ(without.status, 0) << without.output;
  EXPECT_NE(without.output.find("the grid has no snr = 0"), std::string::npos) << without.output;
  const auto file = io::open_file(none, io::Access::read_only);
  for (const double threshold : io::read_doubles(io::open_dataset(file, "phase/detection/null/threshold")))
    EXPECT_TRUE(std::isnan(threshold));
}

}  // namespace
