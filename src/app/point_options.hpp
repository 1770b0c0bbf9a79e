#pragma once
/// The options that define one point (model.md section 1), shared by every command that takes a
/// point (`theory`, `point`) and by the sweep configuration: the same names, the same defaults, the
/// same validation. Values are taken as text and parsed here, so that every bad value, a non-number
/// included, is reported as InvalidOption naming the option, the value and what is allowed.
#include <boost/program_options.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/model/params.hpp"

namespace rmtsweep::app {

/// Registers the options that define a point (--d --T --correlation --table --seed --trial --delta
/// --gamma --snr --weighting) with their defaults and help from config::option_table().
void add_point_options(boost::program_options::options_description& options);

/// Registers one option of config::option_table() (text value, its default and help), spelled as the
/// command line spells it (config::command_line_name).
void add_option(boost::program_options::options_description& options, std::string_view name);

/// The validated point given by the options registered by add_point_options (absent ones take their
/// defaults). Throws InvalidOption naming the first bad option.
model::PointParams point_params_from(const boost::program_options::variables_map& values);

/// Refuses (InvalidOption, the value as given) a point too large to simulate
/// (simulate::check_simulable_sizes: N or V at 2^31 or above), which the theory allows: `point` checks it
/// before computing.
void check_simulable(const boost::program_options::variables_map& values, const model::PointParams& params);

/// The same from option-name -> text pairs (e.g. a sweep config): names not given take their
/// defaults; a name that is not a point option throws InvalidOption.
model::PointParams point_params_from(const std::map<std::string, std::string>& text);

/// The names of the point options, in the order of --help.
const std::vector<std::string>& point_option_names();

/// Parses the command line of subcommand `command` (argv[0] is the subcommand's name) against
/// `options`. Every Boost error (unknown option, missing value, repeated option, stray argument) becomes
/// an InvalidOption, so the program exits with status 2 and one line. Prefix guessing is off: an
/// abbreviated option is unknown rather than silently taken for another. With `positional_option`, one
/// bare argument (e.g. the sweep file of `status`) is taken as that option; any further one is refused.
boost::program_options::variables_map parse_command_line(
    int argc, char** argv, const boost::program_options::options_description& options,
    const std::string& command, const std::string& positional_option = "");

/// The start of the commands that read one sweep file (`status`, `assemble`): parses the command
/// line with the bare argument taken as option "file"; with --help, prints the help (help_text: `usage`,
/// `description`, FILE.h5 as a positional) on rank 0 and returns nothing (the command has nothing more
/// to do); otherwise refuses an empty `path` (the variable "file" is bound to) with InvalidOption and
/// returns the parsed values.
std::optional<boost::program_options::variables_map> parse_file_command(
    int argc, char** argv, const boost::program_options::options_description& options,
    const std::string& command, const bool& help, const std::string& path, const std::string& usage,
    const std::string& description);

}  // namespace rmtsweep::app
