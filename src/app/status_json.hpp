#pragma once
// `rmtsweep status --json`: the whole report of `status` as one JSON object, for scripts.
#include <nlohmann/json.hpp>

#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/sweep_status.hpp"

namespace rmtsweep::app {

/// The report of `status --json`: the file, its counts by state (and by size), its runs, the lock, the
/// latest run's rate and ETA, the journal's state (store/sweep_status.hpp), the failed points with their
/// messages; with `verify`, the verification (store::verify_with_journal: "verify": its result, counts and
/// the damaged points); and "state" (done, pending, damaged: store::SweepState) with "exit_status", the exit
/// status `status` ends with.
nlohmann::json status_json(const store::SweepReader& reader, bool verify = true);

/// The exit status of `status` (docs/commands.md): 0 every point done or failed, 3 points pending, 4 damage
/// found; 2 (not a sweep file: InvalidFile) and 1 (a file that cannot be read) are main's.
int status_exit_code(store::SweepState state) noexcept;

}  // namespace rmtsweep::app
