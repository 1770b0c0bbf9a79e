// The engine policy (include/rmtsweep/simulate/engine.hpp).
#include "rmtsweep/simulate/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "krylov_settings.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/meminfo.hpp"

namespace rmtsweep::simulate {

const char* to_string(Engine engine) noexcept {
  switch (engine) {
    case Engine::dense:
      return "dense";
    case Engine::krylov:
      return "krylov";
    case Engine::automatic:
      break;
  }
  return "automatic";
}

EngineCosts engine_costs(const model::PointParams& params, const SimulationOptions& options) {
  // In units of a dgemm flop of the dense path's covariance: dense = d^2 min(N, V) (dsyrk or the
  // vocabulary's dgemm; d N^2 on the Gram path) + 3 m^3 (the reduction of the m x m matrix, m = min(d, N));
  // Krylov = 85 B d columns for B block products (of 8 lanes, each streaming the table twice),
  // B = 45 (d / 2000)^0.25 blocks as measured from d = 2000 to 8000. The factor 85 puts the crossover where
  // the measured times put it, d near 1400 at delta 0.5, gamma 0.25 (docs/performance.md, "Top eigenpairs
  // without forming S"); beyond it Krylov wins by more than the model says, which changes no choice. The
  // ranks divide both alike.
  const double d = params.d, N = static_cast<double>(params.sequences()),
               V = static_cast<double>(params.vocabulary());
  const double m = std::min(d, N);
  const double dense = (N < d ? d * N * N : d * d * std::min(N, V)) + 3.0 * m * m * m;
  const double blocks =
      45.0 * std::pow(d / 2000.0, 0.25) * std::max(1.0, std::min(options.k, params.d) / 4.0);
  const double columns = N <= compress_fraction * V ? N : V;  // FactoredCovariance::compress
  return {dense, 85.0 * blocks * d * columns};
}

bool dense_fits(const model::PointParams& params, int ranks) {
  // The dense path holds S (or K, N x N) and about as much again in the eigen solver's
  // workspace and vectors, besides the table, spread over the ranks.
  const double m = static_cast<double>(std::min<std::int64_t>(params.d, params.sequences()));
  const double need = (2.0 * 8.0 * m * m + 8.0 * params.d * static_cast<double>(params.vocabulary())) / ranks;
  const double available = meminfo_bytes("MemAvailable");
  return available <= 0.0 || need < available / ranks;  // unknown (not Linux): let the dense path try
}

Engine choose_engine(const model::PointParams& params, const SimulationOptions& options, Work work,
                     DenseMemory memory) {
  if (options.engine != Engine::automatic) {
    if (options.spectrum && !gives_spectrum(options.engine)) {
      throw InvalidArgument(
          "engine", to_string(options.engine),
          "allowed with a spectrum: automatic or dense (the Krylov engine never forms S and "
          "gives its top k eigenvalues only, not the spectrum)");
    }
    return options.engine;
  }
  if (options.spectrum) return Engine::dense;
  if (memory == DenseMemory::too_small) return Engine::krylov;
  const EngineCosts costs = engine_costs(params, options);
  if (work == Work::point) return costs.krylov < costs.dense ? Engine::krylov : Engine::dense;
  if (params.d < min_krylov_line_d) return Engine::dense;
  const double m = static_cast<double>(std::min<std::int64_t>(params.d, params.sequences()));
  return 1.15 * costs.krylov < costs.dense + 3.0 * m * m * m ? Engine::krylov : Engine::dense;
}

}  // namespace rmtsweep::simulate
