// The finite-T outlier theory (theory/finite_t_outlier.hpp) as a function of its spectral measures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/prediction.hpp"

using namespace rmtsweep;

namespace {

/// The midpoint quantiles x_j = F^(-1)((j + 1/2)/n), j < n, of Marchenko-Pastur with ratio c <= 1 and mean 1
/// (density sqrt((b - x)(x - a))/(2 pi c x) on [a, b] = [(1 - sqrt c)^2, (1 + sqrt c)^2]), from its
/// distribution function integrated in x = a + (b - a)(1 - cos t)/2 (smooth in t) on 200 000 steps.
std::vector<double> marchenko_pastur_quantiles(double c, int n) {
  const double a = std::pow(1.0 - std::sqrt(c), 2), b = std::pow(1.0 + std::sqrt(c), 2);
  constexpr int steps = 200000;
  const auto integrand = [&](double t) {
    const double x = a + (b - a) * (1.0 - std::cos(t)) / 2.0;
    const double dx = (b - a) * std::sin(t) / 2.0;
    return std::sqrt(std::max(0.0, (b - x) * (x - a))) / (2.0 * std::numbers::pi * c * x) * dx;
  };
  std::vector<double> t(steps + 1), cdf(steps + 1, 0.0);
  for (int k = 0; k <= steps; ++k) t[k] = std::numbers::pi * k / steps;
  for (int k = 1; k <= steps; ++k)
    cdf[k] = cdf[k - 1] + 0.5 * (integrand(t[k - 1]) + integrand(t[k])) * (t[k] - t[k - 1]);
  for (double& F : cdf) F /= cdf.back();  // normalise away the quadrature's own error
  std::vector<double> quantiles;
  int k = 1;
  for (int j = 0; j < n; ++j) {
    const double target = (j + 0.5) / n;
    while (cdf[k] < target) ++k;
    const double s = t[k - 1] + (t[k] - t[k - 1]) * (target - cdf[k - 1]) / (cdf[k] - cdf[k - 1]);
    quantiles.push_back(a + (b - a) * (1.0 - std::cos(s)) / 2.0);
  }
  return quantiles;
}

/// The finite-T outlier of the paper's Gaussian limit: the pooled weights at tokens as Gaussian with the
/// covariance of the real ones, A = sqrt(kappa/V) G (G iid N(0, 1), V x N), so that the nonzero spectrum of
/// Sigma = A A^T/N is (kappa/V) times Marchenko-Pastur (taken at its quantiles, not drawn), and the class
/// signs' sum sum_t w_t xi_t a generic direction r of norm^2 alpha in R^N: its spectral measure under
/// K = A^T A/N puts alpha/N on each of K's N eigenvalues (N - V of them zero when V < N).
theory::FiniteTOutlier gaussian_limit(const model::PointParams& p, double alpha, double kappa) {
  const auto V = static_cast<double>(p.vocabulary()), N = static_cast<double>(p.sequences());
  const double small = std::min(V, N), large = std::max(V, N);
  theory::SpectralMeasure bulk, signal;
  for (const double x : marchenko_pastur_quantiles(small / large, static_cast<int>(small))) {
    const double tau = kappa / V * (large / N) * x;
    bulk.nodes.push_back(tau);
    bulk.weights.push_back(1.0);
    signal.nodes.push_back(tau);
    signal.weights.push_back(alpha / N);
  }
  if (N > V) {
    signal.nodes.push_back(0.0);
    signal.weights.push_back(alpha * (N - V) / N);
  }
  return theory::FiniteTOutlier(bulk, signal, p.d, p.vocabulary(), p.table);
}

model::PointParams point(int d, double delta, double gamma, double snr, model::Table table) {
  model::PointParams p;  // T = 10, mean pooling on prefix:3: alpha 0.16, kappa 0.1 (model.md 5.3)
  p.d = d;
  p.delta = delta;
  p.gamma = gamma;
  p.snr = snr;
  p.table = table;
  p.weighting = model::parse_weighting("mean", p.T);
  p.correlation = model::parse_correlation("prefix:3", p.T);
  return p;
}

/// Two atoms of bulk and a signal on them: small enough to check by hand.
theory::FiniteTOutlier two_atoms(model::Table table = model::Table::centered) {
  return theory::FiniteTOutlier({{0.01, 0.02}, {30.0, 20.0}}, {{0.01, 0.02}, {0.3, 0.2}}, 100, 200, table);
}

}  // namespace

TEST(FiniteTOutlier, InTheGaussianLimitGivesThePapersOutlierOverlapAndThreshold) {
  // The paper's sections 5.1-5.2 are this theory with the token Gram replaced by its Gaussian limit (the
  // issue asks for 1 %). What is left at d = 1000 is the discretisation of Marchenko-Pastur into min(V, N)
  // atoms: measured at most 1.8e-5 relative in lambda and the edge, 6.8e-6 in overlap and 1.0e-4 in the
  // threshold (delta = 1, gamma = 0.5, the coarsest), so 1e-3 relative in lambda and edge, 1e-3 absolute in
  // snr and 1e-4 in overlap leave a factor of ten for summation order and the quantiles' quadrature.
  for (const model::Table table : {model::Table::iid, model::Table::centered}) {
    for (const auto& [delta, gamma] : {std::pair{0.5, 0.25}, std::pair{1.0, 0.5}, std::pair{0.25, 0.5}}) {
      const model::PointParams base = point(1000, delta, gamma, 0.0, table);
      const theory::FiniteTOutlier finite_t = gaussian_limit(base, 0.16, 0.1);
      const theory::Prediction at_zero = theory::predict(base);
      EXPECT_NEAR(finite_t.bulk_edge_right(), at_zero.bulk_edge_right, 1e-3 * at_zero.bulk_edge_right);
      EXPECT_NEAR(finite_t.threshold_snr(), at_zero.sample_threshold_snr, 1e-3);
      for (const double snr : {1.5, 3.0, 6.0}) {
        const model::PointParams p = point(1000, delta, gamma, snr, table);
        const theory::Prediction paper = theory::predict(p);
        const theory::FiniteTPrediction got = finite_t.at(snr);
        ASSERT_EQ(got.detectable, paper.detectable) << delta << " " << gamma << " " << snr;
        EXPECT_NEAR(got.top_eigenvalue, paper.top_eigenvalue, 1e-3 * paper.top_eigenvalue)
            << delta << " " << snr;
        EXPECT_NEAR(got.overlap, paper.overlap, 1e-4) << delta << " " << gamma << " " << snr;
      }
    }
  }
}

TEST(FiniteTOutlier, BelowTheThresholdSitsAtTheEdgeWithoutOverlap) {
  const theory::FiniteTOutlier f = two_atoms();
  const double threshold = f.threshold_snr();
  ASSERT_GT(threshold, 0.0);
  const theory::FiniteTPrediction below = f.at(threshold * (1.0 - 1e-9));
  EXPECT_FALSE(below.detectable);
  EXPECT_EQ(below.top_eigenvalue, f.bulk_edge_right());
  EXPECT_EQ(below.overlap, 0.0);
  const theory::FiniteTPrediction above = f.at(threshold * (1.0 + 1e-6));
  EXPECT_TRUE(above.detectable);
  // Just above the threshold the outlier leaves the edge quadratically and its overlap linearly from 0.
  EXPECT_NEAR(above.top_eigenvalue, f.bulk_edge_right(), 1e-6 * f.bulk_edge_right());
  EXPECT_LT(above.overlap, 1e-3);
}

TEST(FiniteTOutlier, OutlierAndOverlapGrowWithSnrAndTheOverlapTendsToOne) {
  const theory::FiniteTOutlier f = two_atoms();
  double previous_lambda = 0.0, previous_overlap = 0.0;
  for (const double snr : {0.5, 1.0, 2.0, 4.0, 8.0, 1e4}) {
    const theory::FiniteTPrediction p = f.at(snr);
    EXPECT_GE(p.top_eigenvalue, previous_lambda) << snr;
    EXPECT_GE(p.overlap, previous_overlap) << snr;
    EXPECT_LT(p.overlap, 1.0) << snr;
    previous_lambda = p.top_eigenvalue;
    previous_overlap = p.overlap;
  }
  EXPECT_GT(previous_overlap, 0.99);  // at snr = 1e4 the noise shifts the eigenvector by O(1/snr)
}

TEST(FiniteTOutlier, SolvesItsEquationsAtTheOutlier) {
  const theory::FiniteTOutlier f = two_atoms();
  // The outlier is z(zeta*) with snr G(zeta*) = 1; the overlap z'(zeta*)/(zeta* snr |G'(zeta*)|). Recover
  // zeta* from lambda by bisection of z on (zeta_e, inf), where z increases, and check both identities.
  const double snr = 3.0;
  const theory::FiniteTPrediction p = f.at(snr);
  double lo = f.edge_zeta(), hi = 100.0 * f.edge_zeta();
  for (int step = 0; step < 200; ++step) {
    const double mid = 0.5 * (lo + hi);
    (f.z(mid) < p.top_eigenvalue ? lo : hi) = mid;
  }
  const double zeta = 0.5 * (lo + hi);
  EXPECT_NEAR(snr * f.g(zeta), 1.0, 1e-12);
  EXPECT_NEAR(p.overlap, f.z_prime(zeta) / (zeta * snr * f.minus_g_prime(zeta)), 1e-12);
  EXPECT_NEAR(f.z_prime(f.edge_zeta()), 0.0, 1e-10);
}

TEST(FiniteTOutlier, IidTablesAddTheClassMeanNoiseToSnrAndCapTheOverlap) {
  // The iid table's signal is m = Z s/V + sqrt(snr) u: strength snr + d/V, cosine^2 with u snr/(snr + d/V).
  const theory::FiniteTOutlier iid = two_atoms(model::Table::iid),
                               centered = two_atoms(model::Table::centered);
  const double shift = 100.0 / 200.0, snr = 3.0;
  EXPECT_DOUBLE_EQ(iid.at(snr).top_eigenvalue, centered.at(snr + shift).top_eigenvalue);
  EXPECT_DOUBLE_EQ(iid.at(snr).overlap, centered.at(snr + shift).overlap * snr / (snr + shift));
  EXPECT_DOUBLE_EQ(iid.raw_threshold_snr(), centered.raw_threshold_snr() - shift);
}

TEST(FiniteTOutlier, ASignalThatPoolingCancelsHasNoThreshold) {
  const theory::FiniteTOutlier f({{0.01}, {50.0}}, {{0.01}, {0.0}}, 100, 200, model::Table::centered);
  EXPECT_TRUE(std::isinf(f.threshold_snr()));
  EXPECT_FALSE(f.at(1e6).detectable);
}

TEST(FiniteTOutlier, RefusesMeasuresItCannotUse) {
  EXPECT_THROW(theory::FiniteTOutlier({{0.0}, {3.0}}, {}, 100, 200, model::Table::iid),
               std::invalid_argument);
  EXPECT_THROW(theory::FiniteTOutlier({{0.01}, {1.0, 2.0}}, {}, 100, 200, model::Table::iid),
               std::invalid_argument);
  EXPECT_THROW(theory::FiniteTOutlier({{0.01}, {1.0}}, {{0.01}, {-1.0}}, 100, 200, model::Table::iid),
               std::invalid_argument);
  // A signal atom above the bulk's top would put a pole of G above the edge.
  EXPECT_THROW(theory::FiniteTOutlier({{0.01}, {1.0}}, {{0.5}, {1.0}}, 100, 200, model::Table::iid),
               std::invalid_argument);
  EXPECT_THROW(two_atoms().at(-1.0), std::invalid_argument);
}

TEST(CountingMeasure, MergesEqualValuesAndDropsZeros) {
  const theory::SpectralMeasure m =
      theory::counting_measure(std::vector<double>{0.3, 0.0, 0.1, 0.3, -1e-18, 0.3});
  EXPECT_EQ(m.nodes, (std::vector<double>{0.1, 0.3}));
  EXPECT_EQ(m.weights, (std::vector<double>{1.0, 3.0}));
}
