#pragma once
/// The grid of a sweep and the order in which its points are computed.
///
/// Flattened point order (the row of every /points dataset): trial fastest, then weighting,
/// snr, gamma, delta, and d slowest:
///   index = ((((i_d * n_delta + i_delta) * n_gamma + i_gamma) * n_snr + i_snr) * n_weighting + i_weighting)
///           * trials + trial
/// so the points of one size are contiguous. With one size (i_d = 0) this is the order of
/// schema_version 1, which had no d axis.
#include <cstdint>
#include <vector>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/sweep/config.hpp"

namespace rmtsweep::sweep {

/// The axis positions of one point.
struct GridCoordinates {
  std::size_t d = 0, delta = 0, gamma = 0, snr = 0, weighting = 0;
  int trial = 0;
};

class Grid {
 public:
  explicit Grid(SweepConfig config);

  const SweepConfig& config() const noexcept { return config_; }
  std::int64_t size() const noexcept { return size_; }

  /// The axis positions of point `index` (0 <= index < size()).
  GridCoordinates coordinates(std::int64_t index) const;
  /// The flattened index of the given axis positions (inverse of coordinates()).
  std::int64_t index(const GridCoordinates& at) const;
  /// The full parameters of point `index`: the axes' values plus T, correlation, table, seed.
  model::PointParams params(std::int64_t index) const;

  /// Lines: the points that differ only in snr (simulate/line.hpp). A line's index is its points'
  /// flattened index without the snr position:
  ///   line = ((((i_d n_delta + i_delta) n_gamma + i_gamma) n_weighting + i_weighting) trials + trial
  std::int64_t line_count() const noexcept { return size_ / static_cast<std::int64_t>(config_.snr.size()); }
  /// The line of point `index`.
  std::int64_t line_of(std::int64_t index) const;
  /// The points of line `line`, in the order of the snr axis.
  std::vector<std::int64_t> line_points(std::int64_t line) const;

 private:
  SweepConfig config_;
  std::int64_t size_ = 0;
};

/// A relative cost of computing one point, in flop-like units from d, V, N and T:
/// table V d, pooling N T d (N T^2 d for causal attention), covariance N d^2, the full
/// symmetric eigensolve ~ 4 d^3, the ridge solve ~ d^3 and the test set ntest T d.
/// Where the point takes the Krylov engine (config.eigensolver krylov, or auto without stored
/// spectra where simulate::krylov_modelled_faster), its covariance and eigen terms are the Krylov
/// engine's modelled cost (simulate::engine_costs) instead.
double point_cost(const model::PointParams& params, const SweepConfig& config);

/// The same on the engine given (`krylov`: the Krylov engine's cost, else the dense path's).
double point_cost(const model::PointParams& params, const SweepConfig& config, bool krylov);

/// The relative cost of a line of `snr_count` points of params (all but snr), in point_cost's units: the data
/// once, one factorization of the snr-free part (dense: its covariance and about 1.8 x a point's eigen floor;
/// Krylov: one basis, about 1.15 x a point's), and per snr value a secular solve and the test scores.
double line_cost(const model::PointParams& params, std::size_t snr_count, const SweepConfig& config);

/// The tasks over units of work (runs of consecutive units sharing their noise table and their cost, as
/// table_runs below), for units given by the parameters of their first point and their costs, in hand-out
/// order: the positions where the tasks start, followed by the number of units.
std::vector<std::int64_t> unit_runs(const std::vector<model::PointParams>& firsts, const std::vector<double>& costs,
                                    int groups);

/// `todo` sorted most expensive first, so that the long points start early and the short ones
/// fill the gaps at the end (longest-processing-time-first): the largest d first. Ties are grouped by
/// noise table (d, delta, trial), then by ascending index, so that consecutive points share their table.
std::vector<std::int64_t> order_by_cost(const Grid& grid, std::vector<std::int64_t> todo);

/// The tasks of a sweep over `order` (as from order_by_cost) for `groups` groups: runs of
/// consecutive points that share their noise table (d, delta, trial) and their cost. A run starting
/// at position p holds at most max(1, (order.size() - p) / (4 groups)) points, so runs shrink
/// towards the end of the sweep (guided self-scheduling) and the last tasks are single points.
/// Returned as the positions in `order` where the tasks start, followed by order.size(). A group
/// that takes a whole run draws its table once for all of the run's points; handed out one
/// point at a time, the points of a run went to every group in turn, each drawing the same table.
std::vector<std::int64_t> table_runs(const Grid& grid, const std::vector<std::int64_t>& order, int groups);

/// The same for points given by their parameters, in hand-out order (points off the grid: refined
/// ones). Two points share a noise table when d, delta and trial agree (seed and table kind are the
/// sweep's); for grid points this groups exactly as the overload above.
std::vector<std::int64_t> table_runs(const std::vector<model::PointParams>& ordered, const SweepConfig& config,
                                     int groups);

}  // namespace rmtsweep::sweep
