#pragma once
/// Phase tables of a sweep: trial statistics per grid cell, the empirical detection of the
/// outlier and the empirical threshold in snr. Pure functions of numbers (no MPI, no HDF5).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace rmtsweep::assemble {

/// Default c of detection_threshold: how many d^{-2/3} relative units above the right bulk edge a
/// top eigenvalue must lie to count as an outlier (see docs/detection.md).
inline constexpr double default_detection_margin = 1.0;

/// The Tracy-Widom-scale detection threshold right_edge (1 + c d^{-2/3}): the largest bulk
/// eigenvalue fluctuates around the edge (model.md 5.1) on the relative scale d^{-2/3}, so a top
/// eigenvalue above this is an outlier with high probability.
double detection_threshold(double right_edge, int d, double c);

/// Values of Crossing::bracket (and of /phase/empirical_threshold_bracket).
inline constexpr int bracket_found = 0;        ///< the crossing lies inside the grid
inline constexpr int bracket_below_grid = -1;  ///< already >= 1/2 at the smallest snr
inline constexpr int bracket_above_grid = 1;   ///< every cell has data and none reaches 1/2
/// A cell without a done trial lies where the answer depends on it (at or below the first cell
/// that reaches 1/2, or anywhere when none does): the crossing is undetermined.
inline constexpr int bracket_no_data = 2;

/// Where a detected fraction along snr first crosses 1/2.
struct Crossing {
  double snr = 0.0;  ///< interpolated snr of the crossing; NaN when bracket != bracket_found
  int bracket = bracket_found;
};

/// The first crossing of `fraction` (along ascending `snr`) from below 1/2 to at least 1/2,
/// by linear interpolation between the two bracketing grid points. A cell without trials (NaN
/// fraction) at or below that crossing, or anywhere when no cell reaches 1/2, makes the result
/// bracket_no_data: skipping it would interpolate across a cell nobody measured, or call a line
/// "never detected" on the strength of cells that were never run.
Crossing half_crossing(const std::vector<double>& snr, const std::vector<double>& fraction);

/// How the threshold table of `rmtsweep assemble` shows a line without a crossing inside the
/// grid: "< grid", "> grid" or "no data" (bracket_no_data); empty for bracket_found.
const char* bracket_label(std::int64_t bracket);

/// Trial mean and sample standard deviation (n - 1; 0 for a single value; NaN for none).
struct Moments {
  double mean = 0.0;
  double std = 0.0;
  std::int64_t count = 0;
};
Moments moments(const std::vector<double>& values);

/// A (weighting, d, delta, gamma) line's positions on the axes.
struct LineIndex {
  std::size_t w = 0, n = 0, i = 0, j = 0;
};

/// The axes of a sweep (the /grid datasets): weighting in grid order, the numeric axes ascending.
/// Cells are (weighting, d, delta, gamma, snr), row-major in that order; a line is a cell without its
/// snr, and a size line (weighting, delta, gamma) is a line without its d: what the extrapolation to
/// d -> infinity runs along.
struct Axes {
  std::vector<std::string> weighting;
  std::vector<int> d;
  std::vector<double> delta, gamma, snr;

  std::size_t lines() const noexcept { return weighting.size() * d.size() * delta.size() * gamma.size(); }
  std::size_t cells() const noexcept { return lines() * snr.size(); }
  std::size_t size_lines() const noexcept { return weighting.size() * delta.size() * gamma.size(); }
  /// Row-major index of a (weighting, d, delta, gamma, snr) cell.
  std::size_t cell(std::size_t w, std::size_t n, std::size_t i, std::size_t j, std::size_t s) const noexcept {
    return line(w, n, i, j) * snr.size() + s;
  }
  /// Row-major index of a (weighting, d, delta, gamma) line along snr.
  std::size_t line(std::size_t w, std::size_t n, std::size_t i, std::size_t j) const noexcept {
    return ((w * d.size() + n) * delta.size() + i) * gamma.size() + j;
  }
  /// The positions of line `index`: line(x.w, x.n, x.i, x.j) == index.
  LineIndex unravel(std::size_t index) const noexcept {
    LineIndex x;
    x.j = index % gamma.size();
    index /= gamma.size();
    x.i = index % delta.size();
    index /= delta.size();
    x.n = index % d.size();
    x.w = index / d.size();
    return x;
  }
  /// Row-major index of a (weighting, delta, gamma) size line along d.
  std::size_t size_line(std::size_t w, std::size_t i, std::size_t j) const noexcept {
    return (w * delta.size() + i) * gamma.size() + j;
  }
};

/// One done point of the sweep, placed on the grid.
struct PointRecord {
  std::size_t weighting = 0, delta = 0, gamma = 0, snr = 0;
  double top_eigenvalue = 0.0;
  double overlap = 0.0;
  double ridge_accuracy = 0.0;
  std::vector<double> top_eigenvalues;  ///< the k largest, descending (the eigengap rule reads three)
  std::size_t d = 0;                    ///< position on the (ascending) d axis
  int trial = 0;  ///< which draw: the same trial at every snr shares its noise (common random numbers)
  /// The finite-T theory of the trial's own token draws at the point's snr (/points theory_finite_t_*,
  /// docs/finite_t.md): NaN where it was not computed or the file predates those columns.
  double finite_t_top_eigenvalue = std::numeric_limits<double>::quiet_NaN();
  double finite_t_overlap = std::numeric_limits<double>::quiet_NaN();
  double finite_t_threshold_snr = std::numeric_limits<double>::quiet_NaN();
  double finite_t_bulk_edge_right = std::numeric_limits<double>::quiet_NaN();
};

/// Trial statistics over the (weighting, d, delta, gamma, snr) grid, arrays row-major in that order,
/// and per (weighting, d, delta, gamma) line the empirical threshold.
struct PhaseTable {
  std::vector<std::int64_t> trials_done;
  std::vector<double> overlap_mean, overlap_std;
  std::vector<double> top_eigenvalue_mean, top_eigenvalue_std;
  std::vector<double> ridge_accuracy_mean, ridge_accuracy_std;
  std::vector<double> detected_fraction;  ///< fraction of trials with top eigenvalue > detection threshold
  std::vector<double> empirical_threshold_snr;            ///< per line; NaN unless bracketed
  std::vector<std::int64_t> empirical_threshold_bracket;  ///< per line, as Crossing::bracket (bracket_*)
  /// Per (weighting, delta, gamma, snr): the trial-mean overlap extrapolated to d -> infinity, the fit of
  /// finite_size.hpp over the sizes (errors std / sqrt(trials)); NaN with fewer than 3 usable sizes.
  std::vector<double> extrapolated_overlap, extrapolated_overlap_err;
};

/// Tabulates done points. `detection` holds the detection threshold of every cell (cell order);
/// cells without a done point get NaN statistics and 0 trials.
PhaseTable tabulate(const Axes& axes, const std::vector<PointRecord>& points,
                    const std::vector<double>& detection);

}  // namespace rmtsweep::assemble
