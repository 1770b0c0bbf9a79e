#pragma once
/// What /phase holds, computed from a sweep's data (`rmtsweep assemble`'s work; the command parses, prints
/// and writes), and what assemble does with the damage the sweep file's checksums show.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_t_table.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"
#include "rmtsweep/store/checksums.hpp"

namespace rmtsweep::assemble {

/// Every table of /phase: the theory's, the paper's rule's (its detected fractions and thresholds replaced by
/// the default rule's), the finite-T thresholds, each detection rule's, their refined fits, and the default
/// rule's tables along d.
struct PhaseTables {
  TheoryTables theory;
  PhaseTable table;
  FiniteTTable finite_t;
  std::vector<RuleTable> rules;
  std::vector<RefinedTable> refined;
  DefaultTables defaults;
};

/// The finite-T edges of trials not stored with their points, which build_phase_tables computes: how many,
/// the seconds of one core they take (FiniteTEdges::edge_seconds) and the threads that share them.
struct EdgeWork {
  std::size_t trials = 0;
  double seconds = 0.0;
  int threads = 1;
};

/// The tables of /phase from `data` with the edge rules' margin `margin`; the finite-T edges not stored are
/// computed on up to `threads` threads, after `before_edges` is told what they cost (when given).
PhaseTables build_phase_tables(const SweepData& data, double margin, int threads,
                               const std::function<void(const EdgeWork&)>& before_edges = {});

/// What assemble, and refine (which reads the sweep file through read_sweep as the tables do), do with the
/// damage `report` shows (store::check_checksums of the sweep file). /phase's own is kept apart: assemble
/// writes /phase anew, and says so.
struct DamagePlan {
  std::vector<std::string> read_whole;  ///< damaged datasets the tables read whole: no row can be left out
  std::vector<std::string> unread;      ///< damaged datasets the tables do not read
  std::vector<std::string> phase;       ///< damaged /phase datasets
  std::vector<std::int64_t> points;     ///< /points rows that fail their checksums
  std::vector<std::int64_t> lines;      ///< /lines rows that fail theirs
  /// /refine and /refine/lines rows that fail theirs: no journal restores them, and --skip-damaged does not
  /// leave them out.
  std::vector<std::int64_t> refined_points, refined_lines;
  /// Whether the tables may be built: nothing read whole or refined is damaged, and damaged rows are left
  /// out.
  bool refused(bool skip_damaged) const noexcept {
    return !read_whole.empty() || !refined_points.empty() || !refined_lines.empty() ||
           (!skip_damaged && (!points.empty() || !lines.empty()));
  }
  /// The rows read_sweep leaves out (`assemble --skip-damaged`).
  LeftOut left_out() const;
};

DamagePlan plan_for_damage(const store::ChecksumReport& report);

/// Whether the tables read the sweep file's dataset `path` whole (a damaged one has no rows to leave out):
/// /points' columns but the messages (error) and the dimensions (point, k), and /lines.
bool read_whole_by_tables(const std::string& path);

}  // namespace rmtsweep::assemble
