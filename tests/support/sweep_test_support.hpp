#pragma once
// Helpers of the end-to-end sweep tests: run the real rmtsweep binary (under mpiexec),
// capture its output, kill it, and compare sweep files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "temp_dir.hpp"

namespace rmtsweep::test {

struct Finished {
  int exit_code = -1;  ///< exit status, or 128 + signal when killed
  std::string output;  ///< stdout and stderr
};

/// A tmpfs of `size` mounted on a fresh directory, unmounted by the destructor; mounted() is false
/// where this process may not mount (a CI container without CAP_SYS_ADMIN). `options` adds to the mount's
/// (",nr_inodes=16": a file system that runs out of inodes before it runs out of space).
class SmallDisk {
 public:
  explicit SmallDisk(const std::string& size, const std::string& options = {}) : path_(dir_ / "disk") {
    std::filesystem::create_directory(path_);
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, ("size=" + size + options).c_str()) == 0;
    if (!mounted_) reason_ = std::strerror(errno);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  ~SmallDisk() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const noexcept { return mounted_; }
  const std::string& reason() const noexcept { return reason_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  /// Creates empty files until the disk has no free inode left; returns how many.
  int use_up_inodes(const std::string& prefix) const {
    int made = 0;
    for (;; ++made) {
      const std::string name = *this / (prefix + std::to_string(made));
      const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) return made;
      ::close(fd);
    }
  }
  /// Fills all but `leave` bytes of the disk with one file.
  void fill(const std::string& name, std::uintmax_t leave) const {
    const auto free = std::filesystem::space(path_).available;
    std::ofstream(*this / name, std::ios::binary) << std::string(free > leave ? free - leave : 0, 'x');
  }

 private:
  TempDir dir_;
  std::string path_;
  bool mounted_ = false;
  std::string reason_;
};

/// Copies the sweep file `from` and its point journal to `to` (its journal beside it), replacing what is
/// there.
inline void copy_sweep_file(const std::string& from, const std::string& to) {
  namespace fs = std::filesystem;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  fs::copy(store::journal_directory(from), store::journal_directory(to),
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

/// mpiexec -n ranks --oversubscribe rmtsweep args...
inline std::vector<std::string> mpi_command(int ranks, const std::vector<std::string>& args) {
  std::vector<std::string> command{RMTSWEEP_MPIEXEC, "-n", std::to_string(ranks), "--oversubscribe",
                                   RMTSWEEP_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

/// A small sweep of 16 x `trials` points at `d` (40 by default: 32 points in about a second on two ranks)
/// with their spectra, into `output`, then `extra`.
inline std::vector<std::string> small_sweep_args(const std::string& output,
                                                 const std::vector<std::string>& extra = {},
                                                 const std::string& trials = "2",
                                                 const std::string& d = "40") {
  std::vector<std::string> args{"run",
                                "--output",
                                output,
                                "--d",
                                d,
                                "--T",
                                "4",
                                "--correlation",
                                "prefix:2",
                                "--seed",
                                "3",
                                "--trials",
                                trials,
                                "--delta",
                                "0.5,1",
                                "--gamma",
                                "0.5",
                                "--snr",
                                "0:3:4",
                                "--weighting",
                                "mean,optimal",
                                "--store_spectra",
                                "true"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// compare_sweep_files' options that set aside what a resumed run records of itself (its run_1_*
/// attributes and the count of runs); /points/run is for the caller to set aside.
inline const std::vector<std::string> resumed_run_attributes{
    "--ignore-attr",         "runs",          "--ignore-attr",    "run_1_mpi_ranks", "--ignore-attr",
    "run_1_ranks_per_point", "--ignore-attr", "run_1_eigensolver"};

/// Starts `command` with stdout and stderr going to `log`; returns its pid. With `own_group` the
/// command leads a new process group (as a shell's job), which exists before this returns.
inline pid_t start(const std::vector<std::string>& command, const std::string& log, bool own_group = false) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (own_group) setpgid(0, 0);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  if (own_group) setpgid(pid, pid);  // also here, so that the group exists before the caller signals it
  return pid;
}

/// Whether `part` occurs in `text`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The non-empty lines of `text`.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Finished wait_for(pid_t pid, const std::string& log) {
  int status = 0;
  waitpid(pid, &status, 0);
  Finished done;
  done.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  done.output = read_text(log);
  return done;
}

inline Finished run(const std::vector<std::string>& command, const std::string& log) {
  return wait_for(start(command, log), log);
}

/// `rmtsweep args...` as one process (the serial commands: status, assemble, recover).
inline Finished run_serial(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> command{RMTSWEEP_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  return run(command, log);
}

/// Flips the lowest bit of the byte at `byte` of the storage of `dataset` (contiguous) in `path`, as a disk
/// or a copy would: the bytes alone, no HDF5 call (h5py finds the offset; its output goes to `log`).
inline void flip_stored_bit(const std::string& path, const std::string& dataset, std::size_t byte,
                            const std::string& log) {
  const Finished done =
      run({RMTSWEEP_PYTHON, "-c",
           "import sys, h5py\nf = h5py.File(sys.argv[1], 'r'); at = f['" + dataset + "'].id.get_offset() + " +
               std::to_string(byte) +
               "; f.close()\n"
               "with open(sys.argv[1], 'r+b') as raw:\n"
               "    raw.seek(at); b = raw.read(1)[0]; raw.seek(at); raw.write(bytes([b ^ 1]))\n",
           path},
          log);
  EXPECT_EQ(done.exit_code, 0) << done.output;
}

/// tests/python/compare_sweep_files.py a b `extra`...: exit 0 when the two files hold the same content.
inline Finished compare_sweep_files(const std::string& a, const std::string& b,
                                    const std::vector<std::string>& extra = {}) {
  std::vector<std::string> command{
      RMTSWEEP_PYTHON, std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/compare_sweep_files.py", a, b};
  command.insert(command.end(), extra.begin(), extra.end());
  return run(command, a + ".compare.log");
}

/// The pids whose parent is `parent` (from /proc/<pid>/stat).
inline std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

/// status of every point, read with serial HDF5 (works while a writer still has the file open).
inline std::vector<std::int64_t> read_status(const std::string& path) {
  return store::SweepReader(path).status();
}

/// Every numeric dataset of /points and /spectra, by name, but for what records how and when a
/// point was computed (timings, the run, the Krylov engine's products and residual, which differ
/// with the summation order), the texts and the rows' checksums (a CRC-32 of a row's bits, which changes
/// wholesale with its last bit: compared as values it would say nothing of how far the values are apart;
/// `status` checks each against its own row).
inline std::vector<std::pair<std::string, std::vector<double>>> stored_values(const std::string& path) {
  const io::File file = io::open_file(path, io::Access::read_only);
  std::vector<std::pair<std::string, std::vector<double>>> values;
  for (const std::string& name : io::list_children(io::open_group(file, "points"))) {
    const store::Column* column = store::find_column(name);
    if (column != nullptr && column->type == store::ColumnType::text) continue;
    if (name == "seconds" || name == "run" || name == "operator_products" || name == "solver_residual")
      continue;
    values.emplace_back("points/" + name, io::read_doubles(io::open_dataset(file, "points/" + name)));
  }
  // The refined points' blocks (rmtsweep refine), column by column as /points.
  for (std::size_t b = 0; io::exists(file, "refine/block_" + std::to_string(b)); ++b) {
    const std::string block = "refine/block_" + std::to_string(b);
    for (const std::string& name : io::list_children(io::open_group(file, block))) {
      const store::Column* column = store::find_column(name);
      if (column != nullptr && column->type == store::ColumnType::text) continue;
      if (name == "seconds" || name == "run" || name == "operator_products" || name == "solver_residual" ||
          name == "checksum")  // the rows' CRC-32 of their measurements (refine_file.hpp)
        continue;
      values.emplace_back(block + "/" + name, io::read_doubles(io::open_dataset(file, block + "/" + name)));
    }
  }
  // The secular forms of the trials refine added as whole lines, block by block.
  for (std::size_t b = 0; io::exists(file, "refine/lines/block_" + std::to_string(b)); ++b) {
    const std::string block = "refine/lines/block_" + std::to_string(b);
    for (const std::string& name : io::list_children(io::open_group(file, block))) {
      if (name == "row" || name == "pole_index") continue;  // dimensions without values
      if (name == "checksum") continue;                     // the rows' CRC-32 of their secular forms
      values.emplace_back(block + "/" + name, io::read_doubles(io::open_dataset(file, block + "/" + name)));
    }
  }
  // The lines' secular forms (docs/model.md section 9), size by size.
  if (io::exists(file, "lines")) {
    for (const std::string& size : io::list_children(io::open_group(file, "lines"))) {
      for (const std::string& name : io::list_children(io::open_group(file, "lines/" + size))) {
        if (name == "checksum") continue;  // the rows' CRC-32 (schema_version 4)
        const std::string dataset = "lines/" + size + "/" + name;
        values.emplace_back(dataset, io::read_doubles(io::open_dataset(file, dataset)));
      }
    }
  }
  if (io::exists(file, "spectra/eigenvalues")) {  // schema_version 1
    values.emplace_back("spectra/eigenvalues",
                        io::read_doubles(io::open_dataset(file, "spectra/eigenvalues")));
  } else if (io::exists(file, "spectra")) {  // schema_version 2 and later: /spectra/d<d>/{eigenvalues, point}
    for (const std::string& size : io::list_children(io::open_group(file, "spectra"))) {
      for (const char* name : {"eigenvalues", "point"}) {
        const std::string dataset = "spectra/" + size + "/" + name;
        values.emplace_back(dataset, io::read_doubles(io::open_dataset(file, dataset)));
      }
    }
  }
  return values;
}

/// Every stored value of `actual` equals `expected` to a relative 1e-9: the files may differ
/// only by floating-point summation order (model.md section 7: draws do not depend on ranks).
inline void expect_same_values(const std::string& expected, const std::string& actual) {
  const auto a = stored_values(expected), b = stored_values(actual);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t s = 0; s < a.size(); ++s) {
    ASSERT_EQ(a[s].first, b[s].first);
    ASSERT_EQ(a[s].second.size(), b[s].second.size()) << a[s].first;
    for (std::size_t i = 0; i < a[s].second.size(); ++i) {
      const double x = a[s].second[i], y = b[s].second[i];
      if (std::isnan(x) && std::isnan(y)) continue;
      EXPECT_NEAR(x, y, 1e-9 * std::max(1.0, std::abs(x))) << a[s].first << "[" << i << "] of " << actual;
    }
  }
}

}  // namespace rmtsweep::test
