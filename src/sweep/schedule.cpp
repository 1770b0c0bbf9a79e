// The costs and tasks of a sweep's schedule (include/rmtsweep/sweep/schedule.hpp).
#include "rmtsweep/sweep/schedule.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "rmtsweep/simulate/engine.hpp"
#include "rmtsweep/simulate/finite_t.hpp"

namespace rmtsweep::sweep {

double point_cost(const model::PointParams& params, const config::SweepConfig& config) {
  // The cost model alone (the memory check reads /proc/meminfo: twice per point of the sweep here). A point
  // whose S cannot fit takes the Krylov engine anyway; it is ordered by its dense cost, which puts it
  // first, where the largest points belong.
  const simulate::SimulationOptions options = config::simulation_options(config, params.d);
  return point_cost(
      params, config,
      simulate::choose_engine(params, options, simulate::Work::point) == simulate::Engine::krylov);
}

double point_cost(const model::PointParams& params, const config::SweepConfig& config, bool krylov) {
  const double d = params.d, T = params.T;
  const double V = static_cast<double>(params.vocabulary());
  const double N = static_cast<double>(params.sequences());
  const double test = config.ntest > 0 ? static_cast<double>(config.ntest) : N;
  const double pooling = params.weighting.data_dependent() ? T * T : T;
  // The finite-T theory is built once per line and trial: a point carries its share.
  const double theory =
      simulate::finite_t_cost(params) / static_cast<double>(std::max<std::size_t>(1, config.snr.size()));
  const double data = V * d + (N + test) * pooling * d + theory;
  if (krylov)
    return data + simulate::engine_costs(params, config::simulation_options(config, params.d)).krylov;
  return data + N * d * d + 5.0 * d * d * d;
}

namespace {

/// What decides whether two points can share a task: their cost and their noise table (d, delta,
/// trial; the sweep's seed and table kind are fixed).
struct TableAndCost {
  double cost;
  std::size_t d;
  std::size_t delta;
  int trial;
  bool operator==(const TableAndCost&) const = default;
};

TableAndCost table_and_cost(const config::Grid& grid, std::int64_t index) {
  const config::GridCoordinates at = grid.coordinates(index);
  return {point_cost(grid.params(index), grid.config()), at.d, at.delta, at.trial};
}

}  // namespace

std::vector<std::int64_t> order_by_cost(const config::Grid& grid, std::vector<std::int64_t> todo) {
  std::vector<std::pair<TableAndCost, std::int64_t>> keyed;
  keyed.reserve(todo.size());
  for (const std::int64_t i : todo) keyed.emplace_back(table_and_cost(grid, i), i);
  // Costliest first; among equal costs, the points of one noise table together (in index order),
  // so that a group's next point usually reuses the table it holds (simulate::TableCache).
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    if (a.first.cost != b.first.cost) return a.first.cost > b.first.cost;
    if (a.first.d != b.first.d) return a.first.d < b.first.d;
    if (a.first.delta != b.first.delta) return a.first.delta < b.first.delta;
    if (a.first.trial != b.first.trial) return a.first.trial < b.first.trial;
    return a.second < b.second;
  });
  for (std::size_t i = 0; i < keyed.size(); ++i) todo[i] = keyed[i].second;
  return todo;
}

std::vector<std::int64_t> table_runs(const config::Grid& grid, const std::vector<std::int64_t>& order,
                                     int groups) {
  std::vector<model::PointParams> ordered;
  ordered.reserve(order.size());
  for (const std::int64_t i : order) ordered.push_back(grid.params(i));
  return table_runs(ordered, grid.config(),
                    groups);  // (d, delta) values name the same table as their indices
}

double line_cost(const model::PointParams& params, std::size_t snr_count, const config::SweepConfig& config) {
  const simulate::SimulationOptions options = config::simulation_options(config, params.d);
  const double d = params.d, T = params.T;
  const double V = static_cast<double>(params.vocabulary());
  const double N = static_cast<double>(params.sequences());
  const double test = config.ntest > 0 ? static_cast<double>(config.ntest) : N;
  const double m = std::min(d, N);
  // The table, the pooling, four token projections and scoring every test sequence at every snr.
  const double data = V * d + N * T * d + 4.0 * V * d + test * T +
                      static_cast<double>(snr_count) * 4.0 * test +
                      simulate::finite_t_cost(params);  // the finite-T theory, once per line
  const bool krylov =
      simulate::choose_engine(params, options, simulate::Work::line) == simulate::Engine::krylov;
  if (krylov) return data + 1.15 * simulate::engine_costs(params, options).krylov;
  const double spectrum = options.spectrum ? static_cast<double>(snr_count) * 30.0 * m * m : 0.0;
  return data + (N < d ? d * N * N : d * d * std::min(N, V)) + 11.0 * m * m * m + spectrum;
}

std::vector<std::int64_t> unit_runs(const std::vector<model::PointParams>& firsts,
                                    const std::vector<double>& costs, int groups) {
  struct Key {
    double cost, delta;
    int d, trial;
    bool operator==(const Key&) const = default;
  };
  const std::int64_t divisor = 4 * std::max(1, groups);
  const auto n = static_cast<std::int64_t>(firsts.size());
  std::vector<std::int64_t> starts;
  Key run_key{};
  std::int64_t start = 0, cap = 1;
  for (std::int64_t i = 0; i < n; ++i) {
    const model::PointParams& p = firsts[static_cast<std::size_t>(i)];
    const Key key{costs[static_cast<std::size_t>(i)], p.delta, p.d, p.trial};
    if (i > start && key == run_key && i - start < cap) continue;
    starts.push_back(i);
    start = i;
    run_key = key;
    cap = std::max<std::int64_t>(1, (n - i) / divisor);
  }
  starts.push_back(n);
  return starts;
}

std::vector<std::int64_t> table_runs(const std::vector<model::PointParams>& ordered,
                                     const config::SweepConfig& config, int groups) {
  std::vector<double> costs;
  costs.reserve(ordered.size());
  for (const model::PointParams& p : ordered) costs.push_back(point_cost(p, config));
  return unit_runs(ordered, costs, groups);
}

}  // namespace rmtsweep::sweep
