#pragma once
// Runs the rmtsweep program as a user would, capturing stdout, stderr and the exit status.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct RunResult {
  int status = -1;
  std::string out, err;
};

inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs RMTSWEEP_BINARY with `args` through popen; stderr goes to a temporary file.
inline RunResult run_rmtsweep(const std::vector<std::string>& args) {
  char err_path[] = "/tmp/rmtsweep_cli_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  std::string command = shell_quote(RMTSWEEP_BINARY);
  for (const auto& arg : args) {
    command += ' ';
    command += shell_quote(arg);
  }
  command += " 2>";
  command += shell_quote(err_path);
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.out.append(buffer.data(), n);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err_file(err_path);
  std::stringstream err;
  err << err_file.rdbuf();
  result.err = err.str();
  std::remove(err_path);
  return result;
}
