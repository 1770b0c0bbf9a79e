#pragma once
/// The order in which a sweep's points and lines are computed: their relative costs and the
/// tasks (runs of units sharing their noise table) handed to the groups of ranks.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/model/params.hpp"

namespace rmtsweep::sweep {

/// A relative cost of computing one point, in flop-like units from d, V, N and T:
/// table V d, pooling N T d (N T^2 d for causal attention), covariance N d^2, the full
/// symmetric eigensolve ~ 4 d^3, the ridge solve ~ d^3 and the test set ntest T d.
/// Where the engine policy's cost model gives the point the Krylov engine (simulate::choose_engine without
/// the memory check), its covariance and eigen terms are the Krylov engine's modelled cost
/// (simulate::engine_costs) instead.
double point_cost(const model::PointParams& params, const config::SweepConfig& config);

/// The same on the engine given (`krylov`: the Krylov engine's cost, else the dense path's).
double point_cost(const model::PointParams& params, const config::SweepConfig& config, bool krylov);

/// The relative cost of a line of `snr_count` points of params (all but snr), in point_cost's units: the data
/// once, one factorization of the snr-free part (dense: its covariance and about 1.8 x a point's eigen floor;
/// Krylov: one basis, about 1.15 x a point's), and per snr value a secular solve and the test scores.
double line_cost(const model::PointParams& params, std::size_t snr_count, const config::SweepConfig& config);

/// The tasks over units of work (runs of consecutive units sharing their noise table and their cost, as
/// table_runs below), for units given by the parameters of their first point and their costs, in hand-out
/// order: the positions where the tasks start, followed by the number of units.
std::vector<std::int64_t> unit_runs(const std::vector<model::PointParams>& firsts,
                                    const std::vector<double>& costs, int groups);

/// `todo` sorted most expensive first, so that the long points start early and the short ones
/// fill the gaps at the end (longest-processing-time-first): the largest d first. Ties are grouped by
/// noise table (d, delta, trial), then by ascending index, so that consecutive points share their table.
std::vector<std::int64_t> order_by_cost(const config::Grid& grid, std::vector<std::int64_t> todo);

/// The tasks of a sweep over `order` (as from order_by_cost) for `groups` groups: runs of
/// consecutive points that share their noise table (d, delta, trial) and their cost. A run starting
/// at position p holds at most max(1, (order.size() - p) / (4 groups)) points, so runs shrink
/// towards the end of the sweep (guided self-scheduling) and the last tasks are single points.
/// Returned as the positions in `order` where the tasks start, followed by order.size(). A group
/// that takes a whole run draws its table once for all of the run's points; handed out one
/// point at a time, the points of a run went to every group in turn, each drawing the same table.
std::vector<std::int64_t> table_runs(const config::Grid& grid, const std::vector<std::int64_t>& order,
                                     int groups);

/// The same for points given by their parameters, in hand-out order (points off the grid: refined
/// ones). Two points share a noise table when d, delta and trial agree (seed and table kind are the
/// sweep's); for grid points this groups exactly as the overload above.
std::vector<std::int64_t> table_runs(const std::vector<model::PointParams>& ordered,
                                     const config::SweepConfig& config, int groups);

}  // namespace rmtsweep::sweep
