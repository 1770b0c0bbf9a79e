#pragma once
/// The theory beside the phase tables: predictions on the sweep's grid and on finer curves
/// (overlap and top eigenvalue along snr, thresholds along delta and gamma, the bulk density),
/// so that plots need nothing but the file. Pure functions of numbers (model.md section 5).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/model/params.hpp"

namespace rmtsweep::assemble {

/// Points of the fine curves.
struct CurveResolution {
  int snr = 201;      ///< along [min snr, max snr]
  int axis = 121;     ///< along [min, max] of delta and of gamma
  int density = 240;  ///< midpoints of the bulk's support
};

/// Arrays row-major; W, Nd, D, G, S are the axes' sizes (weighting, d, delta, gamma, snr), K the curve
/// resolutions. The theory is the d -> infinity limit: its curves carry no d axis, and the per-line and
/// per-cell values repeat along d, except the detection threshold, whose margin c d^(-2/3) scales with d.
struct TheoryTables {
  // (W, Nd, D, G): per line along snr
  std::vector<double> alpha, kappa, g, bulk_edge_left, bulk_edge_right;
  std::vector<double> effective_tokens;  ///< T_eff = (sum |w|)^2 / sum w^2 per line (model.md 5.5)
  std::vector<double> pop_threshold_snr, sample_threshold_snr;
  // (W, Nd, D, G, S): per cell
  std::vector<double> overlap, top_eigenvalue, detection_threshold;
  std::vector<std::int64_t> detectable;
  // fine snr (K): (W, D, G, K)
  std::vector<double> snr_fine, overlap_fine, top_eigenvalue_fine;
  // fine delta (Kd): thresholds (W, G, Kd); fine gamma (Kg): thresholds (W, D, Kg)
  std::vector<double> delta_fine, pop_threshold_vs_delta, sample_threshold_vs_delta;
  std::vector<double> gamma_fine, pop_threshold_vs_gamma, sample_threshold_vs_gamma;
  // bulk density of S (W, D, G, Kx): x and f(x), model.md 5.1
  std::vector<double> density_x, density;
};

/// `base` gives T, correlation, table (and seed, unused; its d is replaced by each size of axes.d);
/// `weightings` are the parsed weighting axis in the order of axes.weighting. `margin` is c of
/// detection_threshold.
TheoryTables theory_tables(const model::PointParams& base, const std::vector<model::Weighting>& weightings,
                           const Axes& axes, double margin, const CurveResolution& resolution = {});

/// `count` values evenly spaced over [min, max] of `values` (count = 1 when they are all equal).
std::vector<double> fine_axis(const std::vector<double>& values, int count);

}  // namespace rmtsweep::assemble
