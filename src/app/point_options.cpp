#include "point_options.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

struct PointOption {
  const char* name;
  const char* default_text;
  const char* help;
};

constexpr std::array<PointOption, 10> point_options{{
    {"d", "400", "embedding dimension d (integer >= 1)"},
    {"T", "10", "sequence length T (integer, 1 <= T <= 4096)"},
    {"delta", "0.5", "delta = d/V > 0 (vocabulary V = 2 round(d/(2 delta)))"},
    {"gamma", "0.25", "gamma = d/N > 0 (sequences N = round(d/gamma))"},
    {"snr", "1", "signal strength ||mu||^2, 0 <= snr <= 1e12"},
    {"weighting", "mean", "mean | last | optimal | harmonic | causal:tau | custom:w1,...,wT"},
    {"correlation", "prefix:3", "iid | prefix:L (1 <= L <= T) | markov:phi (-1 < phi < 1)"},
    {"table", "iid", "embedding table: iid | centered"},
    {"seed", "0", "random seed (integer >= 0)"},
    {"trial", "0", "independent draw index (integer >= 0)"},
}};

const PointOption& find_option(const std::string& name) {
  for (const auto& option : point_options) {
    if (name == option.name) return option;
  }
  throw InvalidOption(name, "", "not a point option");
}

int parse_int_option(const std::string& name, const std::string& text, std::int64_t minimum,
                     std::string allowed = {}) {
  if (allowed.empty()) {
    allowed =
        "allowed: an integer " + name + " with " + std::to_string(minimum) + " <= " + name + " <= 2147483647";
  }
  const std::int64_t value = model::parse_integer(text, name, allowed);
  if (value < minimum || value > 2147483647) throw InvalidOption(name, text, allowed);
  return static_cast<int>(value);
}

/// Builds the point from a lookup returning the text of each option (its default when not given).
template <typename Lookup>
model::PointParams point_params_from_lookup(Lookup&& text_of) {
  model::PointParams params;
  params.d = parse_int_option("d", text_of("d"), 1);
  params.T =
      parse_int_option("T", text_of("T"), 1,
                       "allowed: an integer T with 1 <= T <= " + std::to_string(model::max_sequence_length));
  params.delta = model::parse_double(text_of("delta"), "delta", "allowed: a number delta > 0");
  params.gamma = model::parse_double(text_of("gamma"), "gamma", "allowed: a number gamma > 0");
  params.snr =
      model::parse_double(text_of("snr"), "snr",
                          "allowed: a number snr with 0 <= snr <= " + model::format_double(model::max_snr));
  params.weighting = model::parse_weighting(text_of("weighting"), params.T);
  params.correlation = model::parse_correlation(text_of("correlation"), params.T);
  params.table = model::parse_table(text_of("table"));
  params.seed = model::parse_unsigned(text_of("seed"), "seed", "allowed: an integer 0 <= seed < 2^64");
  params.trial = parse_int_option("trial", text_of("trial"), 0);
  model::validate(params);
  return params;
}

}  // namespace

void add_point_options(po::options_description& options) {
  for (const auto& option : point_options) {
    options.add_options()(option.name, po::value<std::string>()->default_value(option.default_text),
                          option.help);
  }
}

const std::vector<std::string>& point_option_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& option : point_options) list.emplace_back(option.name);
    return list;
  }();
  return names;
}

model::PointParams point_params_from(const po::variables_map& values) {
  return point_params_from_lookup([&](const char* name) -> std::string {
    return values.count(name) ? values[name].as<std::string>() : find_option(name).default_text;
  });
}

model::PointParams point_params_from(const std::map<std::string, std::string>& text) {
  for (const auto& [name, value] : text) {
    const auto& names = point_option_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw InvalidOption(
          name, value,
          "not a point option; allowed: d, T, delta, gamma, snr, weighting, correlation, table, seed, "
          "trial");
    }
  }
  return point_params_from_lookup([&](const char* name) -> std::string {
    const auto found = text.find(name);
    return found != text.end() ? found->second : find_option(name).default_text;
  });
}

po::variables_map parse_command_line(int argc, char** argv, const po::options_description& options,
                                     const std::string& command, const std::string& positional_option) {
  const std::string see_help = "see rmtsweep " + command + " --help";
  // Stray positional arguments are collected under a hidden name and refused below.
  po::options_description all;
  all.add(options).add_options()("<positional>", po::value<std::vector<std::string>>());
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
    throw unexpected_argument("<positional>", values["<positional>"].as<std::vector<std::string>>().front(),
                              positional_option.empty()
                                  ? "rmtsweep " + command + " takes only --name value options; " + see_help
                                  : "rmtsweep " + command + " takes one " + positional_option + " argument; " +
                                        see_help);
  }
  return values;
}

bool parse_file_command(int argc, char** argv, const boost::program_options::options_description& options,
                        const std::string& command, const bool& help, const std::string& path) {
  parse_command_line(argc, argv, options, command, "file");
  if (help) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::printf("%s", (std::ostringstream() << options).str().c_str());
    return false;
  }
  if (path.empty()) throw InvalidOption("file", "", "required: the sweep's HDF5 file");
  return true;
}

}  // namespace rmtsweep::app
