// Estimates of a sweep before it runs (include/rmtsweep/sweep/plan.hpp).
#include "rmtsweep/sweep/plan.hpp"

#include <algorithm>
#include <cstdio>

#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/simulate/engine.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/sweep/schedule.hpp"

namespace rmtsweep::sweep {
namespace {

/// A process's memory besides its arrays (MPI, OpenBLAS, HDF5): about 30 MB measured at d = 1000-4000.
constexpr double fixed_bytes = 32.0 * 1024 * 1024;
/// Seconds per unit of the cost models (dgemm flops of the dense path) on 1 rank x 2 BLAS threads,
/// measured idle on 2026-12-01: the dense point 0.83-1.01 s at d = 2000 (7.2e10 units) and 8.1 s at
/// d = 4000 (5.8e11); the Krylov point 5.6 s at d = 4000 (2.6e11). Slower machines take longer.
constexpr double dense_seconds_per_unit = 1.4e-11, krylov_seconds_per_unit = 2.1e-11;
/// Each point's cost besides its arithmetic (the sweep's bookkeeping, the file's writes, threads
/// started): `configs/example.ini` (468 points at d = 300) took 5.4 s on 2 one-thread ranks, 23 ms
/// a point, of which the models account for about 5.
constexpr double fixed_seconds = 0.015;
/// The threads the rates above were measured with.
constexpr double measured_threads = 2.0;

}  // namespace

PointEstimate estimate_point(const model::PointParams& params, const config::SweepConfig& config,
                             int threads_per_rank) {
  const double d = params.d, V = static_cast<double>(params.vocabulary()),
               N = static_cast<double>(params.sequences());
  const double ranks = std::max(1, config.ranks_per_point);
  PointEstimate e;
  e.krylov = simulate::choose_engine(
                 params, config::simulation_options(config, params.d), simulate::Work::point,
                 simulate::dense_memory(params, config.ranks_per_point)) == simulate::Engine::krylov;
  const double table = 8.0 * d * V / ranks;
  if (e.krylov) {
    // The table's rows, and the pooled vectors C = E A where N <= 0.3 V (FactoredCovariance::compress).
    e.bytes_per_rank = table + (N <= 0.3 * V ? 8.0 * d * N / ranks : 0.0) + fixed_bytes;
  } else {
    // S (d x d, or the N x N Gram where N < d), a second one where ELPA reduces it on a group, the
    // table, and a panel of 512 pooled vectors.
    const double m = std::min(d, N);
    const double copies = ranks > 1 && config.eigensolver != config::EigenSetting::scalapack ? 2.0 : 1.0;
    e.bytes_per_rank = copies * 8.0 * m * m / ranks + table + 8.0 * d * 512.0 / ranks + fixed_bytes;
  }
  const double units = point_cost(params, config, e.krylov);
  const double threads = ranks * std::max(1, threads_per_rank);
  e.seconds = fixed_seconds + units * (e.krylov ? krylov_seconds_per_unit : dense_seconds_per_unit) *
                                  measured_threads / threads;
  return e;
}

PointEstimate estimate_line(const model::PointParams& params, std::size_t snr_count,
                            const config::SweepConfig& config, int threads_per_rank) {
  const double d = params.d, V = static_cast<double>(params.vocabulary()),
               N = static_cast<double>(params.sequences());
  const double ranks = std::max(1, config.ranks_per_point);
  const simulate::SimulationOptions options = config::simulation_options(config, params.d);
  PointEstimate e;
  e.krylov = simulate::choose_engine(params, options, simulate::Work::line,
                                     simulate::dense_memory(params, config.ranks_per_point)) ==
             simulate::Engine::krylov;
  const double table = 8.0 * d * V / ranks;
  if (e.krylov) {
    // As a Krylov point, and the basis (d x the budget's vectors at most) on every rank.
    e.bytes_per_rank =
        table + (N <= 0.3 * V ? 8.0 * d * N / ranks : 0.0) +
        8.0 * d * static_cast<double>(std::min<long long>(params.d, simulate::krylov_budget(options))) +
        fixed_bytes;
  } else {
    // S (or the N x N Gram), its tridiagonal form's eigenvectors on every rank of the group, the table, a
    // panel.
    const double m = std::min(d, N);
    e.bytes_per_rank = 8.0 * m * m / ranks + 8.0 * m * m + table + 8.0 * d * 512.0 / ranks + fixed_bytes;
  }
  const double units = line_cost(params, snr_count, config);
  const double threads = ranks * std::max(1, threads_per_rank);
  // A line's bookkeeping is one unit's; its points' writes about a millisecond each.
  e.seconds =
      fixed_seconds + 0.001 * static_cast<double>(snr_count) +
      units * (e.krylov ? krylov_seconds_per_unit : dense_seconds_per_unit) * measured_threads / threads;
  return e;
}

SweepPlan plan_sweep(const config::Grid& grid, int threads_per_rank) {
  SweepPlan plan;
  plan.points = grid.size();
  const config::SweepConfig& c = grid.config();
  // Points differ only through (d, delta, gamma, weighting) in what they cost: one estimate per
  // combination, counted for every snr and trial.
  const auto per_combination = static_cast<std::int64_t>(c.snr.size()) * c.trials;
  for (std::size_t n = 0; n < c.d.size(); ++n) {
    for (std::size_t i = 0; i < c.delta.size(); ++i) {
      for (std::size_t j = 0; j < c.gamma.size(); ++j) {
        for (std::size_t w = 0; w < c.weighting.size(); ++w) {
          config::GridCoordinates at;
          at.d = n;
          at.delta = i;
          at.gamma = j;
          at.weighting = w;
          const model::PointParams params = grid.params(grid.index(at));
          const bool line = c.lines_apply(params.weighting);
          // A line per trial, or a point per snr and trial.
          const PointEstimate e = line ? estimate_line(params, c.snr.size(), c, threads_per_rank)
                                       : estimate_point(params, c, threads_per_rank);
          const auto units = line ? static_cast<std::int64_t>(c.trials) : per_combination;
          if (line) {
            plan.lines += c.trials;
            plan.line_points += per_combination;
          }
          if (e.bytes_per_rank > plan.largest.bytes_per_rank) {
            plan.largest = e;
            plan.largest_point = params;
          }
          plan.longest_seconds = std::max(plan.longest_seconds, e.seconds);
          plan.core_hours +=
              static_cast<double>(units) * e.seconds * c.ranks_per_point * threads_per_rank / 3600.0;
          if (e.krylov) plan.krylov_points += per_combination;
        }
      }
    }
  }
  return plan;
}

double wall_seconds(const SweepPlan& plan, int ranks, int threads_per_rank) {
  const double cores = static_cast<double>(std::max(1, ranks)) * std::max(1, threads_per_rank);
  return std::max(plan.core_hours * 3600.0 / cores, plan.longest_seconds);
}

double file_data_bytes(const config::Grid& grid) {
  const config::SweepConfig& c = grid.config();
  const auto points = static_cast<double>(grid.size());
  std::size_t weighting_width = 1;  // text columns without a fixed width hold a weighting's name
  for (const auto& w : c.weighting) weighting_width = std::max(weighting_width, model::to_string(w).size());
  double bytes = 0.0;
  for (const store::Column* column : store::point_columns()) {
    if (column->type == store::ColumnType::text && column->text_width == store::variable_length) {
      bytes += points * 16.0;  // a descriptor per row; the failed points' messages come at the close
    } else if (column->type == store::ColumnType::text) {
      bytes += points * static_cast<double>(column->text_width > 0 ? column->text_width : weighting_width);
    } else {
      bytes += points * 8.0 * (column->shape == store::ColumnShape::top_k ? c.k : 1);
    }
  }
  for (const int d : c.d) {
    if (c.spectra_stored(d)) bytes += static_cast<double>(c.points_per_d()) * (8.0 * d + 8.0);
  }
  return bytes + store::line_data_bytes(grid);
}

double journal_data_bytes(const config::Grid& grid) {
  const config::SweepConfig& c = grid.config();
  double per_point = 12.0 + 8.0 + 4.0;  // frame, index, spectrum count (journal.hpp)
  for (const store::Column* column : store::point_columns()) {
    if (column->phase != store::ColumnPhase::measurement) continue;
    if (column->type == store::ColumnType::text) {
      per_point += 4.0 + (column == &store::column::solver ? 16.0 : 0.0);  // a done point's error is empty
    } else {
      per_point += column->shape == store::ColumnShape::top_k ? 4.0 + 8.0 * c.k : 8.0;
    }
  }
  double bytes = per_point * static_cast<double>(grid.size());
  for (const int d : c.d) {
    if (c.spectra_stored(d)) bytes += static_cast<double>(c.points_per_d()) * 8.0 * d;
  }
  return bytes;
}

std::string memory_text(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 5) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", bytes, units[unit]);
  return text;
}

}  // namespace rmtsweep::sweep
