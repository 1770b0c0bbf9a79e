#pragma once
// Rank 0's view of a sweep's lines for `rmtsweep refine` (cmd_refine.cpp): the grid's done
// observations, each line's detector, and the geometry that maps a line back to grid indices.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/finite_t_edges.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/refine/design.hpp"
#include "rmtsweep/sweep/grid.hpp"
#include "rmtsweep/sweep/refine_file.hpp"

namespace rmtsweep::app {

/// The options of refine, validated once.
struct RefineOptions {
  std::string path;
  double tolerance = 0.01;
  int trials = 64;
  std::int64_t max_points = 20000;
  assemble::Rule rule = assemble::Rule::edge;
  double margin = assemble::default_detection_margin;
  int max_rounds = 60;
};

/// A refined point's identity: (line, snr, trial). Points are never duplicated on it.
using Key = std::tuple<std::size_t, double, int>;

/// Rank 0's view of the lines: the grid's observations (fixed during a refine) and its detectors.
struct Lines {
  assemble::Axes axes;
  std::vector<assemble::Detector> detector;                      ///< per line
  std::vector<std::vector<refine::Observation>> grid;            ///< per line, done grid points
  std::vector<double> start_snr;                                 ///< theory's sample threshold per line
  std::map<Key, bool> grid_keys;                                 ///< every grid point (any status)
  // grid index of each ascending axis position, per axis
  std::vector<std::size_t> w_index, d_index, delta_index, gamma_index;
  std::vector<std::size_t> d_position, delta_position, gamma_position;
  /// The finite-T edges where that rule is refined: its trials are judged by their own edges.
  std::shared_ptr<const assemble::FiniteTEdges> finite_t;

  /// Whether the line's detector counts the trial with these top eigenvalues as detected.
  bool detected(std::size_t line, int trial, std::span<const double> top) const {
    return finite_t ? detector[line].detects(finite_t->as_judged(line, trial, top)) : detector[line].detects(top);
  }
};

/// The lines of the sweep file at `path` (rank 0: reads the file).
Lines read_lines(const std::string& path, const RefineOptions& options);

/// The line of a refined row (its stored grid indices).
std::size_t line_of(const Lines& lines, const sweep::RefinedRows& rows, std::size_t r);

/// The point (line, snr, trial) of the grid's sweep: the grid's parameters of its line with this snr and trial.
sweep::RefinedPoint refined_point(const sweep::Grid& grid, const Lines& lines, std::size_t line, double snr, int trial);

/// Every rank's copy of the lines' geometry (what refined_point needs), from rank 0's.
Lines geometry_everywhere(const Lines& on_root, MPI_Comm comm);

}  // namespace rmtsweep::app
