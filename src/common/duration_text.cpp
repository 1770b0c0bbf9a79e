// A duration in words (include/rmtsweep/common/duration_text.hpp).
#include "rmtsweep/common/duration_text.hpp"

#include <cmath>
#include <cstdint>

namespace rmtsweep {

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds)) return "unknown";
  if (seconds <= 0.0) return "0 s";
  constexpr double minute = 60, hour = 3600, day = 86400;
  // Each form rounded to its smaller unit: 59.6 s is "1 min 0 s", 3599.9 s "1 h 0 min".
  const auto part = [](double value, double big, double small, const char* big_name, const char* small_name) {
    const auto total = static_cast<std::int64_t>(std::llround(value / small));
    const auto per = static_cast<std::int64_t>(std::llround(big / small));
    return std::to_string(total / per) + " " + big_name + " " + std::to_string(total % per) + " " +
           small_name;
  };
  if (std::llround(seconds) < 60) return std::to_string(std::llround(seconds)) + " s";
  if (std::llround(seconds) < 3600) return part(seconds, minute, 1.0, "min", "s");
  if (std::llround(seconds / minute) < 24 * 60) return part(seconds, hour, minute, "h", "min");
  return part(seconds, day, hour, "d", "h");
}

}  // namespace rmtsweep
