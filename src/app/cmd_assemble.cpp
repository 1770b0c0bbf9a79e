// `rmtsweep assemble FILE.h5 [--margin C] [--output PHASE.h5 [--force]]`: phase tables (/phase) into a sweep
// file, or into a phase file of their own (the sweep file only read).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "command_options.hpp"
#include "commands.hpp"
#include "damage_text.hpp"
#include "option_errors.hpp"
#include "output_path.hpp"
#include "point_options.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/finite_t_table.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/phase_output.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"
#include "rmtsweep/assemble/phase_tables.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/writer_lock.hpp"
#include "rmtsweep/sweep/plan.hpp"
#include "threshold_table.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

namespace {

/// A threshold with its error ("1.234 +- 0.05"), or why there is none.
std::string threshold_text(double snr, double err, std::int64_t bracket) {
  char text[48];
  if (bracket != assemble::bracket_found) {
    std::snprintf(text, sizeof text, "%s", assemble::bracket_label(bracket));
  } else if (std::isfinite(err)) {
    std::snprintf(text, sizeof text, "%.4g +- %.2g", snr, err);
  } else {
    std::snprintf(text, sizeof text, "%.4g", snr);
  }
  return text;
}

/// A line's threshold under one rule with the marks of its flags (threshold_flag, docs/detection.md):
/// "< grid (0.29 +- 0.32)" below the grid's first snr, then " 0s" (more than a quarter of the trials at
/// threshold 0), " !" (the rule is inconsistent along d), " n" (the null level of fewer than 19 trials).
std::string flagged_threshold_text(double snr, double err, std::int64_t bracket, std::int64_t flags) {
  namespace flag = assemble::threshold_flag;
  std::string text = threshold_text(snr, err, bracket);
  if ((flags & flag::below_grid) != 0 && bracket == assemble::bracket_found) text = "< grid (" + text + ")";
  if ((flags & flag::many_zero_thresholds) != 0) text += " 0s";
  if ((flags & flag::inconsistent_rule) != 0) text += " !";
  if ((flags & flag::few_null_trials) != 0) text += " n";
  return text;
}

/// An extrapolation to d -> infinity ("1.234 +- 0.05"), or "-" without a fit.
std::string extrapolation_text(const assemble::Fit& e) {
  if (e.terms == 0) return "-";
  return threshold_text(e.thr_inf, e.thr_inf_err, assemble::bracket_found);
}

/// A residual with its error, or "-" where the line has none.
std::string residual_text(double value, double err) {
  if (std::isnan(value)) return "-";
  return threshold_text(value, err, assemble::bracket_found);
}

/// The rules in the order the table prints them: finite_t_edge and null (the rules that hold their level),
/// then the paper's edge rule and the eigengap rule. The line's default rule is printed before all of them.
std::vector<std::size_t> print_order(const std::vector<assemble::RuleTable>& rules) {
  std::vector<std::size_t> order;
  for (const assemble::Rule rule : {assemble::Rule::finite_t_edge, assemble::Rule::null, assemble::Rule::edge,
                                    assemble::Rule::eigengap}) {
    for (std::size_t r = 0; r < rules.size(); ++r) {
      if (rules[r].rule == rule) order.push_back(r);
    }
  }
  return order;
}

const char* rule_label(assemble::Rule rule) {
  return rule == assemble::Rule::edge ? "edge (paper)" : assemble::to_string(rule);
}

/// Warnings about what the sweep's grid cannot tell (stderr, also with --quiet): without snr = 0 no
/// false-detection rate is known and the null rule is off; with fewer than 19 snr = 0 trials the null rule's
/// level is above 5 %.
void warn_about_grid(const assemble::SweepData& data, const assemble::PhaseTable& table) {
  const auto& a = data.axes;
  if (a.snr.empty()) return;
  if (a.snr.front() != 0.0) {
    std::fprintf(
        stderr,
        "rmtsweep assemble: warning: the grid has no snr = 0: false-detection rates are unknown and the null "
        "rule is off; each rule's consistency along d is judged by the trials with exact threshold 0 where "
        "every size has them, else by the share detected at the grid's first snr (%g)\n",
        a.snr.front());
    return;
  }
  std::size_t few = 0;
  std::int64_t fewest = assemble::min_null_trials;
  for (std::size_t line = 0; line < a.lines(); ++line) {
    const std::int64_t null_trials = table.trials_done[line * a.snr.size()];
    if (null_trials > 0 && null_trials < assemble::min_null_trials) {
      ++few;
      fewest = std::min(fewest, null_trials);
    }
  }
  if (few > 0)
    std::fprintf(
        stderr,
        "rmtsweep assemble: warning: %zu line(s) have fewer than %lld snr = 0 trials (down to %lld): the "
        "null "
        "rule's level there is their maximum, %.1f %% false detections at %lld, not 5 %% (flag 8, 'n' in the "
        "table)\n",
        few, static_cast<long long>(assemble::min_null_trials), static_cast<long long>(fewest),
        100.0 / static_cast<double>(fewest + 1), static_cast<long long>(fewest));
}

/// Prints, per (weighting, delta, gamma) and per d, the default rule's threshold and its residual against the
/// finite-T thresholds, then each rule's threshold with its bootstrap error beside the theory's; with several
/// sizes, the extrapolations to d -> infinity of the thresholds ("inf thr") and of the residuals ("inf res"),
/// the one to read first where the finite-T target moves with d, and a note naming the default rule and the
/// fits.
void print_thresholds(const assemble::SweepData& data, const assemble::TheoryTables& theory,
                      const assemble::FiniteTTable& finite_t, const std::vector<assemble::RuleTable>& rules,
                      const std::vector<assemble::RefinedTable>& refined,
                      const assemble::DefaultTables& defaults) {
  const bool any_refined = !data.refined.empty();
  const auto& a = data.axes;
  const auto order = print_order(rules);
  const assemble::RuleTable& top = defaults.rules;
  // The finite-T threshold of the line's own token draws (trial mean +- sd), the reference where few pooled
  // tokens bend the paper's law; "-" where no point carries it.
  const auto finite_t_text = [&](std::size_t line) {
    char text[32] = "-";
    if (std::isfinite(finite_t.threshold_snr[line])) {
      if (std::isfinite(finite_t.threshold_snr_std[line]))
        std::snprintf(text, sizeof text, "%.4g +- %.2g", finite_t.threshold_snr[line],
                      finite_t.threshold_snr_std[line]);
      else
        std::snprintf(text, sizeof text, "%.4g", finite_t.threshold_snr[line]);
    }
    return std::string(text);
  };
  std::printf(
      "marks: \"< grid\" below the grid's first snr; 0s more than a quarter of the trials at threshold 0; "
      "! rule inconsistent along d (its detections without signal grow with d); n null level of < %lld "
      "trials\n",
      static_cast<long long>(assemble::min_null_trials));
  std::printf("%-18s %7s %7s %8s %10s %15s %24s %16s", "weighting", "delta", "gamma", "d", "snr_sample",
              "finite-T", "default rule", "residual");
  for (const std::size_t r : order) std::printf(" %24s", rule_label(rules[r].rule));
  if (any_refined) std::printf(" %18s", "refined (edge)");
  std::printf("   false detections at snr 0 (");
  for (std::size_t k = 0; k < order.size(); ++k)
    std::printf("%s%s", k ? " / " : "", assemble::to_string(rules[order[k]].rule));
  std::printf(")\n");
  std::size_t printed = 0;
  for (std::size_t w = 0; w < a.weighting.size(); ++w) {
    for (std::size_t i = 0; i < a.delta.size(); ++i) {
      for (std::size_t j = 0; j < a.gamma.size(); ++j) {
        const std::size_t size_line = a.size_line(w, i, j);
        const std::int64_t chosen = defaults.along_d.default_rule[size_line];
        for (std::size_t n = 0; n < a.d.size(); ++n) {
          if (++printed > 60) {
            std::printf("... (%zu lines in all: see /phase)\n", a.lines());
            return;
          }
          const std::size_t line = a.line(w, n, i, j);
          std::printf(
              "%-18s %7.4g %7.4g %8d %10.4g %15s %24s %16s", a.weighting[w].c_str(), a.delta[i], a.gamma[j],
              a.d[n], theory.sample_threshold_snr[line], finite_t_text(line).c_str(),
              flagged_threshold_text(top.empirical_threshold_snr[line], top.empirical_threshold_snr_err[line],
                                     top.empirical_threshold_bracket[line], top.threshold_flags[line])
                  .c_str(),
              residual_text(top.residual_snr[line], top.residual_snr_err[line]).c_str());
          std::string rates;
          for (const std::size_t r : order) {
            const auto& rule = rules[r];
            std::printf(" %24s", flagged_threshold_text(rule.empirical_threshold_snr[line],
                                                        rule.empirical_threshold_snr_err[line],
                                                        rule.empirical_threshold_bracket[line],
                                                        rule.threshold_flags[line])
                                     .c_str());
            char rate[24];
            std::snprintf(rate, sizeof rate, "%s%.3g", rates.empty() ? "" : " / ",
                          rule.false_detection_rate[line]);
            rates += rate;
          }
          if (any_refined) {
            const assemble::RefinedTable& r = refined.front();  // all_rules starts with the edge rule
            std::printf(" %18s", r.refined_points[line] > 0 && std::isfinite(r.threshold[line])
                                     ? threshold_text(r.threshold[line], r.threshold_err[line],
                                                      assemble::bracket_found)
                                           .c_str()
                                     : "-");
          }
          std::printf("   %s\n", rates.c_str());
        }
        // d -> infinity: the thresholds' extrapolation, and the residuals' where the lines have finite-T
        // thresholds. Where the finite-T target moves with d the threshold has no limit to meet: the residual
        // row comes first.
        const assemble::TargetConstancy& target = defaults.along_d.target[size_line];
        bool any_residual = false;
        for (const auto& rule : rules)
          any_residual = any_residual || rule.residual_extrapolation[size_line].terms > 0;
        const auto print_row = [&](bool residual) {
          const double reference =
              residual ? 0.0 : theory.sample_threshold_snr[a.line(w, a.d.size() - 1, i, j)];
          const auto& top_fit =
              residual ? top.residual_extrapolation[size_line] : top.extrapolation[size_line];
          std::printf("%-18s %7.4g %7.4g %8s %10.4g %15s %24s %16s", a.weighting[w].c_str(), a.delta[i],
                      a.gamma[j], residual ? "inf res" : "inf thr", reference, "-",
                      extrapolation_text(top_fit).c_str(), "");
          for (const std::size_t r : order) {
            const auto& fit =
                residual ? rules[r].residual_extrapolation[size_line] : rules[r].extrapolation[size_line];
            std::string text = extrapolation_text(fit);
            if (fit.terms > 0 && rules[r].consistent[size_line] == assemble::rule_inconsistent) text += " !";
            std::printf(" %24s", text.c_str());
          }
          if (any_refined) std::printf(" %18s", "");
          if (residual)
            std::printf(
                "   residual (threshold - finite-T) extrapolated: 0 where the sizes close on their "
                "targets\n");
          else if (target.converges == assemble::target_moves)
            std::printf(
                "   threshold extrapolated: the finite-T target moves with d (p = %.2g), no limit to meet\n",
                target.p_value);
          else
            std::printf("   threshold extrapolated%s\n", target.converges == assemble::target_holds
                                                             ? " (the finite-T target holds still)"
                                                             : "");
        };
        if (a.d.size() >= 2) {  // one size: nothing to extrapolate
          const bool residual_first = target.converges == assemble::target_moves && any_residual;
          print_row(residual_first);
          if (any_residual) print_row(!residual_first);
        }
        // What was chosen and why: the default rule, the rules left out, each rule's model.
        std::string note = "  default rule: ";
        note += chosen >= 0 ? assemble::to_string(rules[static_cast<std::size_t>(chosen)].rule) : "none";
        if (chosen >= 0 &&
            rules[static_cast<std::size_t>(chosen)].consistent[size_line] == assemble::rule_inconsistent)
          note += " (inconsistent too: no default extrapolation)";
        for (const std::size_t r : order) {
          const auto& rule = rules[r];
          char text[160];
          if (rule.consistent[size_line] == assemble::rule_inconsistent) {
            std::snprintf(text, sizeof text,
                          "; %s inconsistent (detections without signal grow with d, p = %.2g)",
                          assemble::to_string(rule.rule), rule.consistency_p_value[size_line]);
            note += text;
          }
        }
        for (const std::size_t r : order) {
          const auto& e = rules[r].extrapolation[size_line];
          if (e.terms == 0) continue;
          const char* model = e.terms == 2 ? "quadratic" : "line";
          char text[200];
          if (std::isnan(e.quadratic_p_value))
            std::snprintf(text, sizeof text, "; %s: %s of %lld sizes, chi2/dof %.2g",
                          assemble::to_string(rules[r].rule), model, static_cast<long long>(e.sizes_used),
                          e.chi2_per_dof);
          else
            std::snprintf(text, sizeof text,
                          "; %s: %s of %lld sizes, chi2/dof %.2g (F-test of d^(-2/3): p = %.2g; %s %s)",
                          assemble::to_string(rules[r].rule), model, static_cast<long long>(e.sizes_used),
                          e.chi2_per_dof, e.quadratic_p_value, e.terms == 2 ? "line" : "quadratic",
                          extrapolation_text(e.alternative).c_str());
          note += text;
        }
        std::printf("%s\n", note.c_str());
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
  io::FileLock lock = io::FileLock::for_writing(path);
  if (lock.outcome() == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidOption("file", path,
                        "a sweep file no other process is writing: a running rmtsweep holds its lock (" +
                            io::lock_path(path) +
                            ", or the file itself); assemble it when that ends (`rmtsweep status` "
                            "reads it meanwhile)");
  }
  return lock;  // locked, or unsupported here (then nothing is locked, as before locks existed)
}

/// Opens the sweep file for writing and closes it again, before anything is computed: HDF5 locks a file it
/// opens for writing (flock), so a reader holding it open (a notebook's h5py.File or xarray dataset) makes
/// the write fail; said here, with what to do, instead of after the tables are computed.
void check_writable_in_place(const std::string& path) {
  try {
    const io::File file = io::open_file(path, io::Access::read_write);
  } catch (const Hdf5Error& e) {
    throw io::file_error(
        path, "open the sweep file to write /phase into it", e,
        "nothing was written; or leave the sweep file as it is and write the tables to a file of "
        "their own: rmtsweep assemble " +
            path + " --output PHASE.h5");
  }
}

/// The suffixes of an HDF5 file that --output takes (netCDF-4's .nc too: the phase file is one).
constexpr const char* hdf5_suffixes[] = {".h5", ".hdf5", ".hdf", ".he5", ".nc"};

/// Refuses an --output that is not named as an HDF5 file, is the sweep file itself, an existing file without
/// --force, or a place this process cannot write, before anything is read.
void check_output(const std::string& output, const std::string& sweep, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(fs::symlink_status(output, ec));
  if (output.empty()) throw InvalidOption("output", output, "a file name for the phase tables (PHASE.h5)");
  std::string suffix = fs::path(output).extension().string(), allowed;
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool hdf5 = false;
  for (const char* known : hdf5_suffixes) {
    hdf5 = hdf5 || suffix == known;
    allowed += std::string(allowed.empty() ? "" : ", ") + known;
  }
  if (!hdf5) {
    throw InvalidOption(
        "output", output,
        "allowed: a file name ending in " + allowed +
            ": --output writes the phase tables as an HDF5 file; for the threshold table as CSV "
            "or JSON give --table FILE.csv or --table FILE.json");
  }
  if (exists && fs::equivalent(output, sweep, ec)) {
    throw InvalidOption("output", output,
                        "a file other than the sweep file: leave --output out to write /phase into " + sweep);
  }
  if (exists && !fs::is_regular_file(output, ec))
    throw InvalidOption("output", output, "a file (this path is a directory or a special file)");
  if (exists && !force) {
    throw InvalidOption(
        "output", output,
        "a file that does not exist yet: it exists; pass --force to overwrite it, or choose another "
        "--output");
  }
  const std::string problem = output_write_problem(output, exists, io::aside_name(output, "partial"));
  if (!problem.empty()) throw InvalidOption("output", output, problem);
}

}  // namespace

int command_assemble(int argc, char** argv) {
  std::string path, margin_text, detection_text, output, table_target;  // as typed; parsed below
  bool help = false, quiet = false, force = false, skip_damaged = false;
  po::options_description options;
  options.add_options()("file", po::value<std::string>(&path), "the sweep file");
  add_command_option(options, config::in_assemble, "margin", &margin_text);
  add_command_option(options, config::in_assemble, "detection", &detection_text);
  add_command_option(options, config::in_assemble, "output", &output);
  add_command_option(options, config::in_assemble, "table", &table_target);
  add_command_option(options, config::in_assemble, "force", &force);
  add_command_option(options, config::in_assemble, "skip-damaged", &skip_damaged);
  add_command_option(options, config::in_assemble, "quiet", &quiet);
  options.add_options()("help,h", po::bool_switch(&help), "this help");
  const auto values =
      parse_file_command(argc, argv, options, "assemble", help, path, "rmtsweep assemble FILE.h5 [options]",
                         "Writes /phase into the sweep file, or with --output into a phase file of its own "
                         "(the sweep file only read).");
  if (!values) return 0;
  const bool output_given = values->count("output") > 0, table_given = values->count("table") > 0;
  const int rank = parallel::world_rank();  // 0 where MPI is not started (run by hand)
  const std::string margin_allowed = "allowed: a number margin >= 0";
  const double margin = model::parse_double(margin_text, "margin", margin_allowed);
  if (margin < 0) throw InvalidOption("margin", margin_text, margin_allowed);
  const assemble::Rule shown = assemble::parse_rule(detection_text);
  if (rank != 0) return 0;  // serial HDF5: rank 0 alone reads and writes the file
  const bool in_place = !output_given;
  if (!in_place) check_output(output, path, force);
  if (table_given) check_table(table_target, force);
  // In place, /phase is written into the sweep file under the writer's lock. With --output the sweep file is
  // only read, as `status` reads it: no lock, so a running sweep is assembled from the points done in it.
  const io::FileLock lock = in_place ? lock_for_assembly(path) : io::FileLock{};
  std::string lock_problem;
  const bool run_writes =
      !in_place && io::probe_lock(io::lock_path(path), &lock_problem) == io::LockHolder::another_process;
  // The phase file's own writer's lock: --force never replaces a file another process writes.
  io::FileLock output_lock;
  if (!in_place) {
    try {
      output_lock = store::lock_for_writing(output, "output");
    } catch (const InvalidArgument& e) {
      throw as_option(e);
    }
  }

  // Every checksum of the sweep file first (a file of schema_version 3 or older has none): damaged rows are
  // refused, or left out with --skip-damaged.
  const assemble::DamagePlan damage = [&] {
    try {
      const store::SweepReader reader(path);
      return assemble::plan_for_damage(store::check_checksums(
          reader.file(), {}, run_writes ? store::Writer::live : store::Writer::absent));
    } catch (const Hdf5Error& e) {
      throw io::file_error(path, "read the sweep file", e);
    }
  }();
  if (const std::string why = damage_refusal(path, damage, skip_damaged, assemble_words); !why.empty()) {
    std::fprintf(stderr, "rmtsweep assemble: %s: %s\n", path.c_str(), why.c_str());
    return 4;
  }
  if (!damage.unread.empty()) {
    std::string names;
    for (const std::string& dataset : damage.unread) names += " " + dataset;
    std::fprintf(stderr,
                 "rmtsweep assemble: warning: %s: checksums fail in%s, which the tables do not read; "
                 "`rmtsweep status %s` names the damage and what repairs it\n",
                 path.c_str(), names.c_str(), path.c_str());
  }
  if (!damage.phase.empty()) {  // never replaced without a word
    std::string names;
    for (const std::string& dataset : damage.phase) names += " " + dataset;
    if (in_place)
      std::fprintf(stderr,
                   "rmtsweep assemble: warning: %s: checksums fail in%s: the damaged /phase is replaced by "
                   "the one built now\n",
                   path.c_str(), names.c_str());
    else
      std::fprintf(stderr,
                   "rmtsweep assemble: warning: %s: checksums fail in%s: this writes %s, and leaves the "
                   "sweep file's damaged /phase as it is (`rmtsweep assemble %s` rebuilds it)\n",
                   path.c_str(), names.c_str(), output.c_str(), path.c_str());
  }
  const assemble::SweepData data = [&] {
    try {
      return assemble::read_sweep(path, damage.left_out());
    } catch (const Hdf5Error& e) {
      throw io::file_error(path, "read the sweep file", e);
    }
  }();
  if (in_place) check_writable_in_place(path);
  // Each finite-T edge computed here is an eigenvalue problem (FiniteTEdges::edge_seconds). Said where they
  // add up to more than a few seconds.
  const assemble::PhaseTables tables = assemble::build_phase_tables(
      data, margin, parallel::blas_threads(), [](const assemble::EdgeWork& work) {
        if (work.seconds > 10.0)
          std::fprintf(
              stderr,
              "rmtsweep assemble: the finite-T edges of %zu trials not stored with their points, each "
              "its own (one eigenvalue problem of size min(V, N) each, up to %d at once): about %.0f s "
              "of one core\n",
              work.trials, work.threads, work.seconds);
      });
  // The tables' last BLAS call is done: OpenBLAS's idle workers would otherwise spin (sched_yield) for about
  // 0.1 s beside the writing that follows, twice the CPU time of a small assemble.
  parallel::release_blas_threads();
  const assemble::TheoryTables& theory = tables.theory;
  const assemble::PhaseTable& table = tables.table;
  const assemble::FiniteTTable& finite_t_table = tables.finite_t;
  const std::vector<assemble::RuleTable>& rules = tables.rules;
  const std::vector<assemble::RefinedTable>& refined = tables.refined;
  const assemble::DefaultTables& defaults = tables.defaults;
  const auto write = [&](const std::string& target) {
    assemble::write_phase(target, data, table, theory, finite_t_table, margin, rules, shown, refined,
                          defaults);
  };
  if (in_place) {
    assemble::write_phase_in_place(path, write);
  } else {
    assemble::write_phase_file(output, path, data, write);
  }

  // With --table - the table is stdout's: the summary goes to stderr, and no printed table.
  FILE* summary = table_given && table_target == "-" ? stderr : stdout;
  std::fprintf(
      summary,
      "%s: /phase written: %zu weighting(s) x %zu d x %zu delta x %zu gamma x %zu snr; %lld of %lld points "
      "done",
      (in_place ? path : output).c_str(), data.axes.weighting.size(), data.axes.d.size(),
      data.axes.delta.size(), data.axes.gamma.size(), data.axes.snr.size(), static_cast<long long>(data.done),
      static_cast<long long>(data.total));
  if (data.failed > 0) std::fprintf(summary, ", %lld failed", static_cast<long long>(data.failed));
  if (!data.left_out_points.empty() || !data.left_out_lines.empty()) {
    std::fprintf(summary,
                 " (--skip-damaged: %zu done points and %zu lines' secular forms left out, their "
                 "checksums failing)",
                 data.left_out_points.size(), data.left_out_lines.size());
    std::fprintf(stderr,
                 "rmtsweep assemble: warning: %s: left out as damaged (--skip-damaged): %zu done points (%s) "
                 "and %zu lines' secular forms (%s); assemble again once `rmtsweep status %s` finds them "
                 "repaired\n",
                 path.c_str(), data.left_out_points.size(),
                 data.left_out_points.empty() ? "none" : listed(data.left_out_points).substr(1).c_str(),
                 data.left_out_lines.size(),
                 data.left_out_lines.empty() ? "none" : listed(data.left_out_lines).substr(1).c_str(),
                 path.c_str());
  }
  if (run_writes) {
    std::fprintf(summary,
                 " (a run writes %s now: the tables hold the points done in it when it was read; assemble "
                 "again for more, `rmtsweep status` counts those in flight)",
                 path.c_str());
  }
  if (data.refined_total > 0) {
    std::fprintf(summary, "; %lld refined points (%lld done, %lld failed)",
                 static_cast<long long>(data.refined_total), static_cast<long long>(data.refined_done),
                 static_cast<long long>(data.refined_failed));
  }
  std::fprintf(summary,
               "\ndetection: top eigenvalue > right_edge (1 + %g d^(-2/3)) (edge rules; docs/detection.md)\n",
               margin);
  warn_about_grid(data, table);
  if (table_given) {
    std::fflush(summary);
    write_table(table_target,
                threshold_table(data, theory, finite_t_table, rules, refined, defaults.along_d));
    if (table_target != "-") std::printf("%s: threshold table written\n", table_target.c_str());
  }
  if (!quiet && summary == stdout) print_thresholds(data, theory, finite_t_table, rules, refined, defaults);
  return 0;
}

}  // namespace rmtsweep::app
