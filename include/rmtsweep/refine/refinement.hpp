#pragma once
/// A refinement of one sweep file, as `rmtsweep refine` runs it (docs/refinement.md).
///
/// Rounds. Rank 0 reads the grid's done points (and its lines' secular forms) once and, each round, the
/// refined rows; it decides the round's work (design.hpp) from done results only: whole new trials, each a
/// line over the grid's snr values, on lines whose trials have exact thresholds, points bisecting the trials'
/// brackets elsewhere (replay.hpp). It broadcasts them, writes them as pending (store/refine_file.hpp,
/// store/refined_line_store.hpp), and every rank computes them with the sweep's dynamic schedule
/// (sweep::run_batch). Round r's decision uses the grid and the results of the points rounds 0..r-1 proposed,
/// never other rows of the file: a rerun after a kill replays the rounds from the start, finds their points
/// done (or pending: then computes them), and continues exactly where an uninterrupted refine would be.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/refine/lines.hpp"
#include "rmtsweep/refine/replay.hpp"
#include "rmtsweep/store/provenance.hpp"

namespace rmtsweep::refine {

/// Mismatches between the sweep file's stored config and its points' parameter columns (rank 0 reads the
/// file), one sentence each: a config edited by hand no longer describes the file's points, and refining
/// from it would place new points on other lines.
std::vector<std::string> stored_config_mismatches(const std::string& path);

/// What a refinement did.
struct RefineOutcome {
  std::int64_t computed = 0, failed = 0;  ///< refined points computed by this refine, and of those failed
  int rounds = 0;                         ///< rounds run (options.max_rounds: the limit was reached)
  int stop_signal = 0;                    ///< SIGTERM/SIGINT that stopped it, else 0
  /// On rank 0 unless stopped: the lines' axes and every line's estimate after the refinement, as the replay
  /// sees it; the refined points in the file, and whether the budget (--max-points) ran out.
  assemble::Axes axes;
  std::vector<LineSummary> summaries;
  std::int64_t used = 0;
  bool budget_spent = false;
};

/// The refinement of the sweep file at `path` (its grid `grid`, from its stored config) on every rank of
/// `comm`; every call collective.
class Refinement {
 public:
  /// Rank 0 reads the grid's done points and its lines' secular forms (before the file is opened in
  /// parallel), but those of `left_out` (rank 0's: damaged rows left out, assemble::plan_for_damage); every
  /// rank gets the lines' geometry.
  Refinement(std::string path, config::Grid grid, const RefineOptions& options, MPI_Comm comm,
             const assemble::LeftOut& left_out = {});

  /// Opens the file for resume as the run `run` and runs rounds until the replay proposes nothing (every line
  /// finished or the budget spent), options.max_rounds are run, or a stop signal (sweep/runner.hpp's
  /// install_stop_handlers, the caller's) ends them. Rank 0 writes a line per round to `log` (nullptr:
  /// silent). Throws AgreedFailure, alike on every rank, when a write failed on some rank (a full disk).
  RefineOutcome run(const store::RunInfo& run, std::FILE* log);

 private:
  std::string path_;
  config::Grid grid_;
  RefineOptions options_;
  MPI_Comm comm_;
  std::unique_ptr<Replay> replay_;  ///< rank 0's
  Lines geometry_;                  ///< every rank's
};

}  // namespace rmtsweep::refine
