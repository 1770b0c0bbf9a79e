// Simulated points at d = 1000 against the theory of model.md section 5 (mean of 8 trials).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "point_fixture.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/theory/prediction.hpp"

using namespace rmtsweep;

namespace {

struct Case {
  const char* name;
  int d;
  double delta, gamma, snr;
  const char* weighting;
  const char* correlation;
  const char* table;
};

class TheoryAgreement : public testing::TestWithParam<Case> {};

constexpr int trials = 8;

}  // namespace

// Tolerances (model.md section 5.4: the finite-d outlier within a few % of lambda_S, overlaps
// within about 0.02-0.05; average several trials). Measured on these six points with 12 trials
// each (2026-11-30): one trial's top eigenvalue / theory scatters by 0.8-3.9 % (standard
// deviation; the most at N = 500, the Gram-path point), its overlap by 0.004-0.031 and its bulk
// second moment (1/d) sum lambda^2 by 0.2-0.7 %; the 12-trial means were within 0.7 %, 0.007 and
// 0.7 % of the theory. So the 8-trial mean is held to 4 % (the top of section 5.4's range;
// 2.9 standard deviations of the mean at the Gram point, 4 or more elsewhere), the overlap to
// 0.04 (3.6 standard deviations there) and the moment to 1.5 %. The outlier is excluded from
// that moment when the theory says it is detectable: it is not part of the bulk law, and its
// lambda_S^2 / d alone is 2-5 % of kappa^2 (1 + delta + gamma). Below the threshold the top
// eigenvalue is compared with the right bulk edge and the overlap with 0.
TEST_P(TheoryAgreement, TopEigenvalueOverlapAndBulkMomentMatchTheTheory) {
  const Case& c = GetParam();
  double top = 0.0, overlap = 0.0, bulk_moment = 0.0;
  theory::Prediction predicted;
  for (int trial = 0; trial < trials; ++trial) {
    const auto params =
        test::make_point(c.d, c.delta, c.gamma, c.snr, c.weighting, c.correlation, c.table, trial);
    predicted = theory::predict(params);
    simulate::SimulationOptions options;
    options.spectrum = true;
    options.finite_t_theory = false;  // the paper's theory is tested here; the finite-T one in its own tests
    const auto result = simulate::simulate_point(params, options, MPI_COMM_WORLD);
    ASSERT_EQ(result.eigenvalues.size(), static_cast<std::size_t>(c.d));
    top += result.top_eigenvalues[0] / trials;
    overlap += result.overlap / trials;
    double sum2 = 0.0;
    for (double x : result.eigenvalues) sum2 += x * x;
    if (predicted.detectable) sum2 -= result.top_eigenvalues[0] * result.top_eigenvalues[0];
    bulk_moment += sum2 / c.d / trials;
  }
  const double expected_moment = predicted.kappa * predicted.kappa * (1.0 + c.delta + c.gamma);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("  %s: top %.5f (theory %.5f), overlap %.4f (theory %.4f), bulk moment %.6f (theory %.6f)\n",
                c.name, top, predicted.top_eigenvalue, overlap, predicted.overlap, bulk_moment,
                expected_moment);
  }
  EXPECT_NEAR(top / predicted.top_eigenvalue, 1.0, 0.04)
      << "top " << top << " theory " << predicted.top_eigenvalue
      << (predicted.detectable ? " (outlier)" : " (right edge)");
  EXPECT_NEAR(overlap, predicted.overlap, 0.04);
  EXPECT_NEAR(bulk_moment / expected_moment, 1.0, 0.015)
      << "bulk moment " << bulk_moment << " theory " << expected_moment;
}

INSTANTIATE_TEST_SUITE_P(
    AtDimension1000, TheoryAgreement,
    testing::Values(
        Case{"MeanPrefixIid", 1000, 0.5, 0.25, 2.0, "mean", "prefix:3", "iid"},
        Case{"OptimalPrefixCentered", 1000, 0.5, 0.25, 1.0, "optimal", "prefix:3", "centered"},
        Case{"HarmonicMarkovIid", 1000, 0.5, 0.25, 2.0, "harmonic", "markov:0.6", "iid"},
        Case{"CausalZeroPrefixCentered", 1000, 0.5, 0.25, 2.0, "causal:0", "prefix:3", "centered"},
        Case{"FewerSequencesThanDimensionsGramPath", 1000, 0.5, 2.0, 4.0, "mean", "prefix:3", "centered"},
        Case{"BelowThresholdMarkovIid", 1000, 0.5, 0.25, 0.2, "mean", "markov:0.3", "iid"}),
    [](const testing::TestParamInfo<Case>& param_info) { return std::string(param_info.param.name); });
