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

#include "phase_writer.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/config/grid.hpp"
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

/// One field of every fit of `fits` (a member of Fit, or of Fit through a member Fit of Extrapolation).
template <class Member>
auto fit_field(const std::vector<Extrapolation>& fits, Member member,
               const Fit Extrapolation::*of = nullptr) {
  std::vector<std::conditional_t<std::is_same_v<std::decay_t<decltype(Fit{}.*member)>, int>, std::int64_t,
                                 std::decay_t<decltype(Fit{}.*member)>>>
      values;
  for (const Extrapolation& e : fits) values.push_back(of == nullptr ? e.*member : (e.*of).*member);
  return values;
}

/// Writes a rule's threshold errors, its extrapolation to d -> infinity (the chosen model and the other),
/// its residuals against the finite-T thresholds with their extrapolation, its consistency along d and its
/// lines' flags.
void put_finite_size(PhaseWriter& out, const RuleTable& rule) {
  out.put(phase::empirical_threshold_snr_err, rule.empirical_threshold_snr_err);
  const auto& fits = rule.extrapolation;
  out.put(phase::extrapolated_threshold_snr, fit_field(fits, &Fit::thr_inf));
  out.put(phase::extrapolated_threshold_snr_err, fit_field(fits, &Fit::thr_inf_err));
  out.put(phase::extrapolation_a, fit_field(fits, &Fit::a));
  out.put(phase::extrapolation_b, fit_field(fits, &Fit::b));
  out.put(phase::extrapolation_terms, fit_field(fits, &Fit::terms));
  out.put(phase::extrapolation_chi2_per_dof, fit_field(fits, &Fit::chi2_per_dof));
  out.put(phase::extrapolation_sizes, fit_field(fits, &Fit::sizes_used));
  const Fit Extrapolation::*other = &Extrapolation::alternative;
  out.put(phase::extrapolated_threshold_snr_alternative, fit_field(fits, &Fit::thr_inf, other));
  out.put(phase::extrapolated_threshold_snr_err_alternative, fit_field(fits, &Fit::thr_inf_err, other));
  out.put(phase::extrapolation_a_alternative, fit_field(fits, &Fit::a, other));
  out.put(phase::extrapolation_b_alternative, fit_field(fits, &Fit::b, other));
  out.put(phase::extrapolation_terms_alternative, fit_field(fits, &Fit::terms, other));
  out.put(phase::extrapolation_chi2_per_dof_alternative, fit_field(fits, &Fit::chi2_per_dof, other));
  std::vector<double> p_value;
  for (const Extrapolation& e : fits) p_value.push_back(e.quadratic_p_value);
  out.put(phase::extrapolation_quadratic_p_value, p_value);
  out.put(phase::residual_snr, rule.residual_snr);
  out.put(phase::residual_snr_err, rule.residual_snr_err);
  const auto& residual = rule.residual_extrapolation;
  out.put(phase::extrapolated_residual_snr, fit_field(residual, &Fit::thr_inf));
  out.put(phase::extrapolated_residual_snr_err, fit_field(residual, &Fit::thr_inf_err));
  out.put(phase::residual_extrapolation_terms, fit_field(residual, &Fit::terms));
  out.put(phase::residual_extrapolation_chi2_per_dof, fit_field(residual, &Fit::chi2_per_dof));
  out.put(phase::consistent, rule.consistent);
  out.put(phase::consistency_p_value, rule.consistency_p_value);
  out.put(phase::threshold_flags, rule.threshold_flags);
}

/// Writes a rule's refined thresholds (the probit fits over grid and refined points).
void put_refined(PhaseWriter& out, const RefinedTable& refined) {
  out.put(phase::refined_threshold_snr, refined.threshold);
  out.put(phase::refined_threshold_snr_err, refined.threshold_err);
  out.put(phase::refined_threshold_exact, refined.exact);
  out.put(phase::refined_resolution_err, refined.resolution_err);
  out.put(phase::refined_spread_err, refined.spread_err);
  out.put(phase::refined_trials, refined.trials);
  out.put(phase::refined_fit_threshold_snr, refined.fit_threshold);
  out.put(phase::refined_fit_threshold_snr_err, refined.fit_threshold_err);
  out.put(phase::refined_width_snr, refined.width);
  out.put(phase::refined_width_snr_err, refined.width_err);
  out.put(phase::refined_points, refined.refined_points);
}

}  // namespace

SweepData read_sweep(const std::string& path) {
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
      if (!stored.converged) continue;
      const config::GridCoordinates at = grid.coordinates(grid.line_points(line).front());
      const std::size_t phase_line =
          data.axes.line(at.weighting, d_position.at(at.d), delta_position.at(at.delta), gamma_position.at(at.gamma));
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
    data.refined.push_back({line, rows.snr[r], static_cast<int>(rows.trial[r]),
                            std::vector<double>(rows.top_eigenvalues.begin() + static_cast<std::ptrdiff_t>(r * rk),
                                                rows.top_eigenvalues.begin() + static_cast<std::ptrdiff_t>((r + 1) * rk))});
  }
  return data;
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
  const Axes& a = data.axes;
  PhaseScales scales;
  PhaseWriter out(phase, scales);
  // The coordinates first: every other dataset takes its shape from them and has them attached.
  out.put(phase::weighting, a.weighting);
  out.put(phase::d, std::vector<std::int64_t>(a.d.begin(), a.d.end()));
  out.put(phase::delta, a.delta);
  out.put(phase::gamma, a.gamma);
  out.put(phase::snr, a.snr);
  {
    std::vector<std::int64_t> trials(static_cast<std::size_t>(data.config.trials));
    for (std::size_t t = 0; t < trials.size(); ++t) trials[t] = static_cast<std::int64_t>(t);
    out.put(phase::trial, trials);
  }
  out.put(phase::trials_done, table.trials_done);
  out.put(phase::overlap_mean, table.overlap_mean);
  out.put(phase::overlap_std, table.overlap_std);
  out.put(phase::top_eigenvalue_mean, table.top_eigenvalue_mean);
  out.put(phase::top_eigenvalue_std, table.top_eigenvalue_std);
  out.put(phase::ridge_accuracy_mean, table.ridge_accuracy_mean);
  out.put(phase::ridge_accuracy_std, table.ridge_accuracy_std);
  out.put(phase::detected_fraction, table.detected_fraction);
  out.put(phase::detection_threshold, theory.detection_threshold);
  out.put(phase::theory_overlap, theory.overlap);
  out.put(phase::theory_top_eigenvalue, theory.top_eigenvalue);
  out.put(phase::theory_detectable, theory.detectable);
  out.put(phase::theory_finite_t_top_eigenvalue, finite_t.top_eigenvalue);
  out.put(phase::theory_finite_t_overlap, finite_t.overlap);
  out.put(phase::theory_finite_t_threshold_snr, finite_t.threshold_snr);
  out.put(phase::theory_finite_t_threshold_snr_std, finite_t.threshold_snr_std);
  out.put(phase::theory_finite_t_bulk_edge_right, finite_t.bulk_edge_right);
  out.put(phase::theory_finite_t_trials, finite_t.trials);
  out.put(phase::alpha, theory.alpha);
  out.put(phase::kappa, theory.kappa);
  out.put(phase::g, theory.g);
  out.put(phase::effective_tokens, theory.effective_tokens);
  out.put(phase::theory_bulk_edge_left, theory.bulk_edge_left);
  out.put(phase::theory_bulk_edge_right, theory.bulk_edge_right);
  out.put(phase::theory_pop_threshold_snr, theory.pop_threshold_snr);
  out.put(phase::theory_sample_threshold_snr, theory.sample_threshold_snr);
  out.put(phase::empirical_threshold_snr, table.empirical_threshold_snr);
  out.put(phase::empirical_threshold_bracket, table.empirical_threshold_bracket);
  // The top level is the default rule's (per (weighting, delta, gamma): default_detection_rule).
  out.put(phase::default_detection_rule, defaults.along_d.default_rule);
  {
    std::vector<std::int64_t> converges;
    std::vector<double> p_value;
    for (const TargetConstancy& t : defaults.along_d.target) {
      converges.push_back(t.converges);
      p_value.push_back(t.p_value);
    }
    out.put(phase::target_converges, converges);
    out.put(phase::target_convergence_p_value, p_value);
  }
  put_finite_size(out, defaults.rules);
  put_refined(out, defaults.refined);
  out.put(phase::extrapolated_overlap, table.extrapolated_overlap);
  out.put(phase::extrapolated_overlap_err, table.extrapolated_overlap_err);

  const io::Group theory_group = open_or_create_group(phase, std::string(phase_theory_group));
  {
    PhaseWriter curves(theory_group, scales);
    const std::size_t lines = a.weighting.size() * a.delta.size() * a.gamma.size();
    curves.put(phase_theory::snr_fine, theory.snr_fine);
    curves.put(phase_theory::delta_fine, theory.delta_fine);
    curves.put(phase_theory::gamma_fine, theory.gamma_fine);
    curves.put_dimension(phase_theory::density_index, lines == 0 ? 0 : theory.density.size() / lines);
    curves.put(phase_theory::snr, theory.snr_fine);
    curves.put(phase_theory::overlap, theory.overlap_fine);
    curves.put(phase_theory::top_eigenvalue, theory.top_eigenvalue_fine);
    curves.put(phase_theory::delta, theory.delta_fine);
    curves.put(phase_theory::pop_threshold_snr_vs_delta, theory.pop_threshold_vs_delta);
    curves.put(phase_theory::sample_threshold_snr_vs_delta, theory.sample_threshold_vs_delta);
    curves.put(phase_theory::gamma, theory.gamma_fine);
    curves.put(phase_theory::pop_threshold_snr_vs_gamma, theory.pop_threshold_vs_gamma);
    curves.put(phase_theory::sample_threshold_snr_vs_gamma, theory.sample_threshold_vs_gamma);
    curves.put(phase_theory::density_x, theory.density_x);
    curves.put(phase_theory::density, theory.density);
    curves.remove_others();
  }
  // Values that change between assemblies are datasets, rewritten in place: deleting and
  // recreating an attribute would change the object header's bytes even when the value returns.
  out.put(phase::detection_margin_c, std::vector<double>{margin});
  out.put(phase::count_of, std::vector<std::string>{"total", "done", "failed"});
  out.put(phase::points, std::vector<std::int64_t>{data.total, data.done, data.failed});
  {
    const io::Group detection = open_or_create_group(phase, std::string(phase_detection_group));
    PhaseWriter groups(detection, scales);
    for (const RuleTable& rule : rules) {
      const std::string name = to_string(rule.rule);
      const io::Group group = open_or_create_group(detection, name);
      PhaseWriter put(group, scales);
      put.put(phase_detection::detected_fraction, rule.detected_fraction);
      put.put(phase_detection::empirical_threshold_snr, rule.empirical_threshold_snr);
      put.put(phase_detection::empirical_threshold_bracket, rule.empirical_threshold_bracket);
      put.put(phase_detection::false_detection_rate, rule.false_detection_rate);
      put.put(phase_detection::threshold, rule.threshold);
      put.put(phase_detection::empirical_threshold_exact, rule.empirical_threshold_exact);
      put.put(phase_detection::trial_threshold_snr, rule.trial_threshold_snr);
      put_finite_size(put, rule);
      put_refined(put, refined.at(static_cast<std::size_t>(&rule - rules.data())));
      put.remove_others();
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
  // Flushed here, where a failure throws: H5Fclose in the destructor would fail silently (a full
  // disk) and leave the command saying "/phase written".
  io::flush(file);
}

}  // namespace rmtsweep::assemble
