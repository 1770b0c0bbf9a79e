#pragma once
// `rmtsweep status --json`: the whole report of `status` as one JSON object, for scripts.
#include <nlohmann/json.hpp>

#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::app {

/// The report of `status --json`: the file, its counts by state (and by size), its runs, the lock, the
/// latest run's rate and ETA, the journal's state (store/sweep_status.hpp), the failed points with their
/// messages.
nlohmann::json status_json(const store::SweepReader& reader);

}  // namespace rmtsweep::app
