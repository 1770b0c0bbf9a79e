#pragma once
/// The ETA of a running sweep: the one estimate that `run`'s progress line and `status` print. The work left
/// is weighed by the plan's cost model (plan.hpp's estimate_point and estimate_line: a unit's seconds on one
/// group), and the groups' speed against that model is measured on the work finished, the plan's own speed
/// until a unit has finished.
#include <cstdint>
#include <optional>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/sweep_status.hpp"

namespace rmtsweep::sweep {

/// The plan's seconds of a grid's work, per point: a point computed alone its estimate_point, a point of a
/// line (config.lines_apply) its share of its line's estimate_line; and the mean seconds of a unit (a point
/// alone or a line).
struct PlannedWork {
  std::vector<double> point_seconds;
  double unit_seconds = 0.0;
};

/// The planned work of `grid` on ranks of `threads_per_rank` BLAS threads.
PlannedWork planned_work(const config::Grid& grid, int threads_per_rank);

/// What an ETA is estimated from, in the plan's seconds (of one group) and wall seconds.
struct EtaInput {
  double planned_done = 0.0;  ///< planned seconds of the units the run finished
  double planned_left = 0.0;  ///< planned seconds of its units not finished (those in flight included)
  double unit_seconds = 0.0;  ///< planned seconds of a mean unit (PlannedWork::unit_seconds)
  double elapsed = 0.0;       ///< wall seconds since the run started
  int groups = 1;             ///< groups of ranks computing at once
};

/// The wall seconds the run still needs: the planned seconds left, less half a unit in flight on each group,
/// over the groups' rate. The rate is the planned seconds done, and half a unit in flight on each group, per
/// elapsed second; before any unit has finished it is the plan's (one planned second per second and group).
/// Half a unit per group corrects the first estimates, made when one unit has finished while the other
/// groups are midway through theirs (without it the first ETA is `groups` times too long).
double eta_seconds(const EtaInput& input);

/// The ETA of the run that writes the sweep file `reader` reads now (`activity`, its statuses `status`),
/// by eta_seconds: the planned seconds of the points its latest run finished and of its pending points
/// (of its shard), the run's elapsed seconds and groups (its mpi_ranks over ranks_per_point), the plan on
/// one BLAS thread a rank; nullopt while no run holds the file or its start is unrecorded.
std::optional<double> running_eta(const store::SweepReader& reader, const std::vector<std::int64_t>& status,
                                  const store::Activity& activity);

}  // namespace rmtsweep::sweep
