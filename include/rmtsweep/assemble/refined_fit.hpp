#pragma once
/// The refined thresholds of `rmtsweep assemble`: per rule and per (weighting, d, delta, gamma)
/// line, from the detections of every done point of the line, the grid's and the refined ones (/refine,
/// store/refine_file.hpp) together,
///  - the threshold: the median of the per-trial thresholds with its error, the estimate `rmtsweep refine`
///    drives below its tolerance. Where every trial with a done point has its exact threshold for the rule
///    (its line's secular form: /lines for the grid's trials, /refine/lines for the trials refine added;
///    docs/model.md section 9) it is the median of those exact thresholds with the bootstrap error of the
///    median (finite_size.hpp's bootstrap_median, as the grid's exact empirical threshold: no resolution
///    part); elsewhere the median of the trials' brackets (trial_brackets.hpp's estimate_line), and
///  - the probit fit of the detection curve (probit_fit.hpp): its half crossing and width.
/// The two estimate the same half crossing; the fit is a model of the curve's shape, and where that
/// shape is off (a heavy low tail of per-trial thresholds at finite d) its half crossing is biased by
/// more than its error (docs/refinement.md), so the threshold stored and extrapolated is the
/// per-trial median. The extrapolation to d -> infinity is redone with it where a line has refined
/// points. Pure functions of numbers.
#include <cstdint>
#include <functional>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/probit_fit.hpp"

namespace rmtsweep::assemble {

/// One done refined point, placed on its line (axes positions as in PointRecord) at its own snr.
struct RefinedRecord {
  std::size_t line = 0;
  double snr = 0.0;
  int trial = 0;
  std::vector<double> top_eigenvalues;
};

/// One rule's fits, per line (arrays row-major as PhaseTable's lines).
struct RefinedTable {
  Rule rule = Rule::edge;
  std::vector<double> threshold, threshold_err;    ///< median of the per-trial thresholds and its error
  std::vector<std::int64_t> exact;                 ///< 1 where they are the exact thresholds' (see above)
  std::vector<double> resolution_err, spread_err;  ///< the two parts of threshold_err
  std::vector<std::int64_t> trials;                ///< trials of the line
  std::vector<double> fit_threshold, fit_threshold_err;  ///< the fit's half crossing and its error
  std::vector<double> width, width_err;                  ///< sigma of the fit
  std::vector<std::int64_t> refined_points;              ///< done refined points of the line
};

/// The secular forms exact thresholds come from: the grid's trials' (/lines) and the refined ones'
/// (/refine/lines), by (Axes::line, trial), and the rule's level on lambda_1 for a (line, trial) (NaN where
/// the rule has none: eigengap).
struct ExactForms {
  const TrialSecular* grid = nullptr;
  const TrialSecular* refined = nullptr;
  std::function<double(std::size_t line, int trial)> level;
};

/// The fit of every line for `rule` (its per-line detector threshold taken from `table.threshold`); with
/// `exact`, the exact estimate where every trial of a line with a done point has its form.
RefinedTable refined_table(const Axes& axes, const std::vector<PointRecord>& grid,
                           const std::vector<RefinedRecord>& refined, const RuleTable& table,
                           const ExactForms* exact = nullptr);

/// Redoes `table.extrapolation` with, per size, the refined threshold and error where that line has
/// refined points and a fit with a finite error, else the grid's empirical threshold and bootstrap error.
void extrapolate_with_refined(const Axes& axes, const RefinedTable& refined, RuleTable& table);

}  // namespace rmtsweep::assemble
