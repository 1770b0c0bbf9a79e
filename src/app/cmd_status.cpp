// `rmtsweep status FILE.h5`: what a sweep file holds (config, done/pending/failed points).
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/sweep/sweep_file.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

int command_status(int argc, char** argv) {
  std::string path;
  bool help = false;
  po::options_description options("Usage: rmtsweep status FILE.h5");
  options.add_options()("file", po::value<std::string>(&path), "the sweep file")(
      "help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(argc, argv, options, "status", help, path)) return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return 0;  // a serial report: rank 0 alone reads the file
  if (!io::is_hdf5_file(path)) throw InvalidOption("file", path, "an existing rmtsweep HDF5 sweep file");
  const io::File file = io::open_file(path, io::Access::read_only);
  if (!io::has_attribute(file, "schema_version")) {
    throw InvalidOption("file", path,
                        "a complete rmtsweep sweep file (no schema_version: creation interrupted?)");
  }
  std::printf("%s: rmtsweep sweep file, schema %lld, written by rmtsweep %s, created %s\n", path.c_str(),
              static_cast<long long>(io::read_int_attribute(file, "schema_version")),
              io::read_string_attribute(file, "rmtsweep_version").c_str(),
              io::read_string_attribute(file, "created").c_str());
  // The random draws a resume must reproduce.
  const sweep::StoredDraws draws = sweep::stored_draws(file);
  if (draws.version == 1) {
    std::printf("draws: version 1 (Box-Muller; this rmtsweep cannot resume it)\n");
  } else {
    std::printf("draws: version %lld, %s\n", static_cast<long long>(draws.version),
                draws.library.empty() ? "(unrecorded)" : draws.library.c_str());
  }
  std::printf("config:\n");
  const std::string config = io::read_string_attribute(file, "config");
  std::size_t begin = 0;
  while (begin < config.size()) {
    const std::size_t end = config.find('\n', begin);
    std::printf("  %s\n", config.substr(begin, end - begin).c_str());
    begin = end == std::string::npos ? config.size() : end + 1;
  }
  const auto runs = io::read_int_attribute(file, "runs");
  std::printf("runs: %lld\n", static_cast<long long>(runs));
  for (std::int64_t r = 0; r < runs; ++r) {
    const std::string prefix = "run_" + std::to_string(r) + "_";
    std::printf("  run %lld: started %s on %lld ranks: %s\n", static_cast<long long>(r),
                io::read_string_attribute(file, prefix + "started").c_str(),
                static_cast<long long>(io::read_int_attribute(file, prefix + "mpi_ranks")),
                io::read_string_attribute(file, prefix + "command_line").c_str());
  }
  const std::vector<std::int64_t> status = io::read_ints(io::open_dataset(file, "points/status"));
  std::int64_t counts[3] = {0, 0, 0};
  for (const std::int64_t s : status) {
    if (s >= 0 && s <= 2) ++counts[s];
  }
  std::printf("points: %zu total, %lld done, %lld pending, %lld failed\n", status.size(),
              static_cast<long long>(counts[sweep::status_done]),
              static_cast<long long>(counts[sweep::status_pending]),
              static_cast<long long>(counts[sweep::status_failed]));
  if (counts[sweep::status_failed] > 0) {
    const auto errors = io::read_strings(io::open_dataset(file, "points/error"));
    const auto delta = io::read_doubles(io::open_dataset(file, "points/delta"));
    const auto gamma = io::read_doubles(io::open_dataset(file, "points/gamma"));
    const auto snr = io::read_doubles(io::open_dataset(file, "points/snr"));
    const auto weighting = io::read_strings(io::open_dataset(file, "points/weighting"));
    const auto trial = io::read_ints(io::open_dataset(file, "points/trial"));
    std::printf("failed points:\n");
    for (std::size_t i = 0; i < status.size(); ++i) {
      if (status[i] != sweep::status_failed) continue;
      std::printf("  %zu (delta=%s gamma=%s snr=%s weighting=%s trial=%lld): %s\n", i,
                  model::format_double(delta[i]).c_str(), model::format_double(gamma[i]).c_str(),
                  model::format_double(snr[i]).c_str(), weighting[i].c_str(),
                  static_cast<long long>(trial[i]), errors[i].c_str());
    }
  }
  return 0;
}

}  // namespace rmtsweep::app
