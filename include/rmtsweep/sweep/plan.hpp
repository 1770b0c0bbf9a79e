#pragma once
/// A plan of a sweep before it runs (`rmtsweep run --plan`): how many points, the peak memory per rank
/// and the time of its largest points, and the core-hours of the whole sweep, from the cost models
/// measured on the machines this project runs on (docs/performance.md). What a cluster user needs to
/// request an allocation, and what lets `run` refuse a sweep whose largest point cannot fit in a
/// rank's memory before anything is written. Estimates, not promises: within a factor of about 2.
#include <cstdint>
#include <string>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/model/params.hpp"

namespace rmtsweep::sweep {

/// One unit's estimate (a point, or a line of snr values) on a group of config.ranks_per_point ranks.
struct PointEstimate {
  double bytes_per_rank = 0.0;  ///< peak resident memory of each rank of the group
  double seconds = 0.0;         ///< wall-clock seconds on the group (each rank with its BLAS threads)
  bool krylov = false;          ///< whether S is never formed (the Krylov engine)
};

/// The estimate of one point of a sweep with this config (the engine it would take, its arrays), each
/// rank of its group using `threads_per_rank` BLAS threads.
PointEstimate estimate_point(const model::PointParams& params, const config::SweepConfig& config,
                             int threads_per_rank);

/// The estimate of a line of `snr_count` points (simulate_line): the engine it takes and its arrays (dense:
/// S, and the eigenvectors of its tridiagonal form, n x n, on every rank of the group; Krylov: as a point,
/// and its basis).
PointEstimate estimate_line(const model::PointParams& params, std::size_t snr_count,
                            const config::SweepConfig& config, int threads_per_rank);

struct SweepPlan {
  std::int64_t points = 0;
  std::int64_t krylov_points = 0;    ///< points that would never form S
  std::int64_t lines = 0;            ///< lines of snr values computed as one unit (simulate_line)
  std::int64_t line_points = 0;      ///< the points in them
  PointEstimate largest;             ///< the unit with the most memory per rank
  model::PointParams largest_point;  ///< its parameters
  double longest_seconds = 0.0;      ///< the slowest unit's (point's or line's) estimated time
  double core_hours = 0.0;           ///< sum over points of seconds x ranks_per_point x threads
};

/// The plan of a whole grid; `threads_per_rank` BLAS threads each rank uses (for the core-hours).
SweepPlan plan_sweep(const config::Grid& grid, int threads_per_rank);

/// The wall-clock seconds of the whole sweep on `ranks` ranks of `threads_per_rank` BLAS threads (groups of
/// ranks_per_point, as plan_sweep was computed with the same threads): its core-hours spread evenly over
/// the ranks' cores, and never less than its slowest unit, which one group computes alone.
double wall_seconds(const SweepPlan& plan, int ranks, int threads_per_rank);

/// The bytes of raw data a new sweep file of `grid` allocates at creation: every /points column
/// (points x its width, from the schema table; a variable-length text's 16-byte descriptor per row, its
/// messages written at the close) and the stored spectra. The file is this plus
/// HDF5's metadata (tens of KiB), so less free space than this means the file cannot be created.
double file_data_bytes(const config::Grid& grid);

/// The bytes the point journal of a whole sweep of `grid` takes once every point is done (journal.hpp:
/// each point's measurements and its spectrum where stored): it grows as points finish.
double journal_data_bytes(const config::Grid& grid);

/// "3.05 MiB", "298 GiB": a byte count to three digits.
std::string memory_text(double bytes);

}  // namespace rmtsweep::sweep
