#pragma once
/// The finite-T theory beside the paper's in /phase: the trial means of the predictions each point
/// carries for its own token draws (/points theory_finite_t_*, docs/finite_t.md). Pure functions of
/// numbers (no MPI, no HDF5).
#include <cstdint>
#include <vector>

#include "rmtsweep/assemble/phase.hpp"

namespace rmtsweep::assemble {

/// Arrays row-major in the order of Axes; NaN where no done point of the cell or line carries a prediction
/// (files written before the columns existed, weightings for which it is not computed).
struct FiniteTTable {
  std::vector<double> top_eigenvalue, overlap;  ///< per cell: the trial means at the cell's snr
  std::vector<double> threshold_snr;            ///< per line: the trial mean of the trials' thresholds
  std::vector<double> threshold_snr_std;        ///< per line: their standard deviation (n - 1)
  std::vector<double> bulk_edge_right;          ///< per line: the trial mean of the finite-T right edge
  std::vector<std::int64_t> trials;             ///< per line: trials with a prediction
};

/// Trial means over the done points. A trial's threshold and edge are the same at every snr: each trial
/// counts once per line (its first point in `points` order).
FiniteTTable finite_t_table(const Axes& axes, const std::vector<PointRecord>& points);

}  // namespace rmtsweep::assemble
