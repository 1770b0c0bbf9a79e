#pragma once
/// The datasets of /phase (written by `rmtsweep assemble`) and of its subgroups: each name once, with its
/// description, its dimensions and its units. The writer (phase_file.cpp) and every reader take them from
/// here; the names are a contract with users' h5py scripts (docs/schema.md, which src/app/schema_doc.cpp
/// writes from these entries).
///
/// Dimensions (netCDF-4 dimension scales, io/dimension_scale.hpp): every dataset states the named
/// dimension of each axis (Dims), and the writer creates the dataset with the sizes of those dimensions
/// and attaches their scales, so `xarray.open_dataset(path, group="phase", engine="h5netcdf")` labels
/// every axis. A dimension's scale is a dataset of the same name: /phase/weighting, d, delta, gamma,
/// snr, detection_margin_c and count_of in /phase (coordinates), /phase/theory/snr_fine, delta_fine,
/// gamma_fine (the theory curves' fine axes; also stored as theory/snr, delta, gamma, their names
/// since before scales) and density_index (no values). A dataset sees the scales of its own group and
/// of the groups above it, as netCDF-4 readers do. Adding a dataset: one PhaseEntry with its Dims, and
/// one put() in phase_file.cpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::assemble {

using store::Dimension;

/// The dimensions of /phase beyond the sweep's axes (store::dimension: weighting, d, delta, gamma, snr,
/// trial).
namespace phase_dimension {
inline constexpr Dimension count_of{"count_of", "points counted", ""};
inline constexpr Dimension detection_margin_c{"detection_margin_c", "c of the edge detection rule", "1"};
inline constexpr Dimension snr_fine{"snr_fine", "snr = ||mu||^2 of the theory curves (fine axis)", "1"};
inline constexpr Dimension delta_fine{"delta_fine", "delta = d/V of the threshold curves (fine axis)", "1"};
inline constexpr Dimension gamma_fine{"gamma_fine", "gamma = d/N of the threshold curves (fine axis)", "1"};
inline constexpr Dimension density_index{"density_index", "position of x along a line's bulk density", ""};
}  // namespace phase_dimension

/// The dimensions of a dataset's axes, in order (at most 6; none is not a /phase dataset: a compile error).
class Dims {
 public:
  constexpr Dims(std::initializer_list<const Dimension*> axes) {
    if (axes.size() == 0) throw "a /phase dataset names the dimension of each of its axes";
    for (const Dimension* axis : axes) axes_[rank_++] = axis;
  }
  constexpr std::size_t rank() const noexcept { return rank_; }
  constexpr const Dimension& operator[](std::size_t axis) const noexcept { return *axes_[axis]; }

 private:
  std::array<const Dimension*, 6> axes_{};
  std::size_t rank_ = 0;
};

namespace dims {
using namespace store::dimension;
/// One value per cell: weighting x d x delta x gamma x snr.
inline constexpr Dims cells{&weighting, &d, &delta, &gamma, &snr};
/// One value per line (the snr axis reduced): weighting x d x delta x gamma.
inline constexpr Dims lines{&weighting, &d, &delta, &gamma};
/// One value per line across sizes (d -> infinity): weighting x delta x gamma.
inline constexpr Dims size_lines{&weighting, &delta, &gamma};
/// One value per cell across sizes: weighting x delta x gamma x snr.
inline constexpr Dims size_cells{&weighting, &delta, &gamma, &snr};
}  // namespace dims

/// One dataset of /phase: its name inside its group, its CF long_name (the label xarray's .plot() shows;
/// a coordinate's is its dimension's), its description attribute, its dimensions, its CF units (only where
/// the quantity has one: CF 1.10 section 3.1 asks units of dimensional quantities, and /phase holds none,
/// so none is written and xarray's labels carry no "[1]") and, for a variable of codes, its flags.
struct PhaseEntry {
  std::string_view name;
  std::string_view long_name;
  std::string_view description;
  Dims dims;
  std::string_view units = "";
  store::Flags flags{};
};

/// The flags of /phase's codes (CF flag_values and flag_meanings).
namespace flag_values {
inline constexpr std::int64_t bracket[] = {-1, 0, 1, 2};  ///< assemble::bracket_* (phase.hpp)
inline constexpr std::int64_t terms[] = {0, 1, 2};
using store::flag_values::no_yes;
}  // namespace flag_values
inline constexpr store::Flags bracket_flags{flag_values::bracket, "below_grid found above_grid no_data"};
inline constexpr store::Flags extrapolation_terms_flags{flag_values::terms, "no_fit one_term two_terms"};
inline constexpr store::Flags refined_exact_flags{flag_values::no_yes, "median_of_brackets median_of_exact"};
inline constexpr store::Flags threshold_exact_flags{flag_values::no_yes, "grid_crossing median_of_exact"};

/// The bits of detection/<rule>/threshold_flags (and of the top level's, the default rule's): what a reader
/// should know about a line's threshold before trusting it (docs/detection.md, "Flags").
namespace threshold_flag {
/// The line's threshold lies below the grid's first snr: the median of exact thresholds below it, or a half
/// crossing already reached at the first cell (bracket -1).
inline constexpr std::int64_t below_grid = 1;
/// More than a quarter of the line's trials have the exact threshold 0 (on a line without exact thresholds:
/// are detected at snr = 0): detected without signal.
inline constexpr std::int64_t many_zero_thresholds = 2;
/// The rule's detections without signal grow with d on this (weighting, delta, gamma): consistent = 0.
inline constexpr std::int64_t inconsistent_rule = 4;
/// The null rule's level set by fewer than 19 snr = 0 trials: their maximum, at level 1/(n + 1) > 5 %.
inline constexpr std::int64_t few_null_trials = 8;
inline constexpr std::int64_t bits[] = {below_grid, many_zero_thresholds, inconsistent_rule, few_null_trials};
}  // namespace threshold_flag
namespace flag_values {
inline constexpr std::int64_t unknown_no_yes[] = {-1, 0, 1};
/// default_detection_rule: positions in /phase/detection's list of rules (detection_tables.hpp's all_rules).
inline constexpr std::int64_t rules[] = {-1, 0, 1, 2, 3};
}  // namespace flag_values
inline constexpr store::Flags threshold_flags_flags{
    threshold_flag::bits, "below_grid many_zero_thresholds inconsistent_rule few_null_trials", true};
/// detection/<rule>/consistent (finite_size_trends.hpp: rule_consistent, ...).
inline constexpr store::Flags consistency_flags{flag_values::unknown_no_yes,
                                                "unknown inconsistent consistent"};
/// target_converges (finite_size_trends.hpp: target_holds, ...).
inline constexpr store::Flags target_flags{flag_values::unknown_no_yes, "unknown moves holds"};
inline constexpr store::Flags rule_flags{flag_values::rules, "none edge eigengap null finite_t_edge"};

/// The group /phase and its subgroup of fine theory curves.
inline constexpr std::string_view phase_group = "phase", phase_theory_group = "theory";

namespace phase {  // /phase
inline constexpr PhaseEntry effective_tokens{
    "effective_tokens", "effective tokens T_eff",
    "T_eff = (sum |w_t|)^2 / sum w_t^2 of the weighting: the bulk law is a limit of many (model.md 5.5)",
    dims::lines};
inline constexpr PhaseEntry weighting{
    "weighting",
    store::dimension::weighting.long_name,
    "weightings (canonical text), in grid order: axis 0 of the phase arrays",
    {&store::dimension::weighting},
    ""};
inline constexpr PhaseEntry d{
    "d", store::dimension::d.long_name, "embedding dimension d, ascending: axis 1", {&store::dimension::d}};
inline constexpr PhaseEntry delta{
    "delta", store::dimension::delta.long_name, "delta = d/V, ascending: axis 2", {&store::dimension::delta}};
inline constexpr PhaseEntry gamma{
    "gamma", store::dimension::gamma.long_name, "gamma = d/N, ascending: axis 3", {&store::dimension::gamma}};
inline constexpr PhaseEntry snr{
    "snr", store::dimension::snr.long_name, "snr = ||mu||^2, ascending: axis 4", {&store::dimension::snr}};
inline constexpr PhaseEntry trial{
    "trial",
    store::dimension::trial.long_name,
    "trial numbers 0..trials-1: the last axis of detection/<rule>/trial_threshold_snr",
    {&store::dimension::trial},
    ""};
inline constexpr PhaseEntry trials_done{
    "trials_done", "done trials", "done trials in the cell (weighting, d, delta, gamma, snr)", dims::cells};
inline constexpr PhaseEntry overlap_mean{"overlap_mean", "mean overlap",
                                         "trial mean of the measured overlap |u_hat^T u|^2", dims::cells};
inline constexpr PhaseEntry overlap_std{"overlap_std", "overlap standard deviation",
                                        "trial standard deviation (n - 1) of the overlap", dims::cells};
inline constexpr PhaseEntry top_eigenvalue_mean{"top_eigenvalue_mean", "mean top eigenvalue",
                                                "trial mean of the top eigenvalue of S", dims::cells};
inline constexpr PhaseEntry top_eigenvalue_std{"top_eigenvalue_std", "top eigenvalue standard deviation",
                                               "trial standard deviation of the top eigenvalue", dims::cells};
inline constexpr PhaseEntry ridge_accuracy_mean{"ridge_accuracy_mean", "mean ridge test accuracy",
                                                "trial mean of the ridge test accuracy", dims::cells};
inline constexpr PhaseEntry ridge_accuracy_std{"ridge_accuracy_std", "ridge test accuracy standard deviation",
                                               "trial standard deviation of the ridge accuracy", dims::cells};
inline constexpr PhaseEntry detected_fraction{
    "detected_fraction", "fraction of trials detected",
    "fraction of done trials the default rule of the line (default_detection_rule) detects: "
    "detection/<rule>/detected_fraction of that rule",
    dims::cells};
inline constexpr PhaseEntry detection_threshold{
    "detection_threshold", "detection level of the top eigenvalue",
    "the edge rule's level: right bulk edge (1 + c d^(-2/3)), c = attribute detection_margin_c", dims::cells};
inline constexpr PhaseEntry theory_overlap{"theory_overlap", "theory overlap",
                                           "predicted overlap (model.md 5.2); 0 when not detectable",
                                           dims::cells};
inline constexpr PhaseEntry theory_top_eigenvalue{"theory_top_eigenvalue", "theory top eigenvalue",
                                                  "predicted top eigenvalue: lambda_S or the right edge",
                                                  dims::cells};
inline constexpr PhaseEntry theory_detectable{"theory_detectable",
                                              "theory predicts an outlier",
                                              "1 when theory predicts the sample outlier (F(s) > 0)",
                                              dims::cells,
                                              "",
                                              store::detectable_flags};
inline constexpr PhaseEntry theory_finite_t_top_eigenvalue{
    "theory_finite_t_top_eigenvalue", "finite-T theory top eigenvalue (trial mean)",
    "trial mean of the finite-T top eigenvalue of each trial's own token draws (/points "
    "theory_finite_t_top_eigenvalue, docs/finite_t.md); NaN where no point carries it",
    dims::cells};
inline constexpr PhaseEntry theory_finite_t_overlap{
    "theory_finite_t_overlap", "finite-T theory overlap (trial mean)",
    "trial mean of the finite-T overlap of each trial's own token draws; NaN where none", dims::cells};
inline constexpr PhaseEntry theory_finite_t_threshold_snr{
    "theory_finite_t_threshold_snr", "finite-T threshold snr (trial mean)",
    "per line: trial mean of the finite-T sample threshold in snr of each trial's own token draws (clipped "
    "at 0); "
    "for single-token pooling it grows with d (no large-d limit, docs/finite_t.md); NaN where none",
    dims::lines};
inline constexpr PhaseEntry theory_finite_t_threshold_snr_std{
    "theory_finite_t_threshold_snr_std", "finite-T threshold snr standard deviation",
    "per line: standard deviation (n - 1) of the trials' finite-T thresholds", dims::lines};
inline constexpr PhaseEntry theory_finite_t_bulk_edge_right{
    "theory_finite_t_bulk_edge_right", "finite-T right bulk edge (trial mean)",
    "per line: trial mean of the finite-T right bulk edge (model.md 5.5)", dims::lines};
inline constexpr PhaseEntry theory_finite_t_trials{
    "theory_finite_t_trials", "trials with the finite-T theory",
    "per line: trials whose points carry the finite-T theory", dims::lines};
inline constexpr PhaseEntry alpha{"alpha", "alpha = w'Rw", "alpha = w^T R w of the weighting (model.md 4)",
                                  dims::lines};
inline constexpr PhaseEntry kappa{"kappa", "kappa = |w|^2", "kappa = ||w||^2 of the weighting (model.md 4)",
                                  dims::lines};
inline constexpr PhaseEntry g{"g", "g = alpha/kappa", "g = alpha/kappa of the weighting (model.md 4)",
                              dims::lines};
inline constexpr PhaseEntry theory_bulk_edge_left{"theory_bulk_edge_left", "left bulk edge (theory)",
                                                  "left edge of the continuous bulk (model.md 5.1)",
                                                  dims::lines};
inline constexpr PhaseEntry theory_bulk_edge_right{"theory_bulk_edge_right", "right bulk edge (theory)",
                                                   "right edge of the bulk (model.md 5.1)", dims::lines};
inline constexpr PhaseEntry theory_pop_threshold_snr{
    "theory_pop_threshold_snr", "population threshold snr (theory)",
    "population threshold in snr, clipped at 0", dims::lines};
inline constexpr PhaseEntry theory_sample_threshold_snr{"theory_sample_threshold_snr",
                                                        "sample threshold snr (theory)",
                                                        "sample threshold in snr, clipped at 0", dims::lines};
inline constexpr PhaseEntry empirical_threshold_snr{
    "empirical_threshold_snr", "empirical threshold snr",
    "the default rule's threshold (default_detection_rule; docs/detection.md): on lines where every trial "
    "has its "
    "exact threshold (detection/<rule>/empirical_threshold_exact), their median; elsewhere the snr where "
    "detected_fraction first crosses 1/2 (linear interpolation); NaN unless bracketed",
    dims::lines};
inline constexpr PhaseEntry default_detection_rule{
    "default_detection_rule",
    "default detection rule",
    "per (weighting, delta, gamma): the rule whose values the top level's detected_fraction, thresholds, "
    "extrapolations, residuals and flags carry: the first of finite_t_edge, null (where every size has >= 19 "
    "snr = 0 trials) and edge that has a threshold and is not inconsistent (docs/detection.md, \"The default "
    "rule\"); 0 edge, 1 eigengap, 2 null, 3 finite_t_edge, -1 none",
    dims::size_lines,
    "",
    rule_flags};
inline constexpr PhaseEntry target_converges{
    "target_converges",
    "finite-T target holds over d",
    "per (weighting, delta, gamma): 1 where the trial means of the finite-T thresholds are consistent with "
    "one "
    "value over the sizes (Welch's test of equal means, the chi^2 against a constant corrected for estimated "
    "variances, p >= 0.05; docs/finite_size.md), so the threshold "
    "extrapolation has a limit to meet; 0 where they move with d (compare per d: extrapolated_residual_snr); "
    "-1 fewer than 2 sizes with finite-T thresholds of >= 2 trials",
    dims::size_lines,
    "",
    target_flags};
inline constexpr PhaseEntry target_convergence_p_value{
    "target_convergence_p_value", "p-value of the finite-T target test",
    "p-value of target_converges' test; NaN where it is -1", dims::size_lines, ""};
inline constexpr PhaseEntry empirical_threshold_snr_err{
    "empirical_threshold_snr_err", "empirical threshold snr standard error",
    "bootstrap standard error of empirical_threshold_snr: trials resampled (jointly along snr for a half "
    "crossing; 400 replicates); NaN unless bracketed and bracketed in >= 95 % of the replicates",
    dims::lines};
inline constexpr PhaseEntry extrapolated_threshold_snr{
    "extrapolated_threshold_snr", "threshold snr extrapolated to d -> infinity",
    "per (weighting, delta, gamma): thr_inf of the weighted fit thr(d) = thr_inf + a d^(-1/3) to the per-d "
    "empirical thresholds, + b d^(-2/3) only where the F-test asks for it (>= 5 sizes, "
    "extrapolation_quadratic_p_value < 0.05; docs/finite_size.md); NaN with fewer than 3 sizes with an error",
    dims::size_lines};
inline constexpr PhaseEntry extrapolated_threshold_snr_err{
    "extrapolated_threshold_snr_err", "extrapolated threshold snr standard error",
    "standard error of extrapolated_threshold_snr, scaled by the PDG factor max(1, sqrt(chi2/dof)) over the "
    "sizes whose leverage is >= 1/9 of the mean (docs/finite_size.md)",
    dims::size_lines};
inline constexpr PhaseEntry extrapolated_threshold_snr_alternative{
    "extrapolated_threshold_snr_alternative", "threshold snr extrapolated by the other model",
    "thr_inf of the model not chosen (with b d^(-2/3) where extrapolated_threshold_snr has none, and the "
    "reverse); NaN where it cannot be fitted (the quadratic needs >= 5 sizes)",
    dims::size_lines, ""};
inline constexpr PhaseEntry extrapolated_threshold_snr_err_alternative{
    "extrapolated_threshold_snr_err_alternative", "standard error of the other model's extrapolation",
    "standard error of extrapolated_threshold_snr_alternative (PDG "
    "scale factor as extrapolated_threshold_snr_err)",
    dims::size_lines, ""};
inline constexpr PhaseEntry extrapolation_a_alternative{
    "extrapolation_a_alternative", "coefficient of d^(-1/3), other model",
    "coefficient a of d^(-1/3) of the model not chosen", dims::size_lines, ""};
inline constexpr PhaseEntry extrapolation_b_alternative{
    "extrapolation_b_alternative", "coefficient of d^(-2/3), other model",
    "coefficient b of d^(-2/3) of the model not chosen; NaN for the 1-term model", dims::size_lines, ""};
inline constexpr PhaseEntry extrapolation_terms_alternative{
    "extrapolation_terms_alternative",
    "terms of the other model",
    "the model not chosen: 0 none, 1 thr_inf + a d^(-1/3), 2 adding b d^(-2/3)",
    dims::size_lines,
    "",
    extrapolation_terms_flags};
inline constexpr PhaseEntry extrapolation_chi2_per_dof_alternative{
    "extrapolation_chi2_per_dof_alternative", "chi^2 per degree of freedom, other model",
    "chi^2 per degree of freedom of the model not chosen", dims::size_lines, ""};
inline constexpr PhaseEntry extrapolation_quadratic_p_value{
    "extrapolation_quadratic_p_value", "p-value of the F-test for the d^(-2/3) term",
    "p-value of the nested-model F-test of b = 0, F = (chi2_1 - chi2_2) / (chi2_2 / (n - 3)) on F(1, n - 3): "
    "the quadratic model is chosen where it is < 0.05; NaN with fewer than 5 sizes",
    dims::size_lines, ""};
inline constexpr PhaseEntry residual_snr{
    "residual_snr", "threshold minus finite-T threshold (snr)",
    "per line: the threshold less the trials' own finite-T thresholds (/points "
    "theory_finite_t_threshold_snr): "
    "where empirical_threshold_exact is 1, the median of the paired per-trial differences; elsewhere "
    "empirical_threshold_snr - theory_finite_t_threshold_snr (trial mean); NaN where no trial carries one",
    dims::lines, ""};
inline constexpr PhaseEntry residual_snr_err{
    "residual_snr_err", "residual standard error",
    "standard error of residual_snr: the bootstrap of the median of the differences (400 replicates, as "
    "empirical_threshold_snr_err), elsewhere empirical_threshold_snr_err",
    dims::lines, ""};
inline constexpr PhaseEntry extrapolated_residual_snr{
    "extrapolated_residual_snr", "residual extrapolated to d -> infinity",
    "per (weighting, delta, gamma): residual_snr extrapolated to d -> infinity by the fit of "
    "extrapolated_threshold_snr (terms chosen alike): 0 within its error where the sizes close on their "
    "finite-T targets; the comparison to read where target_converges is 0",
    dims::size_lines, ""};
inline constexpr PhaseEntry extrapolated_residual_snr_err{
    "extrapolated_residual_snr_err", "extrapolated residual standard error",
    "standard error of extrapolated_residual_snr (PDG scale factor)", dims::size_lines, ""};
inline constexpr PhaseEntry residual_extrapolation_terms{
    "residual_extrapolation_terms",
    "terms of the residual fit",
    "the residual fit's model: 0 no fit, 1 r_inf + a d^(-1/3), 2 adding b d^(-2/3)",
    dims::size_lines,
    "",
    extrapolation_terms_flags};
inline constexpr PhaseEntry residual_extrapolation_chi2_per_dof{
    "residual_extrapolation_chi2_per_dof", "chi^2 per degree of freedom of the residual fit",
    "chi^2 per degree of freedom of the residual fit", dims::size_lines, ""};
inline constexpr PhaseEntry consistent{
    "consistent",
    "rule consistent along d",
    "per (weighting, delta, gamma): 0 where the rule's share of trials detected without signal grows with d "
    "(one-sided Cochran-Armitage trend test at 5 % over the sizes, exact where small; at snr = 0, else from "
    "the "
    "exact thresholds (threshold 0), else at the grid's first snr: docs/detection.md), 1 where it does not, "
    "-1 "
    "fewer than 2 sizes; an inconsistent rule is not the default",
    dims::size_lines,
    "",
    consistency_flags};
inline constexpr PhaseEntry consistency_p_value{
    "consistency_p_value", "p-value of the consistency trend test",
    "one-sided p-value of consistent's trend test; NaN where consistent is -1", dims::size_lines, ""};
inline constexpr PhaseEntry threshold_flags{
    "threshold_flags",
    "threshold flags",
    "per line, bits: 1 the threshold lies below the grid's first snr; 2 more than a quarter of the trials "
    "have "
    "exact threshold 0 (without exact thresholds: are detected at snr = 0), detected without signal; 4 the "
    "rule is inconsistent along d here (consistent = 0); 8 "
    "(null rule) fewer than 19 snr = 0 trials set its level, at 1/(n + 1) > 5 %",
    dims::lines,
    "",
    threshold_flags_flags};
inline constexpr PhaseEntry extrapolated_overlap{
    "extrapolated_overlap", "mean overlap extrapolated to d -> infinity",
    "per (weighting, delta, gamma, snr): the trial-mean overlap extrapolated to d -> infinity by the fit of "
    "extrapolated_threshold_snr (errors std/sqrt(trials)); NaN with fewer than 3 sizes",
    dims::size_cells};
inline constexpr PhaseEntry extrapolated_overlap_err{
    "extrapolated_overlap_err", "extrapolated overlap standard error",
    "standard error of extrapolated_overlap (PDG scale factor)", dims::size_cells};
inline constexpr PhaseEntry extrapolation_a{"extrapolation_a", "fit coefficient a of d^(-1/3)",
                                            "coefficient a of d^(-1/3) of the fit", dims::size_lines};
inline constexpr PhaseEntry extrapolation_b{"extrapolation_b", "fit coefficient b of d^(-2/3)",
                                            "coefficient b of d^(-2/3) of the fit; NaN for the 1-term model",
                                            dims::size_lines};
inline constexpr PhaseEntry extrapolation_terms{
    "extrapolation_terms",
    "terms of the extrapolation fit",
    "the fit's model: 0 no fit, 1 thr_inf + a d^(-1/3), 2 adding b d^(-2/3)",
    dims::size_lines,
    "",
    extrapolation_terms_flags};
inline constexpr PhaseEntry extrapolation_chi2_per_dof{
    "extrapolation_chi2_per_dof", "chi^2 per degree of freedom of the fit",
    "chi^2 per degree of freedom of the fit (its residual)", dims::size_lines};
inline constexpr PhaseEntry extrapolation_sizes{"extrapolation_sizes", "sizes d in the fit",
                                                "sizes d the fit used (a threshold and an error each)",
                                                dims::size_lines};
inline constexpr PhaseEntry refined_threshold_snr{
    "refined_threshold_snr", "refined threshold snr",
    "median over trials of the per-trial thresholds, from every done point of the line, grid and /refine "
    "together: the estimate rmtsweep refine drives below its tolerance. Where refined_threshold_exact is 1, "
    "the median of the trials' exact thresholds (each from its line's secular form, /lines or /refine/lines: "
    "the snr beyond which it stays detected); elsewhere of their brackets [highest snr not detected, lowest "
    "detected], NaN unless every trial's bracket is closed",
    dims::lines};
inline constexpr PhaseEntry refined_threshold_snr_err{
    "refined_threshold_snr_err", "refined threshold snr standard error",
    "standard error of refined_threshold_snr: where refined_threshold_exact is 1, the bootstrap error of the "
    "median of the exact thresholds (no resolution part); elsewhere sqrt(resolution^2 + spread^2), "
    "resolution (median(hi) - median(lo)) / sqrt(12), spread 1.2533 sd / sqrt(K)",
    dims::lines};
inline constexpr PhaseEntry refined_threshold_exact{
    "refined_threshold_exact",
    "refined threshold from exact trial thresholds",
    "1 where every trial of the line with a done point has its exact threshold for the rule and "
    "refined_threshold_snr is their median; 0 where it is the median of the trials' brackets",
    dims::lines,
    "",
    refined_exact_flags};
inline constexpr PhaseEntry refined_resolution_err{
    "refined_resolution_err", "resolution part of the refined threshold error",
    "resolution part of refined_threshold_snr_err (0 where refined_threshold_exact is 1)", dims::lines};
inline constexpr PhaseEntry refined_spread_err{
    "refined_spread_err", "spread part of the refined threshold error",
    "spread part of refined_threshold_snr_err (all of it where refined_threshold_exact is 1)", dims::lines};
inline constexpr PhaseEntry refined_trials{"refined_trials", "trials of the refined threshold",
                                           "trials of the line with a done point, grid and refined",
                                           dims::lines};
inline constexpr PhaseEntry refined_fit_threshold_snr{
    "refined_fit_threshold_snr", "probit fit threshold snr",
    "mu of the maximum-likelihood probit fit P(detected) = Phi((snr - mu)/sigma) to the trials' brackets "
    "(interval-censored: each trial counts once); NaN without a fit",
    dims::lines};
inline constexpr PhaseEntry refined_fit_threshold_snr_err{
    "refined_fit_threshold_snr_err", "probit fit threshold snr standard error",
    "standard error of refined_fit_threshold_snr, cluster-robust over trials (a trial shares its noise "
    "along snr)",
    dims::lines};
inline constexpr PhaseEntry refined_width_snr{"refined_width_snr", "probit fit width in snr",
                                              "sigma of the probit fit: the spread of per-trial thresholds",
                                              dims::lines};
inline constexpr PhaseEntry refined_width_snr_err{"refined_width_snr_err", "probit fit width standard error",
                                                  "standard error of refined_width_snr", dims::lines};
inline constexpr PhaseEntry refined_points{"refined_points", "refined points done",
                                           "done refined points of the line (/refine); where > 0 and the "
                                           "fit has an error, the extrapolation to d -> infinity takes "
                                           "refined_threshold_snr for this size",
                                           dims::lines};
inline constexpr PhaseEntry empirical_threshold_bracket{
    "empirical_threshold_bracket",
    "empirical threshold bracket",
    "0 crossing found; -1 detected fraction >= 1/2 already at the smallest snr; +1 never reaches 1/2 (every "
    "cell has done trials); 2 undetermined: a cell the crossing depends on has no done trial",
    dims::lines,
    "",
    bracket_flags};
inline constexpr PhaseEntry detection_margin_c{"detection_margin_c",
                                               phase_dimension::detection_margin_c.long_name,
                                               "c of the detection rule (see detection_threshold)",
                                               {&phase_dimension::detection_margin_c}};
inline constexpr PhaseEntry count_of{"count_of",
                                     phase_dimension::count_of.long_name,
                                     "what each value of /phase/points counts: total, done, failed",
                                     {&phase_dimension::count_of},
                                     ""};
inline constexpr PhaseEntry points{"points",
                                   "points of the sweep",
                                   "points of the sweep when assembled: total, done, failed",
                                   {&phase_dimension::count_of}};
}  // namespace phase

namespace phase_theory {  // /phase/theory
inline constexpr PhaseEntry snr_fine{"snr_fine",
                                     phase_dimension::snr_fine.long_name,
                                     "fine snr axis of the theory curves (the values of snr): a dimension",
                                     {&phase_dimension::snr_fine}};
inline constexpr PhaseEntry delta_fine{
    "delta_fine",
    phase_dimension::delta_fine.long_name,
    "fine delta axis of the threshold curves (the values of delta): a dimension",
    {&phase_dimension::delta_fine}};
inline constexpr PhaseEntry gamma_fine{
    "gamma_fine",
    phase_dimension::gamma_fine.long_name,
    "fine gamma axis of the threshold curves (the values of gamma): a dimension",
    {&phase_dimension::gamma_fine}};
inline constexpr PhaseEntry density_index{
    "density_index",
    phase_dimension::density_index.long_name,
    "dimension of the points x of each line's density (no values: density_x holds x)",
    {&phase_dimension::density_index},
    ""};
inline constexpr PhaseEntry snr{"snr",
                                phase_dimension::snr_fine.long_name,
                                "fine snr axis of the theory curves",
                                {&phase_dimension::snr_fine}};
inline constexpr PhaseEntry overlap{"overlap",
                                    "theory overlap",
                                    "predicted overlap along the fine snr axis",
                                    {&store::dimension::weighting, &store::dimension::delta,
                                     &store::dimension::gamma, &phase_dimension::snr_fine}};
inline constexpr PhaseEntry top_eigenvalue{"top_eigenvalue",
                                           "theory top eigenvalue",
                                           "predicted top eigenvalue along fine snr",
                                           {&store::dimension::weighting, &store::dimension::delta,
                                            &store::dimension::gamma, &phase_dimension::snr_fine}};
inline constexpr PhaseEntry delta{"delta",
                                  phase_dimension::delta_fine.long_name,
                                  "fine delta axis of the threshold curves",
                                  {&phase_dimension::delta_fine}};
inline constexpr PhaseEntry pop_threshold_snr_vs_delta{
    "pop_threshold_snr_vs_delta",
    "population threshold snr (theory)",
    "population threshold snr along fine delta, per (weighting, gamma)",
    {&store::dimension::weighting, &store::dimension::gamma, &phase_dimension::delta_fine}};
inline constexpr PhaseEntry sample_threshold_snr_vs_delta{
    "sample_threshold_snr_vs_delta",
    "sample threshold snr (theory)",
    "sample threshold snr along fine delta, per (weighting, gamma)",
    {&store::dimension::weighting, &store::dimension::gamma, &phase_dimension::delta_fine}};
inline constexpr PhaseEntry gamma{"gamma",
                                  phase_dimension::gamma_fine.long_name,
                                  "fine gamma axis of the threshold curves",
                                  {&phase_dimension::gamma_fine}};
inline constexpr PhaseEntry pop_threshold_snr_vs_gamma{
    "pop_threshold_snr_vs_gamma",
    "population threshold snr (theory)",
    "population threshold snr along fine gamma, per (weighting, delta)",
    {&store::dimension::weighting, &store::dimension::delta, &phase_dimension::gamma_fine}};
inline constexpr PhaseEntry sample_threshold_snr_vs_gamma{
    "sample_threshold_snr_vs_gamma",
    "sample threshold snr (theory)",
    "sample threshold snr along fine gamma, per (weighting, delta)",
    {&store::dimension::weighting, &store::dimension::delta, &phase_dimension::gamma_fine}};
inline constexpr PhaseEntry density_x{"density_x",
                                      "eigenvalue x",
                                      "eigenvalue x where the bulk density is given",
                                      {&store::dimension::weighting, &store::dimension::delta,
                                       &store::dimension::gamma, &phase_dimension::density_index}};
inline constexpr PhaseEntry density{
    "density",
    "bulk density f(x) (theory)",
    "density f(x) of the continuous bulk kappa (MP_delta [x] MP_gamma) of S (model.md 5.1)",
    {&store::dimension::weighting, &store::dimension::delta, &store::dimension::gamma,
     &phase_dimension::density_index}};
}  // namespace phase_theory

/// /phase/detection/<rule> (rule: edge, eigengap, null, finite_t_edge; detection_tables.hpp), one group per
/// rule.
inline constexpr std::string_view phase_detection_group = "detection";
namespace phase_detection {
inline constexpr PhaseEntry detected_fraction{
    "detected_fraction", "fraction of trials detected",
    "fraction of done trials this rule detects, per (weighting, d, delta, gamma, snr) cell", dims::cells};
inline constexpr PhaseEntry empirical_threshold_snr{
    "empirical_threshold_snr", "empirical threshold snr",
    "this rule's threshold: the median of the trials' exact thresholds where empirical_threshold_exact is 1, "
    "else the snr where its detected fraction first crosses 1/2; NaN unless bracketed",
    dims::lines};
inline constexpr PhaseEntry empirical_threshold_bracket{
    "empirical_threshold_bracket",
    "empirical threshold bracket",
    "0 found, -1 below the grid, +1 above it, 2 a cell without trials decides",
    dims::lines,
    "",
    bracket_flags};
using phase::empirical_threshold_snr_err, phase::extrapolated_threshold_snr,
    phase::extrapolated_threshold_snr_err, phase::extrapolation_a, phase::extrapolation_b,
    phase::extrapolation_terms, phase::extrapolation_chi2_per_dof, phase::extrapolation_sizes;
using phase::extrapolated_threshold_snr_alternative, phase::extrapolated_threshold_snr_err_alternative,
    phase::extrapolation_a_alternative, phase::extrapolation_b_alternative,
    phase::extrapolation_terms_alternative, phase::extrapolation_chi2_per_dof_alternative,
    phase::extrapolation_quadratic_p_value;
using phase::refined_threshold_snr, phase::refined_threshold_snr_err, phase::refined_threshold_exact,
    phase::refined_width_snr, phase::refined_width_snr_err, phase::refined_points,
    phase::refined_resolution_err, phase::refined_spread_err, phase::refined_trials,
    phase::refined_fit_threshold_snr, phase::refined_fit_threshold_snr_err;
using phase::residual_snr, phase::residual_snr_err, phase::extrapolated_residual_snr,
    phase::extrapolated_residual_snr_err, phase::residual_extrapolation_terms,
    phase::residual_extrapolation_chi2_per_dof, phase::consistent, phase::consistency_p_value,
    phase::threshold_flags;
inline constexpr PhaseEntry false_detection_rate{"false_detection_rate", "false detection rate at snr = 0",
                                                 "fraction of the line's snr = 0 trials this rule detects "
                                                 "(null rule: each judged by the others' threshold, leave "
                                                 "one out); NaN without an snr = 0 cell",
                                                 dims::lines};
inline constexpr PhaseEntry trial_threshold_snr{
    "trial_threshold_snr",
    "exact threshold snr of each trial",
    "per (weighting, d, delta, gamma, trial): the snr beyond which the trial stays detected by this rule, "
    "exact from "
    "its line's secular form (/lines, docs/model.md section 9); NaN where the line has none (computed per "
    "point, "
    "files before lines) or the rule has no level on lambda_1 (eigengap); inf where no snr detects it",
    {&store::dimension::weighting, &store::dimension::d, &store::dimension::delta, &store::dimension::gamma,
     &store::dimension::trial}};
inline constexpr PhaseEntry empirical_threshold_exact{
    "empirical_threshold_exact",
    "threshold from exact trial thresholds",
    "per line: 1 where empirical_threshold_snr is the median of the trials' exact thresholds "
    "(trial_threshold_snr) "
    "and its error a bootstrap of that median (no grid resolution in it); 0 where it is the grid's half "
    "crossing",
    dims::lines,
    "",
    threshold_exact_flags};
inline constexpr PhaseEntry threshold{
    "threshold", "detection level of the rule",
    "the rule's threshold per line: on lambda_1 (edge, null, finite_t_edge: from trial 0's edge, each trial "
    "judged by its own) or on the eigengap ratio R (eigengap)",
    dims::lines};
}  // namespace phase_detection

}  // namespace rmtsweep::assemble
