#pragma once
/// Reading a sweep file for assembly and writing its /phase group (serial HDF5, one process).
///
/// /phase layout (docs/schema.md): axes weighting, delta, gamma, snr (numeric axes
/// ascending); per (weighting, delta, gamma, snr) cell the trial statistics, the detected fraction
/// and the theory; per (weighting, delta, gamma) line the thresholds; /phase/theory the fine curves.
/// Writing is deterministic: a dataset that exists with the same shape and type is overwritten
/// in place, so assembling twice leaves the same bytes; no timestamps are stored, not even HDF5's
/// object modification times (io::untimed_creation: a new `checksum` attribute would set them).
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_size_tables.hpp"
#include "rmtsweep/assemble/finite_t_table.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"
#include "rmtsweep/config/config.hpp"

namespace rmtsweep::assemble {

/// What assembly needs from a sweep file.
struct SweepData {
  config::SweepConfig config;  ///< parsed from the root attribute `config`
  std::string config_text;     ///< that attribute as stored
  std::string sweep_id;        ///< the root attribute sweep_id ("" in files from before it)
  /// The root attributes config_json and history ("" in files from before them), which a phase file copies.
  std::string config_json, history;
  Axes axes;                        ///< numeric axes ascending; weighting in grid order
  std::vector<PointRecord> points;  ///< done points, in the file's point order
  std::int64_t total = 0, done = 0, failed = 0, pending = 0;
  /// The done points and the lines left out as damaged (LeftOut, `assemble --skip-damaged`), ascending: not
  /// in `points` or `secular`, still counted in `done`.
  std::vector<std::int64_t> left_out_points, left_out_lines;
  /// The checksum of /points/status as read (store::Checksum): /phase records it as built_from_status, and
  /// a reader that finds another status there knows /phase is stale.
  std::int64_t status_checksum = 0;
  /// Done refined points (/refine, `rmtsweep refine`), and the refined rows given to points by status.
  std::vector<RefinedRecord> refined;
  std::int64_t refined_total = 0, refined_done = 0, refined_failed = 0;
  /// The secular forms of the lines computed as lines (/lines), by (Axes::line, trial); those of Krylov bases
  /// that did not converge at every snr are left out.
  TrialSecular secular;
  /// The same for the trials `rmtsweep refine` added as whole lines (/refine/lines), converged ones only.
  TrialSecular refined_secular;
};

/// Rows of a sweep file that assembly leaves out: those whose checksums fail (store::check_checksums), which
/// `assemble --skip-damaged` skips.
struct LeftOut {
  std::set<std::int64_t> points;  ///< /points rows (point indices)
  std::set<std::int64_t> lines;   ///< grid lines, whose /lines rows (their secular forms) are left out
};

/// Reads the config, grid and done points of `path` (store::SweepReader), but those of `left_out`. Throws
/// InvalidFile when it is not a complete rmtsweep sweep file.
SweepData read_sweep(const std::string& path, const LeftOut& left_out = {});

/// What /phase's attribute built_from says: "28 done, 4 failed, 0 pending of 32 points", and where rows were
/// left out "; 2 done points left out as damaged (5 9)".
std::string built_from_text(const SweepData& data);

/// Creates the phase file `path` of `assemble --output` (truncating it): Conventions, the sweep's root
/// attributes config, config_json, history and sweep_id, sweep_file (store::phase_file_source: the absolute
/// path of `sweep_path`) and a description. write_phase then writes /phase into it, laid out as in the sweep
/// file.
void create_phase_file(const std::string& path, const SweepData& data, const std::string& sweep_path);

/// What the top level of /phase carries: per (weighting, delta, gamma) the default rule's values
/// (finite_size_tables.hpp: default_rule_table, default_refined_table) and the finite-T target's constancy.
struct DefaultTables {
  SizeLineTables along_d;
  RuleTable rules;
  RefinedTable refined;
};

/// Writes (or rewrites) /phase of `path` from the tables; `margin` is the detection c; `finite_t` the
/// finite-T theory's trial means (/phase/theory_finite_t_*).
/// `rules` go to /phase/detection/<rule>; `shown` is the rule the figures draw (attribute
/// figure_detection). The top level's detected_fraction and empirical_threshold_snr come from `table` (the
/// caller gives it the default rule's), its threshold errors, extrapolations, residuals, flags and refined_*
/// from `defaults`. `refined` holds one table per rule of `rules` (same order):
/// /phase/detection/<rule>/refined_*.
void write_phase(const std::string& path, const SweepData& data, const PhaseTable& table,
                 const TheoryTables& theory, const FiniteTTable& finite_t, double margin,
                 const std::vector<RuleTable>& rules, Rule shown, const std::vector<RefinedTable>& refined,
                 const DefaultTables& defaults);

}  // namespace rmtsweep::assemble
