// Reading a sweep file for assembly and writing /phase (include/rmtsweep/assemble/phase_file.hpp).
#include "rmtsweep/assemble/phase_file.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <type_traits>
#include <variant>

#include "phase_writer.hpp"
#include "rmtsweep/assemble/phase_layout.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/refined_line_store.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/version.hpp"

namespace rmtsweep::assemble {

namespace {

/// Ascending copy of an axis and, for each grid position, its position in that copy.
std::pair<std::vector<double>, std::vector<std::size_t>> ascending(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> sorted(values.size());
  std::vector<std::size_t> position(values.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sorted[k] = values[order[k]];
    position[order[k]] = k;
  }
  return {sorted, position};
}

using detail::PhaseScales;
using detail::PhaseWriter;
using detail::set_attribute;

io::Group open_or_create_group(hid_t loc, const std::string& name) {
  return io::exists(loc, name) ? io::open_group(loc, name) : io::create_group(loc, name);
}

/// Writes one dataset of the layout from `sources`.
void put(PhaseWriter& out, const PhaseDataset& set, const PhaseSources& sources) {
  std::visit(
      [&](const auto& values) {
        if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::uint64_t>) {
          out.put_dimension(*set.entry, static_cast<hsize_t>(values));
        } else {
          out.put(*set.entry, values);
        }
      },
      set.values(sources));
}

/// Writes the datasets of `group` in the layout's order.
void put_group(PhaseWriter& out, PhaseGroup group, const PhaseSources& sources) {
  for (const PhaseDataset& set : phase_layout()) {
    if (set.group == group) put(out, set, sources);
  }
}

}  // namespace

SweepData read_sweep(const std::string& path, const LeftOut& left_out) {
  const store::SweepReader reader(path);
  namespace column = store::column;
  SweepData data;
  data.config = reader.config();
  data.config_text = reader.config_text();
  data.sweep_id = reader.text_attribute("sweep_id").value_or("");
  data.config_json = reader.text_attribute(std::string(store::config_json_attribute)).value_or("");
  data.history = reader.text_attribute("history").value_or("");
  const auto& c = data.config;
  for (const auto& w : c.weighting) data.axes.weighting.push_back(model::to_string(w));
  const auto [delta, delta_position] = ascending(c.delta);
  const auto [gamma, gamma_position] = ascending(c.gamma);
  const auto [snr, snr_position] = ascending(c.snr);
  const auto [sizes, d_position] = ascending(std::vector<double>(c.d.begin(), c.d.end()));
  for (const double d : sizes) data.axes.d.push_back(static_cast<int>(d));
  data.axes.delta = delta;
  data.axes.gamma = gamma;
  data.axes.snr = snr;

  const auto status = reader.status();
  {
    store::Checksum sum;
    sum.add(status);
    data.status_checksum = sum.value();
  }
  const auto di = reader.integers(column::delta_index), gi = reader.integers(column::gamma_index);
  const auto si = reader.integers(column::snr_index), wi = reader.integers(column::weighting_index);
  const auto ni = reader.d_indices();
  const auto trial = reader.integers(column::trial);
  const auto top = reader.reals(column::top_eigenvalue), overlap = reader.reals(column::overlap);
  const auto ridge = reader.reals(column::ridge_accuracy);
  const auto tops = reader.reals(column::top_eigenvalues);  // points x k
  // The finite-T columns, or NaN for a file written before they existed.
  const auto reals_or_nan = [&](const store::Column& column) {
    return reader.has(column) ? reader.reals(column)
                              : std::vector<double>(status.size(), std::numeric_limits<double>::quiet_NaN());
  };
  const auto ft_top = reals_or_nan(column::theory_finite_t_top_eigenvalue),
             ft_overlap = reals_or_nan(column::theory_finite_t_overlap),
             ft_threshold = reals_or_nan(column::theory_finite_t_threshold_snr),
             ft_edge = reals_or_nan(column::theory_finite_t_bulk_edge_right);
  const std::size_t k = status.empty() ? 0 : tops.size() / status.size();
  data.total = static_cast<std::int64_t>(status.size());
  if (data.total != c.point_count()) {
    throw InvalidFile(path, "its /points hold " + std::to_string(data.total) +
                                " points where its config has " + std::to_string(c.point_count()));
  }
  const store::StatusCounts counts = store::count_status(status);
  data.done = counts.done;
  data.failed = counts.failed;
  for (std::size_t p = 0; p < status.size(); ++p) {
    if (status[p] != static_cast<std::int64_t>(store::PointStatus::done)) continue;
    if (left_out.points.count(static_cast<std::int64_t>(p)) > 0) {
      data.left_out_points.push_back(static_cast<std::int64_t>(p));
      continue;
    }
    data.points.push_back({static_cast<std::size_t>(wi[p]),
                           delta_position.at(static_cast<std::size_t>(di[p])),
                           gamma_position.at(static_cast<std::size_t>(gi[p])),
                           snr_position.at(static_cast<std::size_t>(si[p])), top[p], overlap[p], ridge[p],
                           std::vector<double>(tops.begin() + static_cast<std::ptrdiff_t>(p * k),
                                               tops.begin() + static_cast<std::ptrdiff_t>((p + 1) * k)),
                           d_position.at(static_cast<std::size_t>(ni[p])), static_cast<int>(trial[p]),
                           ft_top[p], ft_overlap[p], ft_threshold[p], ft_edge[p]});
  }
  data.pending = data.total - data.done - data.failed;
  // The lines' secular forms (/lines), placed on the phase lines by their first point's coordinates.
  {
    const config::Grid grid(c);
    for (auto& [line, stored] : store::read_lines(reader.file(), c)) {
      if (left_out.lines.count(line) > 0) {
        data.left_out_lines.push_back(line);
        continue;
      }
      if (!stored.converged) continue;
      const config::GridCoordinates at = grid.coordinates(grid.line_points(line).front());
      const std::size_t phase_line = data.axes.line(at.weighting, d_position.at(at.d),
                                                    delta_position.at(at.delta), gamma_position.at(at.gamma));
      data.secular.emplace(std::make_pair(phase_line, at.trial), std::move(stored.secular));
    }
  }
  // The secular forms of the trials refine added as whole lines (/refine/lines), placed on their lines.
  {
    const store::RefinedLineRows rows = store::read_refined_line_rows(reader.file());
    for (auto& [row, stored] : store::read_refined_lines(reader.file())) {
      if (!stored.converged || !rows.given(row)) continue;
      const std::size_t line =
          data.axes.line(static_cast<std::size_t>(rows.weighting_index[row]),
                         d_position.at(static_cast<std::size_t>(rows.d_index[row])),
                         delta_position.at(static_cast<std::size_t>(rows.delta_index[row])),
                         gamma_position.at(static_cast<std::size_t>(rows.gamma_index[row])));
      data.refined_secular.emplace(std::make_pair(line, static_cast<int>(rows.trial[row])),
                                   std::move(stored.secular));
    }
  }
  // Refined points (/refine): placed on their lines, at their own snr.
  const store::RefinedRows rows = store::read_refined_rows(reader.file());
  const auto rk = static_cast<std::size_t>(rows.k);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::int64_t s = rows.status[r];
    if (s == static_cast<std::int64_t>(store::PointStatus::unused)) continue;
    ++data.refined_total;
    if (s == static_cast<std::int64_t>(store::PointStatus::failed)) ++data.refined_failed;
    if (s != static_cast<std::int64_t>(store::PointStatus::done)) continue;
    ++data.refined_done;
    const std::size_t line = data.axes.line(static_cast<std::size_t>(rows.weighting_index[r]),
                                            d_position.at(static_cast<std::size_t>(rows.d_index[r])),
                                            delta_position.at(static_cast<std::size_t>(rows.delta_index[r])),
                                            gamma_position.at(static_cast<std::size_t>(rows.gamma_index[r])));
    data.refined.push_back(
        {line, rows.snr[r], static_cast<int>(rows.trial[r]),
         std::vector<double>(rows.top_eigenvalues.begin() + static_cast<std::ptrdiff_t>(r * rk),
                             rows.top_eigenvalues.begin() + static_cast<std::ptrdiff_t>((r + 1) * rk))});
  }
  return data;
}

std::string built_from_text(const SweepData& data) {
  std::string text = std::to_string(data.done) + " done, " + std::to_string(data.failed) + " failed, " +
                     std::to_string(data.pending) + " pending of " + std::to_string(data.total) + " points";
  const auto list = [&](const std::vector<std::int64_t>& items, const char* what) {
    if (items.empty()) return;
    // Appended part by part: GCC 12 misreads "x" + std::string as overlapping copies (-Wrestrict).
    text.append("; ")
        .append(std::to_string(items.size()))
        .append(" ")
        .append(what)
        .append(" left out as damaged (");
    for (std::size_t i = 0; i < items.size() && i < 20; ++i)
      text.append(i ? " " : "").append(std::to_string(items[i]));
    text.append(items.size() > 20 ? " ...)" : ")");
  };
  list(data.left_out_points, "done points");
  list(data.left_out_lines, "lines' secular forms");
  return text;
}

void create_phase_file(const std::string& path, const SweepData& data, const std::string& sweep_path) {
  const io::File file = io::create_file(path);
  io::write_attribute(file, "Conventions", std::string(store::cf_conventions));
  io::write_attribute(file, "config", data.config_text);
  if (!data.config_json.empty())
    io::write_attribute(file, std::string(store::config_json_attribute), data.config_json);
  if (!data.history.empty()) io::write_attribute(file, "history", data.history);
  if (!data.sweep_id.empty()) io::write_attribute(file, "sweep_id", data.sweep_id);
  io::write_attribute(file, std::string(store::phase_file_source),
                      std::filesystem::absolute(sweep_path).string());
  io::write_attribute(file, "description",
                      "the phase tables (/phase) of the sweep file named by sweep_file, written by `rmtsweep "
                      "assemble --output`; its config is the sweep's");
  io::flush(file);
}

void write_phase(const std::string& path, const SweepData& data, const PhaseTable& table,
                 const TheoryTables& theory, const FiniteTTable& finite_t, double margin,
                 const std::vector<RuleTable>& rules, Rule shown, const std::vector<RefinedTable>& refined,
                 const DefaultTables& defaults) {
  const io::File file = io::open_file(path, io::Access::read_write);
  const io::Group phase = open_or_create_group(file, std::string(phase_group));
  PhaseScales scales;
  // The top level's rule statistics are the default rule's (per (weighting, delta, gamma):
  // default_detection_rule).
  const PhaseSources top{data, table, theory, finite_t, margin, defaults, defaults.rules, defaults.refined};
  PhaseWriter out(phase, scales);
  put_group(out, PhaseGroup::top, top);
  {
    const io::Group theory_group = open_or_create_group(phase, std::string(phase_theory_group));
    PhaseWriter curves(theory_group, scales);
    put_group(curves, PhaseGroup::theory, top);
    curves.remove_others();
  }
  {
    const io::Group detection = open_or_create_group(phase, std::string(phase_detection_group));
    PhaseWriter groups(detection, scales);
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const std::string name = to_string(rules[r].rule);
      const io::Group group = open_or_create_group(detection, name);
      PhaseWriter writer(group, scales);
      put_group(writer, PhaseGroup::rule,
                PhaseSources{data, table, theory, finite_t, margin, defaults, rules[r], refined.at(r)});
      writer.remove_others();
      groups.keep(name);
    }
    groups.remove_others();
  }
  out.keep(std::string(phase_theory_group));
  out.keep(std::string(phase_detection_group));
  out.remove_others();
  set_attribute(phase, "figure_detection", std::string(to_string(shown)));
  set_attribute(phase, "description",
                "phase tables of the sweep written by `rmtsweep assemble` (docs/schema.md)");
  set_attribute(phase, "detection_rule",
                std::string("detected iff top eigenvalue > right_edge * (1 + c * d^(-2/3))"));
  set_attribute(phase, "assembled_by", std::string("rmtsweep ") + rmtsweep::version);
  // What it was built from: readers compare it with the sweep's status now (store::phase_staleness).
  store::write_number_in_place(phase, std::string(store::phase_built_from_status), data.status_checksum);
  set_attribute(phase, std::string(store::phase_built_from), built_from_text(data));
  // Flushed here, where a failure throws: H5Fclose in the destructor would fail silently (a full
  // disk) and leave the command saying "/phase written".
  io::flush(file);
}

}  // namespace rmtsweep::assemble
