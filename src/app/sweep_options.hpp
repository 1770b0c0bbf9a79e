#pragma once
// The options of `rmtsweep run`: every sweep config key is accepted in the INI file given by
// --config and on the command line (`--key value`); the command line wins.
#include <map>
#include <string>

namespace rmtsweep::app {

struct RunArguments {
  std::string config_path;                    ///< --config (optional: defaults and command-line keys only)
  std::string output;                         ///< --output
  bool resume = false;                        ///< --resume
  bool force = false;                         ///< --force
  bool help = false;                          ///< --help
  std::map<std::string, std::string> values;  ///< key -> text, command line over config file
  std::string command_line;                   ///< argv joined with spaces (quoted where needed)
  std::string usage;                          ///< the --help text
};

/// Parses argv (argv[0] = "run"); throws InvalidOption for unknown keys, repeated keys, a
/// missing value or an unreadable config file.
RunArguments parse_run_arguments(int argc, char** argv);

}  // namespace rmtsweep::app
