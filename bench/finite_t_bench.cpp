// The finite-T theory of one trial at any size (theory/gram_quadrature.hpp), timed, and beside the dense
// spectrum where asked: `rmtsweep_bench_finite_t d delta gamma weighting trial [--dense] [--probe-offset K]`
// prints one JSON line (docs/performance.md, "The finite-T theory at any size"). One thread.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"
#include "rmtsweep/theory/token_gram.hpp"

using namespace rmtsweep;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(
        stderr,
        "usage: %s d delta gamma weighting trial [--dense] [--probe-offset K] [--correlation C] [--T T] "
        "[--seed S]\n",
        argv[0]);
    return 2;
  }
  model::PointParams p;
  p.d = std::atoi(argv[1]);
  p.delta = std::atof(argv[2]);
  p.gamma = std::atof(argv[3]);
  const std::string weighting = argv[4];
  p.trial = std::atoi(argv[5]);
  p.seed = 3;
  std::string correlation = "prefix:3";
  bool dense = false;
  std::size_t offset = 0;
  for (int i = 6; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dense")
      dense = true;
    else if (a == "--probe-offset" && i + 1 < argc)
      offset = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--correlation" && i + 1 < argc)
      correlation = argv[++i];
    else if (a == "--T" && i + 1 < argc)
      p.T = std::atoi(argv[++i]);
    else if (a == "--seed" && i + 1 < argc)
      p.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--table" && i + 1 < argc)
      p.table = model::parse_table(argv[++i]);
  }
  p.correlation = model::parse_correlation(correlation, p.T);
  p.weighting = model::parse_weighting(weighting, p.T);
  const parallel::SingleThreadedBlas one_thread;

  auto start = std::chrono::steady_clock::now();
  const simulate::PooledTokens pooled = simulate::draw_pooled_tokens(p);
  const theory::TokenGram gram(pooled.weights, pooled.tokens, pooled.vocabulary);
  const double draw_seconds = seconds_since(start);
  const theory::ProbeSigns base = simulate::finite_t_probe_signs(p);
  const theory::ProbeSigns signs = [&](std::size_t i, std::span<double> out) { base(i + offset, out); };
  start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const theory::GramMeasures m = theory::token_gram_measures(gram, p.d, signs);
  const double seconds = seconds_since(start);
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const theory::FiniteTOutlier fast(m.bulk, m.signal, p.d, p.vocabulary(), p.table);
  nlohmann::json out = {{"d", p.d},
                        {"delta", p.delta},
                        {"gamma", p.gamma},
                        {"weighting", weighting},
                        {"trial", p.trial},
                        {"V", p.vocabulary()},
                        {"N", p.sequences()},
                        {"n", gram.dimension(gram.smaller_side())},
                        {"exact_bulk", m.exact_bulk},
                        {"probes", m.probes},
                        {"moments", m.calibrated_moments},
                        {"draw_seconds", draw_seconds},
                        {"seconds", seconds},
                        {"cpu_seconds", cpu_seconds},
                        {"edge", fast.bulk_edge_right()},
                        {"raw_threshold", fast.raw_threshold_snr()},
                        {"edge_error_estimate", m.edge_error},
                        {"threshold_error_estimate", m.threshold_error}};
  if (dense) {
    start = std::chrono::steady_clock::now();
    const std::clock_t dense_cpu = std::clock();
    const theory::SpectralMeasure bulk = theory::counting_measure(simulate::token_gram_spectrum(p));
    const theory::SpectralMeasure signal =
        theory::signal_measure(gram, p.d, theory::finite_t_edge_point(bulk, p.d).zeta);
    const theory::FiniteTOutlier exact(bulk, signal, p.d, p.vocabulary(), p.table);
    out["dense_seconds"] = seconds_since(start);
    out["dense_cpu_seconds"] = static_cast<double>(std::clock() - dense_cpu) / CLOCKS_PER_SEC;
    out["dense_edge"] = exact.bulk_edge_right();
    out["dense_raw_threshold"] = exact.raw_threshold_snr();
    out["edge_error"] = fast.bulk_edge_right() / exact.bulk_edge_right() - 1.0;
    out["threshold_error"] = fast.raw_threshold_snr() / exact.raw_threshold_snr() - 1.0;
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
