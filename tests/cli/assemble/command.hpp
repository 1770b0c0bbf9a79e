#pragma once
// Helpers of the assemble and plot command-line tests: run a shell command and capture its exit
// status and output, make a scratch directory, write a text file, read a whole file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rmtsweep::test {

struct CommandResult {
  int status = -1;     ///< exit status; -1 when the command did not exit normally
  std::string output;  ///< stdout and stderr together
};

/// Runs `command` through /bin/sh with stderr merged into stdout.
inline CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int raw = ::pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

/// `mpiexec -n ranks --oversubscribe rmtsweep <arguments>`.
inline CommandResult run_rmtsweep_mpi(int ranks, const std::string& arguments) {
  return run(std::string(RMTSWEEP_MPIEXEC) + " -n " + std::to_string(ranks) + " --oversubscribe " +
             RMTSWEEP_BINARY + " " + arguments);
}

/// `rmtsweep <arguments>` as a single process.
inline CommandResult run_rmtsweep(const std::string& arguments) {
  return run(std::string(RMTSWEEP_BINARY) + " " + arguments);
}

/// A fresh directory under the system's temporary directory, removed by the destructor.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& stem) {
    std::string pattern = (std::filesystem::temp_directory_path() / (stem + ".XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace rmtsweep::test
