// The sparse token Gram (theory/token_gram.hpp) and the finite-T measures at any size
// (theory/gram_quadrature.hpp), against the dense spectrum on a trial's own draws.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"
#include "rmtsweep/theory/token_gram.hpp"

using namespace rmtsweep;

namespace {

model::PointParams point(int d, double delta, double gamma, const char* weighting, int trial) {
  model::PointParams p;
  p.d = d;
  p.delta = delta;
  p.gamma = gamma;
  p.T = 10;
  p.correlation = model::parse_correlation("prefix:3", p.T);
  p.weighting = model::parse_weighting(weighting, p.T);
  p.trial = trial;
  p.seed = 3;
  return p;
}

theory::TokenGram gram_of(const model::PointParams& p) {
  const simulate::PooledTokens pooled = simulate::draw_pooled_tokens(p);
  return theory::TokenGram(pooled.weights, pooled.tokens, pooled.vocabulary);
}

/// The exact measures: the dense spectrum (theory::token_gram_spectrum, formed from the definitions) and the
/// signal's Lanczos run at its edge.
struct Exact {
  theory::SpectralMeasure bulk, signal;
};
Exact exact(const model::PointParams& p, const theory::TokenGram& gram) {
  Exact e;
  e.bulk = theory::counting_measure(simulate::token_gram_spectrum(p));
  e.signal = theory::signal_measure(gram, p.d, theory::finite_t_edge_point(e.bulk, p.d).zeta);
  return e;
}

}  // namespace

TEST(TokenGram, TracesOfItsPowersAreThoseOfTheDenseSpectrumOnBothSides) {
  // V < N (the tokens side) and V > N (the sequences side); the powers' sums from the dense eigenvalues
  // (rounding of a values-only eigenvalue problem of size 200-400: 1e-11 of the sum).
  for (const double delta : {0.5, 2.0}) {
    const model::PointParams p = point(200, delta, 1.0, "harmonic", 0);
    const theory::TokenGram gram = gram_of(p);
    const std::vector<double> tau = simulate::token_gram_spectrum(p);
    const std::array<double, 5> powers = gram.trace_powers(gram.smaller_side());
    EXPECT_EQ(powers[0], static_cast<double>(gram.dimension(gram.smaller_side())));
    for (int j = 1; j <= 4; ++j) {
      double sum = 0.0;
      for (const double t : tau) sum += std::pow(t, j);
      EXPECT_NEAR(powers[static_cast<std::size_t>(j)], sum, 1e-11 * sum)
          << "delta " << delta << ", power " << j;
    }
  }
}

TEST(TokenGram, BothSidesHaveTheSameNonzeroSpectrumAsTheDenseGram) {
  // The measures from the operator itself (exact path, min(V, N) <= dense_bulk_limit) against
  // token_gram_spectrum's dense Gram, formed another way: the same edge to rounding.
  for (const double delta : {0.5, 2.0}) {
    const model::PointParams p = point(300, delta, 1.0, "mean", 1);
    const theory::TokenGram gram = gram_of(p);
    const theory::GramMeasures m = theory::token_gram_measures(gram, p.d, simulate::finite_t_probe_signs(p));
    ASSERT_TRUE(m.exact_bulk);
    const Exact e = exact(p, gram);
    EXPECT_NEAR(theory::finite_t_edge_point(m.bulk, p.d).edge, theory::finite_t_edge_point(e.bulk, p.d).edge,
                1e-12);
  }
}

TEST(GramQuadrature, EdgeAndThresholdEqualTheDenseOnesWithin1e4AtASizeBothReach) {
  // min(V, N) = 3200: the quadrature's path, and a dense eigenvalue problem of 1.5 s for the reference. The
  // target of docs/finite_t.md §7: 1e-4 relative in the edge and in the threshold's 1/G(zeta_e), for three
  // weightings and two trials each.
  for (const char* weighting : {"mean", "harmonic", "optimal"}) {
    for (const int trial : {0, 1}) {
      const model::PointParams p = point(1600, 0.5, 0.25, weighting, trial);
      const theory::TokenGram gram = gram_of(p);
      const auto start = std::chrono::steady_clock::now();
      const theory::GramMeasures m =
          theory::token_gram_measures(gram, p.d, simulate::finite_t_probe_signs(p));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ASSERT_FALSE(m.exact_bulk);
      const Exact e = exact(p, gram);
      const theory::FiniteTOutlier fast(m.bulk, m.signal, p.d, p.vocabulary(), model::Table::centered);
      const theory::FiniteTOutlier dense(e.bulk, e.signal, p.d, p.vocabulary(), model::Table::centered);
      const double edge_error = fast.bulk_edge_right() / dense.bulk_edge_right() - 1.0;
      const double threshold_error = fast.raw_threshold_snr() / dense.raw_threshold_snr() - 1.0;
      std::printf(
          "%-9s trial %d: edge %+.2e (estimated %.1e), threshold %+.2e (estimated %.1e), %d probes, %.2f s\n",
          weighting, trial, edge_error, m.edge_error, threshold_error, m.threshold_error, m.probes, seconds);
      EXPECT_LT(std::abs(edge_error), 1e-4) << weighting << " trial " << trial;
      EXPECT_LT(std::abs(threshold_error), 1e-4) << weighting << " trial " << trial;
      // The outlier and overlap above the threshold follow.
      const double snr = 1.5 * dense.threshold_snr() + 0.2;
      EXPECT_NEAR(fast.at(snr).top_eigenvalue, dense.at(snr).top_eigenvalue,
                  1e-4 * dense.at(snr).top_eigenvalue);
      EXPECT_NEAR(fast.at(snr).overlap, dense.at(snr).overlap, 1e-4);
    }
  }
}

TEST(GramQuadrature, IsTheSameBitsOnEveryCallWhateverTheBlasThreads) {
  // Just above the dense limit: the quadrature's probes are the trial's own (random::Stream::finite_t_probes)
  // and its dense algebra is Eigen's, unthreaded, so a sweep stores the same bits on any number of ranks.
  const model::PointParams p = point(1100, 0.5, 0.25, "harmonic", 2);
  const theory::TokenGram gram = gram_of(p);
  ASSERT_GT(gram.dimension(gram.smaller_side()), theory::dense_bulk_limit);
  parallel::set_blas_threads(2);
  const theory::GramMeasures a = theory::token_gram_measures(gram, p.d, simulate::finite_t_probe_signs(p));
  parallel::set_blas_threads(1);
  const theory::GramMeasures b = theory::token_gram_measures(gram, p.d, simulate::finite_t_probe_signs(p));
  EXPECT_EQ(a.bulk.nodes, b.bulk.nodes);
  EXPECT_EQ(a.bulk.weights, b.bulk.weights);
  EXPECT_EQ(a.signal.weights, b.signal.weights);
  EXPECT_EQ(simulate::build_finite_t(p).outlier->bulk_edge_right(),
            theory::FiniteTOutlier(a.bulk, a.signal, p.d, p.vocabulary(), p.table).bulk_edge_right());
}
