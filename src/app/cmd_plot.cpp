// rmtsweep plot FILE.h5 --output DIR: runs python/rmtsweep_plot.py with the Python the build found
// (which has h5py and matplotlib), passing every argument on.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"

namespace rmtsweep::app {

namespace {

constexpr const char* script_name = "rmtsweep_plot.py";

/// The plot script: $RMTSWEEP_PYTHON_DIR when set, else the installed copy when it exists,
/// else the source tree's python/ (a build that was not installed).
std::filesystem::path plot_script() {
  namespace fs = std::filesystem;
  if (const char* dir = std::getenv("RMTSWEEP_PYTHON_DIR"); dir && *dir) return fs::path(dir) / script_name;
  const fs::path installed = fs::path(RMTSWEEP_INSTALLED_PYTHON_DIR) / script_name;
  std::error_code ignored;
  if (fs::exists(installed, ignored)) return installed;
  return fs::path(RMTSWEEP_PYTHON_DIR) / script_name;
}

/// The interpreter: $RMTSWEEP_PYTHON when set, else the one the build found with h5py, numpy and xarray
/// (cmake/rmtsweep_python.cmake; not simply the python3 first on PATH, which may lack them).
std::string python_interpreter() {
  if (const char* python = std::getenv("RMTSWEEP_PYTHON"); python && *python) return python;
  return RMTSWEEP_DEFAULT_PYTHON;
}

}  // namespace

int command_plot(int argc, char** argv) {
  const std::string python = python_interpreter();
  const std::string script = plot_script().string();
  if (!std::filesystem::exists(script)) throw std::runtime_error("plot script not found: " + script);
  std::vector<std::string> words{python, script};
  for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
  std::vector<char*> args;
  for (auto& word : words) args.push_back(word.data());
  args.push_back(nullptr);
  ::execv(python.c_str(), args.data());
  throw std::runtime_error("cannot run " + python + ": " + std::strerror(errno));
}

}  // namespace rmtsweep::app
