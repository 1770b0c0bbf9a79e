// A point's token draws -> the finite-T outlier (simulate/finite_t.hpp), against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"
#include "rmtsweep/theory/token_gram.hpp"

using namespace rmtsweep;

namespace {

/// Tokens drawn uniformly over the vocabulary (classes by token, as model.md 1.1 assigns them).
simulate::PooledTokens random_pooled(std::vector<double> w, std::size_t N, std::int64_t V, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(0, V - 1);
  simulate::PooledTokens pooled;
  pooled.weights = std::move(w);
  pooled.vocabulary = V;
  pooled.tokens.resize(N * pooled.weights.size());
  for (auto& v : pooled.tokens) v = pick(rng);
  return pooled;
}

/// Everything by dense linear algebra from the definitions: A (V x N), Sigma = A P A^T/N, B = Sigma^(1/2) by
/// its eigendecomposition, Pi = B Q B with Q = I - (1 1^T + s s^T)/V formed densely, its eigenpairs
/// (tau_j, q_j), and omega_j = (q_j^T B s)^2.
struct BruteForce {
  theory::SpectralMeasure bulk, signal;
  std::vector<double> pi, b;  ///< Pi (V x V) and b = B s, for a direct solve of G
};

BruteForce brute_force(const simulate::PooledTokens& pooled) {
  const std::size_t V = static_cast<std::size_t>(pooled.vocabulary),
                    N = static_cast<std::size_t>(pooled.sequences()), terms = pooled.weights.size();
  std::vector<double> A(V * N, 0.0);
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t k = 0; k < terms; ++k)
      A[static_cast<std::size_t>(pooled.tokens[n * terms + k]) * N + n] += pooled.weights[k];
  for (std::size_t v = 0; v < V; ++v) {  // A P: centre each row over the sequences
    double mean = 0.0;
    for (std::size_t n = 0; n < N; ++n) mean += A[v * N + n];
    for (std::size_t n = 0; n < N; ++n) A[v * N + n] -= mean / static_cast<double>(N);
  }
  std::vector<double> sigma(V * V, 0.0);
  for (std::size_t u = 0; u < V; ++u)
    for (std::size_t v = 0; v < V; ++v)
      for (std::size_t n = 0; n < N; ++n)
        sigma[u * V + v] += A[u * N + n] * A[v * N + n] / static_cast<double>(N);
  const model::SymmetricEigen e = model::symmetric_eigen(sigma, static_cast<int>(V));
  std::vector<double> B(V * V, 0.0);
  for (std::size_t q = 0; q < V; ++q) {
    const double root = std::sqrt(std::max(e.values[q], 0.0));
    for (std::size_t i = 0; i < V; ++i)
      for (std::size_t j = 0; j < V; ++j) B[i * V + j] += root * e.vectors[q * V + i] * e.vectors[q * V + j];
  }
  const auto s = [&](std::size_t v) { return v < V / 2 ? 1.0 : -1.0; };
  std::vector<double> Q(V * V), BQ(V * V, 0.0);
  BruteForce out;
  out.pi.assign(V * V, 0.0);
  out.b.assign(V, 0.0);
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j)
      Q[i * V + j] = (i == j ? 1.0 : 0.0) - (1.0 + s(i) * s(j)) / static_cast<double>(V);
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t k = 0; k < V; ++k)
      for (std::size_t j = 0; j < V; ++j) BQ[i * V + j] += B[i * V + k] * Q[k * V + j];
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t k = 0; k < V; ++k)
      for (std::size_t j = 0; j < V; ++j) out.pi[i * V + j] += BQ[i * V + k] * B[k * V + j];
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j) out.b[i] += B[i * V + j] * s(j);
  const model::SymmetricEigen p = model::symmetric_eigen(out.pi, static_cast<int>(V));
  std::vector<double> tau;
  for (std::size_t q = 0; q < V; ++q) {
    double projection = 0.0;
    for (std::size_t i = 0; i < V; ++i) projection += p.vectors[q * V + i] * out.b[i];
    tau.push_back(std::max(p.values[q], 0.0));
    out.signal.nodes.push_back(tau.back());
    out.signal.weights.push_back(projection * projection);
  }
  out.bulk = theory::counting_measure(tau);
  return out;
}

/// b^T (zeta - d Pi)^(-1) b by a dense linear solve (no eigendecomposition): symmetric_eigen of the
/// shifted matrix would be circular, so Gaussian elimination with partial pivoting.
double direct_g(const BruteForce& bf, int d, double zeta) {
  const std::size_t V = bf.b.size();
  std::vector<double> M(V * V), x = bf.b;
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j) M[i * V + j] = (i == j ? zeta : 0.0) - d * bf.pi[i * V + j];
  for (std::size_t c = 0; c < V; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < V; ++r)
      if (std::abs(M[r * V + c]) > std::abs(M[pivot * V + c])) pivot = r;
    for (std::size_t j = 0; j < V; ++j) std::swap(M[c * V + j], M[pivot * V + j]);
    std::swap(x[c], x[pivot]);
    for (std::size_t r = c + 1; r < V; ++r) {
      const double f = M[r * V + c] / M[c * V + c];
      for (std::size_t j = c; j < V; ++j) M[r * V + j] -= f * M[c * V + j];
      x[r] -= f * x[c];
    }
  }
  for (std::size_t c = V; c-- > 0;) {
    for (std::size_t j = c + 1; j < V; ++j) x[c] -= M[c * V + j] * x[j];
    x[c] /= M[c * V + c];
  }
  double g = 0.0;
  for (std::size_t i = 0; i < V; ++i) g += bf.b[i] * x[i];
  return g;
}

/// The two outliers agree in lambda, overlap, threshold and edge to `tolerance` (relative; absolute for the
/// overlap) at several snr, on both tables.
void expect_same_predictions(const theory::SpectralMeasure& bulk_a, const theory::SpectralMeasure& signal_a,
                             const theory::SpectralMeasure& bulk_b, const theory::SpectralMeasure& signal_b,
                             int d, std::int64_t V, double tolerance) {
  for (const model::Table table : {model::Table::iid, model::Table::centered}) {
    const theory::FiniteTOutlier a(bulk_a, signal_a, d, V, table), b(bulk_b, signal_b, d, V, table);
    EXPECT_NEAR(a.bulk_edge_right(), b.bulk_edge_right(), tolerance * b.bulk_edge_right());
    EXPECT_NEAR(a.raw_threshold_snr(), b.raw_threshold_snr(), tolerance * std::abs(b.raw_threshold_snr()));
    const double threshold = std::max(b.raw_threshold_snr(), 0.0);
    for (const double snr : {0.0, threshold + 0.1, 1.5 * threshold + 0.5, 4.0 * threshold + 2.0}) {
      const theory::FiniteTPrediction x = a.at(snr), y = b.at(snr);
      EXPECT_EQ(x.detectable, y.detectable) << snr;
      EXPECT_NEAR(x.top_eigenvalue, y.top_eigenvalue, tolerance * y.top_eigenvalue) << snr;
      EXPECT_NEAR(x.overlap, y.overlap, tolerance) << snr;
    }
  }
}

}  // namespace

TEST(FiniteTSignal, LanczosMatchesTheEigendecompositionOfSigmaOnSmallDraws) {
  // Several tokens per sequence, V below and above N. The brute force and the fast route
  // (token_gram_spectrum's tau, Lanczos weights) differ by rounding in O(V^3) dense algebra and the Lanczos
  // run's 1e-14 stop: 1e-10.
  for (const auto& [N, V] : {std::pair<std::size_t, std::int64_t>{160, 80}, {60, 120}}) {
    SCOPED_TRACE(N);
    const int d = 40;
    const simulate::PooledTokens pooled = random_pooled({0.5, 0.3, 0.2}, N, V, 11);
    const BruteForce bf = brute_force(pooled);
    const theory::SpectralMeasure bulk =
        theory::counting_measure(theory::token_gram_spectrum(pooled.weights, pooled.tokens, V, true));
    const double zeta_e = theory::finite_t_edge_point(bulk, d).zeta;
    const theory::SpectralMeasure signal =
        theory::signal_measure(theory::TokenGram(pooled.weights, pooled.tokens, V), d, zeta_e);
    expect_same_predictions(bulk, signal, bf.bulk, bf.signal, d, V, 1e-10);
    // G itself, from a dense solve that uses no eigenpairs.
    const theory::FiniteTOutlier f(bulk, signal, d, V, model::Table::centered);
    for (const double zeta : {zeta_e, 1.3 * zeta_e, 4.0 * zeta_e})
      EXPECT_NEAR(f.g(zeta), direct_g(bf, d, zeta), 1e-10 * direct_g(bf, d, zeta)) << zeta;
  }
}

TEST(FiniteTSignal, SingleTokenClosedFormMatchesTheEigendecompositionOfSigma) {
  // One token per sequence, V below and above N; 1e-10 as above.
  for (const auto& [N, V] : {std::pair<std::size_t, std::int64_t>{300, 100}, {70, 120}}) {
    SCOPED_TRACE(N);
    const simulate::PooledTokens pooled = random_pooled({1.0}, N, V, 12);
    const BruteForce bf = brute_force(pooled);
    const theory::SpectralMeasure bulk =
        theory::counting_measure(theory::token_gram_spectrum(pooled.weights, pooled.tokens, V, true));
    expect_same_predictions(bulk, simulate::single_token_signal_measure(pooled), bf.bulk, bf.signal, 50, V,
                            1e-10);
  }
}

TEST(FiniteTSignal, SingleTokenClosedFormMatchesTheGeneralRouteToRounding) {
  // `last` at V = 400, N = 800: the closed form (count levels) against the general route (the dense Gram's
  // tau, Lanczos weights). Both are exact up to rounding; 1e-12.
  const simulate::PooledTokens pooled = random_pooled({1.0}, 800, 400, 13);
  const int d = 200;
  // The general route's tau: the dense V x V Gram, as token_gram_spectrum forms it for several terms (a
  // second term of weight 0 on a token nobody else uses would change V; so the Gram is formed here).
  const std::size_t V = 400, N = 800;
  std::vector<double> counts(V, 0.0);
  for (const auto v : pooled.tokens) counts[static_cast<std::size_t>(v)] += 1.0;
  std::vector<double> M(V * V, 0.0);  // Q (D - c c^T/N) Q/N, Q = I - (1 1^T + s s^T)/V
  const auto s = [&](std::size_t v) { return v < V / 2 ? 1.0 : -1.0; };
  std::vector<double> u1(V), u2(V), Mu1(V, 0.0), Mu2(V, 0.0);
  for (std::size_t v = 0; v < V; ++v) {
    u1[v] = 1.0 / std::sqrt(double(V));
    u2[v] = s(v) / std::sqrt(double(V));
  }
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j)
      M[i * V + j] = ((i == j ? counts[i] : 0.0) - counts[i] * counts[j] / double(N)) / double(N);
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j) {
      Mu1[i] += M[i * V + j] * u1[j];
      Mu2[i] += M[i * V + j] * u2[j];
    }
  double c11 = 0, c12 = 0, c22 = 0;
  for (std::size_t i = 0; i < V; ++i) {
    c11 += u1[i] * Mu1[i];
    c12 += u1[i] * Mu2[i];
    c22 += u2[i] * Mu2[i];
  }
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < V; ++j)
      M[i * V + j] += -u1[i] * Mu1[j] - u2[i] * Mu2[j] - Mu1[i] * u1[j] - Mu2[i] * u2[j] +
                      u1[i] * u1[j] * c11 + (u1[i] * u2[j] + u2[i] * u1[j]) * c12 + u2[i] * u2[j] * c22;
  const theory::SpectralMeasure dense_bulk =
      theory::counting_measure(model::symmetric_eigenvalues(M, int(V)));
  const theory::SpectralMeasure lanczos =
      theory::signal_measure(theory::TokenGram(pooled.weights, pooled.tokens, 400), d,
                             theory::finite_t_edge_point(dense_bulk, d).zeta);
  const theory::SpectralMeasure closed_bulk =
      theory::counting_measure(theory::token_gram_spectrum(pooled.weights, pooled.tokens, 400, true));
  expect_same_predictions(closed_bulk, simulate::single_token_signal_measure(pooled), dense_bulk, lanczos, d,
                          400, 1e-12);
}

TEST(FiniteTOutlierOfAPoint, HasTheFiniteTEdgeOfItsOwnTokens) {
  model::PointParams p;  // T = 10, delta = 0.5, gamma = 0.25, snr ignored
  p.d = 200;
  p.correlation = model::parse_correlation("prefix:3", p.T);
  for (const char* weighting : {"last", "harmonic"}) {
    p.weighting = model::parse_weighting(weighting, p.T);
    const std::optional<theory::FiniteTOutlier> f = simulate::build_finite_t_outlier(p);
    // The same tau, merged into atoms: the bisection's sums differ in order only.
    EXPECT_NEAR(f->bulk_edge_right(), theory::finite_t_edge(simulate::token_gram_spectrum(p), p.d), 1e-12)
        << weighting;
    p.snr = 5.0;
    EXPECT_EQ(simulate::build_finite_t_outlier(p).at(2.0).top_eigenvalue, f->at(2.0).top_eigenvalue)
        << "snr is ignored";
    p.snr = 1.0;
  }
}

TEST(FiniteTOutlierOfAPoint, IsComputedForEveryWeightingAtEverySize) {
  model::PointParams p;  // delta = 0.5, gamma = 0.25: min(V, N) = 2 d
  p.correlation = model::parse_correlation("prefix:3", p.T);
  for (const char* weighting : {"last", "mean", "harmonic", "optimal", "custom:0,0,0,0,0,0,0,0,1,3"}) {
    p.weighting = model::parse_weighting(weighting, p.T);
    for (const int d : {400, 4000, 100000}) {
      p.d = d;
      EXPECT_TRUE(simulate::finite_t_computed(p)) << weighting << " at d = " << d;
    }
  }
}

TEST(FiniteTCache, BuildsOncePerLineWhileItsLinesAlternate) {
  model::PointParams p;
  p.d = 100;
  simulate::FiniteTCache cache(2);
  const model::Weighting last = model::parse_weighting("last", p.T),
                         one = model::parse_weighting("custom:1,0,0,0,0,0,0,0,0,0", p.T);
  // A sweep's order within a noise table: snr, then weighting fastest.
  for (const double snr : {0.5, 1.0, 1.5}) {
    for (const model::Weighting& w : {last, one}) {
      p.snr = snr;
      p.weighting = w;
      ASSERT_TRUE(cache.get(p).has_value());
    }
  }
  EXPECT_EQ(cache.built(), 2u);
  p.trial = 1;  // another trial draws other tokens: another line, and the oldest is dropped
  const double edge = cache.get(p)->bulk_edge_right();
  p.weighting = last;
  p.trial = 0;
  EXPECT_NE(cache.get(p)->bulk_edge_right(), edge);
  EXPECT_EQ(cache.built(), 4u);
}
