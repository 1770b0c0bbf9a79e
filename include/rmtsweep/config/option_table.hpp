#pragma once
/// Every option of a point and of a sweep, declared once (DLA-Future's miniapp options): its name,
/// its default, its help text and which commands take it. `rmtsweep run` (command line and config
/// file), `rmtsweep point` and `rmtsweep theory` register their options from this table and parse
/// the values with the same functions (option_values.hpp), so they agree on every default and on
/// what is allowed. The other options of the commands (assemble, refine, plot, and point's and
/// theory's own) are in a table of the same shape, src/app/command_options.hpp.
///
/// Defaults: the default of a value is written once, where the value is declared (model::PointParams,
/// simulate::SimulationOptions, SweepConfig's own settings); the table gives it as text, which parses
/// back to it.
#include <span>
#include <string>
#include <string_view>

namespace rmtsweep::config {

/// Which commands take an option (bit flags).
enum OptionUse : unsigned {
  in_sweep = 1u << 0,     ///< a key of `rmtsweep run` and its config file
  in_point = 1u << 1,     ///< an option of `rmtsweep point`
  in_theory = 1u << 2,    ///< an option of `rmtsweep theory`
  in_run = 1u << 3,       ///< an option of `rmtsweep run` that is no config key (--output, --resume, ...)
  in_status = 1u << 4,    ///< an option of `rmtsweep status`
  in_assemble = 1u << 5,  ///< an option of `rmtsweep assemble`
  in_refine = 1u << 6,    ///< an option of `rmtsweep refine`
  in_merge = 1u << 7,     ///< an option of `rmtsweep merge`
  in_schema = 1u << 8,    ///< an option of `rmtsweep schema`
  in_plot = 1u << 9,      ///< an option of `rmtsweep plot` (python/rmtsweep/cli.py)
};

struct OptionSpec {
  std::string name = {};           ///< a config key, or how the command line spells an option that is none
  std::string default_value = {};  ///< as typed; "" for none (a flag, fault injection, an optional value)
  std::string help = {};           ///< what it is and what is allowed
  unsigned use = 0;                ///< OptionUse flags
  /// An execution setting of a sweep: not part of the resolved config that --resume compares.
  bool execution = false;
  /// Fault injection for the tests: accepted, but not shown by --help.
  bool test_only = false;
  /// A switch: given or not, it takes no value.
  bool flag = false;
  /// What --help calls the value ("" for V).
  std::string value_name = {};
  /// A one-letter spelling beside the long one (-q for --quiet); 0 for none.
  char short_name = 0;
};

/// Every option of a point and of a sweep, in the order `--help` and the resolved config list them.
std::span<const OptionSpec> option_table();

/// The option called `name` (std::logic_error when there is none: a programming error).
const OptionSpec& option_spec(std::string_view name);

/// How the command line spells option or key `name`: kebab-case, '-' for each '_' (store_spectra ->
/// store-spectra). A config file keeps `name`; the command line accepts `name` too
/// (src/app/command_line.hpp).
std::string command_line_name(std::string_view name);

/// Its default as text.
inline std::string default_of(std::string_view name) { return option_spec(name).default_value; }

}  // namespace rmtsweep::config
