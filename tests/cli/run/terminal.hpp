#pragma once
// A command run on a terminal: under script(1), which gives it a pseudo-terminal and records what the
// terminal received (carriage returns and escape sequences included).
#include <regex>
#include <string>
#include <vector>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {

/// Whether script(1) is here to give a command a terminal.
inline bool have_script() { return std::system("script --version > /dev/null 2>&1") == 0; }

/// `command` run on a pseudo-terminal by script(1): its exit status and the bytes the terminal received.
inline Finished run_on_terminal(const std::vector<std::string>& command, const std::string& typescript) {
  std::string line;
  // Appended: GCC 12 misreads a literal + std::string as overlapping copies (-Wrestrict).
  for (const std::string& word : command) line.append(line.empty() ? "'" : " '").append(word).append("'");
  Finished done = run({"script", "-qfec", line, typescript}, typescript + ".log");
  done.output = read_text(typescript);
  return done;
}

/// Seconds of a duration as progress lines write it ("45 s", "1 min 5 s", "1 h 12 min"); -1 otherwise.
inline double duration_seconds(const std::string& text) {
  static const std::regex part("([0-9]+) (h|min|s)");
  double seconds = 0;
  bool any = false;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), part); it != std::sregex_iterator(); ++it) {
    const double n = std::stod((*it)[1]);
    seconds += (*it)[2] == "h" ? 3600 * n : (*it)[2] == "min" ? 60 * n : n;
    any = true;
  }
  return any ? seconds : -1;
}

}  // namespace rmtsweep::test
