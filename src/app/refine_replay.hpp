#pragma once
// The rounds of `rmtsweep refine` (cmd_refine.cpp): rank 0 replays the refinement from the grid and
// the done refined rows and decides the next round's points; the plan is broadcast to every rank.
#include <mpi.h>

#include <cstdint>
#include <set>
#include <vector>

#include "refine_lines.hpp"
#include "rmtsweep/sweep/refine_file.hpp"

namespace rmtsweep::app {

/// What rank 0 decided for a round, broadcast: rows to give (with their points) and rows to compute.
struct RoundPlan {
  std::vector<std::int64_t> new_rows;  ///< rows given to new points this round
  std::vector<double> new_snr;
  std::vector<std::int64_t> new_line, new_trial;
  std::vector<std::int64_t> compute_rows;  ///< new rows and pending ones of this round's points
  std::vector<double> compute_snr;
  std::vector<std::int64_t> compute_line, compute_trial;
  std::int64_t block_rows = 0;  ///< > 0: first add a block of this many rows
  bool stop = false;
};

/// Replays the refinement on rank 0 and returns the next round's plan (see the header comment).
class Replay {
 public:
  Replay(Lines lines, const RefineOptions& options, int grid_trials)
      : lines_(std::move(lines)), options_(options), trials_(lines_.axes.lines(), grid_trials) {}

  /// The next round's plan from the refined rows so far (capacity: the rows the file holds).
  RoundPlan next(const sweep::RefinedRows& rows, std::int64_t capacity);

  const Lines& lines() const noexcept { return lines_; }
  std::int64_t used() const noexcept { return used_; }
  bool budget_spent() const noexcept { return budget_spent_; }
  const std::vector<int>& trials() const noexcept { return trials_; }

 private:
  Lines lines_;
  RefineOptions options_;
  std::vector<int> trials_;
  std::set<Key> proposed_;
  std::int64_t used_ = 0;
  bool budget_spent_ = false;
};

/// Rank 0's plan on every rank.
RoundPlan broadcast_plan(RoundPlan plan, MPI_Comm comm);

}  // namespace rmtsweep::app
