#pragma once
/// Shards of a sweep (`rmtsweep run --shard i/n`, `rmtsweep merge`; docs/cluster.md): a sweep split over
/// several jobs, each computing a fixed part of the grid into its own file, merged into one file afterwards.
///
/// The unit of a shard is a grid line (Grid::line_of: the points that differ only in snr), whether or not the
/// run computes it as a line: line L belongs to shard (L mod n) + 1. So a shard is the same set of points
/// whatever the run's `lines`, `eigensolver` or `ranks_per_point` (none of which is in the stored config), a
/// resumed shard computes exactly its own points, and a line the line engine computes is never split. Lines
/// in grid order vary d slowest and trial fastest: every shard gets about 1/n of the lines of each size, so
/// that the shards take about as long as each other.
#include <cstdint>
#include <string>
#include <vector>

namespace rmtsweep::config {

class Grid;

/// Shard `index` of `count` (1 <= index <= count); count 0 is the whole sweep.
struct Shard {
  int index = 0;
  int count = 0;
  bool whole() const noexcept { return count == 0; }
  /// "2/3" ("" for the whole sweep).
  std::string text() const;
  friend bool operator==(const Shard&, const Shard&) = default;
};

/// Parses `--shard i/n`: integers 1 <= i <= n <= 1000000. Throws InvalidOption("shard", text, ...).
Shard parse_shard(const std::string& text);
/// The same, the whole sweep for a text that is not i/n (a damaged or edited attribute).
Shard shard_or_whole(const std::string& text) noexcept;

/// The shard (1..count) of grid line `line`.
int shard_of_line(std::int64_t line, int count) noexcept;

/// Per point of `grid`, whether it belongs to `shard` (all true for the whole sweep).
std::vector<char> shard_points(const Grid& grid, const Shard& shard);

}  // namespace rmtsweep::config
