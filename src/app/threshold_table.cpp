// assemble's threshold table in machine form (src/app/threshold_table.hpp).
#include "threshold_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "output_path.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::app {
namespace {

/// A number, or empty where it is NaN.
TableCell number(double value) { return std::isnan(value) ? TableCell{} : TableCell{value}; }

/// The word /phase's flag_meanings gives a code of `flags` (io::write_flag_attributes), or the code itself.
TableCell meaning(const store::Flags& flags, std::int64_t code) {
  std::istringstream words{std::string(flags.meanings)};
  std::string word;
  for (const std::int64_t value : flags.values) {
    words >> word;
    if (value == code) return word;
  }
  return code;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string csv_field(const TableCell& cell) {
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* real = std::get_if<double>(&cell)) {
    if (std::isinf(*real)) return *real > 0 ? "inf" : "-inf";
    return model::format_double(*real);
  }
  if (const auto* text = std::get_if<std::string>(&cell)) {
    if (text->find_first_of(",\"\n\r") == std::string::npos) return *text;
    std::string quoted = "\"";
    for (const char c : *text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  return {};
}

nlohmann::ordered_json json_value(const TableCell& cell) {
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return *integer;
  if (const auto* real = std::get_if<double>(&cell))
    return std::isfinite(*real) ? nlohmann::ordered_json(*real) : nullptr;
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return nullptr;
}

/// The words of a threshold_flags mask joined by '+' ("below_grid+many_zero_thresholds"), empty for none.
TableCell bits(std::int64_t mask) {
  std::istringstream words{std::string(assemble::threshold_flags_flags.meanings)};
  std::string word, out;
  for (const std::int64_t bit : assemble::threshold_flags_flags.values) {
    words >> word;
    if (mask & bit) out += (out.empty() ? "" : "+") + word;
  }
  return out.empty() ? TableCell{} : TableCell{out};
}

}  // namespace

TableFormat table_format(const std::string& value) {
  if (value == "-" || ends_with(value, ".csv")) return TableFormat::csv;
  if (ends_with(value, ".json")) return TableFormat::json;
  throw InvalidOption(
      "table", value,
      "allowed: a file name ending in .csv or .json (the threshold table as CSV or JSON), or - "
      "(CSV on stdout)");
}

ThresholdTable threshold_table(const assemble::SweepData& data, const assemble::TheoryTables& theory,
                               const assemble::FiniteTTable& finite_t,
                               const std::vector<assemble::RuleTable>& rules,
                               const std::vector<assemble::RefinedTable>& refined,
                               const assemble::SizeLineTables& along_d) {
  ThresholdTable table;
  table.columns = {"kind",
                   "weighting",
                   "delta",
                   "gamma",
                   "d",
                   "theory_sample_threshold_snr",
                   "finite_t_threshold_snr",
                   "finite_t_threshold_snr_std",
                   "default_rule",
                   "finite_t_target"};
  for (const auto& rule : rules) {
    const std::string name = assemble::to_string(rule.rule);
    for (const char* field :
         {"_threshold_snr", "_threshold_snr_err", "_bracket", "_exact", "_false_detection_rate", "_fit_terms",
          "_fit_chi2_per_dof", "_fit_sizes", "_residual_snr", "_residual_snr_err", "_flags", "_consistent",
          "_alternative_threshold_snr", "_alternative_threshold_snr_err", "_alternative_fit_terms"})
      table.columns.push_back(name + field);
  }
  for (const char* name : {"refined_threshold_snr", "refined_threshold_snr_err", "refined_points"})
    table.columns.emplace_back(name);

  const assemble::Axes& a = data.axes;
  const assemble::RefinedTable* edge =
      refined.empty() ? nullptr : &refined.front();  // all_rules starts with edge
  const std::vector<TableCell> no_fit(3);
  // The default rule of a (weighting, delta, gamma) and whether its finite-T target holds, as words.
  const auto default_rule = [&](std::size_t size_line) -> TableCell {
    const std::int64_t chosen = along_d.default_rule.empty() ? -1 : along_d.default_rule[size_line];
    return chosen < 0 ? TableCell{}
                      : TableCell{assemble::to_string(rules[static_cast<std::size_t>(chosen)].rule)};
  };
  const auto target = [&](std::size_t size_line) -> TableCell {
    return along_d.target.empty() ? TableCell{}
                                  : meaning(assemble::target_flags, along_d.target[size_line].converges);
  };
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t i = 0; i < a.delta.size(); ++i) {
      for (std::size_t j = 0; j < a.gamma.size(); ++j) {
        for (std::size_t n = 0; n < a.d.size(); ++n) {
          const std::size_t line = a.line(w, n, i, j);
          std::vector<TableCell> row{std::string("measured"),
                                     a.weighting[w],
                                     a.delta[i],
                                     a.gamma[j],
                                     std::int64_t{a.d[n]},
                                     number(theory.sample_threshold_snr[line]),
                                     number(finite_t.threshold_snr[line]),
                                     number(finite_t.threshold_snr_std[line]),
                                     default_rule(a.size_line(w, i, j)),
                                     target(a.size_line(w, i, j))};
          for (const auto& rule : rules) {
            row.insert(
                row.end(),
                {number(rule.empirical_threshold_snr[line]), number(rule.empirical_threshold_snr_err[line]),
                 meaning(assemble::bracket_flags, rule.empirical_threshold_bracket[line]),
                 rule.empirical_threshold_exact[line], number(rule.false_detection_rate[line])});
            row.insert(row.end(), no_fit.begin(), no_fit.end());
            row.insert(row.end(),
                       {rule.residual_snr.empty() ? TableCell{} : number(rule.residual_snr[line]),
                        rule.residual_snr_err.empty() ? TableCell{} : number(rule.residual_snr_err[line]),
                        rule.threshold_flags.empty() ? TableCell{} : bits(rule.threshold_flags[line]),
                        TableCell{}, TableCell{}, TableCell{}, TableCell{}});
          }
          row.insert(row.end(), {edge ? number(edge->threshold[line]) : TableCell{},
                                 edge ? number(edge->threshold_err[line]) : TableCell{},
                                 edge ? TableCell{edge->refined_points[line]} : TableCell{}});
          table.rows.push_back(std::move(row));
        }
        if (a.d.size() < 2) continue;
        const std::size_t size_line = a.size_line(w, i, j);
        std::vector<TableCell> row{std::string("extrapolated"),
                                   a.weighting[w],
                                   a.delta[i],
                                   a.gamma[j],
                                   TableCell{},
                                   number(theory.sample_threshold_snr[a.line(w, a.d.size() - 1, i, j)]),
                                   TableCell{},
                                   TableCell{},
                                   default_rule(size_line),
                                   target(size_line)};
        for (const auto& rule : rules) {
          const assemble::Extrapolation& e = rule.extrapolation[size_line];
          const bool fit = e.terms > 0, other = e.alternative.terms > 0;
          row.insert(row.end(),
                     {fit ? number(e.thr_inf) : TableCell{}, fit ? number(e.thr_inf_err) : TableCell{},
                      TableCell{}, TableCell{}, TableCell{}, std::int64_t{e.terms},
                      fit ? number(e.chi2_per_dof) : TableCell{}, e.sizes_used});
          const bool residual =
              !rule.residual_extrapolation.empty() && rule.residual_extrapolation[size_line].terms > 0;
          row.insert(
              row.end(),
              {residual ? number(rule.residual_extrapolation[size_line].thr_inf) : TableCell{},
               residual ? number(rule.residual_extrapolation[size_line].thr_inf_err) : TableCell{},
               TableCell{},
               rule.consistent.empty() ? TableCell{}
                                       : meaning(assemble::consistency_flags, rule.consistent[size_line]),
               other ? number(e.alternative.thr_inf) : TableCell{},
               other ? number(e.alternative.thr_inf_err) : TableCell{}, std::int64_t{e.alternative.terms}});
        }
        row.resize(table.columns.size());
        table.rows.push_back(std::move(row));
      }
    }
  }
  return table;
}

void write_csv(std::ostream& out, const ThresholdTable& table) {
  for (std::size_t c = 0; c < table.columns.size(); ++c) out << (c ? "," : "") << table.columns[c];
  out << "\n";
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_field(row[c]);
    out << "\n";
  }
}

void write_json(std::ostream& out, const ThresholdTable& table) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < row.size(); ++c) object[table.columns[c]] = json_value(row[c]);
    rows.push_back(std::move(object));
  }
  out << rows.dump() << "\n";
}

/// Refuses a --table that is not .csv, .json or -, an existing file without --force, or a place this process
/// cannot write, before anything is read.
void check_table(const std::string& table, bool force) {
  table_format(table);
  if (table == "-") return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(fs::symlink_status(table, ec));
  if (exists && !fs::is_regular_file(table, ec))
    throw InvalidOption("table", table, "a file (this path is a directory or a special file)");
  if (exists && !force) {
    throw InvalidOption("table", table,
                        "a file that does not exist yet: it exists; pass --force to overwrite it, or choose "
                        "another --table");
  }
  const std::string problem = output_write_problem(table, exists, io::aside_name(table, "partial"));
  if (!problem.empty()) throw InvalidOption("table", table, problem);
}

/// Writes the threshold table to `target` in the form its name says: stdout for -, else a file written whole
/// (io::StagedPath: a scratch file beside it, renamed over it).
void write_table(const std::string& target, const ThresholdTable& table) {
  const auto write = [&](std::ostream& out) {
    if (table_format(target) == TableFormat::json) {
      write_json(out, table);
    } else {
      write_csv(out, table);
    }
  };
  if (target == "-") {
    write(std::cout);
    std::cout.flush();
    return;
  }
  io::StagedPath scratch = io::StagedPath::fresh(target, "partial");
  std::ofstream out(scratch.path(), std::ios::binary | std::ios::trunc);
  write(out);
  out.close();
  if (!out) {  // the scratch file goes with `scratch`
    throw FileIoError(target, "write the threshold table", std::strerror(errno),
                      "nothing was written at " + target);
  }
  scratch.put_in_place("write the threshold table");
}

}  // namespace rmtsweep::app
