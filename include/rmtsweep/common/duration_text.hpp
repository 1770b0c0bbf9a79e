#pragma once
/// A duration as a person reads it ("45 s", "3 min 20 s", "1 h 12 min", "2 d 5 h"): the ETA of a run's
/// progress lines and of `rmtsweep status`, the wall time of `run --plan`.
#include <string>

namespace rmtsweep {

/// `seconds` rounded to its two largest units (seconds below a minute; "0 s" for zero or less;
/// "unknown" for a value that is not finite).
std::string duration_text(double seconds);

}  // namespace rmtsweep
