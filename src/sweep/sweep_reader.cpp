// Reading a sweep file by schema entry (include/rmtsweep/sweep/sweep_reader.hpp).
#include "rmtsweep/sweep/sweep_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <sstream>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"

namespace rmtsweep::sweep {

std::map<std::string, std::string> config_lines(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream in(text);
  std::string line;
  const auto trim = [](const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    const auto last = s.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  };
  while (std::getline(in, line)) {
    const auto hash = line.find_first_of("#;");
    if (hash != std::string::npos) line.resize(hash);
    const auto equals = line.find('=');
    if (equals == std::string::npos) continue;
    values[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
  }
  return values;
}

StatusCounts count_status(const std::vector<std::int64_t>& status) noexcept {
  StatusCounts counts;
  for (const std::int64_t s : status) {
    switch (s) {
      case static_cast<std::int64_t>(PointStatus::pending):
        ++counts.pending;
        break;
      case static_cast<std::int64_t>(PointStatus::done):
        ++counts.done;
        break;
      case static_cast<std::int64_t>(PointStatus::failed):
        ++counts.failed;
        break;
      default:
        ++counts.other;
    }
  }
  return counts;
}

SweepReader::SweepReader(const std::string& path) : path_(path) {
  // What keeps a file from being read is said before HDF5 sees it (H5Fis_hdf5 says only "no").
  if (const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    ::close(fd);
  } else if (errno == ENOENT) {
    throw InvalidFile(path, "no such file");
  } else if (errno != EISDIR) {
    throw io::os_file_error(path, "open the sweep file", errno);
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec) {
    throw InvalidFile(path,
                      "an empty file (0 bytes): an interrupted copy, or a run stopped before it wrote its "
                      "file; copy it again, or start the sweep again");
  }
  if (!io::is_hdf5_file(path)) throw InvalidFile(path, "not an HDF5 file (an rmtsweep sweep file is needed)");
  try {
    file_ = io::open_file(path, io::Access::read_only);
  } catch (const Hdf5Error& e) {
    throw io::file_error(path, "open the sweep file", e);
  }
  if (io::has_attribute(file_, std::string(phase_file_source))) {
    throw InvalidFile(path,
                      "a phase file (rmtsweep assemble --output) of the sweep file " +
                          io::read_string_attribute(file_, std::string(phase_file_source)) +
                          ": status, assemble and run read that one; plot and rmtsweep.open_phase read this");
  }
  const bool started = io::exists(file_, std::string(points_group)) || io::exists(file_, std::string(grid_group)) ||
                       io::has_attribute(file_, "config");
  if (!started) {
    throw InvalidFile(path, "an HDF5 file, but not an rmtsweep sweep file (no /points, /grid or config: another "
                            "program's file?)");
  }
  if (!io::has_attribute(file_, "schema_version") || !io::has_attribute(file_, "config") ||
      !io::exists(file_, std::string(points_group))) {
    throw InvalidFile(path,
                      "an rmtsweep sweep file whose creation was interrupted (no schema_version, the attribute "
                      "written last at creation): no point was computed in it; start it again");
  }
  schema_version_ = io::read_int_attribute(file_, "schema_version");
  if (schema_version_ < 1 || schema_version_ > sweep::schema_version) {
    throw InvalidFile(path, "written with schema_version " + std::to_string(schema_version_) +
                                "; this rmtsweep reads 1 to " + std::to_string(sweep::schema_version));
  }
  config_text_ = io::read_string_attribute(file_, "config");
}

SweepConfig SweepReader::config() const {
  try {
    return parse_sweep_config(config_lines(config_text_));
  } catch (const InvalidOption& e) {
    throw InvalidFile(path_, std::string("its stored config does not parse: ") + e.what());
  }
}

StoredDraws SweepReader::draws() const {
  StoredDraws draws;
  if (const auto version = integer_attribute("draws_version")) draws.version = *version;
  if (const auto library = text_attribute("draws_library")) draws.library = *library;
  return draws;
}

std::int64_t SweepReader::points() const {
  return static_cast<std::int64_t>(io::shape(open(column::status)).at(0));
}

bool SweepReader::has(const Column& column) const { return io::exists(file_, path_of(column)); }

io::Dataset SweepReader::open(const Column& column) const {
  if (!has(column)) throw InvalidFile(path_, "has no dataset " + path_of(column));
  return io::open_dataset(file_, path_of(column));
}

std::vector<double> SweepReader::reals(const Column& column) const { return io::read_doubles(open(column)); }

std::vector<std::int64_t> SweepReader::integers(const Column& column) const {
  return io::read_ints(open(column));
}

std::vector<std::string> SweepReader::texts(const Column& column) const {
  return io::read_strings(open(column));
}

std::vector<std::int64_t> SweepReader::d_indices() const {
  if (has(column::d_index)) return integers(column::d_index);
  return std::vector<std::int64_t>(static_cast<std::size_t>(points()), 0);
}

std::optional<std::string> SweepReader::text_attribute(const std::string& name) const {
  if (!io::has_attribute(file_, name)) return std::nullopt;
  return io::read_string_attribute(file_, name);
}

std::optional<std::int64_t> SweepReader::integer_attribute(const std::string& name) const {
  if (!io::has_attribute(file_, name)) return std::nullopt;
  return io::read_int_attribute(file_, name);
}

}  // namespace rmtsweep::sweep
