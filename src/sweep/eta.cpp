// The ETA of a running sweep (include/rmtsweep/sweep/eta.hpp).
#include "rmtsweep/sweep/eta.hpp"

#include <algorithm>

#include "rmtsweep/config/shard.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/sweep/plan.hpp"

namespace rmtsweep::sweep {

PlannedWork planned_work(const config::Grid& grid, int threads_per_rank) {
  const config::SweepConfig& config = grid.config();
  PlannedWork work;
  work.point_seconds.assign(static_cast<std::size_t>(grid.size()), 0.0);
  double total = 0.0;
  std::int64_t units = 0;
  for (std::int64_t line = 0; line < grid.line_count(); ++line) {
    const std::vector<std::int64_t> points = grid.line_points(line);
    const model::PointParams params = grid.params(points.front());
    if (config.lines_apply(params.weighting)) {
      const double seconds = estimate_line(params, points.size(), config, threads_per_rank).seconds;
      for (const std::int64_t i : points)
        work.point_seconds[static_cast<std::size_t>(i)] = seconds / static_cast<double>(points.size());
      total += seconds;
      ++units;
      continue;
    }
    // The points of a line differ in snr only, which costs nothing: one estimate for them all.
    const double seconds = estimate_point(params, config, threads_per_rank).seconds;
    for (const std::int64_t i : points) {
      work.point_seconds[static_cast<std::size_t>(i)] = seconds;
      total += seconds;
      ++units;
    }
  }
  work.unit_seconds = units > 0 ? total / static_cast<double>(units) : 0.0;
  return work;
}

double eta_seconds(const EtaInput& input) {
  const double groups = std::max(1, input.groups);
  if (input.planned_done <= 0.0 || input.elapsed <= 0.0) return input.planned_left / groups;
  const double in_flight = std::min(groups * input.unit_seconds / 2.0, input.planned_left);
  const double rate = (input.planned_done + in_flight) / input.elapsed;
  return (input.planned_left - in_flight) / rate;
}

std::optional<double> running_eta(const store::SweepReader& reader, const std::vector<std::int64_t>& status,
                                  const store::Activity& activity) {
  if (!activity.running() || !activity.elapsed_seconds || !reader.has(store::column::run))
    return std::nullopt;
  const config::Grid grid(reader.config());
  if (static_cast<std::size_t>(grid.size()) != status.size()) return std::nullopt;
  const PlannedWork planned = planned_work(grid, 1);
  config::Shard shard;
  shard.index = static_cast<int>(reader.integer_attribute("shard_index").value_or(0));
  shard.count = static_cast<int>(reader.integer_attribute("shard_count").value_or(0));
  const std::vector<char> in_shard = config::shard_points(grid, shard);
  const std::vector<std::int64_t> run = reader.integers(store::column::run);
  EtaInput eta;
  for (std::size_t i = 0; i < status.size() && i < run.size(); ++i) {
    if (!in_shard[i]) continue;
    const auto s = static_cast<store::PointStatus>(status[i]);
    if (s == store::PointStatus::pending) eta.planned_left += planned.point_seconds[i];
    if ((s == store::PointStatus::done || s == store::PointStatus::failed) && run[i] == activity.latest_run)
      eta.planned_done += planned.point_seconds[i];
  }
  eta.unit_seconds = planned.unit_seconds;
  eta.elapsed = *activity.elapsed_seconds;
  eta.groups = static_cast<int>(std::max<std::int64_t>(1, activity.latest_mpi_ranks) /
                                std::max(1, grid.config().ranks_per_point));
  return eta_seconds(eta);
}

}  // namespace rmtsweep::sweep
