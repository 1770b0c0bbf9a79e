#pragma once
// The options of `rmtsweep run`: every sweep config key is accepted in the INI file given by
// --config and on the command line (`--key value`); the command line wins.
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace rmtsweep::app {

struct RunArguments {
  std::string config_path;                    ///< --config (optional: defaults and command-line keys only)
  std::string output;                         ///< --output
  bool resume = false;                        ///< --resume
  bool force = false;                         ///< --force
  bool plan = false;                          ///< --plan: print the plan, write nothing
  bool force_memory = false;                  ///< --force-memory: run points that seem not to fit
  bool force_space = false;                   ///< --force-space: create a file that seems not to fit
  bool force_ntest = false;                   ///< --force-ntest: an ntest above 1e8 (feasibility.hpp)
  bool quiet = false;                         ///< --quiet: no progress lines
  double progress_seconds = 0.0;              ///< --progress SECONDS, else progress_default_seconds()
  bool progress_terminal = false;             ///< progress_watched(): one line rewritten in place
  int plan_ranks = 0;                         ///< --ranks N with --plan (0: the ranks this run has)
  std::string plan_ranks_text;                ///< --ranks as given, for messages
  bool help = false;                          ///< --help
  std::string shard;                          ///< --shard i/n (empty: the whole sweep)
  std::map<std::string, std::string> values;  ///< key -> text, command line over config file
  std::string command_line;                   ///< argv joined with spaces (quoted where needed)
  std::string usage;                          ///< the --help text
};

/// Returns the text of the config file at `path`, or nullopt when it cannot be read.
using ConfigReader = std::function<std::optional<std::string>(const std::string& path)>;

/// The text of `path` read by this process alone (nullopt if unreadable).
std::optional<std::string> read_local_file(const std::string& path);

/// Whether a terminal shows the progress: stderr is one, or, in a rank of mpirun (whose stderr is a pipe to
/// mpirun), mpirun's stderr is one (its /proc entry; where that cannot be read, whether this process has
/// a controlling terminal, as an interactive mpirun's ranks do).
bool progress_watched();

/// The seconds between progress lines without --progress: watched_progress_seconds where a terminal
/// watches (progress_watched), batch_progress_seconds otherwise (command_options.hpp).
double progress_default_seconds();

/// Parses argv (argv[0] = "run"); throws InvalidOption for unknown keys, repeated keys, a
/// missing value or an unreadable config file. `read` fetches the config file's text (under
/// MPI, rank 0 reads it and broadcasts, so that every rank parses the same text).
RunArguments parse_run_arguments(int argc, char** argv, const ConfigReader& read = read_local_file);

}  // namespace rmtsweep::app
