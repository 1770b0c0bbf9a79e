#include "rmtsweep/assemble/finite_t_edges.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <set>
#include <system_error>
#include <thread>

#include "rmtsweep/common/meminfo.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "rmtsweep/theory/gram_quadrature.hpp"

namespace rmtsweep::assemble {
FiniteTEdges::FiniteTEdges(const model::PointParams& base, std::vector<model::Weighting> weightings,
                           Axes axes, const std::vector<PointRecord>* stored)
    : base_(base), weightings_(std::move(weightings)), axes_(std::move(axes)) {
  if (stored == nullptr) return;
  for (const PointRecord& p : *stored) {
    if (!std::isfinite(p.finite_t_bulk_edge_right)) continue;
    stored_.emplace(std::make_pair(axes_.line(p.weighting, p.d, p.delta, p.gamma), p.trial),
                    p.finite_t_bulk_edge_right);
  }
}

model::PointParams FiniteTEdges::point(std::size_t line, int trial) const {
  const LineIndex x = axes_.unravel(line);
  model::PointParams p = base_;
  p.weighting = weightings_.at(x.w);
  p.d = axes_.d[x.n];
  p.delta = axes_.delta[x.i];
  p.gamma = axes_.gamma[x.j];
  p.snr = 0.0;
  p.trial = trial;
  return p;
}

std::int64_t FiniteTEdges::gram_size(std::size_t line) const {
  const model::PointParams p = point(line, 0);
  return std::min(p.vocabulary(), p.sequences());
}

double FiniteTEdges::edge_seconds(std::size_t line) const {
  const auto n = static_cast<double>(gram_size(line));
  const model::PointParams p = point(line, 0);
  const auto w = model::pooling_weights(p.weighting, p.correlation, p.T);
  if (theory::single_token_weights(w)) return 1e-3;
  // The dense spectrum up to theory::dense_bulk_limit (0.47 s at 2000), the quadrature above it (about a
  // second at 3200 and 8000 alike, more with more pooled tokens; docs/performance.md).
  if (n <= static_cast<double>(theory::dense_bulk_limit)) return 0.47 * std::pow(n / 2000.0, 3);
  return 0.6 + 2.5e-5 * n;
}

double FiniteTEdges::compute_one(std::size_t line, int trial) const {
  return simulate::build_finite_t(point(line, trial)).outlier->bulk_edge_right();
}

double FiniteTEdges::edge(std::size_t line, int trial) const {
  const auto key = std::make_pair(line, trial);
  if (const auto found = stored_.find(key); found != stored_.end()) return found->second;
  auto it = edges_.find(key);
  if (it == edges_.end()) {
    const parallel::SingleThreadedBlas single;  // as compute() computes them: the same bits either way
    it = edges_.emplace(key, compute_one(line, trial)).first;
  }
  return it->second;
}

void FiniteTEdges::compute(std::span<const std::pair<std::size_t, int>> keys, int threads) const {
  const std::set<std::pair<std::size_t, int>> unique(keys.begin(), keys.end());
  std::vector<std::pair<std::size_t, int>> todo;
  double largest_bytes = 0.0;
  for (const auto& key : unique) {
    if (at_hand(key.first, key.second)) continue;
    todo.push_back(key);
    largest_bytes = std::max(largest_bytes, simulate::token_gram_bytes(point(key.first, key.second)));
  }
  if (todo.empty()) return;
  const double available = meminfo_bytes("MemAvailable");
  const double fit =
      available > 0.0 && largest_bytes > 0.0 ? std::floor(0.5 * available / largest_bytes) : 1e9;
  const auto workers = static_cast<std::size_t>(
      std::clamp<double>(std::min<double>(threads, fit), 1.0, static_cast<double>(todo.size())));

  std::vector<double> values(todo.size(), std::numeric_limits<double>::quiet_NaN());
  std::vector<std::exception_ptr> errors(workers);
  std::atomic<std::size_t> next{0};
  const auto work = [&](std::size_t worker) {
    try {
      for (std::size_t i = next++; i < todo.size(); i = next++)
        values[i] = compute_one(todo[i].first, todo[i].second);
    } catch (...) {
      errors[worker] = std::current_exception();
      next = todo.size();  // the others stop after their current edge
    }
  };
  {
    const parallel::SingleThreadedBlas single;  // every worker's LAPACK call on its own thread
    std::vector<std::jthread> pool;
    pool.reserve(workers - 1);
    try {
      for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
    } catch (const std::system_error&) {  // no more threads to be had: the ones started and this one share it
    }
    work(0);
  }  // joined
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  for (std::size_t i = 0; i < todo.size(); ++i) edges_.emplace(todo[i], values[i]);
}

double FiniteTEdges::reference(std::size_t line) const { return edge(line, 0); }

std::vector<double> FiniteTEdges::references() const {
  std::vector<double> out(axes_.lines());
  for (std::size_t line = 0; line < out.size(); ++line) out[line] = reference(line);
  return out;
}

std::vector<double> FiniteTEdges::as_judged(std::size_t line, int trial, std::span<const double> top) const {
  std::vector<double> out(top.begin(), top.end());
  const double s = scale(line, trial);
  for (double& x : out) x *= s;
  return out;
}

std::vector<std::pair<std::size_t, int>> edges_asked_for(const Axes& axes,
                                                         const std::vector<PointRecord>& points) {
  std::vector<std::pair<std::size_t, int>> keys;
  for (const PointRecord& p : points)
    keys.emplace_back(axes.line(p.weighting, p.d, p.delta, p.gamma), p.trial);
  for (std::size_t line = 0; line < axes.lines(); ++line) keys.emplace_back(line, 0);
  return keys;
}

std::vector<PointRecord> scaled_by_trial_edge(const Axes& axes, std::vector<PointRecord> points,
                                              const FiniteTEdges& edges) {
  for (PointRecord& p : points) {
    const std::size_t line = axes.line(p.weighting, p.d, p.delta, p.gamma);
    p.top_eigenvalue = edges.as_judged(line, p.trial, std::span(&p.top_eigenvalue, 1))[0];
    p.top_eigenvalues = edges.as_judged(line, p.trial, p.top_eigenvalues);
  }
  return points;
}

std::vector<RefinedRecord> scaled_by_trial_edge(std::vector<RefinedRecord> refined,
                                                const FiniteTEdges& edges) {
  for (RefinedRecord& r : refined) r.top_eigenvalues = edges.as_judged(r.line, r.trial, r.top_eigenvalues);
  return refined;
}

}  // namespace rmtsweep::assemble
