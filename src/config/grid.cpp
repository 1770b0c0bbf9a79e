// The sweep grid (include/rmtsweep/config/grid.hpp).
#include "rmtsweep/config/grid.hpp"

#include <stdexcept>
#include <utility>

namespace rmtsweep::config {

Grid::Grid(SweepConfig config) : config_(std::move(config)), size_(config_.point_count()) {}

GridCoordinates Grid::coordinates(std::int64_t index) const {
  if (index < 0 || index >= size_) throw std::out_of_range("grid point index out of range");
  GridCoordinates at;
  auto take = [&index](std::size_t extent) {
    const auto e = static_cast<std::int64_t>(extent);
    const auto position = static_cast<std::size_t>(index % e);
    index /= e;
    return position;
  };
  at.trial = static_cast<int>(take(static_cast<std::size_t>(config_.trials)));
  at.weighting = take(config_.weighting.size());
  at.snr = take(config_.snr.size());
  at.gamma = take(config_.gamma.size());
  at.delta = take(config_.delta.size());
  at.d = take(config_.d.size());
  return at;
}

std::int64_t Grid::index(const GridCoordinates& at) const {
  const auto& c = config_;
  const std::size_t flat =
      ((((at.d * c.delta.size() + at.delta) * c.gamma.size() + at.gamma) * c.snr.size() + at.snr) *
           c.weighting.size() +
       at.weighting);
  return static_cast<std::int64_t>(flat) * c.trials + at.trial;
}

model::PointParams Grid::params(std::int64_t index) const {
  const GridCoordinates at = coordinates(index);
  model::PointParams p;
  p.d = config_.d[at.d];
  p.T = config_.T;
  p.delta = config_.delta[at.delta];
  p.gamma = config_.gamma[at.gamma];
  p.snr = config_.snr[at.snr];
  p.weighting = config_.weighting[at.weighting];
  p.correlation = config_.correlation;
  p.table = config_.table;
  p.seed = config_.seed;
  p.trial = at.trial;
  return p;
}

std::int64_t Grid::line_of(std::int64_t index) const {
  if (index < 0 || index >= size_) throw std::out_of_range("grid point index out of range");
  const auto inner = static_cast<std::int64_t>(config_.weighting.size()) * config_.trials;
  const auto n_snr = static_cast<std::int64_t>(config_.snr.size());
  return index / (inner * n_snr) * inner + index % inner;
}

std::vector<std::int64_t> Grid::line_points(std::int64_t line) const {
  if (line < 0 || line >= line_count()) throw std::out_of_range("grid line index out of range");
  const auto inner = static_cast<std::int64_t>(config_.weighting.size()) * config_.trials;
  const auto n_snr = static_cast<std::int64_t>(config_.snr.size());
  std::vector<std::int64_t> points(static_cast<std::size_t>(n_snr));
  for (std::int64_t s = 0; s < n_snr; ++s)
    points[static_cast<std::size_t>(s)] = line / inner * n_snr * inner + s * inner + line % inner;
  return points;
}

}  // namespace rmtsweep::config
