// A sweep file's root attributes of how it was made (include/rmtsweep/store/provenance.hpp).
#include "rmtsweep/store/provenance.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/version.hpp"

namespace rmtsweep::store {
namespace {

std::string text_or_empty(hid_t file, const std::string& name) {
  return io::has_attribute(file, name) ? io::read_string_attribute(file, name) : std::string();
}

std::int64_t integer_or(hid_t file, const std::string& name, std::int64_t otherwise) {
  return io::has_attribute(file, name) ? io::read_int_attribute(file, name) : otherwise;
}

config::EigenSetting setting_or_automatic(const std::string& text) {
  for (const config::EigenSetting s : {config::EigenSetting::automatic, config::EigenSetting::dense,
                                       config::EigenSetting::krylov, config::EigenSetting::scalapack}) {
    if (text == config::eigensolver_setting(s)) return s;
  }
  return config::EigenSetting::automatic;  // files written before the setting was recorded
}

constexpr const char* fault_injection_text = "fail_points was set: some failures are deliberate";

/// A file written before the run table: one attribute per run and field (run_<i>_started, ...).
bool has_run_attributes(hid_t file) {
  return io::has_attribute(file, "run_0_started") && !io::has_attribute(file, run_table_attribute);
}

nlohmann::json run_json(std::size_t index, const RunInfo& run) {
  return {{"run", index},
          {"started", run.started},
          {"command_line", run.command_line},
          {"mpi_ranks", run.mpi_ranks},
          {"ranks_per_point", run.ranks_per_point},
          {"eigensolver", config::eigensolver_setting(run.eigensolver)},
          {"shard", run.shard.whole() ? std::string() : run.shard.text()}};
}

/// Every run from the run table, or from the run_<i>_* attributes of a file written before it.
std::vector<RunInfo> read_runs(hid_t file) {
  std::vector<RunInfo> runs;
  if (io::has_attribute(file, run_table_attribute)) {
    const nlohmann::json table = nlohmann::json::parse(io::read_string_attribute(file, run_table_attribute));
    for (const nlohmann::json& row : table) {
      RunInfo run;
      run.started = row.value("started", "");
      run.command_line = row.value("command_line", "");
      run.mpi_ranks = row.value("mpi_ranks", 0);
      run.ranks_per_point = row.value("ranks_per_point", 1);
      run.eigensolver = setting_or_automatic(row.value("eigensolver", ""));
      run.shard = config::shard_or_whole(row.value("shard", ""));
      runs.push_back(std::move(run));
    }
    return runs;
  }
  const std::int64_t count = integer_or(file, "runs", 0);
  for (std::int64_t r = 0; r < count; ++r) {
    const std::string prefix = "run_" + std::to_string(r) + "_";
    RunInfo run;
    run.started = text_or_empty(file, prefix + "started");
    run.command_line = text_or_empty(file, prefix + "command_line");
    run.mpi_ranks = static_cast<int>(integer_or(file, prefix + "mpi_ranks", 0));
    run.ranks_per_point = static_cast<int>(integer_or(file, prefix + "ranks_per_point", 1));
    run.eigensolver = setting_or_automatic(text_or_empty(file, prefix + "eigensolver"));
    run.shard = config::shard_or_whole(text_or_empty(file, prefix + "shard"));
    runs.push_back(std::move(run));
  }
  return runs;
}

/// The run table, its count `runs` and the CF `history` (one line per run: when, and the command line).
void write_runs(hid_t file, const std::vector<RunInfo>& runs) {
  nlohmann::json table = nlohmann::json::array();
  std::string history;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    table.push_back(run_json(r, runs[r]));
    history += (r ? "\n" : "") + runs[r].started + ": " + runs[r].command_line;
  }
  io::write_attribute(file, run_table_attribute, table.dump());
  io::write_attribute(file, "runs", static_cast<std::int64_t>(runs.size()));
  io::write_attribute(file, "history", history);
}

}  // namespace

std::string new_sweep_id() {
  std::random_device device;
  std::string id;
  for (int word = 0; word < 4; ++word) {
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(device()));
    id += hex;
  }
  return id;
}

Provenance new_provenance(const RunInfo& run, bool fault_injection, MPI_Comm comm) {
  Provenance p;
  p.sweep_id = parallel::decided_on_root(comm, [] { return new_sweep_id(); });
  p.rmtsweep_version = rmtsweep::version;
  p.draws_version = random::draws_version;
  p.draws_library = random::draws_library();
  p.versions = library_versions();
  // Collective attribute writes need the same value everywhere, and e.g. OpenBLAS's config names
  // the CPU core each node detected: rank 0's texts are written.
  for (std::string* text : {&p.versions.mpi, &p.versions.hdf5, &p.versions.blas, &p.versions.scalapack}) {
    *text = parallel::broadcast(std::move(*text), comm);
  }
  p.fault_injection = fault_injection;
  p.shard = run.shard;
  p.runs = {run};
  return p;
}

namespace detail {

void write_run_attributes(hid_t file, std::size_t index, const RunInfo& run) {
  if (!has_run_attributes(file)) {
    std::vector<RunInfo> runs = read_runs(file);
    runs.resize(index);
    runs.push_back(run);
    write_runs(file, runs);
    return;
  }
  // A file written before the run table continues in its own layout.
  const std::string prefix = "run_" + std::to_string(index) + "_";
  io::write_attribute(file, prefix + "started", run.started);
  io::write_attribute(file, prefix + "command_line", run.command_line);
  io::write_attribute(file, prefix + "mpi_ranks", run.mpi_ranks);
  io::write_attribute(file, prefix + "ranks_per_point", run.ranks_per_point);
  io::write_attribute(file, prefix + "eigensolver", config::eigensolver_setting(run.eigensolver));
  if (!run.shard.whole()) io::write_attribute(file, prefix + "shard", run.shard.text());
  io::write_attribute(file, "runs", static_cast<std::int64_t>(index + 1));
}

void write_provenance(hid_t file, const Provenance& p) {
  const RunInfo& first = p.runs.at(0);
  io::write_attribute(file, "sweep_id", p.sweep_id);
  io::write_attribute(file, "rmtsweep_version", p.rmtsweep_version);
  io::write_attribute(file, "draws_version", p.draws_version);
  io::write_attribute(file, "draws_library", p.draws_library);
  io::write_attribute(file, "created", first.started);
  io::write_attribute(file, "command_line", first.command_line);
  io::write_attribute(file, "mpi_ranks", first.mpi_ranks);
  io::write_attribute(file, "ranks_per_point", first.ranks_per_point);
  io::write_attribute(file, "eigensolver", config::eigensolver_setting(first.eigensolver));
  io::write_attribute(file, "mpi_library_version", p.versions.mpi);
  io::write_attribute(file, "hdf5_version", p.versions.hdf5);
  io::write_attribute(file, "blas_version", p.versions.blas);
  io::write_attribute(file, "scalapack_library", p.versions.scalapack);
  if (p.fault_injection) io::write_attribute(file, "fault_injection", fault_injection_text);
  if (!p.shard.whole()) {
    io::write_attribute(file, "shard_index", static_cast<std::int64_t>(p.shard.index));
    io::write_attribute(file, "shard_count", static_cast<std::int64_t>(p.shard.count));
  }
  write_runs(file, p.runs);
}

Provenance read_provenance(hid_t file) {
  Provenance p;
  p.sweep_id = text_or_empty(file, "sweep_id");
  p.rmtsweep_version = text_or_empty(file, "rmtsweep_version");
  p.draws_version = integer_or(file, "draws_version", 1);
  p.draws_library = text_or_empty(file, "draws_library");
  p.versions = {text_or_empty(file, "mpi_library_version"), text_or_empty(file, "hdf5_version"),
                text_or_empty(file, "blas_version"), text_or_empty(file, "scalapack_library")};
  p.fault_injection = io::has_attribute(file, "fault_injection");
  p.shard = config::shard_or_whole(std::to_string(integer_or(file, "shard_index", 0)) + "/" +
                                   std::to_string(integer_or(file, "shard_count", 0)));
  p.runs = read_runs(file);
  return p;
}

}  // namespace detail
}  // namespace rmtsweep::store
