// `rmtsweep assemble FILE.h5 [--margin C]`: phase tables (/phase) into a sweep file.
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <string>

#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/theory_tables.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/io/file_lock.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

namespace {

/// Prints, per (weighting, delta, gamma) line, the empirical threshold beside the theory's.
void print_thresholds(const assemble::SweepData& data, const assemble::PhaseTable& table,
                      const assemble::TheoryTables& theory, const std::vector<assemble::RuleTable>& rules) {
  const auto& a = data.axes;
  std::printf("%-18s %6s %9s %9s %12s %12s %12s %12s %12s   %s\n", "weighting", "d", "delta", "gamma", "snr_pop",
              "snr_sample", "empirical", "eigengap", "null", "false detections at snr 0 (edge / eigengap / null)");
  std::size_t printed = 0;
  const std::size_t lines = a.lines();
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t i = 0; i < a.delta.size(); ++i) {
      for (std::size_t j = 0; j < a.gamma.size(); ++j) {
       for (std::size_t n = 0; n < a.d.size(); ++n) {
        if (++printed > 40) {
          std::printf("... (%zu lines in all: see /phase)\n", lines);
          return;
        }
        const std::size_t line = a.line(w, n, i, j);
        const auto bracket = table.empirical_threshold_bracket[line];
        char empirical[32];
        if (bracket == assemble::bracket_found) {
          std::snprintf(empirical, sizeof empirical, "%12.4g", table.empirical_threshold_snr[line]);
        } else {
          std::snprintf(empirical, sizeof empirical, "%12s", assemble::bracket_label(bracket));
        }
        std::string others, rates;
        for (const auto& rule : rules) {
          char text[40];
          if (rule.rule != assemble::Rule::edge) {
            const auto b = rule.empirical_threshold_bracket[line];
            if (b == assemble::bracket_found) {
              std::snprintf(text, sizeof text, " %12.4g", rule.empirical_threshold_snr[line]);
            } else {
              std::snprintf(text, sizeof text, " %12s", assemble::bracket_label(b));
            }
            others += text;
          }
          std::snprintf(text, sizeof text, "%s%.3g", rates.empty() ? "" : " / ", rule.false_detection_rate[line]);
          rates += text;
        }
        std::printf("%-18s %6d %9.4g %9.4g %12.4g %12.4g %s%s   %s\n", a.weighting[w].c_str(), a.d[n], a.delta[i], a.gamma[j],
                    theory.pop_threshold_snr[line], theory.sample_threshold_snr[line], empirical, others.c_str(),
                    rates.c_str());
       }
      }
    }
  }
}

/// Takes the sweep file's lock (io::FileLock, the one `rmtsweep run` holds while it writes) for
/// as long as this assemble reads and writes the file: /phase written through serial HDF5 beside
/// a sweep's MPI-IO writes would be left unreadable, and a run must not start meanwhile.
io::FileLock lock_for_assembly(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};  // read_sweep says what is wrong with it
  io::FileLock lock = io::FileLock::try_exclusive(io::lock_path(path));
  if (lock.outcome() == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidOption("file", path,
                        "a sweep file no other process is writing: a running `rmtsweep run` (or assemble) holds "
                        "its lock (" + io::lock_path(path) + "); assemble it when that ends (`rmtsweep status` "
                        "reads it meanwhile)");
  }
  return lock;  // locked, or unsupported here (then nothing is locked, as before locks existed)
}

}  // namespace

int command_assemble(int argc, char** argv) {
  std::string path;
  std::string margin_text = model::format_double(assemble::default_detection_margin);  // parsed below, as typed
  bool help = false, quiet = false;
  std::string detection_text;
  po::options_description options("Usage: rmtsweep assemble FILE.h5 [options]\n\nWrites /phase into the sweep file");
  options.add_options()("file", po::value<std::string>(&path), "the sweep file")(
      "margin", po::value<std::string>(&margin_text)->default_value(margin_text),
      "c of the detection rule: top eigenvalue > right_edge (1 + c d^(-2/3))")(
      "detection", po::value<std::string>(&detection_text)->default_value("edge"),
      "the rule the figures draw: edge, eigengap or null (all three are stored in /phase/detection)")(
      "quiet,q", po::bool_switch(&quiet), "print no threshold table")("help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(argc, argv, options, "assemble", help, path)) return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string margin_allowed = "allowed: a number margin >= 0";
  const double margin = model::parse_double(margin_text, "margin", margin_allowed);
  if (margin < 0) throw InvalidOption("margin", margin_text, margin_allowed);
  const assemble::Rule shown = assemble::parse_rule(detection_text);
  if (rank != 0) return 0;  // serial HDF5: rank 0 alone reads and writes the file
  const io::FileLock lock = lock_for_assembly(path);

  const assemble::SweepData data = assemble::read_sweep(path);
  model::PointParams base;
  base.d = data.axes.d.back();  // the fine theory curves (d -> infinity limits) record the largest
  base.T = data.config.T;
  base.correlation = data.config.correlation;
  base.table = data.config.table;
  base.seed = data.config.seed;

  const auto theory = assemble::theory_tables(base, data.config.weighting, data.axes, margin);
  const auto table = assemble::tabulate(data.axes, data.points, theory.detection_threshold);
  const auto rules =
      assemble::detection_tables(data.axes, data.points, theory.bulk_edge_right, margin);
  assemble::write_phase(path, data, table, theory, margin, rules, shown);

  std::printf("%s: /phase written: %zu weighting(s) x %zu d x %zu delta x %zu gamma x %zu snr; %lld of %lld points done",
              path.c_str(), data.axes.weighting.size(), data.axes.d.size(), data.axes.delta.size(), data.axes.gamma.size(),
              data.axes.snr.size(), static_cast<long long>(data.done), static_cast<long long>(data.total));
  if (data.failed > 0) std::printf(", %lld failed", static_cast<long long>(data.failed));
  std::printf("\ndetection: top eigenvalue > right_edge (1 + %g d^(-2/3))\n", margin);
  if (!quiet) print_thresholds(data, table, theory, rules);
  return 0;
}

}  // namespace rmtsweep::app
