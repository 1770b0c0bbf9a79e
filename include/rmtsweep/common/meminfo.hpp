#pragma once
/// This node's memory as Linux reports it in /proc/meminfo: the one reader of that file, for the
/// engine's "does S fit" check (MemAvailable) and the plan's memory per rank (MemTotal).
#include <string_view>

namespace rmtsweep {

/// The value of `key` ("MemTotal", "MemAvailable", ...) in bytes; 0 when unknown (not Linux).
double meminfo_bytes(std::string_view key);

}  // namespace rmtsweep
