#pragma once
/// The rounds of `rmtsweep refine`: rank 0 replays the refinement from the grid and
/// the done refined rows and decides the next round's points; the plan is broadcast to every rank.
///
/// Two kinds of line. Where every trial of a line with done points has an exact threshold (its line's secular
/// form, /lines for the grid's trials, /refine/lines for refined ones: docs/model.md section 9) and the rule
/// has a level on lambda_1, the line is exact: a round adds whole trials, each a line over the grid's snr
/// values (one unit of work, simulate_line), until the bootstrap error of the median of the exact thresholds
/// meets the tolerance (refine/design.hpp's exact_trials_after). Elsewhere (causal:tau, files without /lines,
/// lines computed with lines = off, the eigengap rule, a refined trial whose Krylov basis did not converge)
/// the line is bisected in snr point by point as before (refine/design.hpp's design_line).
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "rmtsweep/refine/lines.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/refined_line_store.hpp"

namespace rmtsweep::refine {

/// What rank 0 decided for a round, broadcast: rows to give (with their points and lines) and what to
/// compute.
struct RoundPlan {
  std::vector<std::int64_t> new_rows;  ///< point rows given to new points this round
  std::vector<double> new_snr;
  std::vector<std::int64_t> new_line, new_trial;
  std::vector<std::int64_t> new_line_rows;  ///< /refine/lines rows given to new trials of exact lines
  std::vector<std::int64_t> new_line_line, new_line_trial;
  std::vector<std::int64_t> line_block_d,
      line_block_rows;                     ///< /refine/lines blocks to add first: d index, rows
  std::vector<std::int64_t> compute_rows;  ///< new rows and stored ones of this round's points, by unit
  std::vector<double> compute_snr;
  std::vector<std::int64_t> compute_line, compute_trial;
  std::vector<std::int64_t> compute_wanted;  ///< per point: 1 where it is written (pending), 0 (done already)
  std::vector<std::int64_t> unit_starts;     ///< unit u is points [unit_starts[u], unit_starts[u + 1])
  std::vector<std::int64_t> unit_line_row;   ///< per unit: its /refine/lines row, -1 for a point alone
  std::int64_t block_rows = 0;               ///< > 0: first add a /refine block of this many rows
  bool stop = false;
};

/// What the refinement knows of a line: how it is refined and its threshold with its error so far.
struct LineSummary {
  bool exact = false;
  double threshold = refine::nan, err = refine::nan;
  double resolution_err = refine::nan, spread_err = refine::nan;  ///< bisected lines: the two parts of err
  int trials = 0;                                                 ///< trials of the estimate
};

/// Reads a written /refine/lines row (its count of poles given): what rank 0's replay reads the refined forms
/// by.
using FormReader = std::function<store::StoredLine(std::int64_t row, std::int64_t count)>;

/// Replays the refinement on rank 0 and returns the next round's plan (see the header comment).
class Replay {
 public:
  Replay(Lines lines, const RefineOptions& options, int grid_trials)
      : lines_(std::move(lines)),
        options_(options),
        grid_trials_(grid_trials),
        trials_(lines_.axes.lines(), grid_trials) {}

  /// The next round's plan from the refined rows so far (capacity: the rows the file holds; line_capacity:
  /// the rows /refine/lines holds).
  RoundPlan next(const store::RefinedRows& rows, std::int64_t capacity,
                 const store::RefinedLineRows& line_rows, std::int64_t line_capacity,
                 const FormReader& read_form);
  /// Every line's estimate from the results so far, without deciding anything.
  std::vector<LineSummary> summaries(const store::RefinedRows& rows, const store::RefinedLineRows& line_rows,
                                     const FormReader& read_form);

  const Lines& lines() const noexcept { return lines_; }
  std::int64_t used() const noexcept { return used_; }
  bool budget_spent() const noexcept { return budget_spent_; }
  const std::vector<int>& trials() const noexcept { return trials_; }

 private:
  /// A line's state from the done results of the rounds so far: its observations (for bisection), whether it
  /// is exact and its exact thresholds by trial.
  struct LineState {
    std::vector<assemble::Detection> seen;
    bool exact = false;
    std::map<int, double> thresholds;
  };
  struct Stored {
    std::map<Key, std::size_t> points;                              ///< point key -> row
    std::vector<std::vector<std::pair<Key, std::size_t>>> by_line;  ///< the same, per line
    std::map<std::pair<std::size_t, int>, std::int64_t> lines;      ///< (line, trial) -> /refine/lines row
  };
  /// What a round adds on one line: a point (bisection) or a whole trial over the grid's snr values (exact
  /// lines).
  struct Item {
    std::size_t line = 0;
    int trial = 0;
    double snr = 0.0;
    bool whole = false;
  };
  Stored index(const store::RefinedRows& rows, const store::RefinedLineRows& line_rows) const;
  /// The round's new work on every line (recorded as proposed), from the done results so far.
  std::vector<Item> decide(const store::RefinedRows& rows, const store::RefinedLineRows& line_rows,
                           const Stored& stored, const FormReader& read_form);
  /// The round's plan: rows for its new points and trials (stored ones, unused ones, a new block's) and what
  /// to compute, in units.
  RoundPlan give_rows(const std::vector<Item>& round, const Stored& stored, const store::RefinedRows& rows,
                      std::int64_t capacity, const store::RefinedLineRows& line_rows,
                      std::int64_t line_capacity) const;
  LineState state(std::size_t line, const store::RefinedRows& rows, const store::RefinedLineRows& line_rows,
                  const Stored& stored, const FormReader& read_form);
  LineSummary summary(std::size_t line, const LineState& state) const;

  Lines lines_;
  RefineOptions options_;
  int grid_trials_ = 0;
  std::vector<int> trials_;
  std::set<Key> proposed_;
  std::set<std::pair<std::size_t, int>> proposed_lines_;  ///< refined trials proposed as whole lines
  /// The refined trials' exact thresholds read so far (NaN: its form did not converge), by (line, trial).
  std::map<std::pair<std::size_t, int>, double> refined_exact_;
  std::int64_t used_ = 0;
  bool budget_spent_ = false;
};

/// Rank 0's plan on every rank.
RoundPlan broadcast_plan(RoundPlan plan, MPI_Comm comm);

}  // namespace rmtsweep::refine
