// The layout of /phase (include/rmtsweep/assemble/phase_layout.hpp).
#include "rmtsweep/assemble/phase_layout.hpp"

#include <type_traits>

namespace rmtsweep::assemble {
namespace {

using Values = PhaseValues;
using S = const PhaseSources&;

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

constexpr const Fit Extrapolation::*other = &Extrapolation::alternative;

/// A rule's threshold errors, its extrapolation to d -> infinity (the chosen model and the other), its
/// residuals against the finite-T thresholds with their extrapolation, its consistency along d, its lines'
/// flags, and its refined thresholds (the probit fits over grid and refined points): in every rule's group,
/// and at the top of /phase the default rule's.
void add_rule_statistics(std::vector<PhaseDataset>& out, PhaseGroup group) {
  namespace p = phase;
  const auto add = [&](const PhaseEntry& entry, Values (*values)(S)) {
    out.push_back({group, &entry, values});
  };
  add(p::empirical_threshold_snr_err, [](S s) -> Values { return s.rule.empirical_threshold_snr_err; });
  add(p::extrapolated_threshold_snr,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::thr_inf); });
  add(p::extrapolated_threshold_snr_err,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::thr_inf_err); });
  add(p::extrapolation_a, [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::a); });
  add(p::extrapolation_b, [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::b); });
  add(p::extrapolation_terms, [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::terms); });
  add(p::extrapolation_chi2_per_dof,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::chi2_per_dof); });
  add(p::extrapolation_sizes,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::sizes_used); });
  add(p::extrapolated_threshold_snr_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::thr_inf, other); });
  add(p::extrapolated_threshold_snr_err_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::thr_inf_err, other); });
  add(p::extrapolation_a_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::a, other); });
  add(p::extrapolation_b_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::b, other); });
  add(p::extrapolation_terms_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::terms, other); });
  add(p::extrapolation_chi2_per_dof_alternative,
      [](S s) -> Values { return fit_field(s.rule.extrapolation, &Fit::chi2_per_dof, other); });
  add(p::extrapolation_quadratic_p_value, [](S s) -> Values {
    std::vector<double> p_value;
    for (const Extrapolation& e : s.rule.extrapolation) p_value.push_back(e.quadratic_p_value);
    return p_value;
  });
  add(p::residual_snr, [](S s) -> Values { return s.rule.residual_snr; });
  add(p::residual_snr_err, [](S s) -> Values { return s.rule.residual_snr_err; });
  add(p::extrapolated_residual_snr,
      [](S s) -> Values { return fit_field(s.rule.residual_extrapolation, &Fit::thr_inf); });
  add(p::extrapolated_residual_snr_err,
      [](S s) -> Values { return fit_field(s.rule.residual_extrapolation, &Fit::thr_inf_err); });
  add(p::residual_extrapolation_terms,
      [](S s) -> Values { return fit_field(s.rule.residual_extrapolation, &Fit::terms); });
  add(p::residual_extrapolation_chi2_per_dof,
      [](S s) -> Values { return fit_field(s.rule.residual_extrapolation, &Fit::chi2_per_dof); });
  add(p::consistent, [](S s) -> Values { return s.rule.consistent; });
  add(p::consistency_p_value, [](S s) -> Values { return s.rule.consistency_p_value; });
  add(p::threshold_flags, [](S s) -> Values { return s.rule.threshold_flags; });
  add(p::refined_threshold_snr, [](S s) -> Values { return s.refined.threshold; });
  add(p::refined_threshold_snr_err, [](S s) -> Values { return s.refined.threshold_err; });
  add(p::refined_threshold_exact, [](S s) -> Values { return s.refined.exact; });
  add(p::refined_resolution_err, [](S s) -> Values { return s.refined.resolution_err; });
  add(p::refined_spread_err, [](S s) -> Values { return s.refined.spread_err; });
  add(p::refined_trials, [](S s) -> Values { return s.refined.trials; });
  add(p::refined_fit_threshold_snr, [](S s) -> Values { return s.refined.fit_threshold; });
  add(p::refined_fit_threshold_snr_err, [](S s) -> Values { return s.refined.fit_threshold_err; });
  add(p::refined_width_snr, [](S s) -> Values { return s.refined.width; });
  add(p::refined_width_snr_err, [](S s) -> Values { return s.refined.width_err; });
  add(p::refined_points, [](S s) -> Values { return s.refined.refined_points; });
}

std::vector<PhaseDataset> make_phase_layout() {
  namespace p = phase;
  namespace t = phase_theory;
  namespace r = phase_detection;
  std::vector<PhaseDataset> out;
  const auto top = [&](const PhaseEntry& entry, Values (*values)(S)) {
    out.push_back({PhaseGroup::top, &entry, values});
  };
  // The coordinates first: every other dataset takes its shape from them and has them attached.
  top(p::weighting, [](S s) -> Values { return s.data.axes.weighting; });
  top(p::d,
      [](S s) -> Values { return std::vector<std::int64_t>(s.data.axes.d.begin(), s.data.axes.d.end()); });
  top(p::delta, [](S s) -> Values { return s.data.axes.delta; });
  top(p::gamma, [](S s) -> Values { return s.data.axes.gamma; });
  top(p::snr, [](S s) -> Values { return s.data.axes.snr; });
  top(p::trial, [](S s) -> Values {
    std::vector<std::int64_t> trials(static_cast<std::size_t>(s.data.config.trials));
    for (std::size_t t = 0; t < trials.size(); ++t) trials[t] = static_cast<std::int64_t>(t);
    return trials;
  });
  top(p::trials_done, [](S s) -> Values { return s.table.trials_done; });
  top(p::overlap_mean, [](S s) -> Values { return s.table.overlap_mean; });
  top(p::overlap_std, [](S s) -> Values { return s.table.overlap_std; });
  top(p::top_eigenvalue_mean, [](S s) -> Values { return s.table.top_eigenvalue_mean; });
  top(p::top_eigenvalue_std, [](S s) -> Values { return s.table.top_eigenvalue_std; });
  top(p::ridge_accuracy_mean, [](S s) -> Values { return s.table.ridge_accuracy_mean; });
  top(p::ridge_accuracy_std, [](S s) -> Values { return s.table.ridge_accuracy_std; });
  top(p::detected_fraction, [](S s) -> Values { return s.table.detected_fraction; });
  top(p::detection_threshold, [](S s) -> Values { return s.theory.detection_threshold; });
  top(p::theory_overlap, [](S s) -> Values { return s.theory.overlap; });
  top(p::theory_top_eigenvalue, [](S s) -> Values { return s.theory.top_eigenvalue; });
  top(p::theory_detectable, [](S s) -> Values { return s.theory.detectable; });
  top(p::theory_finite_t_top_eigenvalue, [](S s) -> Values { return s.finite_t.top_eigenvalue; });
  top(p::theory_finite_t_overlap, [](S s) -> Values { return s.finite_t.overlap; });
  top(p::theory_finite_t_threshold_snr, [](S s) -> Values { return s.finite_t.threshold_snr; });
  top(p::theory_finite_t_threshold_snr_std, [](S s) -> Values { return s.finite_t.threshold_snr_std; });
  top(p::theory_finite_t_bulk_edge_right, [](S s) -> Values { return s.finite_t.bulk_edge_right; });
  top(p::theory_finite_t_trials, [](S s) -> Values { return s.finite_t.trials; });
  top(p::alpha, [](S s) -> Values { return s.theory.alpha; });
  top(p::kappa, [](S s) -> Values { return s.theory.kappa; });
  top(p::g, [](S s) -> Values { return s.theory.g; });
  top(p::effective_tokens, [](S s) -> Values { return s.theory.effective_tokens; });
  top(p::theory_bulk_edge_left, [](S s) -> Values { return s.theory.bulk_edge_left; });
  top(p::theory_bulk_edge_right, [](S s) -> Values { return s.theory.bulk_edge_right; });
  top(p::theory_pop_threshold_snr, [](S s) -> Values { return s.theory.pop_threshold_snr; });
  top(p::theory_sample_threshold_snr, [](S s) -> Values { return s.theory.sample_threshold_snr; });
  top(p::empirical_threshold_snr, [](S s) -> Values { return s.table.empirical_threshold_snr; });
  top(p::empirical_threshold_bracket, [](S s) -> Values { return s.table.empirical_threshold_bracket; });
  // The top level is the default rule's (per (weighting, delta, gamma): default_detection_rule).
  top(p::default_detection_rule, [](S s) -> Values { return s.defaults.along_d.default_rule; });
  top(p::target_converges, [](S s) -> Values {
    std::vector<std::int64_t> converges;
    for (const TargetConstancy& target : s.defaults.along_d.target) converges.push_back(target.converges);
    return converges;
  });
  top(p::target_convergence_p_value, [](S s) -> Values {
    std::vector<double> p_value;
    for (const TargetConstancy& target : s.defaults.along_d.target) p_value.push_back(target.p_value);
    return p_value;
  });
  add_rule_statistics(out, PhaseGroup::top);
  top(p::extrapolated_overlap, [](S s) -> Values { return s.table.extrapolated_overlap; });
  top(p::extrapolated_overlap_err, [](S s) -> Values { return s.table.extrapolated_overlap_err; });
  // Values that change between assemblies are datasets, rewritten in place: deleting and recreating an
  // attribute would change the object header's bytes even when the value returns.
  top(p::detection_margin_c, [](S s) -> Values { return std::vector<double>{s.margin}; });
  top(p::count_of, [](S) -> Values { return std::vector<std::string>{"total", "done", "failed"}; });
  top(p::points, [](S s) -> Values {
    return std::vector<std::int64_t>{s.data.total, s.data.done, s.data.failed};
  });

  const auto curve = [&](const PhaseEntry& entry, Values (*values)(S)) {
    out.push_back({PhaseGroup::theory, &entry, values});
  };
  curve(t::snr_fine, [](S s) -> Values { return s.theory.snr_fine; });
  curve(t::delta_fine, [](S s) -> Values { return s.theory.delta_fine; });
  curve(t::gamma_fine, [](S s) -> Values { return s.theory.gamma_fine; });
  curve(t::density_index,
        [](S s) -> Values {  // a dimension without values: the points of each line's density
          const Axes& a = s.data.axes;
          const std::size_t lines = a.weighting.size() * a.delta.size() * a.gamma.size();
          return static_cast<std::uint64_t>(lines == 0 ? 0 : s.theory.density.size() / lines);
        });
  curve(t::snr, [](S s) -> Values { return s.theory.snr_fine; });
  curve(t::overlap, [](S s) -> Values { return s.theory.overlap_fine; });
  curve(t::top_eigenvalue, [](S s) -> Values { return s.theory.top_eigenvalue_fine; });
  curve(t::delta, [](S s) -> Values { return s.theory.delta_fine; });
  curve(t::pop_threshold_snr_vs_delta, [](S s) -> Values { return s.theory.pop_threshold_vs_delta; });
  curve(t::sample_threshold_snr_vs_delta, [](S s) -> Values { return s.theory.sample_threshold_vs_delta; });
  curve(t::gamma, [](S s) -> Values { return s.theory.gamma_fine; });
  curve(t::pop_threshold_snr_vs_gamma, [](S s) -> Values { return s.theory.pop_threshold_vs_gamma; });
  curve(t::sample_threshold_snr_vs_gamma, [](S s) -> Values { return s.theory.sample_threshold_vs_gamma; });
  curve(t::density_x, [](S s) -> Values { return s.theory.density_x; });
  curve(t::density, [](S s) -> Values { return s.theory.density; });

  const auto rule = [&](const PhaseEntry& entry, Values (*values)(S)) {
    out.push_back({PhaseGroup::rule, &entry, values});
  };
  rule(r::detected_fraction, [](S s) -> Values { return s.rule.detected_fraction; });
  rule(r::empirical_threshold_snr, [](S s) -> Values { return s.rule.empirical_threshold_snr; });
  rule(r::empirical_threshold_bracket, [](S s) -> Values { return s.rule.empirical_threshold_bracket; });
  rule(r::false_detection_rate, [](S s) -> Values { return s.rule.false_detection_rate; });
  rule(r::threshold, [](S s) -> Values { return s.rule.threshold; });
  rule(r::empirical_threshold_exact, [](S s) -> Values { return s.rule.empirical_threshold_exact; });
  rule(r::trial_threshold_snr, [](S s) -> Values { return s.rule.trial_threshold_snr; });
  add_rule_statistics(out, PhaseGroup::rule);
  return out;
}

}  // namespace

std::string_view PhaseDataset::group_path() const noexcept {
  switch (group) {
    case PhaseGroup::top:
      return "phase";
    case PhaseGroup::theory:
      return "phase/theory";
    case PhaseGroup::rule:
      break;
  }
  return "phase/detection/<rule>";
}

std::vector<std::string_view> PhaseDataset::dims() const {
  std::vector<std::string_view> names;
  for (std::size_t axis = 0; axis < entry->dims.rank(); ++axis) names.push_back(entry->dims[axis].name);
  return names;
}

const std::vector<PhaseDataset>& phase_layout() {
  static const std::vector<PhaseDataset> layout = make_phase_layout();
  return layout;
}

}  // namespace rmtsweep::assemble
