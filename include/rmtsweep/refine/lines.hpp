#pragma once
/// Rank 0's view of a sweep's lines for `rmtsweep refine`: the grid's done observations, each line's
/// detector, and the geometry that maps a line back to grid indices.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_t_edges.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/refine/design.hpp"
#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/store/refine_file.hpp"

namespace rmtsweep::refine {

/// The options of refine, validated once. Their defaults are these (src/app/command_options.cpp gives them as
/// text to --help and to the parser).
struct RefineOptions {
  std::string path;
  double tolerance = 0.01;
  int trials = 64;
  std::int64_t max_points = 20000;
  assemble::Rule rule = assemble::default_detection_rule;
  double margin = assemble::default_detection_margin;
  int max_rounds = 60;
  /// Leave out the grid's points and lines whose checksums fail instead of refusing the file
  /// (assemble::plan_for_damage).
  bool skip_damaged = false;
};

/// A refined point's identity: (line, snr, trial). Points are never duplicated on it.
using Key = std::tuple<std::size_t, double, int>;

/// Rank 0's view of the lines: the grid's observations (fixed during a refine) and its detectors.
struct Lines {
  assemble::Axes axes;
  std::vector<assemble::Detector> detector;            ///< per line
  std::vector<std::vector<assemble::Detection>> grid;  ///< per line, done grid points
  std::vector<double> start_snr;                       ///< theory's sample threshold per line
  std::map<Key, bool> grid_keys;                       ///< every grid point (any status)
  // grid index of each ascending axis position, per axis
  std::vector<std::size_t> w_index, d_index, delta_index, gamma_index;
  std::vector<std::size_t> d_position, delta_position, gamma_position;
  /// The finite-T edges where that rule is refined: its trials are judged by their own edges.
  std::shared_ptr<const assemble::FiniteTEdges> finite_t;
  /// Exact thresholds (docs/model.md section 9): whether the rule has a level on lambda_1, per line whether
  /// its trials can be computed as lines (the file has /lines and the weighting's weights do not depend on
  /// the data), and the exact threshold of every done grid trial whose line's secular form /lines holds, by
  /// (line, trial).
  bool rule_has_level = false;
  std::vector<char> line_capable;
  std::map<std::pair<std::size_t, int>, double> grid_exact;
  /// The grid's snr values (ascending): a new trial of an exact line is a line over them.
  std::vector<double> snr;

  /// The level on lambda_1 above which the line's rule detects the trial (NaN where it has none).
  double level(std::size_t line, int trial) const;
  /// The trial's exact threshold for the line's rule from its line's secular form: r_from^2 of the level
  /// crossing.
  double exact_threshold(std::size_t line, int trial, const spectral::RankOneLine& secular) const;

  /// Whether the line's detector counts the trial with these top eigenvalues as detected.
  bool detected(std::size_t line, int trial, std::span<const double> top) const {
    return finite_t ? detector[line].detects(finite_t->as_judged(line, trial, top))
                    : detector[line].detects(top);
  }
};

/// The lines of the sweep file at `path` (rank 0: reads the file), but the done points and lines' secular
/// forms of `left_out` (damaged: assemble::plan_for_damage).
Lines read_lines(const std::string& path, const RefineOptions& options,
                 const assemble::LeftOut& left_out = {});

/// The line of the grid positions (weighting, d, delta, gamma) as stored in /points and /refine.
std::size_t line_at(const Lines& lines, std::int64_t weighting, std::int64_t d, std::int64_t delta,
                    std::int64_t gamma);
/// The line of a refined row (its stored grid indices).
std::size_t line_of(const Lines& lines, const store::RefinedRows& rows, std::size_t r);
/// The grid positions of a line with this trial (for /refine/lines).
config::GridCoordinates line_coordinates(const Lines& lines, std::size_t line, int trial);

/// The point (line, snr, trial) of the grid's sweep: the grid's parameters of its line with this snr and
/// trial.
store::RefinedPoint refined_point(const config::Grid& grid, const Lines& lines, std::size_t line, double snr,
                                  int trial);

/// Every rank's copy of the lines' geometry (what refined_point needs), from rank 0's.
Lines geometry_everywhere(const Lines& on_root, MPI_Comm comm);

}  // namespace rmtsweep::refine
