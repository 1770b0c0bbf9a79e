// The rounds of refine (include/rmtsweep/refine/replay.hpp).
#include "rmtsweep/refine/replay.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>

#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::refine {
namespace {

/// The rows a new /refine block preallocates at most beyond what its round needs.
constexpr std::int64_t block_chunk = 65536;

constexpr auto unused_status = static_cast<std::int64_t>(store::PointStatus::unused);
constexpr auto pending_status = static_cast<std::int64_t>(store::PointStatus::pending);
constexpr auto done_status = static_cast<std::int64_t>(store::PointStatus::done);

}  // namespace

Replay::Stored Replay::index(const store::RefinedRows& rows, const store::RefinedLineRows& line_rows) const {
  Stored stored;
  stored.by_line.resize(lines_.axes.lines());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] == unused_status) continue;
    const Key key{line_of(lines_, rows, r), rows.snr[r], static_cast<int>(rows.trial[r])};
    stored.points[key] = r;
    stored.by_line[std::get<0>(key)].emplace_back(key, r);
  }
  for (std::size_t r = 0; r < line_rows.size(); ++r) {
    if (!line_rows.given(r)) continue;
    const std::size_t line = line_at(lines_, line_rows.weighting_index[r], line_rows.d_index[r],
                                     line_rows.delta_index[r], line_rows.gamma_index[r]);
    stored.lines[{line, static_cast<int>(line_rows.trial[r])}] = static_cast<std::int64_t>(r);
  }
  return stored;
}

Replay::LineState Replay::state(std::size_t l, const store::RefinedRows& rows,
                                const store::RefinedLineRows& line_rows, const Stored& stored,
                                const FormReader& read_form) {
  LineState st;
  st.seen = lines_.grid[l];
  // Only the points this replay proposed, done: other refines' points do not steer this one.
  for (const auto& [key, row] : stored.by_line[l]) {
    if (!proposed_.count(key) || rows.status[row] != done_status) continue;
    const std::span<const double> top(rows.top_eigenvalues.data() + row * static_cast<std::size_t>(rows.k),
                                      static_cast<std::size_t>(rows.k));
    st.seen.push_back({std::get<1>(key), std::get<2>(key), lines_.detected(l, std::get<2>(key), top)});
  }
  if (!lines_.rule_has_level || !lines_.line_capable[l] || std::isnan(lines_.detector[l].threshold))
    return st;
  // Exact where every trial with a done point has its exact threshold.
  std::set<int> trials;
  for (const assemble::Detection& o : st.seen) trials.insert(o.trial);
  for (const int t : trials) {
    const std::pair<std::size_t, int> key{l, t};
    if (t < grid_trials_) {
      const auto found = lines_.grid_exact.find(key);
      if (found == lines_.grid_exact.end()) return st;
      st.thresholds[t] = found->second;
      continue;
    }
    auto known = refined_exact_.find(key);
    if (known == refined_exact_.end() && proposed_lines_.count(key)) {
      const auto row = stored.lines.find(key);
      const std::int64_t count =
          row == stored.lines.end() ? 0 : line_rows.count[static_cast<std::size_t>(row->second)];
      if (count > 0) {
        const store::StoredLine form = read_form(row->second, count);
        known = refined_exact_
                    .emplace(key, form.converged ? lines_.exact_threshold(l, t, form.secular) : refine::nan)
                    .first;
      }
    }
    if (known == refined_exact_.end() || std::isnan(known->second)) {
      st.thresholds.clear();
      return st;  // a trial without its exact threshold: the line is bisected
    }
    st.thresholds[t] = known->second;
  }
  st.exact = true;
  return st;
}

LineSummary Replay::summary(std::size_t l, const LineState& st) const {
  LineSummary out;
  out.exact = st.exact;
  if (st.exact) {
    std::vector<double> values;  // in trial order, as assemble takes them
    for (const auto& [trial, threshold] : st.thresholds) values.push_back(threshold);
    const assemble::MedianEstimate median = assemble::bootstrap_median(values, l);
    out.threshold = median.median;
    out.err = median.median_err;
    out.resolution_err = 0.0;
    out.spread_err = median.median_err;
    out.trials = static_cast<int>(values.size());
    return out;
  }
  const assemble::LineEstimate e = assemble::estimate_line(assemble::trial_brackets(st.seen, trials_[l]));
  out.threshold = e.threshold;
  out.err = e.err;
  out.resolution_err = e.resolution_err;
  out.spread_err = e.spread_err;
  out.trials = e.trials;
  return out;
}

std::vector<LineSummary> Replay::summaries(const store::RefinedRows& rows,
                                           const store::RefinedLineRows& line_rows,
                                           const FormReader& read_form) {
  const Stored stored = index(rows, line_rows);
  std::vector<LineSummary> out;
  for (std::size_t l = 0; l < lines_.axes.lines(); ++l)
    out.push_back(summary(l, state(l, rows, line_rows, stored, read_form)));
  return out;
}

RoundPlan Replay::next(const store::RefinedRows& rows, std::int64_t capacity,
                       const store::RefinedLineRows& line_rows, std::int64_t line_capacity,
                       const FormReader& read_form) {
  const Stored stored = index(rows, line_rows);
  const std::vector<Item> round = decide(rows, line_rows, stored, read_form);
  if (round.empty()) {
    RoundPlan plan;
    plan.stop = true;
    return plan;
  }
  return give_rows(round, stored, rows, capacity, line_rows, line_capacity);
}

std::vector<Replay::Item> Replay::decide(const store::RefinedRows& rows,
                                         const store::RefinedLineRows& line_rows, const Stored& stored,
                                         const FormReader& read_form) {
  const auto n_snr = static_cast<std::int64_t>(lines_.snr.size());
  std::vector<Item> round;
  for (std::size_t l = 0; l < lines_.axes.lines(); ++l) {
    if (!(lines_.detector[l].threshold == lines_.detector[l].threshold)) continue;  // no rule here
    const LineState st = state(l, rows, line_rows, stored, read_form);
    refine::DesignOptions design;
    design.tolerance = options_.tolerance;
    design.max_trials = std::max(options_.trials, trials_[l]);
    design.start_snr = lines_.start_snr[l];
    if (st.exact) {
      // New trials, each a whole line over the grid's snr values, as many as the error needs.
      const LineSummary now = summary(l, st);
      const int after = refine::exact_trials_after({now.threshold, now.err, now.trials}, trials_[l], design);
      int t = trials_[l];
      for (; t < after; ++t) {
        if (used_ + n_snr > options_.max_points) {
          budget_spent_ = true;
          break;
        }
        for (const double s : lines_.snr) proposed_.insert({l, s, t});
        proposed_lines_.insert({l, t});
        used_ += n_snr;
        round.push_back({l, t, 0.0, true});
      }
      trials_[l] = t;
      continue;
    }
    int after = trials_[l];
    const auto proposals = refine::design_line(st.seen, trials_[l], design, after);
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
      round.push_back({l, p.trial, p.snr, false});
    }
  }
  return round;
}

RoundPlan Replay::give_rows(const std::vector<Item>& round, const Stored& stored,
                            const store::RefinedRows& rows, std::int64_t capacity,
                            const store::RefinedLineRows& line_rows, std::int64_t line_capacity) const {
  RoundPlan plan;
  // Point rows: the stored ones of this round's points; unused rows for the others, in ascending order, then
  // rows of a new block.
  std::vector<std::int64_t> unused;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows.status[r] == unused_status) unused.push_back(static_cast<std::int64_t>(r));
  }
  std::size_t next_unused = 0;
  std::int64_t next_new = capacity;
  // /refine/lines rows likewise, by size: unused rows of a block of the line's size, then rows of a new
  // block.
  std::map<std::int64_t, std::vector<std::int64_t>> unused_lines;  // d -> rows
  for (std::size_t r = 0; r < line_rows.size(); ++r) {
    if (!line_rows.given(r)) unused_lines[line_rows.d[r]].push_back(static_cast<std::int64_t>(r));
  }
  std::map<std::int64_t, std::size_t> next_unused_line;
  std::vector<std::pair<std::size_t, std::int64_t>>
      new_line_block;                                               // (d index, rows), in order of first need
  std::vector<std::pair<std::size_t, std::size_t>> new_line_units;  // (unit, position in new_line_block)
  const auto point = [&](std::size_t l, double snr, int trial, bool alone) {
    const auto found = stored.points.find(Key{l, snr, trial});
    std::int64_t row = 0, wanted = 1;
    if (found != stored.points.end()) {
      if (alone && rows.status[found->second] != pending_status) return false;  // done or failed: as it is
      row = static_cast<std::int64_t>(found->second);
      wanted = rows.status[found->second] == pending_status ? 1 : 0;
    } else {
      row = next_unused < unused.size() ? unused[next_unused++] : next_new++;
      plan.new_rows.push_back(row);
      plan.new_snr.push_back(snr);
      plan.new_line.push_back(static_cast<std::int64_t>(l));
      plan.new_trial.push_back(trial);
    }
    plan.compute_rows.push_back(row);
    plan.compute_snr.push_back(snr);
    plan.compute_line.push_back(static_cast<std::int64_t>(l));
    plan.compute_trial.push_back(trial);
    plan.compute_wanted.push_back(wanted);
    return true;
  };
  for (const Item& item : round) {
    const auto start = static_cast<std::int64_t>(plan.compute_rows.size());
    if (!item.whole) {
      if (!point(item.line, item.snr, item.trial, true)) continue;
      plan.unit_starts.push_back(start);
      plan.unit_line_row.push_back(-1);
      continue;
    }
    for (const double s : lines_.snr) point(item.line, s, item.trial, false);
    const bool any_wanted = std::any_of(plan.compute_wanted.begin() + start, plan.compute_wanted.end(),
                                        [](std::int64_t w) { return w != 0; });
    if (!any_wanted) {  // every point done or failed: as it is
      plan.compute_rows.resize(static_cast<std::size_t>(start));
      plan.compute_snr.resize(static_cast<std::size_t>(start));
      plan.compute_line.resize(static_cast<std::size_t>(start));
      plan.compute_trial.resize(static_cast<std::size_t>(start));
      plan.compute_wanted.resize(static_cast<std::size_t>(start));
      continue;
    }
    plan.unit_starts.push_back(start);
    const auto found = stored.lines.find({item.line, item.trial});
    if (found != stored.lines.end()) {
      plan.unit_line_row.push_back(found->second);
      continue;
    }
    const std::size_t n = lines_.axes.unravel(item.line).n;
    const std::int64_t d = lines_.axes.d[n];
    std::size_t& next = next_unused_line[d];
    std::int64_t row = -1;
    if (next < unused_lines[d].size()) {
      row = unused_lines[d][next++];
    } else {
      const std::size_t d_index = lines_.d_index[n];
      auto block = std::find_if(new_line_block.begin(), new_line_block.end(),
                                [&](const auto& b) { return b.first == d_index; });
      if (block == new_line_block.end()) block = new_line_block.insert(new_line_block.end(), {d_index, 0});
      new_line_units.emplace_back(plan.unit_line_row.size(),
                                  static_cast<std::size_t>(block - new_line_block.begin()));
      ++block->second;
    }
    plan.unit_line_row.push_back(row);
    if (row >= 0) {
      plan.new_line_rows.push_back(row);
      plan.new_line_line.push_back(static_cast<std::int64_t>(item.line));
      plan.new_line_trial.push_back(item.trial);
    }
  }
  plan.unit_starts.push_back(static_cast<std::int64_t>(plan.compute_rows.size()));
  // New /refine/lines blocks, one per size in order of first need, their rows after the file's.
  std::vector<std::int64_t> block_first, block_used(new_line_block.size(), 0);
  std::int64_t first = line_capacity;
  for (const auto& [d_index, count] : new_line_block) {
    plan.line_block_d.push_back(static_cast<std::int64_t>(d_index));
    plan.line_block_rows.push_back(count);
    block_first.push_back(first);
    first += count;
  }
  for (const auto& [unit, block] : new_line_units) {
    const std::int64_t row = block_first[block] + block_used[block]++;
    plan.unit_line_row[unit] = row;
    const std::size_t at = static_cast<std::size_t>(plan.unit_starts[unit]);
    plan.new_line_rows.push_back(row);
    plan.new_line_line.push_back(plan.compute_line[at]);
    plan.new_line_trial.push_back(plan.compute_trial[at]);
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
  for (std::vector<std::int64_t>* v :
       {&plan.new_rows, &plan.new_line, &plan.new_trial, &plan.new_line_rows, &plan.new_line_line,
        &plan.new_line_trial, &plan.line_block_d, &plan.line_block_rows, &plan.compute_rows,
        &plan.compute_line, &plan.compute_trial, &plan.compute_wanted, &plan.unit_starts,
        &plan.unit_line_row})
    *v = parallel::broadcast(std::move(*v), comm);
  plan.new_snr = parallel::broadcast(std::move(plan.new_snr), comm);
  plan.compute_snr = parallel::broadcast(std::move(plan.compute_snr), comm);
  plan.block_rows = parallel::broadcast(plan.block_rows, comm);
  plan.stop = parallel::broadcast(plan.stop, comm);
  return plan;
}

}  // namespace rmtsweep::refine
