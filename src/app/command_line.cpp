// One command-line style for every command (src/app/command_line.hpp).
#include "command_line.hpp"

#include <algorithm>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include "rmtsweep/config/option_table.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

/// Whether `options` has an option of long name `name`.
bool has_option(const po::options_description& options, const std::string& name) {
  return options.find_nothrow(name, false) != nullptr;
}

}  // namespace

CanonicalArgs::CanonicalArgs(int argc, char** argv, const po::options_description& options) {
  bool after_end_of_options = false;
  for (int i = 0; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") after_end_of_options = true;
    if (i > 0 && !after_end_of_options && word.size() > 2 && word.rfind("--", 0) == 0) {
      const std::size_t end = std::min(word.find('='), word.size());
      const std::string name = word.substr(2, end - 2);
      const std::string kebab = config::command_line_name(name);
      if (kebab != name && !has_option(options, name) && has_option(options, kebab))
        word = "--" + kebab + word.substr(end);
    }
    words_.push_back(std::move(word));
  }
  for (std::string& word : words_) pointers_.push_back(word.data());
  pointers_.push_back(nullptr);
}

bool hidden_from_help(const std::string& long_name) {
  for (const config::OptionSpec& spec : config::option_table()) {
    if (spec.test_only && config::command_line_name(spec.name) == long_name) return true;
  }
  return false;
}

std::string wrapped(const std::string& text, std::size_t width, std::size_t indent) {
  std::string out, line;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

namespace {

/// How argparse names an option: "-q, --quiet", "--margin V" (Boost's own form is "-q [ --quiet ]").
std::string shown_names(const po::option_description& option) {
  const std::string name = option.format_name(), parameter = option.format_parameter();
  static const std::regex both(R"(^-(\S) \[ --(\S+) \]$)");
  std::smatch match;
  std::string names = name;
  if (std::regex_match(name, match, both)) {  // appended, not prefixed: GCC 12 misreads "-" + s (-Wrestrict)
    names = "-";
    names.append(match[1].str()).append(", --").append(match[2].str());
  }
  if (!parameter.empty()) names.append(" ").append(parameter);
  return names;
}

/// The widest column of names that argparse puts help beside (longer names have theirs on the next line).
constexpr std::size_t most_names_column = 30;

/// One entry: its names after two spaces, its help beside them from `column` on, wrapped at help_columns.
void print_entry(std::ostream& out, const std::string& names, const std::string& help, std::size_t column) {
  std::string line = "  " + names;
  const std::string text = wrapped(help, help_columns - column, 0);
  std::istringstream lines(text);
  std::string first;
  std::getline(lines, first);
  if (line.size() + 2 > column) {
    out << line << "\n";
    if (!first.empty()) out << std::string(column, ' ') << first << "\n";
  } else {
    out << line << std::string(column - line.size(), ' ') << first << "\n";
  }
  for (std::string rest; std::getline(lines, rest);) out << std::string(column, ' ') << rest << "\n";
}

}  // namespace

std::string help_text(const std::string& usage, const std::string& description,
                      const po::options_description& options, const std::vector<Positional>& positionals,
                      const std::vector<std::pair<std::string, const po::options_description*>>& groups) {
  std::set<std::string> apart;  // shown elsewhere than under "options:"
  for (const Positional& positional : positionals) apart.insert(positional.option);
  for (const auto& [caption, group] : groups) {
    for (const auto& option : group->options()) apart.insert(option->long_name());
  }
  // The options shown, by caption, and the one column their help starts at (argparse's layout).
  using Shown = std::vector<std::pair<std::string, std::string>>;  // names, help
  std::size_t width = 12;
  auto shown = [&](const po::options_description& from, const std::set<std::string>& skip) {
    Shown listed;
    for (const auto& option : from.options()) {
      if (skip.count(option->long_name()) || hidden_from_help(option->long_name())) continue;
      listed.emplace_back(shown_names(*option), option->description());
      width = std::max(width, std::min(listed.back().first.size() + 4, most_names_column));
    }
    return listed;
  };
  std::vector<std::pair<std::string, Shown>> sections;
  sections.emplace_back("options", shown(options, apart));
  for (const auto& [caption, group] : groups) sections.emplace_back(caption, shown(*group, {}));
  for (const Positional& positional : positionals)
    width = std::max(width, std::min(positional.shown.size() + 4, most_names_column));

  std::ostringstream out;
  out << wrapped("usage: " + usage, help_columns) << "\n";
  if (!description.empty()) out << wrapped(description, help_columns) << "\n";
  if (!positionals.empty()) {
    out << "positional arguments:\n";
    for (const Positional& positional : positionals) {
      const po::option_description* option = options.find_nothrow(positional.option, false);
      print_entry(out, positional.shown, option ? option->description() : std::string(), width);
    }
    out << "\n";
  }
  for (const auto& [caption, listed] : sections) {
    if (listed.empty()) continue;
    out << caption << ":\n";
    for (const auto& [names, help] : listed) print_entry(out, names, help, width);
    out << "\n";
  }
  return out.str();
}

}  // namespace rmtsweep::app
