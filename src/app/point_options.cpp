#include "point_options.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

#include "command_line.hpp"
#include "command_options.hpp"
#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/config/option_values.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/simulate/point.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

/// The options that define a point: those of the option table that `rmtsweep theory` takes.
bool defines_a_point(const config::OptionSpec& spec) { return (spec.use & config::in_theory) != 0; }

/// Runs `check` on a parsed point and refuses what it refuses with the value as the user gave it (the
/// checks see numbers, and would print 1e-9 as 1e-09 or a default's text as the number it parsed to).
template <typename Lookup, typename Check>
void as_given(Lookup&& text_of, Check&& check) {
  try {
    check();
  } catch (const InvalidArgument& e) {  // the model's, the engine's (check_simulable_sizes) or the config's
    const auto& names = point_option_names();
    if (std::find(names.begin(), names.end(), e.name()) == names.end()) throw;
    throw InvalidOption(e.name(), text_of(e.name().c_str()), e.allowed());
  }
}

/// Builds the point from a lookup returning the text of each option (its default when not given).
template <typename Lookup>
model::PointParams point_params_from_lookup(Lookup&& text_of) {
  model::PointParams params;
  params.d = config::parse_d(text_of("d"));
  params.T = config::parse_T(text_of("T"));
  params.delta = model::parse_double(text_of("delta"), "delta", "allowed: a number delta > 0");
  params.gamma = model::parse_double(text_of("gamma"), "gamma", "allowed: a number gamma > 0");
  params.snr =
      model::parse_double(text_of("snr"), "snr",
                          "allowed: a number snr with 0 <= snr <= " + model::format_double(model::max_snr));
  params.weighting = model::parse_weighting(text_of("weighting"), params.T);
  params.correlation = model::parse_correlation(text_of("correlation"), params.T);
  params.table = model::parse_table(text_of("table"));
  params.seed = config::parse_seed(text_of("seed"));
  params.trial = config::parse_trial(text_of("trial"));
  as_given(text_of, [&] { model::validate(params); });
  return params;
}

}  // namespace

void add_point_options(po::options_description& options) {
  for (const config::OptionSpec& spec : config::option_table()) {
    if (defines_a_point(spec)) add_option(options, spec.name);
  }
}

void add_option(po::options_description& options, std::string_view name) {
  const config::OptionSpec& spec = config::option_spec(name);
  options.add_options()(config::command_line_name(spec.name).c_str(), option_value(spec),
                        help_with_default(spec).c_str());
}

const std::vector<std::string>& point_option_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const config::OptionSpec& spec : config::option_table()) {
      if (defines_a_point(spec)) list.emplace_back(spec.name);
    }
    return list;
  }();
  return names;
}

model::PointParams point_params_from(const po::variables_map& values) {
  return point_params_from_lookup([&](const char* name) -> std::string {
    const std::string spelled = config::command_line_name(name);
    return values.count(spelled) ? values[spelled].as<std::string>() : config::default_of(name);
  });
}

void check_simulable(const po::variables_map& values, const model::PointParams& params) {
  as_given(
      [&](const char* name) -> std::string {
        const std::string spelled = config::command_line_name(name);
        return values.count(spelled) ? values[spelled].as<std::string>() : config::default_of(name);
      },
      [&] { simulate::check_simulable_sizes(params); });
}

model::PointParams point_params_from(const std::map<std::string, std::string>& text) {
  for (const auto& [name, value] : text) {
    const auto& names = point_option_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string allowed;
      for (const auto& known : names) allowed += (allowed.empty() ? "" : ", ") + known;
      throw InvalidOption(name, value, "not a point option; allowed: " + allowed);
    }
  }
  return point_params_from_lookup([&](const char* name) -> std::string {
    const auto found = text.find(name);
    return found != text.end() ? found->second : config::default_of(name);
  });
}

po::variables_map parse_command_line(int argc, char** argv, const po::options_description& options,
                                     const std::string& command, const std::string& positional_option) {
  const std::string see_help = "see rmtsweep " + command + " --help";
  // Stray positional arguments are collected under a hidden name and refused below.
  po::options_description all;
  all.add(options).add_options()("<positional>", po::value<std::vector<std::string>>());
  CanonicalArgs canonical(argc, argv, all);  // --old_spelling as --old-spelling
  argc = canonical.argc();
  argv = canonical.argv();
  po::positional_options_description positional;
  if (!positional_option.empty()) positional.add(positional_option.c_str(), 1);
  positional.add("<positional>", -1);
  po::variables_map values;
  try {
    const auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).style(style).run(),
              values);
    po::notify(values);
  } catch (const po::error& e) {
    throw command_line_error(e, argc, argv, all, see_help);
  }
  if (values.count("<positional>")) {
    throw unexpected_argument(
        "<positional>", values["<positional>"].as<std::vector<std::string>>().front(),
        positional_option.empty()
            ? "rmtsweep " + command + " takes only --name value options; " + see_help
            : "rmtsweep " + command + " takes one " + positional_option + " argument; " + see_help);
  }
  return values;
}

std::optional<po::variables_map> parse_file_command(int argc, char** argv,
                                                    const po::options_description& options,
                                                    const std::string& command, const bool& help,
                                                    const std::string& path, const std::string& usage,
                                                    const std::string& description) {
  po::variables_map values = parse_command_line(argc, argv, options, command, "file");
  if (help) {
    // Rank 0 alone prints (a command that reads a file alone may run without MPI: main.cpp).
    if (parallel::world_rank() == 0)
      std::printf("%s", help_text(usage, description, options, {{"file", "FILE.h5"}}).c_str());
    return std::nullopt;
  }
  if (path.empty()) throw InvalidOption("file", "", "the sweep's HDF5 file (usage: " + usage + ")");
  return values;
}

}  // namespace rmtsweep::app
