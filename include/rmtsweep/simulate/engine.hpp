#pragma once
/// The engine policy: which engine, dense or Krylov (options.hpp: Engine), computes a point or a line. One
/// function decides (choose_engine) for every caller: simulate_point and simulate_line, the schedule's costs
/// and order, the plan's estimates and the width of a size's /lines rows; and the one rule between the engine
/// and a spectrum (the Krylov engine gives the top k eigenvalues only) lives here: gives_spectrum.
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/options.hpp"

namespace rmtsweep::simulate {

/// What is computed: one point, or a line of snr values from one factorization (line.hpp).
enum class Work { point, line };

/// Below this d, automatic lines are dense: a dense line takes a fraction of a second there, and the Krylov
/// basis's fixed costs per block (its threads, the small dense work) outweigh what it saves (dense lines
/// measured 5-15 x faster at d = 200-800).
inline constexpr int min_krylov_line_d = 1000;

/// The two engines' modelled costs of a point's covariance and eigen stages, in dgemm flops of the dense
/// path (docs/performance.md, "The engine's cost model"; the sweep orders its points by them).
struct EngineCosts {
  double dense = 0.0;
  double krylov = 0.0;
};
EngineCosts engine_costs(const model::PointParams& params, const SimulationOptions& options);

/// Whether the dense engine's S (or K, N x N) and its workspace fit in this node's available memory on
/// `ranks` ranks (reads /proc/meminfo's MemAvailable; true where it cannot be read).
bool dense_fits(const model::PointParams& params, int ranks);

/// Whether `engine` gives the whole spectrum of S: every engine but Krylov, which never forms S.
constexpr bool gives_spectrum(Engine engine) noexcept { return engine != Engine::krylov; }

/// What is known of this node's memory for the dense engine: nothing (the cost model alone decides), or
/// whether dense_fits.
enum class DenseMemory { unknown, fits, too_small };

/// Which engine computes `work` of `params` (Engine::dense or Engine::krylov); a pure function of its
/// arguments, so that every rank of a group that passes the same `memory` (read on its rank 0) decides alike:
/// - options.engine where it is forced (Krylov with options.spectrum is refused: InvalidArgument "engine";
///   the config refuses it before, config::require_spectrum_engine);
/// - dense where a spectrum is asked;
/// - Krylov where the dense engine does not fit (`memory` too_small);
/// - else by the cost model (engine_costs): a point takes Krylov where its modelled cost is below the dense
///   one's; a line where d >= min_krylov_line_d and one Krylov basis (about 1.15 x a Krylov point: its
///   checks) is below the dense line (the covariance and about twice a point's reduction: the dense line adds
///   the eigenvectors of its tridiagonal form, dstedc, measured 0.9 x a point's eigen stage at d = 2000).
/// With `memory` unknown the cost model alone decides: for ordering and laying out a sweep, where it is
/// evaluated for every point.
Engine choose_engine(const model::PointParams& params, const SimulationOptions& options, Work work,
                     DenseMemory memory = DenseMemory::unknown);

/// DenseMemory::fits or too_small by dense_fits on `ranks` ranks (reads this node's memory).
inline DenseMemory dense_memory(const model::PointParams& params, int ranks) {
  return dense_fits(params, ranks) ? DenseMemory::fits : DenseMemory::too_small;
}

}  // namespace rmtsweep::simulate
