// The ridge classifier's accuracy on fresh test sequences (model.md section 6).
#include <algorithm>
#include <cmath>

#include "line_stages.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {
namespace {

/// Deterministic weights: beta^T (c_n - c-bar) = sum_t w_t p_{v_t} + sqrt(snr) beta_0 sum_t w_t xi_t
/// - beta^T c-bar with p_v = beta^T z_v (model.md section 1.2), so each test sequence costs O(T)
/// draws and flops instead of forming its d-vector. Every rank scores every sequence (the same
/// result everywhere, no communication beyond the V projections).
double projected_accuracy(const PointContext& context, const PooledSequences& pooled,
                          const std::vector<double>& beta, const std::vector<double>& mean,
                          std::int64_t ntest) {
  const model::PointParams& params = context.params;
  const std::vector<double> projections = pooled.token_projections(beta);
  const std::vector<double>& w = pooled.weights();
  double offset = 0.0;
  for (std::size_t i = 0; i < beta.size(); ++i) offset -= beta[i] * mean[i];
  const double signal = std::sqrt(params.snr) * beta[0];
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  const auto T = static_cast<std::size_t>(params.T);
  std::vector<int> xi(T);
  std::vector<std::int64_t> tokens(T);
  std::int64_t correct = 0;
  for (std::int64_t n = 0; n < ntest; ++n) {
    draw_signs(rng, test_streams.sign, params.correlation, n, xi);
    draw_tokens(rng, test_streams.token, params.vocabulary(), n, xi, tokens);
    double noise = 0.0, signal_weight = 0.0;
    for (std::size_t t = 0; t < T; ++t) {
      if (w[t] == 0.0) continue;
      noise += w[t] * projections[static_cast<std::size_t>(tokens[t])];
      signal_weight += w[t] * xi[t];
    }
    const double score = noise + signal * signal_weight + offset;
    if ((score > 0.0 && xi[0] > 0) || (score < 0.0 && xi[0] < 0)) ++correct;
  }
  return static_cast<double>(correct) / static_cast<double>(ntest);
}

}  // namespace

double test_accuracy(PointContext& context, const PooledSequences& pooled, const std::vector<double>& beta,
                     const std::vector<double>& mean, std::int64_t ntest) {
  if (!context.params.weighting.data_dependent())
    return projected_accuracy(context, pooled, beta, mean, ntest);
  // causal:tau: the weights depend on each sequence's embeddings, so the test data are formed.
  const int d = context.params.d;
  const auto width = static_cast<int>(std::min<std::int64_t>(panel_width, ntest));
  parallel::DistributedMatrix panel(context.grid, d, width);
  const random::CounterRng rng(context.params.seed, static_cast<std::uint64_t>(context.params.trial));
  std::vector<int> labels, xi(static_cast<std::size_t>(context.params.T));
  std::vector<double> scores(static_cast<std::size_t>(width));
  std::int64_t correct = 0;
  // This rank's part of beta^T (c - c-bar) for a column it holds: sum over its rows of
  // beta_i c_i, plus the constant -sum over its rows of beta_i c-bar_i.
  const auto rows = global_rows(panel);
  std::vector<double> local_beta(rows.size());
  double offset = 0.0;
  for (std::size_t lr = 0; lr < rows.size(); ++lr) {
    local_beta[lr] = beta[rows[lr]];
    offset -= beta[rows[lr]] * mean[rows[lr]];
  }
  for (std::int64_t first = 0; first < ntest; first += width) {
    const auto count = static_cast<int>(std::min<std::int64_t>(width, ntest - first));
    pooled.fill(panel, first, count, test_streams, labels);
    // Each (row, column) entry is held by one rank: summing the partial scores over all
    // ranks gives beta^T (c_n - c-bar) for every column of the panel, on every rank.
    std::fill(scores.begin(), scores.end(), 0.0);
    for (int lc = 0; lc < panel.local_cols(); ++lc) {
      const int j = panel.col_map().to_global(lc);
      if (j >= count) continue;
      double score = offset;
      const double* c = panel.local_column(lc);
      for (std::size_t lr = 0; lr < local_beta.size(); ++lr) score += local_beta[lr] * c[lr];
      scores[static_cast<std::size_t>(j)] = score;
    }
    parallel::all_sum(std::span<double>(scores.data(), static_cast<std::size_t>(count)),
                      context.grid->comm());
    for (int j = 0; j < count; ++j) {
      draw_signs(rng, test_streams.sign, context.params.correlation, first + j, xi);
      const double score = scores[static_cast<std::size_t>(j)];
      if ((score > 0.0 && xi[0] > 0) || (score < 0.0 && xi[0] < 0)) ++correct;
    }
  }
  return static_cast<double>(correct) / static_cast<double>(ntest);
}

std::vector<double> line_test_accuracies(const PointContext& context, const PooledSequences& pooled,
                                         const LineRidge& ridge, const std::vector<double>& mean0,
                                         double sigma_mean, std::span<const double> r, std::int64_t ntest) {
  const model::PointParams& params = context.params;
  const auto d = static_cast<std::size_t>(params.d), count = static_cast<std::size_t>(ridge.count);
  // Per basis vector B_k: its token projections p_k(v) = B_k^T z_v, B_k^T c-bar0 and B_k(0).
  std::vector<std::vector<double>> projections(count);
  std::vector<double> at_mean(count), first(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::vector<double> basis(ridge.basis.begin() + static_cast<std::ptrdiff_t>(k * d),
                                    ridge.basis.begin() + static_cast<std::ptrdiff_t>((k + 1) * d));
    projections[k] = pooled.token_projections(basis);
    double sum = 0.0;
    for (std::size_t i = 0; i < d; ++i) sum += basis[i] * mean0[i];
    at_mean[k] = sum;
    first[k] = basis[0];
  }
  std::vector<std::vector<double>> coefficients(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) coefficients[i] = ridge.coefficients(r[i]);
  // beta(r)^T (c_n(r) - c-bar(r)) = sum_k alpha_k(r) (sum_t w_t p_k(v_t) - B_k^T c-bar0 + r (sigma_n -
  // sigma-bar) B_k(0)).
  const std::vector<double>& w = pooled.weights();
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  const auto T = static_cast<std::size_t>(params.T);
  std::vector<int> xi(T);
  std::vector<std::int64_t> tokens(T);
  std::vector<double> noise(count);
  std::vector<std::int64_t> correct(r.size(), 0);
  for (std::int64_t n = 0; n < ntest; ++n) {
    draw_signs(rng, test_streams.sign, params.correlation, n, xi);
    draw_tokens(rng, test_streams.token, params.vocabulary(), n, xi, tokens);
    std::fill(noise.begin(), noise.end(), 0.0);
    double sigma = 0.0;
    for (std::size_t t = 0; t < T; ++t) {
      if (w[t] == 0.0) continue;
      for (std::size_t k = 0; k < count; ++k)
        noise[k] += w[t] * projections[k][static_cast<std::size_t>(tokens[t])];
      sigma += w[t] * xi[t];
    }
    const double centred = sigma - sigma_mean;
    for (std::size_t i = 0; i < r.size(); ++i) {
      double score = 0.0;
      for (std::size_t k = 0; k < count; ++k)
        score += coefficients[i][k] * (noise[k] - at_mean[k] + r[i] * centred * first[k]);
      if ((score > 0.0 && xi[0] > 0) || (score < 0.0 && xi[0] < 0)) ++correct[i];
    }
  }
  std::vector<double> accuracy(r.size());
  for (std::size_t i = 0; i < r.size(); ++i)
    accuracy[i] = static_cast<double>(correct[i]) / static_cast<double>(ntest);
  return accuracy;
}

}  // namespace rmtsweep::simulate
