// Reading a sweep file by schema entry (include/rmtsweep/store/sweep_reader.hpp).
#include "rmtsweep/store/sweep_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <sstream>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/store/sweep_creation.hpp"

namespace rmtsweep::store {

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

namespace {

/// The root attributes and group every sweep file has once its creation completed.
bool complete(hid_t file) {
  return io::has_attribute(file, "schema_version") && io::has_attribute(file, "config") &&
         io::exists(file, std::string(points_group));
}

/// Whether `file` holds what rmtsweep creates first: /grid/delta with its description.
bool has_rmtsweep_marks(hid_t file) {
  try {
    const std::string path(grid_axis::delta.path);
    if (!io::exists(file, path)) return false;
    const io::Dataset delta = io::open_dataset(file, path);
    return io::has_attribute(delta, "description") &&
           io::read_string_attribute(delta, "description") == grid_axis::delta.description;
  } catch (const Error&) {  // /grid/delta of another kind (a group): not ours
    return false;
  }
}

}  // namespace

bool SweepReader::written_by_rmtsweep(const std::string& path) {
  try {
    if (!io::not_regular_problem(path).empty() || !io::is_hdf5_file(path)) return false;
    const io::File file = io::open_file(path, io::Access::read_only);
    return complete(file) || has_rmtsweep_marks(file);
  } catch (const Error&) {
    return false;
  }
}

SweepReader::SweepReader(const std::string& path) : path_(path) {
  // What keeps a file from being read is said before HDF5 sees it (H5Fis_hdf5 says only "no"). A FIFO
  // or a device is refused before it is opened: opening a FIFO blocks until a writer comes.
  if (const std::string problem = io::not_regular_problem(path); !problem.empty())
    throw InvalidFile(path, problem + ": an rmtsweep sweep file (FILE.h5) is needed");
  if (const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    ::close(fd);
  } else if (errno == ENOENT) {
    std::error_code ec;  // sweep_creation.hpp: a creation killed before its end leaves FILE.h5.creating only
    if (const std::string creating = creating_name(path); std::filesystem::exists(creating, ec)) {
      throw InvalidFile(path, "no such file: its creation was interrupted (" + creating +
                                  " is the part written); the same `rmtsweep run` command, with or "
                                  "without --resume, starts the sweep");
    }
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
  if (!complete(file_)) {
    if (!has_rmtsweep_marks(file_)) {
      throw InvalidFile(path,
                        "an HDF5 file, but not an rmtsweep sweep file (without the schema_version, config, "
                        "/grid and /points rmtsweep writes: another program's file?)");
    }
    throw InvalidFile(
        path,
        "an rmtsweep sweep file whose creation was interrupted (by an rmtsweep that created files in "
        "place; no schema_version, the attribute written last): no point was computed in it; start "
        "it again with `rmtsweep run`");
  }
  schema_version_ = io::read_int_attribute(file_, "schema_version");
  if (schema_version_ < 1 || schema_version_ > store::schema_version) {
    throw InvalidFile(path, "written with schema_version " + std::to_string(schema_version_) +
                                "; this rmtsweep reads 1 to " + std::to_string(store::schema_version));
  }
  config_text_ = io::read_string_attribute(file_, "config");
}

config::SweepConfig SweepReader::config() const {
  try {
    return config::parse_sweep_config(config_lines(config_text_));
  } catch (const InvalidArgument& e) {
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

Provenance SweepReader::provenance() const { return detail::read_provenance(file_); }

std::optional<std::string> SweepReader::text_attribute(const std::string& name) const {
  if (!io::has_attribute(file_, name)) return std::nullopt;
  return io::read_string_attribute(file_, name);
}

std::optional<std::int64_t> SweepReader::integer_attribute(const std::string& name) const {
  if (!io::has_attribute(file_, name)) return std::nullopt;
  return io::read_int_attribute(file_, name);
}

}  // namespace rmtsweep::store
