// The rounds of refine (refine_replay.hpp).
#include "refine_replay.hpp"

#include <algorithm>
#include <map>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/sweep/schema.hpp"

namespace rmtsweep::app {
namespace {

/// The rows a new /refine block preallocates at most beyond what its round needs.
constexpr std::int64_t block_chunk = 65536;

}  // namespace

RoundPlan Replay::next(const sweep::RefinedRows& rows, std::int64_t capacity) {
  RoundPlan plan;
  std::map<Key, std::size_t> stored;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] == static_cast<std::int64_t>(sweep::PointStatus::unused)) continue;
    stored[{line_of(lines_, rows, r), rows.snr[r], static_cast<int>(rows.trial[r])}] = r;
  }
  std::vector<refine::Proposal> round;
  std::vector<std::size_t> round_line;
  bool anything_new = false;
  for (std::size_t l = 0; l < lines_.axes.lines(); ++l) {
    if (!(lines_.detector[l].threshold == lines_.detector[l].threshold)) continue;  // no rule here
    std::vector<refine::Observation> seen = lines_.grid[l];
    for (const auto& [key, row] : stored) {
      if (std::get<0>(key) != l || !proposed_.count(key)) continue;
      if (rows.status[row] != static_cast<std::int64_t>(sweep::PointStatus::done)) continue;
      const std::span<const double> top(rows.top_eigenvalues.data() + row * static_cast<std::size_t>(rows.k),
                                        static_cast<std::size_t>(rows.k));
      seen.push_back({std::get<1>(key), std::get<2>(key), lines_.detected(l, std::get<2>(key), top)});
    }
    refine::DesignOptions design;
    design.tolerance = options_.tolerance;
    design.max_trials = std::max(options_.trials, trials_[l]);
    design.start_snr = lines_.start_snr[l];
    int after = trials_[l];
    const auto proposals = refine::design_line(seen, trials_[l], design, after);
    trials_[l] = after;
    for (const auto& p : proposals) {
      const Key key{l, p.snr, p.trial};
      if (p.snr > model::max_snr || lines_.grid_keys.count(key) || proposed_.count(key)) continue;
      if (used_ >= options_.max_points) {
        budget_spent_ = true;
        break;
      }
      proposed_.insert(key);
      ++used_;
      anything_new = true;
      round.push_back(p);
      round_line.push_back(l);
    }
  }
  if (!anything_new) {
    plan.stop = true;
    return plan;
  }
  // Rows: the stored ones of this round's points; unused rows for the others, in ascending order.
  std::vector<std::int64_t> unused;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] == static_cast<std::int64_t>(sweep::PointStatus::unused)) unused.push_back(static_cast<std::int64_t>(r));
  }
  std::size_t next_unused = 0;
  std::int64_t next_new = capacity;
  for (std::size_t p = 0; p < round.size(); ++p) {
    const Key key{round_line[p], round[p].snr, round[p].trial};
    const auto found = stored.find(key);
    if (found != stored.end()) {
      if (rows.status[found->second] != static_cast<std::int64_t>(sweep::PointStatus::pending)) continue;
      plan.compute_rows.push_back(static_cast<std::int64_t>(found->second));
    } else {
      const std::int64_t row = next_unused < unused.size() ? unused[next_unused++] : next_new++;
      plan.new_rows.push_back(row);
      plan.new_snr.push_back(round[p].snr);
      plan.new_line.push_back(static_cast<std::int64_t>(round_line[p]));
      plan.new_trial.push_back(round[p].trial);
      plan.compute_rows.push_back(row);
    }
    plan.compute_snr.push_back(round[p].snr);
    plan.compute_line.push_back(static_cast<std::int64_t>(round_line[p]));
    plan.compute_trial.push_back(round[p].trial);
  }
  // A new block holds what this round needs and room for more, up to the budget, at most 65536 rows
  // beyond the need: preallocated rows cost their bytes even when never used.
  if (next_new > capacity) {
    const std::int64_t room = std::min<std::int64_t>(options_.max_points - capacity, block_chunk);
    plan.block_rows = std::max(next_new - capacity, room);
  }
  return plan;
}


RoundPlan broadcast_plan(RoundPlan plan, MPI_Comm comm) {
  plan.new_rows = parallel::broadcast(std::move(plan.new_rows), comm);
  plan.new_snr = parallel::broadcast(std::move(plan.new_snr), comm);
  plan.new_line = parallel::broadcast(std::move(plan.new_line), comm);
  plan.new_trial = parallel::broadcast(std::move(plan.new_trial), comm);
  plan.compute_rows = parallel::broadcast(std::move(plan.compute_rows), comm);
  plan.compute_snr = parallel::broadcast(std::move(plan.compute_snr), comm);
  plan.compute_line = parallel::broadcast(std::move(plan.compute_line), comm);
  plan.compute_trial = parallel::broadcast(std::move(plan.compute_trial), comm);
  plan.block_rows = parallel::broadcast(plan.block_rows, comm);
  plan.stop = parallel::broadcast(plan.stop, comm);
  return plan;
}

}  // namespace rmtsweep::app
