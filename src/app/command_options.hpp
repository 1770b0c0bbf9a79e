#pragma once
/// The options of every command beyond a point's and a sweep's (config::option_table()), each declared
/// once, in a table of the same shape: run's own (--output, --resume, ...), status's, assemble's,
/// refine's, merge's, schema's, plot's, and point's and theory's own. Each command registers its options
/// from here (add_command_option), so that the name, the default and the help of an option are written in
/// one place; `--detection`, which assemble and refine both take, is one row.
///
/// Defaults are written once, where the value they set is declared (RefineOptions,
/// assemble::default_detection_margin and default_detection_rule, default_bulk_law), and the table gives
/// them as text. plot is python/rmtsweep/cli.py: its argparse defaults are plot's, which the rows for plot
/// repeat; tests/cli/style/test_option_table.cpp compares them, and every command's --help, with this table.
#include <boost/program_options.hpp>
#include <span>
#include <string>
#include <string_view>

#include "rmtsweep/config/option_table.hpp"

namespace rmtsweep::app {

/// Which bulk law `theory --bulk` asks for: the paper's limit law (model.md 5.1) or the finite-T law of the
/// point's own token draws (theory/finite_t_bulk.hpp).
enum class BulkLaw { paper, finite_t };
inline constexpr BulkLaw default_bulk_law = BulkLaw::paper;
/// "paper" or "finite-T", as --bulk takes it.
const char* to_string(BulkLaw law) noexcept;
/// --bulk: paper | finite-T; InvalidOption("bulk", ...) otherwise.
BulkLaw parse_bulk_law(const std::string& text);

/// The seconds between `run`'s progress lines without --progress: where someone watches, and otherwise (a
/// batch job: a 12-hour job writes 720 lines, not 43 000).
inline constexpr double watched_progress_seconds = 1.0, batch_progress_seconds = 60.0;

/// Every option of the commands that is not in config::option_table(), in the order --help lists them.
std::span<const config::OptionSpec> command_option_table();

/// The OptionUse bits of the options command `name` takes from either table ("run": in_sweep | in_run);
/// 0 for a command without options of its own (recover).
unsigned option_uses(std::string_view command);

/// The row of option `name` that `command` (an OptionUse bit) takes (std::logic_error when there is none:
/// a programming error).
const config::OptionSpec& command_option(config::OptionUse command, std::string_view name);

/// How every --help shows a value's default: after its help, "(default X)" (not Boost's "arg (=X)").
std::string help_with_default(const config::OptionSpec& spec);
/// The text value of option `spec` (stored into `target` when given): named as the table names it, else V,
/// with the table's default where it has one (shown by help_with_default).
boost::program_options::typed_value<std::string>* option_value(const config::OptionSpec& spec,
                                                               std::string* target = nullptr);

/// Registers option `name` of `command` from command_option_table(): spelled as the table spells it (with
/// its short name), with its help; a flag without a value (given or not: values.count), any other with a
/// text value and the table's default where it has one.
void add_command_option(boost::program_options::options_description& options, config::OptionUse command,
                        std::string_view name);
/// The same, the value stored into `target` (a text value).
void add_command_option(boost::program_options::options_description& options, config::OptionUse command,
                        std::string_view name, std::string* target);
/// The same for a flag, stored into `target` (true when given).
void add_command_option(boost::program_options::options_description& options, config::OptionUse command,
                        std::string_view name, bool* target);

}  // namespace rmtsweep::app
