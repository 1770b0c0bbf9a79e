// The options of the commands beyond a point's and a sweep's, each once (src/app/command_options.hpp).
#include "command_options.hpp"

#include <stdexcept>
#include <vector>

#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/refine/lines.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;
using config::OptionSpec, config::OptionUse;

namespace {

std::vector<OptionSpec> build_table() {
  using namespace config;  // the OptionUse bits
  const refine::RefineOptions refine;
  const std::string progress_default =
      model::format_double(watched_progress_seconds) + " where a terminal watches, " +
      model::format_double(batch_progress_seconds) + " otherwise (a batch job)";
  return {
      // run's own (its config keys are config::option_table()'s)
      {.name = "config",
       .help = "sweep config (INI: key = value lines, # comments)",
       .use = in_run,
       .value_name = "FILE"},
      {.name = "output", .help = "the sweep's HDF5 file", .use = in_run, .value_name = "FILE.h5"},
      {.name = "resume",
       .help = "continue the points not done in an existing output (same config; a missing one is started): "
               "its values equal an uninterrupted run's bit for bit when every run had the same BLAS threads "
               "per rank and --ranks-per-point 1, on any number of ranks, else to 1e-13 relative "
               "(docs/reliability.md)",
       .use = in_run,
       .flag = true},
      {.name = "force", .help = "overwrite an existing output", .use = in_run, .flag = true},
      {.name = "shard",
       .help =
           "compute shard i of n (1 <= i <= n) only: grid line L (all snr of one d, delta, gamma, "
           "weighting, trial) belongs to shard (L mod n) + 1; the other points stay pending in the output, "
           "which `rmtsweep merge` combines with the other shards' (docs/cluster.md); --resume with the "
           "same --shard",
       .use = in_run,
       .value_name = "i/n"},
      {.name = "plan",
       .help =
           "print the points, the peak memory per rank and time of the largest, and the core-hours; write "
           "nothing",
       .use = in_run,
       .flag = true},
      {.name = "force-memory",
       .help = "run even when the largest point seems not to fit in a rank's memory (the estimate of --plan)",
       .use = in_run,
       .flag = true},
      {.name = "force-space",
       .help = "create the output even when its file system seems to lack the room its data take (a "
               "compressing one)",
       .use = in_run,
       .flag = true},
      {.name = "force-ntest",
       .help =
           "allow ntest above 1e8 test sequences (the test accuracy's standard error is below 5e-5 there)",
       .use = in_run | in_point,
       .flag = true},
      {.name = "progress",
       .help = "seconds between progress lines on stderr; without it " + progress_default,
       .use = in_run,
       .value_name = "SECONDS"},
      {.name = "quiet",
       .help = "no progress lines: only the final summary, notes and errors",
       .use = in_run,
       .flag = true},
      {.name = "ranks",
       .help =
           "with --plan: the plan as if N ranks ran the sweep, with the sbatch/qsub resource lines to paste "
           "(this process alone computes it; ranks_per_point G: N a multiple of G)",
       .use = in_run,
       .value_name = "N"},
      // point's and theory's own (their point options are config::option_table()'s)
      {.name = "json", .help = "print one JSON object (rank 0)", .use = in_point, .flag = true},
      {.name = "spectrum", .help = "also give all d eigenvalues of S", .use = in_point, .flag = true},
      {.name = "force-memory",
       .help = "compute even when the point seems not to fit in a rank's memory (the estimate of run --plan)",
       .use = in_point,
       .flag = true},
      {.name = "json", .help = "print one JSON object", .use = in_theory, .flag = true},
      {.name = "density",
       .help = "K: also give the bulk density f(x) at K points across the support",
       .use = in_theory},
      {.name = "bulk",
       .default_value = to_string(default_bulk_law),
       .help =
           "paper: the limit law kappa (MP_delta [x] MP_gamma) (docs/model.md 5.1); finite-T: also the bulk "
           "of this point's own token draws (docs/model.md 5.5), whose edge and --density are then given, "
           "and the outlier, overlap and threshold of those draws (docs/finite_t.md)",
       .use = in_theory},
      // status
      {.name = "no-verify",
       .help = "skip comparing every point's values with its journal record and the config (which reads the "
               "whole file once more)",
       .use = in_status,
       .flag = true},
      {.name = "json",
       .help =
           "one JSON object on stdout for scripts: counts by state, runs, whether a run holds the lock, the "
           "latest run's rate and ETA, the journal's state, the failed points with their messages (no "
           "verification)",
       .use = in_status,
       .flag = true},
      // assemble and refine
      {.name = "margin",
       .default_value = model::format_double(assemble::default_detection_margin),
       .help = "c of the detection rule: top eigenvalue > right_edge (1 + c d^(-2/3))",
       .use = in_assemble},
      {.name = "detection",
       .default_value = assemble::to_string(assemble::default_detection_rule),
       .help =
           "detection rule: edge, eigengap, null or finite_t_edge (assemble: the one the figures draw, all "
           "four stored in /phase/detection; refine: the one whose threshold is refined)",
       .use = in_assemble | in_refine},
      {.name = "output",
       .help = "write /phase into this new file instead of FILE.h5 (which is then only read); "
               "rmtsweep.open_phase and plot read it",
       .use = in_assemble},
      {.name = "table",
       .help =
           "also write the threshold table (one row per line, and per d -> infinity fit; the printed table's "
           "columns and more) as CSV or JSON, by the name's suffix; - writes CSV on stdout (the summary "
           "then goes to stderr)",
       .use = in_assemble,
       .value_name = "FILE.csv|FILE.json|-"},
      {.name = "force",
       .help = "overwrite an existing --output or --table file",
       .use = in_assemble,
       .flag = true},
      {.name = "skip-damaged",
       .help = "leave out the points and lines whose checksums fail (else refused, exit 4) and say how many; "
               "docs/reliability.md",
       .use = in_assemble | in_refine,
       .flag = true},
      {.name = "quiet",
       .help = "print no threshold table",
       .use = in_assemble,
       .flag = true,
       .short_name = 'q'},
      {.name = "tolerance",
       .default_value = model::format_double(refine.tolerance),
       .help = "target standard error of every line's threshold [snr]",
       .use = in_refine},
      {.name = "trials",
       .default_value = std::to_string(refine.trials),
       .help =
           "trials per line at most (the grid's included): more are added where the spread between trials "
           "dominates (on lines with exact thresholds always: each a line over the grid's snr)",
       .use = in_refine},
      {.name = "max-points",
       .default_value = std::to_string(refine.max_points),
       .help = "refined points in the file at most (over every refine of it)",
       .use = in_refine},
      {.name = "max-rounds",
       .default_value = std::to_string(refine.max_rounds),
       .help = "rounds at most",
       .use = in_refine},
      // merge
      {.name = "allow-partial",
       .help =
           "write OUT.h5 even where points are done in no file given (a shard missing or unfinished): those "
           "points pending, `rmtsweep run --resume` on OUT.h5 computes them",
       .use = in_merge,
       .flag = true},
      {.name = "force", .help = "replace an existing OUT.h5", .use = in_merge, .flag = true},
      // schema
      {.name = "markdown",
       .help = "print docs/schema.md: every group of the file",
       .use = in_schema,
       .flag = true},
      {.name = "json",
       .help = "print one JSON object: the /points columns and the /phase datasets",
       .use = in_schema,
       .flag = true},
      // plot: python/rmtsweep/cli.py declares these (argparse) and owns their defaults; repeated here for the
      // comparison of every command's --help with the tables (tests/cli/style/test_option_table.cpp)
      {.name = "output",
       .default_value = "figures",
       .help = "directory for the figures (created); --out is the same",
       .use = in_plot,
       .value_name = "OUTPUT"},
      {.name = "format",
       .default_value = "png",
       .help = "file format of the figures: png, pdf, svg",
       .use = in_plot,
       .value_name = "FORMAT"},
      {.name = "point",
       .help = "point index of the spectrum, a done point; without it one is chosen",
       .use = in_plot,
       .value_name = "POINT"},
      {.name = "dpi",
       .default_value = "200",
       .help = "resolution of PNG files (and of PDF/SVG rasters), 10 to 1200",
       .use = in_plot,
       .value_name = "DPI"},
      {.name = "force",
       .help = "overwrite figures of the same names in --output",
       .use = in_plot,
       .flag = true},
  };
}

/// The names Boost registers: the long one, and the short one after a comma.
std::string boost_names(const OptionSpec& spec) {
  std::string names = config::command_line_name(spec.name);
  if (spec.short_name != 0) names += std::string(",") + spec.short_name;
  return names;
}

}  // namespace

std::string help_with_default(const OptionSpec& spec) {
  return spec.default_value.empty() ? spec.help : spec.help + " (default " + spec.default_value + ")";
}

po::typed_value<std::string>* option_value(const OptionSpec& spec, std::string* target) {
  if (spec.flag) throw std::logic_error("option " + spec.name + " is a flag, not a value");
  po::typed_value<std::string>* value = po::value<std::string>(target);
  value->value_name(spec.value_name.empty() ? "V" : spec.value_name);
  if (!spec.default_value.empty())
    value->default_value(spec.default_value, "");  // shown by help_with_default
  return value;
}

const char* to_string(BulkLaw law) noexcept { return law == BulkLaw::finite_t ? "finite-T" : "paper"; }

BulkLaw parse_bulk_law(const std::string& text) {
  for (const BulkLaw law : {BulkLaw::paper, BulkLaw::finite_t}) {
    if (text == to_string(law)) return law;
  }
  throw InvalidOption("bulk", text, std::string("allowed: paper (default) or finite-T"));
}

std::span<const OptionSpec> command_option_table() {
  static const std::vector<OptionSpec> table = build_table();
  return table;
}

unsigned option_uses(std::string_view command) {
  using namespace config;
  const std::pair<std::string_view, unsigned> commands[] = {
      {"theory", in_theory}, {"point", in_point},       {"run", in_sweep | in_run},
      {"status", in_status}, {"assemble", in_assemble}, {"refine", in_refine},
      {"merge", in_merge},   {"schema", in_schema},     {"plot", in_plot}};
  for (const auto& [name, uses] : commands) {
    if (name == command) return uses;
  }
  return 0;
}

const OptionSpec& command_option(OptionUse command, std::string_view name) {
  for (const OptionSpec& spec : command_option_table()) {
    if (spec.name == name && (spec.use & command) != 0) return spec;
  }
  throw std::logic_error("no option " + std::string(name) + " of this command");
}

void add_command_option(po::options_description& options, OptionUse command, std::string_view name) {
  const OptionSpec& spec = command_option(command, name);
  if (spec.flag) {
    options.add_options()(boost_names(spec).c_str(), spec.help.c_str());
  } else {
    options.add_options()(boost_names(spec).c_str(), option_value(spec, nullptr),
                          help_with_default(spec).c_str());
  }
}

void add_command_option(po::options_description& options, OptionUse command, std::string_view name,
                        std::string* target) {
  const OptionSpec& spec = command_option(command, name);
  options.add_options()(boost_names(spec).c_str(), option_value(spec, target),
                        help_with_default(spec).c_str());
}

void add_command_option(po::options_description& options, OptionUse command, std::string_view name,
                        bool* target) {
  const OptionSpec& spec = command_option(command, name);
  if (!spec.flag) throw std::logic_error("option " + spec.name + " takes a value, not a flag");
  options.add_options()(boost_names(spec).c_str(), po::bool_switch(target), spec.help.c_str());
}

}  // namespace rmtsweep::app
