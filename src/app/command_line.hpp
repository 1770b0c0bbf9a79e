#pragma once
/// One command-line style for every command: options are spelled in kebab-case (`--store-spectra`,
/// `--ranks-per-point`), the underscore spellings of before (`--store_spectra`, which a config file
/// keeps as its key) are accepted as hidden aliases, and `--help` has one format, the one argparse
/// prints for `plot`:
///
///   usage: rmtsweep status FILE.h5 [options]
///
///   <what the command does, wrapped at 100 columns>
///
///   positional arguments:
///     FILE.h5   the sweep file
///
///   options:
///     --no-verify ...
///
/// with each further group of options under its own caption, and test-only options (the option
/// table's test_only, e.g. --fail-points) accepted but not shown.
#include <boost/program_options.hpp>
#include <string>
#include <utility>
#include <vector>

namespace rmtsweep::app {

/// No --help line is longer than this.
inline constexpr unsigned help_columns = 100;

/// argv with every `--old_spelling[=value]` whose kebab-case spelling is an option of `options` (and
/// which is not one itself) rewritten to `--old-spelling[=value]`; words after a bare `--` are kept
/// as they are. argc()/argv() are what Boost parses, argv[0] (the subcommand) included.
class CanonicalArgs {
 public:
  CanonicalArgs(int argc, char** argv, const boost::program_options::options_description& options);
  CanonicalArgs(const CanonicalArgs&) = delete;
  CanonicalArgs& operator=(const CanonicalArgs&) = delete;
  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

/// True for an option registered but not shown by --help (a test-only option of the option table).
bool hidden_from_help(const std::string& long_name);

/// A bare argument shown under "positional arguments": `option` is the name it is stored under (its
/// help is that option's), `shown` how the usage line writes it (FILE.h5).
struct Positional {
  std::string option;
  std::string shown;
};

/// The --help text of a command (the format above). `usage` follows "usage: " ("rmtsweep status
/// FILE.h5 [options]"); `description` is one paragraph. Each of `groups` (caption, options; each also
/// added to `options`) is listed under its caption, the rest of `options` under "options:".
std::string help_text(
    const std::string& usage, const std::string& description,
    const boost::program_options::options_description& options,
    const std::vector<Positional>& positionals = {},
    const std::vector<std::pair<std::string, const boost::program_options::options_description*>>& groups =
        {});

/// `text` broken at spaces into lines of at most `width` columns, each after `indent` spaces.
std::string wrapped(const std::string& text, std::size_t width, std::size_t indent = 0);

}  // namespace rmtsweep::app
