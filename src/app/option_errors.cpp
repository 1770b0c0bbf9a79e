// Boost.Program_options errors as InvalidOption (src/app/option_errors.hpp).
#include "option_errors.hpp"

#include <algorithm>
#include <vector>

#include "command_line.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

/// "'a'", "'a' and 'b'", "'a', 'b' and 'c'".
std::string quoted_list(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? " and " : ", ";
    text += "'" + items[i] + "'";
  }
  return text;
}

/// --a, --b, ... : the options a user may type (hidden "<...>" and test-only ones left out).
std::string option_list(const po::options_description& options) {
  std::string text;
  for (const auto& option : options.options()) {
    const std::string& name = option->long_name();
    if (name.empty() || name.front() == '<' || hidden_from_help(name)) continue;
    text += (text.empty() ? "--" : ", --") + name;
  }
  return text;
}

/// The values given to each occurrence of option `name`, as typed ("" for a switch), found by
/// parsing again without storing (storing is what refuses the repetition).
std::vector<std::string> occurrences(const std::string& name, int argc, char** argv,
                                     const po::options_description& options) {
  std::vector<std::string> values;
  try {
    const po::parsed_options parsed =
        po::command_line_parser(argc, argv)
            .options(options)
            .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
            .allow_unregistered()
            .run();
    for (const auto& option : parsed.options) {
      if (option.string_key != name || option.unregistered) continue;
      std::string value;
      for (std::size_t i = 0; i < option.value.size(); ++i) value += (i ? " " : "") + option.value[i];
      values.push_back(value);
    }
  } catch (const po::error&) {
    values.clear();  // the count alone is then unknown: the message says "more than once"
  }
  return values;
}

}  // namespace

std::string without_dashes(const std::string& name) {
  return name.substr(std::min(name.find_first_not_of('-'), name.size()));
}

InvalidOption unexpected_argument(const std::string& option, const std::string& word,
                                  const std::string& takes) {
  return InvalidOption::described(option, word, "unexpected argument '" + word + "': " + takes);
}

InvalidOption command_line_error(const po::error& e, int argc, char** argv,
                                 const po::options_description& options, const std::string& see_help) {
  const auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
  const std::string typed = named ? named->get_option_name() : std::string();
  std::string name = without_dashes(typed);
  name = name.substr(0, name.find('='));
  const std::string dashed = "--" + name;

  if (dynamic_cast<const po::unknown_option*>(&e)) {
    return InvalidOption::described(
        name, typed,
        "unknown option '" + typed + "'; allowed: " + option_list(options) + " (" + see_help + ")");
  }
  if (dynamic_cast<const po::multiple_occurrences*>(&e)) {
    const std::vector<std::string> values = occurrences(name, argc, argv, options);
    std::string times = values.size() == 2  ? "twice"
                        : values.size() > 2 ? std::to_string(values.size()) + " times"
                                            : "more than once";
    bool has_values = false;
    for (const auto& value : values) has_values = has_values || !value.empty();
    if (has_values) times += " (" + quoted_list(values) + ")";
    return InvalidOption::described(name, values.empty() ? std::string() : values.back(),
                                    dashed + " given " + times + ": give it once (" + see_help + ")");
  }
  if (dynamic_cast<const po::ambiguous_option*>(&e)) {
    return InvalidOption::described(name, typed,
                                    std::string(e.what()) + ": write the option in full (" + see_help + ")");
  }
  if (const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
    if (syntax->kind() == po::invalid_syntax::missing_parameter) {
      return InvalidOption::described(name, "", dashed + " needs a value (" + see_help + ")");
    }
    if (syntax->kind() == po::invalid_syntax::extra_parameter) {
      std::string token;
      for (int i = 1; i < argc && token.empty(); ++i) {
        const std::string arg = argv[i];
        if (arg.rfind(dashed + "=", 0) == 0) token = arg;
      }
      return InvalidOption::described(
          name, token,
          dashed + " takes no value" + (token.empty() ? "" : ": '" + token + "'") + " (" + see_help + ")");
    }
  }
  if (name.empty()) return InvalidOption::described("", "", std::string(e.what()) + " (" + see_help + ")");
  return InvalidOption::described(name, "", dashed + ": " + e.what() + " (" + see_help + ")");
}

InvalidOption as_option(const InvalidArgument& e) {
  // The sweep file of status, assemble, refine, recover and plot is a bare argument (stored as the hidden
  // option "file"): said as the argument, never as an option --file no one can type.
  if (e.name() == positional_file && !e.described()) {
    if (e.value().empty())
      return InvalidOption::described(e.name(), e.value(), "the file argument is missing: " + e.allowed());
    return InvalidOption::described(e.name(), e.value(), "invalid file '" + e.value() + "': " + e.allowed());
  }
  if (const auto* option = dynamic_cast<const InvalidOption*>(&e)) return *option;
  std::string allowed = e.allowed();
  if (!e.override_switch().empty()) {
    std::string flag =
        e.override_switch();  // the option's kebab-case spelling (allow_partial: --allow-partial)
    for (char& c : flag) c = c == '_' ? '-' : c;
    allowed += "; pass --" + flag + " to " + e.override_effect();
  }
  if (e.described()) return InvalidOption::described(e.name(), e.value(), allowed);
  return InvalidOption(e.name(), e.value(), allowed);
}

}  // namespace rmtsweep::app
