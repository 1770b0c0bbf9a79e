// Shards of a sweep (include/rmtsweep/config/shard.hpp).
#include "rmtsweep/config/shard.hpp"

#include <charconv>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/grid.hpp"

namespace rmtsweep::config {
namespace {

constexpr int most_shards = 1000000;

/// The whole of `text` as a decimal integer in [1, most_shards], or 0.
int shard_number(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > most_shards) return 0;
  return value;
}

}  // namespace

std::string Shard::text() const {
  return whole() ? std::string() : std::to_string(index) + "/" + std::to_string(count);
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const int index = slash == std::string::npos ? 0 : shard_number(std::string_view(text).substr(0, slash));
  const int count = slash == std::string::npos ? 0 : shard_number(std::string_view(text).substr(slash + 1));
  if (index == 0 || count == 0 || index > count) {
    throw InvalidOption("shard", text,
                        "i/n: shard i of n, integers 1 <= i <= n <= " + std::to_string(most_shards) +
                            " (e.g. 2/3; in a Slurm array of tasks 0..n-1: $((SLURM_ARRAY_TASK_ID + 1))/n)");
  }
  return {index, count};
}

Shard shard_or_whole(const std::string& text) noexcept {
  try {
    return parse_shard(text);
  } catch (const std::exception&) {
    return {};
  }
}

int shard_of_line(std::int64_t line, int count) noexcept { return static_cast<int>(line % count) + 1; }

std::vector<char> shard_points(const Grid& grid, const Shard& shard) {
  std::vector<char> in(static_cast<std::size_t>(grid.size()), 1);
  if (shard.whole()) return in;
  for (std::int64_t i = 0; i < grid.size(); ++i)
    in[static_cast<std::size_t>(i)] = shard_of_line(grid.line_of(i), shard.count) == shard.index ? 1 : 0;
  return in;
}

}  // namespace rmtsweep::config
