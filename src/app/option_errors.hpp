#pragma once
/// How the program says a refused value: Boost.Program_options errors, and the library's own refusals
/// (InvalidArgument), as InvalidOption, for every subcommand's command line: the message says what happened
/// and echoes what the user typed.
#include <boost/program_options.hpp>
#include <string>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::app {

/// The InvalidOption for error `e`, raised while parsing argv (argv[0] = the subcommand) against
/// `options`; `see_help` ends the message (e.g. "see rmtsweep run --help"). The forms:
///   unknown option '--foo'; allowed: --a, --b, ...            (value(): the token as typed)
///   --margin given twice ('1' and '2'): give it once          (value(): the repeated value)
///   --snr needs a value
///   --force takes no value: '--force=1'
///   option '--s' is ambiguous and matches '--seed', and '--snr': write the option in full
/// and for any other error "--name: <Boost's message>". option() is the option's name without dashes.
InvalidOption command_line_error(const boost::program_options::error& e, int argc, char** argv,
                                 const boost::program_options::options_description& options,
                                 const std::string& see_help);

/// The InvalidOption for a bare word on a command line that takes none there:
/// "unexpected argument 'word': <takes>", e.g. takes = "rmtsweep run takes options only (...)".
InvalidOption unexpected_argument(const std::string& option, const std::string& word,
                                  const std::string& takes);

/// The name the sweep file argument of the commands that take one is stored under (a hidden option).
inline constexpr const char* positional_file = "file";

/// The library's refusal `e` said as the option it came from: its name is the option's (the option table
/// names a value as the library does); a switch that would accept the value is named as an option: "exists;
/// pass --force to replace it". An InvalidOption stays as it is, but for the sweep file argument
/// (positional_file), said as "invalid file 'x': ..." or "the file argument is missing: ...".
InvalidOption as_option(const InvalidArgument& e);

/// An option's name as Boost reports it ("--seed", "seed"), without its leading dashes.
std::string without_dashes(const std::string& name);

}  // namespace rmtsweep::app
