#pragma once
/// The grid of a sweep: its points, their order in the file, and its lines.
///
/// Flattened point order (the row of every /points dataset): trial fastest, then weighting,
/// snr, gamma, delta, and d slowest:
///   index = ((((i_d * n_delta + i_delta) * n_gamma + i_gamma) * n_snr + i_snr) * n_weighting + i_weighting)
///           * trials + trial
/// so the points of one size are contiguous. With one size (i_d = 0) this is the order of
/// schema_version 1, which had no d axis.
#include <cstdint>
#include <vector>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/model/params.hpp"

namespace rmtsweep::config {

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

}  // namespace rmtsweep::config
