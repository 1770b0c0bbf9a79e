#pragma once
// Runs `rmtsweep point ...` under mpiexec and captures its exit status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

struct CommandResult {
  int status = -1;
  std::string out, err;
};

/// `mpiexec -n ranks --oversubscribe rmtsweep point <args>` (arguments are simple tokens).
inline CommandResult run_point(int ranks, const std::vector<std::string>& args) {
  const std::string err_path = "/tmp/rmtsweep_cli_point_" + std::to_string(::getpid()) + ".err";
  std::string command = std::string(RMTSWEEP_MPIEXEC) + " -n " + std::to_string(ranks) + " --oversubscribe " +
                        RMTSWEEP_BINARY + " point";
  for (const auto& a : args) command += " '" + a + "'";
  command += " 2>" + err_path;
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int raw = ::pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  std::remove(err_path.c_str());
  return result;
}
