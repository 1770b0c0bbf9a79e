// Boost.Program_options for `rmtsweep run` (src/app/sweep_options.hpp).
#include "sweep_options.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command_line.hpp"
#include "command_options.hpp"
#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {
namespace {

/// The sweep keys as options: spelled `spelling(key)` (the command line's kebab-case, or the config
/// file's key itself).
po::options_description key_options(std::string (*spelling)(std::string_view)) {
  po::options_description keys;
  for (const std::string& key : config::config_keys()) {
    const config::OptionSpec& spec = config::option_spec(key);
    // No default in the value: a key the command line does not give is the config file's, or its default.
    keys.add_options()(spelling(key).c_str(), po::value<std::string>()->value_name("V"),
                       help_with_default(spec).c_str());
  }
  return keys;
}

std::string as_config_key(std::string_view key) { return std::string(key); }

/// The sweep keys, space-separated.
std::string keys_text() {
  std::string text;
  for (const std::string& key : config::shown_config_keys()) text += (text.empty() ? "" : " ") + key;
  return text;
}

std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"\\$;&|<>*?()") == std::string::npos) return word;
  std::string out = "'";
  for (const char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

/// Refuses a config line Boost would refuse without showing it (" = 5", a value without a key: Boost says
/// only "unrecognised option"), naming the line and its number.
void check_config_lines(const std::string& text, const std::string& path) {
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string content = line.substr(0, line.find('#'));  // Boost's comments start anywhere
    const auto equals = content.find('=');
    if (equals == std::string::npos || content.find_first_not_of(" \t\r") < equals) continue;
    throw InvalidOption(
        "config", path,
        "line " + std::to_string(number) + " '" + line +
            "' has no key before its '='; allowed: key = value lines (# comments), keys: " + keys_text());
  }
}

/// A config file's text as Boost reads it: a UTF-8 byte order mark at its start (which some Windows
/// editors write) dropped, and CR-LF (Windows) and a lone CR (classic Mac OS) taken as line ends, where
/// Boost would read the mark as part of the first key and a CR-only file as one line.
std::string normalised_config_text(const std::string& text) {
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  std::string out;
  out.reserve(text.size());
  const std::size_t begin = std::string_view(text).starts_with(byte_order_mark) ? byte_order_mark.size() : 0;
  for (std::size_t i = begin; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

/// --progress, --quiet and --ranks, checked once the options are parsed.
void resolve_run_controls(RunArguments& args, const po::variables_map& vm) {
  if (vm.count("progress")) {
    const std::string& progress = vm["progress"].as<std::string>();
    if (args.quiet) throw InvalidOption("progress", progress, "either --progress or --quiet, not both");
    const std::string allowed = "a number of seconds > 0 between progress lines (e.g. 60; --quiet for none)";
    args.progress_seconds = model::parse_double(progress, "progress", allowed);
    if (!(args.progress_seconds > 0.0)) throw InvalidOption("progress", progress, allowed);
  } else {
    args.progress_seconds = progress_default_seconds();
  }
  args.progress_terminal = !args.quiet && progress_watched();
  if (vm.count("ranks")) {
    const std::string& ranks = vm["ranks"].as<std::string>();
    if (!args.plan)
      throw InvalidOption(
          "ranks", ranks,
          "only with --plan (the plan for N ranks; a run's ranks are the ones mpirun starts)");
    const std::string allowed =
        "an integer >= 1: the MPI ranks the job would run (mpirun -np N, sbatch --ntasks=N)";
    const std::int64_t n = model::parse_integer(ranks, "ranks", allowed);
    if (n < 1 || n > INT_MAX) throw InvalidOption("ranks", ranks, allowed);
    args.plan_ranks = static_cast<int>(n);
    args.plan_ranks_text = ranks;
  }
}

}  // namespace

bool progress_watched() {
  if (::isatty(STDERR_FILENO)) return true;
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr) return false;  // alone: stderr is what shows it
  // A rank of mpirun, its parent, which shows the rank's stderr on its own.
  std::error_code ec;
  const std::string shown =
      std::filesystem::read_symlink("/proc/" + std::to_string(::getppid()) + "/fd/2", ec).string();
  if (!ec) return shown.starts_with("/dev/pts/") || shown.starts_with("/dev/tty");
  const int terminal =
      ::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);  // fails without a controlling one
  if (terminal < 0) return false;
  ::close(terminal);
  return true;
}

double progress_default_seconds() {
  return progress_watched() ? watched_progress_seconds : batch_progress_seconds;
}

std::optional<std::string> read_local_file(const std::string& path) {
  // A directory opens but reads as empty, a FIFO blocks the open until a writer comes, /dev/zero reads
  // endlessly: a config is a regular file, checked before it is opened.
  if (!io::not_regular_problem(path).empty()) return std::nullopt;
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return std::nullopt;
  return text.str();
}

RunArguments parse_run_arguments(int argc, char** argv, const ConfigReader& read) {
  RunArguments args;
  po::options_description general;
  add_command_option(general, config::in_run, "config", &args.config_path);
  add_command_option(general, config::in_run, "output", &args.output);
  add_command_option(general, config::in_run, "resume", &args.resume);
  add_command_option(general, config::in_run, "force", &args.force);
  add_command_option(general, config::in_run, "shard", &args.shard);
  add_command_option(general, config::in_run, "plan", &args.plan);
  add_command_option(general, config::in_run, "force-memory", &args.force_memory);
  add_command_option(general, config::in_run, "force-space", &args.force_space);
  add_command_option(general, config::in_run, "force-ntest", &args.force_ntest);
  add_command_option(general, config::in_run, "progress");
  add_command_option(general, config::in_run, "quiet", &args.quiet);
  add_command_option(general, config::in_run, "ranks");
  general.add_options()("help,h", po::bool_switch(&args.help), "this help");
  const po::options_description keys = key_options(config::command_line_name);
  const po::options_description file_keys = key_options(as_config_key);
  po::options_description all;
  all.add(general).add(keys);
  args.usage = help_text("rmtsweep run --config FILE --output FILE.h5 [--resume | --force] [--key value ...]",
                         "Runs a sweep config into one HDF5 file: every point of its grid, resumable; a "
                         "config file's keys are written key_name = value, on the command line --key-name "
                         "value (--key_name value too).",
                         all, {}, {{"sweep keys (the command line wins over --config)", &keys}});
  for (int i = 0; i < argc; ++i) args.command_line += (i ? " " : "rmtsweep ") + quoted(argv[i]);

  po::variables_map vm, file_vm;
  CanonicalArgs canonical(argc, argv, all);
  argc = canonical.argc();
  argv = canonical.argv();
  try {
    // No prefix guessing (as for the other commands): --out must not quietly mean --output.
    const auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    const po::parsed_options parsed = po::command_line_parser(argc, argv).options(all).style(style).run();
    // Without a positional description Boost keeps a bare word (`run x.h5`) and store() drops
    // it: the run would go on without what the user meant it to use.
    const std::vector<std::string> bare = po::collect_unrecognized(parsed.options, po::include_positional);
    if (!bare.empty()) {
      throw unexpected_argument(
          "output", bare.front(),
          "rmtsweep run takes options only (--output FILE.h5, --config FILE; see rmtsweep "
          "run --help)");
    }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw command_line_error(e, argc, argv, all, "see rmtsweep run --help");
  }
  if (!args.config_path.empty() && !args.help) {
    const std::optional<std::string> text = read(args.config_path);
    if (!text)
      throw InvalidOption("config", args.config_path,
                          "a readable INI file (a regular file: not a directory, FIFO or device)");
    const std::string config_text = normalised_config_text(*text);
    check_config_lines(config_text, args.config_path);
    std::istringstream file(config_text);
    try {
      po::store(po::parse_config_file(file, file_keys, false), file_vm);
    } catch (const po::multiple_occurrences& e) {
      const std::string key = without_dashes(e.get_option_name());
      throw InvalidOption::described(
          key, args.config_path,
          "key " + key + " given more than once in --config " + args.config_path + ": give it once");
    } catch (const po::error& e) {
      throw InvalidOption("config", args.config_path,
                          std::string(e.what()) + "; allowed keys: " + keys_text());
    }
    // An empty file (or one of comments only) would run the default sweep: one point, which nobody meant.
    if (file_vm.empty()) {
      throw InvalidOption("config", args.config_path,
                          "the config " + args.config_path +
                              " sets no keys (it is empty, or holds only comments and blank lines); allowed: "
                              "an INI file of key = value lines, keys: " +
                              keys_text());
    }
  }
  for (const std::string& key : config::config_keys()) {  // the command line wins
    if (vm.count(config::command_line_name(key))) {
      args.values[key] = vm[config::command_line_name(key)].as<std::string>();
    } else if (file_vm.count(key)) {
      args.values[key] = file_vm[key].as<std::string>();
    }
  }
  if (!args.help) resolve_run_controls(args, vm);
  return args;
}

}  // namespace rmtsweep::app
