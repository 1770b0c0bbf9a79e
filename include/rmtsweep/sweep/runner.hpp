#pragma once
/// Runs the pending points of a sweep on all ranks of a communicator: groups of
/// ranks_per_point ranks, dynamic hand-out through a WorkCounter, one shared SweepFile.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <vector>
#include <new>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/sweep/grid.hpp"
#include "rmtsweep/sweep/sweep_file.hpp"

namespace rmtsweep::sweep {

struct RunOutcome {
  std::int64_t total = 0;       ///< points in the grid
  std::int64_t todo = 0;        ///< points not done when this run started
  std::int64_t computed = 0;    ///< points finished (done or failed) by this run
  std::int64_t failed = 0;      ///< of those, failed
  std::int64_t elpa = 0;        ///< of those done, the points whose S ELPA reduced (groups of several ranks)
  std::int64_t krylov = 0;      ///< of those done, the points computed without forming S (Krylov engine)
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

/// A list of points to compute, in the order they are handed out (costliest first, points of one
/// noise table together), and where their outcomes go. What run_sweep computes for the grid and
/// `rmtsweep refine` for its refined points (refine_file.hpp); identical on every rank but for the
/// writers, which only group leaders call.
struct PointBatch {
  const char* label = "rmtsweep run";         ///< prefix of the progress lines
  std::int64_t total = 0;                     ///< points in the whole set (progress: total - todo are done)
  std::vector<model::PointParams> points;     ///< the points to compute, in hand-out order
  std::function<std::int64_t(std::size_t)> id_of;            ///< a point's row, for messages (optional)
  std::function<bool(std::size_t)> fail_injected;            ///< test-only fault injection (optional)
  std::function<void(std::size_t, const simulate::PointResult&, double)> write_done;
  std::function<void(std::size_t, const std::string&, double)> write_failed;
};

/// Computes `batch` on every rank of `comm` with the dynamic schedule of run_sweep (below): groups of
/// config.ranks_per_point ranks, tasks of points sharing their noise table (table_runs), an RMA task
/// counter. Collective; the outcome is the same on every rank.
RunOutcome run_batch(const PointBatch& batch, const SweepConfig& config, MPI_Comm comm, std::FILE* progress);

/// Collective on `comm` (size divisible by ranks_per_point, checked by the caller). Rank 0
/// reads which points are not done, orders them most expensive first and broadcasts the
/// order; each group's leader takes the next task from the counter and broadcasts it in its
/// group; the group computes the point with simulate::simulate_point on its communicator and
/// the leader writes it. A point whose engine call throws is recorded as failed and the sweep
/// goes on. After SIGTERM/SIGINT (see stop_signal.hpp) no new point is handed out. Progress
/// lines go to `progress` on rank 0 (nullptr: silent). The outcome is the same on every rank.
RunOutcome run_sweep(const Grid& grid, SweepFile& file, MPI_Comm comm, std::FILE* progress);

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
