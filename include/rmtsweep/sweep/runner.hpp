#pragma once
/// Runs the pending points of a sweep on all ranks of a communicator: groups of
/// ranks_per_point ranks, dynamic hand-out through a WorkCounter, one shared SweepFile.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/shard.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/simulate/line.hpp"
#include "rmtsweep/store/sweep_file.hpp"

namespace rmtsweep::sweep {

struct RunOutcome {
  std::int64_t total = 0;       ///< points in the grid
  std::int64_t todo = 0;        ///< points not done when this run started
  std::int64_t computed = 0;    ///< points finished (done or failed) by this run
  std::int64_t failed = 0;      ///< of those, failed
  std::int64_t elpa = 0;        ///< of those done, the points whose S ELPA reduced (groups of several ranks)
  std::int64_t krylov = 0;      ///< of those done, the points computed without forming S (Krylov engine)
  std::int64_t lines = 0;       ///< of those done, the points computed as part of a line (simulate_line)
  std::int64_t done_total = 0;  ///< points done in the file after this run
  int stop_signal = 0;          ///< SIGTERM/SIGINT number if the run was stopped, else 0
  /// Whether a group leader's write of a point failed (a full disk under its journal or the file): that
  /// leader stopped taking points as on a signal, the others finished theirs. The same on every rank;
  /// write_error holds the error on the leaders that met it (null elsewhere).
  bool write_failed = false;
  std::exception_ptr write_error;
  double wall_seconds = 0.0;
  double load_imbalance = 1.0;  ///< max / mean busy seconds of the groups (1 = perfect)
};

/// A list of points to compute in units of work, in the order they are handed out (costliest first,
/// units of one noise table together), and where their outcomes go. A unit is one point, or a line: points
/// that differ only in snr, computed together by simulate::simulate_line. What run_sweep computes for the
/// grid and `rmtsweep refine` for its refined points (refine_file.hpp); identical on every rank but for the
/// writers, which only group leaders call.
struct PointBatch {
  const char* label = "rmtsweep run";      ///< prefix of the progress lines
  double progress_interval = 1.0;          ///< seconds at least between two progress lines
  bool progress_terminal = false;          ///< progress as one line rewritten in place (a terminal watches)
  std::int64_t total = 0;                  ///< points in the whole set (progress: total - todo are done)
  std::vector<model::PointParams> points;  ///< every point of every unit, in hand-out order
  /// Unit u is points[units[u], units[u + 1]); a unit of several points is a line. Empty: every point alone.
  std::vector<std::size_t> units;
  /// Per unit: its relative cost (schedule.hpp's point_cost, line_cost for a line), the key the units are
  /// ordered by: unit_runs groups units of equal cost into tasks, and progress weighs finished points by it.
  std::vector<double> costs;
  /// Per unit (optional): its planned seconds (eta.hpp), which progress weighs finished points by and its
  /// ETA counts in; empty: the costs, and an ETA at the plan's rate meaningless until a unit is finished.
  std::vector<double> planned_seconds;
  double unit_seconds = 0.0;  ///< a mean unit's planned seconds (eta.hpp); 0: the mean of planned_seconds
  /// The simulation options of a point of size d (config.hpp's simulation_options of the sweep's config).
  std::function<simulate::SimulationOptions(int d)> options_of;
  /// Per point: whether it is written. A line is computed whole, so that its results do not depend on which
  /// of its points a resumed run still needs; its done points are not written again. Empty: every point.
  std::vector<char> wanted;
  std::function<std::int64_t(std::size_t)> id_of;  ///< a point's row, for messages (optional)
  /// Test-only fault injection (optional): a unit whose point is injected throws (a line: all its points
  /// fail).
  std::function<bool(std::size_t)> fail_injected;
  /// Test-only (the unit_pause key): seconds each group waits after each unit, without CPU, so that a small
  /// sweep is still running when a test signals or kills it.
  double unit_pause = 0.0;
  std::function<void(std::size_t, const simulate::PointResult&, double)> write_done;
  std::function<void(std::size_t, const std::string&, double)> write_failed;
  /// A computed line, by the position of its first point (optional): its exact thresholds' data.
  std::function<void(std::size_t, const simulate::LineResult&)> write_line;

  /// The number of units, and where unit u starts and ends in points.
  std::size_t unit_count() const noexcept { return units.empty() ? points.size() : units.size() - 1; }
  std::size_t unit_begin(std::size_t u) const noexcept { return units.empty() ? u : units[u]; }
  std::size_t unit_end(std::size_t u) const noexcept { return units.empty() ? u + 1 : units[u + 1]; }
  bool is_wanted(std::size_t at) const noexcept { return wanted.empty() || wanted[at] != 0; }
};

/// Computes `batch` on every rank of `comm` with the dynamic schedule of run_sweep (below): groups of
/// ranks_per_point ranks, tasks of points sharing their noise table (table_runs), an RMA task counter.
/// Collective; the outcome is the same on every rank.
RunOutcome run_batch(const PointBatch& batch, int ranks_per_point, MPI_Comm comm, std::FILE* progress);

/// Collective on `comm` (size divisible by ranks_per_point, checked by the caller). Rank 0
/// reads which points are not done, orders them most expensive first and broadcasts the
/// order; each group's leader takes the next task from the counter and broadcasts it in its
/// group; the group computes the point with simulate::simulate_point on its communicator and
/// the leader writes it. A point whose engine call throws is recorded as failed and the sweep
/// goes on. After SIGTERM/SIGINT (install_stop_handlers, below) no new point is handed out. Progress
/// lines go to `progress` on rank 0 (nullptr: silent), at most one per `progress_interval` seconds
/// (`run --progress`) and always the last, as one line rewritten in place with `progress_terminal` (a
/// terminal watches). The outcome is the same on every rank. With a `shard`
/// (run --shard, shard.hpp) only its points are computed and counted: the others stay pending.
RunOutcome run_sweep(const config::Grid& grid, store::SweepFile& file, MPI_Comm comm, std::FILE* progress,
                     double progress_interval = 1.0, const config::Shard& shard = {},
                     bool progress_terminal = false);

/// What a sweep records for a point whose engine call threw `e`. An out-of-memory error
/// (std::bad_alloc, whose what() says only "std::bad_alloc") becomes a sentence naming the point's
/// parameters and roughly the memory the d x d matrix S takes per rank, d^2 8 bytes / ranks_per_point,
/// so that the remedy (more ranks per point) is plain; any other error keeps its own message.
std::string point_failure_text(const std::exception& e, const model::PointParams& point, int ranks_per_point);

/// The OutOfMemory error of a point whose allocation failed (the sentence above).
OutOfMemory out_of_memory(const std::bad_alloc& e, const model::PointParams& point, int ranks_per_point);

/// Installs handlers that make SIGTERM and SIGINT request a stop instead of killing.
void install_stop_handlers();
/// The signal that requested a stop, or 0.
int stop_signal() noexcept;

}  // namespace rmtsweep::sweep
