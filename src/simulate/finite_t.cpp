// A point's token draws -> the finite-T outlier theory (include/rmtsweep/simulate/finite_t.hpp).
#include "rmtsweep/simulate/finite_t.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/simulate/sequences.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"
#include "rmtsweep/theory/token_gram.hpp"

namespace rmtsweep::simulate {
namespace {

double class_sign(std::int64_t v, std::int64_t V) { return 2 * v < V ? 1.0 : -1.0; }

}  // namespace

PooledTokens draw_pooled_tokens(const model::PointParams& params) {
  const std::vector<double> w = model::pooling_weights(params.weighting, params.correlation, params.T);
  PooledTokens pooled;
  pooled.vocabulary = params.vocabulary();
  std::vector<std::size_t> terms;
  for (std::size_t t = 0; t < w.size(); ++t) {
    if (w[t] != 0.0) {
      terms.push_back(t);
      pooled.weights.push_back(w[t]);
    }
  }
  const std::int64_t N = params.sequences();
  const auto uT = static_cast<std::size_t>(params.T);
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  std::vector<int> xi(uT);
  std::vector<std::int64_t> v(uT);
  pooled.tokens.resize(static_cast<std::size_t>(N) * terms.size());
  for (std::int64_t n = 0; n < N; ++n) {
    draw_signs(rng, training_streams.sign, params.correlation, n, xi);
    draw_tokens(rng, training_streams.token, pooled.vocabulary, n, xi, v);
    for (std::size_t k = 0; k < terms.size(); ++k)
      pooled.tokens[static_cast<std::size_t>(n) * terms.size() + k] = v[terms[k]];
  }
  return pooled;
}

std::vector<double> token_gram_spectrum(const model::PointParams& params) {
  const PooledTokens pooled = draw_pooled_tokens(params);
  return theory::token_gram_spectrum(pooled.weights, pooled.tokens, pooled.vocabulary, true);
}

double token_gram_bytes(const model::PointParams& params) {
  const std::vector<double> w = model::pooling_weights(params.weighting, params.correlation, params.T);
  const auto N = static_cast<double>(params.sequences()), V = static_cast<double>(params.vocabulary());
  const double T = params.T;
  const double tokens = 8.0 * N * T;
  if (theory::single_token_weights(w)) return tokens + 8.0 * N + 40.0 * V;  // the counts and the levels
  // The sparse Gram (A by sequence and by token), the rows of G that trace_powers forms (about N T'^2 pairs
  // on the tokens side, (N T')^2/V on the sequences side), the Lanczos bases (a block of 16 probes of up to
  // 60 steps, Spectra's 2k + 1, the signal's on N), and on the exact path the dense min(V, N)^2.
  double terms = 0.0;
  for (const double x : w) terms += x != 0.0 ? 1.0 : 0.0;
  const double n = std::min(V, N);
  const double gram_rows = V <= N ? N * terms * terms : N * terms * N * terms / V;
  const double bases =
      8.0 * (n * (16.0 * 60.0 + 2.0 * theory::BulkQuadratureOptions{}.deflated + 33.0) + 100.0 * N);
  const double dense = n <= static_cast<double>(theory::dense_bulk_limit) ? 8.0 * n * n : 0.0;
  return tokens + 24.0 * N * terms + 12.0 * gram_rows + bases + dense;
}

theory::SpectralMeasure single_token_signal_measure(const PooledTokens& pooled) {
  if (pooled.weights.size() != 1) throw std::invalid_argument("single_token_signal_measure: needs one term");
  const double w = pooled.weights[0];
  const std::int64_t V = pooled.vocabulary;
  const auto N = static_cast<double>(pooled.sequences());
  std::vector<std::int64_t> count(static_cast<std::size_t>(V), 0);
  for (const std::int64_t v : pooled.tokens) {
    if (v < 0 || v >= V) throw std::out_of_range("single_token_signal_measure: token outside V");
    ++count[static_cast<std::size_t>(v)];
  }
  // Per count level c: its size m and signed size p = #(class +1) - #(class -1).
  std::map<std::int64_t, std::pair<double, double>> levels;
  for (std::int64_t v = 0; v < V; ++v) {
    auto& [m, p] = levels[count[static_cast<std::size_t>(v)]];
    m += 1.0;
    p += class_sign(v, V);
  }
  // An orthonormal basis of span{1_level, s_level} per level: e1 = 1_level/sqrt(m) and, unless the level
  // lies in one class, e2 = (s_level - (p/m) 1_level)/sqrt(m - p^2/m). In it: the counts c, the all-ones
  // vector and s, and D = diag(c) acts as c I.
  std::vector<double> level_count, c_coord, one_coord, s_coord;
  for (const auto& [c, mp] : levels) {
    const auto [m, p] = mp;
    level_count.push_back(static_cast<double>(c));
    c_coord.push_back(static_cast<double>(c) * std::sqrt(m));
    one_coord.push_back(std::sqrt(m));
    s_coord.push_back(p / std::sqrt(m));
    const double rest = m - p * p / m;
    if (rest > 0.5 / m) {  // m^2 - p^2 is an integer: >= 1 unless the level lies in one class
      level_count.push_back(static_cast<double>(c));
      c_coord.push_back(0.0);
      one_coord.push_back(0.0);
      s_coord.push_back(std::sqrt(rest));
    }
  }
  const std::size_t k = level_count.size();
  // Sigma = (w^2/N)(D - c c^T/N) on the span, and B = Sigma^(1/2) (eigenvalues below rounding set to 0:
  // Sigma 1 = 0 exactly).
  std::vector<double> sigma(k * k);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      sigma[i * k + j] = w * w / N * ((i == j ? level_count[i] : 0.0) - c_coord[i] * c_coord[j] / N);
  const model::SymmetricEigen se = model::symmetric_eigen(sigma, static_cast<int>(k));
  const double top = se.values.empty() ? 0.0 : std::max(0.0, se.values.back());
  std::vector<double> B(k * k, 0.0);
  for (std::size_t q = 0; q < k; ++q) {
    const double lambda = se.values[q] > 1e-14 * top ? se.values[q] : 0.0;
    const double root = std::sqrt(lambda);
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        B[i * k + j] += root * se.vectors[q * k + i] * se.vectors[q * k + j];
  }
  // Pi = B Q B with Q = I - (1 1^T + s s^T)/V, and b = B s.
  const auto Vd = static_cast<double>(V);
  std::vector<double> b1(k, 0.0), bs(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      b1[i] += B[i * k + j] * one_coord[j];
      bs[i] += B[i * k + j] * s_coord[j];
    }
  }
  std::vector<double> pi(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      double x = -(b1[i] * b1[j] + bs[i] * bs[j]) / Vd;
      for (std::size_t l = 0; l < k; ++l) x += B[i * k + l] * B[l * k + j];
      pi[i * k + j] = x;
    }
  }
  const model::SymmetricEigen pe = model::symmetric_eigen(pi, static_cast<int>(k));
  theory::SpectralMeasure measure;
  for (std::size_t q = 0; q < k; ++q) {
    double projection = 0.0;
    for (std::size_t i = 0; i < k; ++i) projection += pe.vectors[q * k + i] * bs[i];
    measure.nodes.push_back(std::max(pe.values[q], 0.0));
    measure.weights.push_back(projection * projection);
  }
  return measure;
}

bool finite_t_levels_computed(const model::PointParams& params) {
  return theory::single_token_weights(model::pooling_weights(params.weighting, params.correlation, params.T));
}

theory::TopLevelDraws top_level_draws(const model::PointParams& params, int k, int count) {
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  const auto uk = static_cast<std::size_t>(k), n = static_cast<std::size_t>(count);
  theory::TopLevelDraws draws;
  draws.k = k;
  draws.xi.resize(n * uk * uk);
  draws.g.resize(n * uk);
  draws.go.resize(n * uk);
  draws.g1.resize(n);
  draws.chi.resize(n);
  std::vector<double> z(uk * uk + 2 * uk + 2);
  for (std::size_t i = 0; i < n; ++i) {
    rng.gaussians(random::Stream::top_levels, i, 0, z);
    double* xi = draws.xi.data() + i * uk * uk;
    for (std::size_t p = 0; p < uk; ++p)
      for (std::size_t q = 0; q < uk; ++q) xi[p * uk + q] = (z[p * uk + q] + z[q * uk + p]) / std::sqrt(2.0);
    std::copy_n(z.begin() + static_cast<std::ptrdiff_t>(uk * uk), uk,
                draws.g.begin() + static_cast<std::ptrdiff_t>(i * uk));
    std::copy_n(z.begin() + static_cast<std::ptrdiff_t>(uk * uk + uk), uk,
                draws.go.begin() + static_cast<std::ptrdiff_t>(i * uk));
    draws.g1[i] = z[uk * uk + 2 * uk];
    draws.chi[i] = z[uk * uk + 2 * uk + 1];
  }
  return draws;
}

std::optional<theory::FiniteTTopLevels> finite_t_levels(const model::PointParams& params,
                                                        const theory::FiniteTOutlier& outlier) {
  if (!finite_t_levels_computed(params)) return std::nullopt;
  double directions = 0.0;
  for (const double m : outlier.bulk().weights) directions += m;
  if (directions < 2.0) return std::nullopt;
  // The rule's k: the supercritical count levels, a level being the tokens seen equally often (tau = c
  // w^2/N).
  double w = 0.0;
  for (const double x : model::pooling_weights(params.weighting, params.correlation, params.T))
    if (x != 0.0) w = x;
  const double unit = w * w / static_cast<double>(params.sequences());
  const int k = theory::kept_top_directions(outlier.bulk(), params.d, unit);
  return theory::FiniteTTopLevels(outlier.bulk(), outlier.signal(), params.d, params.vocabulary(),
                                  params.table, k);
}

std::vector<theory::TopLevelPrediction> finite_t_levels_predictions(const model::PointParams& params,
                                                                    const theory::FiniteTOutlier& outlier,
                                                                    std::span<const double> snr) {
  const auto levels = finite_t_levels(params, outlier);
  if (!levels) return {};
  const parallel::SingleThreadedBlas one_thread;
  const theory::TopLevelDraws draws = top_level_draws(params, levels->k(), theory::default_top_level_draws);
  std::vector<theory::TopLevelPrediction> out;
  out.reserve(snr.size());
  for (const double x : snr) out.push_back(levels->at(x, draws));
  return out;
}

std::int64_t finite_t_gram_size(const model::PointParams& params) {
  return std::min(params.vocabulary(), params.sequences());
}

bool finite_t_computed(const model::PointParams&) { return true; }

double finite_t_cost(const model::PointParams& params) {
  const std::vector<double> w = model::pooling_weights(params.weighting, params.correlation, params.T);
  const auto N = static_cast<double>(params.sequences()), V = static_cast<double>(params.vocabulary());
  double terms = 0.0;
  for (const double x : w) terms += x != 0.0 ? 1.0 : 0.0;
  if (terms <= 1.0) return 20.0 * N + 10.0 * V;
  const double n = std::min(V, N);
  if (n <= static_cast<double>(theory::dense_bulk_limit)) return 4.0 / 3.0 * n * n * n + 4.0 * N * terms * n;
  const double row = N * terms * terms / V * (V <= N ? 1.0 : N / V) + terms;  // G's nonzeros per row
  return 2500.0 * 16.0 * N * terms + 4.0 * n * row * row;
}

theory::ProbeSigns finite_t_probe_signs(const model::PointParams& params) {
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  return [rng](std::size_t probe, std::span<double> out) {
    for (std::size_t first = 0; first < out.size(); first += 256) {
      const auto bits = rng.bits(random::Stream::finite_t_probes, probe, first / 256);
      const std::size_t end = std::min(out.size(), first + 256);
      for (std::size_t i = first; i < end; ++i)
        out[i] = (bits[(i - first) / 64] >> ((i - first) % 64)) & 1u ? 1.0 : -1.0;
    }
  };
}

FiniteTBuild build_finite_t(const model::PointParams& params) {
  const PooledTokens pooled = draw_pooled_tokens(params);
  // Every measure below on one BLAS thread: the small and dense eigenvalue problems then give the same bits
  // whatever the BLAS thread count of the caller (1 or 2 ranks, a test), and so does the top levels' model.
  const parallel::SingleThreadedBlas one_thread;
  FiniteTBuild build;
  if (pooled.weights.size() == 1) {
    theory::SpectralMeasure bulk = theory::counting_measure(
        theory::token_gram_spectrum(pooled.weights, pooled.tokens, pooled.vocabulary, true));
    build.outlier.emplace(std::move(bulk), single_token_signal_measure(pooled), params.d, pooled.vocabulary,
                          params.table);
    return build;
  }
  const theory::TokenGram gram(pooled.weights, pooled.tokens, pooled.vocabulary);
  theory::GramMeasures measures = theory::token_gram_measures(gram, params.d, finite_t_probe_signs(params));
  build.edge_error = measures.edge_error;
  build.threshold_error = measures.threshold_error;
  build.outlier.emplace(std::move(measures.bulk), std::move(measures.signal), params.d, pooled.vocabulary,
                        params.table);
  return build;
}

theory::FiniteTOutlier build_finite_t_outlier(const model::PointParams& params) {
  return std::move(*build_finite_t(params).outlier);
}

std::optional<theory::FiniteTOutlier> finite_t_outlier(const model::PointParams& params) {
  if (!finite_t_computed(params)) return std::nullopt;
  return build_finite_t_outlier(params);
}

const std::optional<theory::FiniteTOutlier>& FiniteTCache::get(const model::PointParams& params) {
  const auto same_line = [&](const model::PointParams& k) {
    return k.d == params.d && k.T == params.T && k.delta == params.delta && k.gamma == params.gamma &&
           k.weighting == params.weighting && k.correlation == params.correlation &&
           k.table == params.table && k.seed == params.seed && k.trial == params.trial;
  };
  const auto found =
      std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return same_line(e.key); });
  if (found != entries_.end()) {
    entries_.splice(entries_.begin(), entries_, found);
    return entries_.front().value;
  }
  if (entries_.size() >= capacity_ && !entries_.empty()) entries_.pop_back();
  entries_.push_front(Entry{params, finite_t_outlier(params)});
  ++built_;
  return entries_.front().value;
}

}  // namespace rmtsweep::simulate
