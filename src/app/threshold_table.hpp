#pragma once
/// `rmtsweep assemble --table FILE.csv|FILE.json|-`: the threshold table of assemble in machine form, one row
/// per line (weighting, delta, gamma, d) and, with several sizes, one per (weighting, delta, gamma) at
/// d -> infinity (docs/commands.md lists the columns).
#include <cstdint>
#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_size_tables.hpp"
#include "rmtsweep/assemble/finite_t_table.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"

namespace rmtsweep::app {

/// The forms --table writes, from the value's suffix: .csv, .json, or "-" (CSV on stdout).
enum class TableFormat { csv, json };

/// The format of --table `value`; InvalidOption("table", value, what is allowed) for anything else.
TableFormat table_format(const std::string& value);

/// A cell: empty (null in JSON, an empty CSV field; a NaN, a threshold that does not apply), a count or
/// code, a number, a text.
using TableCell = std::variant<std::monostate, std::int64_t, double, std::string>;

struct ThresholdTable {
  std::vector<std::string> columns;
  std::vector<std::vector<TableCell>> rows;
};

/// The table: per line, in the order of assemble's printed table (weighting, delta, gamma, d), the columns
/// kind ("measured"), weighting, delta, gamma, d, theory_sample_threshold_snr, finite_t_threshold_snr,
/// finite_t_threshold_snr_std, then for each rule <rule>_threshold_snr, <rule>_threshold_snr_err,
/// <rule>_bracket (a word of /phase's flag_meanings), <rule>_exact, <rule>_false_detection_rate,
/// <rule>_fit_terms, <rule>_fit_chi2_per_dof, <rule>_fit_sizes, then refined_threshold_snr,
/// refined_threshold_snr_err and refined_points (the edge rule's). After finite_t_threshold_snr_std:
/// default_rule (the rule the top of /phase carries for the line's (weighting, delta, gamma)) and
/// finite_t_target (holds, moves, unknown); after each rule's fit columns: <rule>_residual_snr and _err
/// (threshold less the trials' finite-T thresholds), <rule>_flags (threshold_flags' words joined by '+'),
/// <rule>_consistent and the model not chosen, <rule>_alternative_threshold_snr, _err and _fit_terms. With
/// several sizes each (weighting, delta, gamma) is followed by a row of kind "extrapolated": d empty, each
/// rule's threshold and error its fit's value at d -> infinity (empty without a fit) with the fit's terms,
/// chi^2/dof and sizes, its residual extrapolated, its consistency along d and the other fit.
ThresholdTable threshold_table(const assemble::SweepData& data, const assemble::TheoryTables& theory,
                               const assemble::FiniteTTable& finite_t,
                               const std::vector<assemble::RuleTable>& rules,
                               const std::vector<assemble::RefinedTable>& refined,
                               const assemble::SizeLineTables& along_d);

/// Refuses a --table that is not .csv, .json or -, an existing file without --force, or a place this process
/// cannot write (InvalidOption("table", ...)), before anything is read.
void check_table(const std::string& target, bool force);

/// Writes the table to --table `target` in the form its name says: stdout for -, else a file written whole
/// (a scratch file beside it, renamed over it); FileIoError when it cannot.
void write_table(const std::string& target, const ThresholdTable& table);

/// CSV: a header line, then one line per row; numbers as their shortest round-trip decimals, NaN and empty
/// cells empty, infinities inf and -inf; texts quoted where they hold a comma, a quote or a line break.
void write_csv(std::ostream& out, const ThresholdTable& table);
/// JSON: an array of one object per row, keyed by the columns in their order; NaN, infinities and empty
/// cells null.
void write_json(std::ostream& out, const ThresholdTable& table);

}  // namespace rmtsweep::app
