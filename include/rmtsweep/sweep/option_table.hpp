#pragma once
/// Every option of a point and of a sweep, declared once (DLA-Future's miniapp options): its name,
/// its default, its help text and which commands take it. `rmtsweep run` (command line and config
/// file), `rmtsweep point` and `rmtsweep theory` register their options from this table and parse
/// the values with the same functions (option_values.hpp), so they agree on every default and on
/// what is allowed.
#include <span>
#include <string>
#include <string_view>

namespace rmtsweep::sweep {

/// Which commands take an option (bit flags).
enum OptionUse : unsigned {
  in_sweep = 1u,   ///< a key of `rmtsweep run` and its config file
  in_point = 2u,   ///< an option of `rmtsweep point`
  in_theory = 4u,  ///< an option of `rmtsweep theory`
};

struct OptionSpec {
  std::string_view name;
  std::string_view default_value;  ///< as typed in a config; "" for none (a flag, fault injection)
  std::string_view help;           ///< what it is and what is allowed
  unsigned use;                    ///< OptionUse flags
  /// An execution setting of a sweep: not part of the resolved config that --resume compares.
  bool execution = false;
  /// Fault injection for the tests: accepted, but not shown by --help.
  bool test_only = false;
};

/// Every option, in the order `--help` and the resolved config list them.
std::span<const OptionSpec> option_table();

/// The option called `name` (std::logic_error when there is none: a programming error).
const OptionSpec& option_spec(std::string_view name);

/// How the command line spells option or key `name`: kebab-case, '-' for each '_' (store_spectra ->
/// store-spectra). A config file keeps `name`; the command line accepts `name` too
/// (src/app/command_line.hpp).
std::string command_line_name(std::string_view name);

/// Its default as text.
inline std::string default_of(std::string_view name) { return std::string(option_spec(name).default_value); }

}  // namespace rmtsweep::sweep
