// One owner per option: every option a command's --help shows is a row of the option tables
// (config::option_table() for a point's and a sweep's, src/app/command_options.hpp for the rest), shown with
// the row's default and help, and every row is shown by the commands that take it. The defaults are
// written once, where their values are declared; this compares what each --help says with them, plot's
// (python/rmtsweep/cli.py, which declares its own) included.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../assemble/command.hpp"
#include "command_options.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/refine/lines.hpp"
#include "rmtsweep/simulate/point.hpp"

using rmtsweep::config::OptionSpec;
using rmtsweep::test::run_rmtsweep;

namespace {

const std::vector<std::string> commands = {"theory", "point",   "run",   "status", "assemble",
                                           "refine", "recover", "merge", "plot",   "schema"};

/// One option as --help lists it: its lines joined, runs of spaces as one, and the default it shows.
struct Shown {
  std::string text;
  std::string default_value;  ///< "" when it shows none
};

std::string collapsed(const std::string& text) {
  std::istringstream words(text);
  std::string out, word;
  while (words >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

/// The default an entry shows: the commands' "... (default X)", argparse's "... (default: X)"; "" for none.
/// Boost's own form, "--name arg (=X)", is a test failure: every command shows its defaults one way.
std::string shown_default(const std::string& entry) {
  std::smatch match;
  EXPECT_FALSE(std::regex_search(entry, std::regex(R"(\(=[^)]*\))"))) << "Boost's default format: " << entry;
  if (std::regex_search(entry, match, std::regex(R"(\(default:? ([^()]*)\)$)"))) return match[1];
  return "";
}

/// The options of a --help text by long name (without dashes). An option's entry starts with two spaces
/// and a dash; its help continues on the more indented lines below.
std::map<std::string, Shown> shown_options(const std::string& help) {
  std::vector<std::string> entries;
  bool in_entry = false;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -", 0) == 0) {
      entries.push_back(line);
      in_entry = true;
    } else if (in_entry && line.rfind("   ", 0) == 0) {
      entries.back() += " " + line;
    } else {
      in_entry = false;
    }
  }
  std::map<std::string, Shown> shown;
  for (const std::string& raw : entries) {
    const std::string entry = collapsed(raw);
    std::smatch name;
    EXPECT_TRUE(std::regex_search(entry, name, std::regex(R"(--([A-Za-z0-9][A-Za-z0-9_-]*))"))) << entry;
    shown[name[1]] = {entry, shown_default(entry)};
  }
  return shown;
}

/// The rows of both tables that `command` takes, by the name its command line spells, test-only ones left
/// out.
std::map<std::string, const OptionSpec*> table_rows(const std::string& command) {
  std::map<std::string, const OptionSpec*> rows;
  const unsigned uses = rmtsweep::app::option_uses(command);
  for (const auto table : {rmtsweep::config::option_table(), rmtsweep::app::command_option_table()}) {
    for (const OptionSpec& spec : table) {
      if ((spec.use & uses) == 0 || spec.test_only) continue;
      const std::string name = rmtsweep::config::command_line_name(spec.name);
      EXPECT_EQ(rows.count(name), 0u) << command << " has two rows called " << name;
      rows[name] = &spec;
    }
  }
  return rows;
}

}  // namespace

TEST(OptionTable, EveryOptionOfEveryCommandsHelpIsARowOfTheTablesWithItsDefaultAndHelp) {
  for (const std::string& command : commands) {
    const auto result = run_rmtsweep(command + " --help");
    ASSERT_EQ(result.status, 0) << command << ": " << result.output;
    const std::map<std::string, Shown> shown = shown_options(result.output);
    const std::map<std::string, const OptionSpec*> rows = table_rows(command);
    for (const auto& [name, spec] : rows) {
      const auto found = shown.find(name);
      if (found == shown.end()) {
        ADD_FAILURE() << command << " --help does not show --" << name << " of the table:\n" << result.output;
        continue;
      }
      EXPECT_EQ(found->second.default_value, spec->default_value) << command << ": " << found->second.text;
      EXPECT_NE(found->second.text.find(collapsed(spec->help)), std::string::npos)
          << command << " --" << name << " shows another help than the table's \"" << spec->help
          << "\": " << found->second.text;
    }
    for (const auto& [name, option] : shown) {
      EXPECT_TRUE(name == "help" || rows.count(name) > 0)
          << command << " --help shows --" << name << ", which is in no table: " << option.text;
    }
  }
}

TEST(OptionTable, TheDefaultsAreTheValuesTheProgramDeclares) {
  // What the tables say is what an option left out gives: the default point, its measurement, a sweep's
  // own settings, refine's and assemble's.
  const rmtsweep::model::PointParams point;
  EXPECT_EQ(rmtsweep::config::default_of("d"), std::to_string(point.d));
  EXPECT_EQ(rmtsweep::config::default_of("correlation"), rmtsweep::model::to_string(point.correlation));
  EXPECT_EQ(rmtsweep::config::default_of("ridge"), "0.1");
  const rmtsweep::config::SweepConfig defaults = rmtsweep::config::parse_sweep_config({});
  EXPECT_EQ(defaults.d, rmtsweep::config::SweepConfig{}.d);
  EXPECT_EQ(defaults.correlation, point.correlation);
  EXPECT_EQ(defaults.weighting, std::vector<rmtsweep::model::Weighting>{point.weighting});
  EXPECT_EQ(defaults.k, rmtsweep::simulate::SimulationOptions{}.k);
  EXPECT_EQ(defaults.ridge, rmtsweep::simulate::SimulationOptions{}.ridge);
  EXPECT_EQ(defaults.store_spectra, rmtsweep::config::SweepConfig{}.store_spectra);
  using rmtsweep::app::command_option;
  EXPECT_EQ(command_option(rmtsweep::config::in_refine, "tolerance").default_value, "0.01");
  EXPECT_EQ(command_option(rmtsweep::config::in_refine, "max-rounds").default_value,
            std::to_string(rmtsweep::refine::RefineOptions{}.max_rounds));
  EXPECT_EQ(command_option(rmtsweep::config::in_assemble, "margin").default_value, "1");
  // --detection is one row, which assemble and refine both take.
  EXPECT_EQ(&command_option(rmtsweep::config::in_assemble, "detection"),
            &command_option(rmtsweep::config::in_refine, "detection"));
}
