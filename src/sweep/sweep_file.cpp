// Creating, resuming and writing the sweep file (include/rmtsweep/sweep/sweep_file.hpp).
#include "rmtsweep/sweep/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/version.hpp"
#include "sweep_schema.hpp"

namespace rmtsweep::sweep {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

void describe(hid_t object, const std::string& text) { io::write_attribute(object, "description", text); }

int rank_of(MPI_Comm comm) {
  int rank = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}

/// Rank 0's string on every rank of comm: values of collective attribute writes must be
/// identical everywhere, and e.g. OpenBLAS's config names the CPU core each node detected.
std::string from_rank_zero(std::string text, MPI_Comm comm) {
  auto length = static_cast<long long>(text.size());
  RMTSWEEP_MPI_CHECK(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm));
  text.resize(static_cast<std::size_t>(length));
  if (length > 0) RMTSWEEP_MPI_CHECK(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm));
  return text;
}

/// The value of one parameter/theory column for point i.
double parameter_value(const std::string& name, const Grid& grid, std::int64_t i,
                       const theory::Prediction& p) {
  const model::PointParams q = grid.params(i);
  const GridCoordinates at = grid.coordinates(i);
  if (name == "delta") return q.delta;
  if (name == "gamma") return q.gamma;
  if (name == "snr") return q.snr;
  if (name == "trial") return q.trial;
  if (name == "delta_index") return static_cast<double>(at.delta);
  if (name == "gamma_index") return static_cast<double>(at.gamma);
  if (name == "snr_index") return static_cast<double>(at.snr);
  if (name == "weighting_index") return static_cast<double>(at.weighting);
  if (name == "d") return q.d;
  if (name == "V") return static_cast<double>(q.vocabulary());
  if (name == "N") return static_cast<double>(q.sequences());
  if (name == "T") return q.T;
  if (name == "alpha") return p.alpha;
  if (name == "kappa") return p.kappa;
  if (name == "theta") return p.theta;
  if (name == "theory_bulk_edge_left") return p.bulk_edge_left;
  if (name == "theory_bulk_edge_right") return p.bulk_edge_right;
  if (name == "theory_pop_threshold_snr") return p.pop_threshold_snr;
  if (name == "theory_sample_threshold_snr") return p.sample_threshold_snr;
  if (name == "theory_pop_outlier") return p.pop_outlier.value_or(nan);
  if (name == "theory_pop_overlap") return p.pop_overlap;
  if (name == "theory_top_eigenvalue") return p.top_eigenvalue;
  if (name == "theory_overlap") return p.overlap;
  if (name == "theory_detectable") return p.detectable ? 1.0 : 0.0;
  throw std::logic_error("no value for column " + name);
}

/// Writes /grid/* (rank 0 only, independent).
void write_grid(hid_t file, const Grid& grid, const std::vector<std::string>& weightings, bool writer) {
  const SweepConfig& c = grid.config();
  const io::Group group = io::create_group(file, "grid");
  auto axis = [&](const char* name, const std::vector<double>& values, const char* text) {
    const io::Dataset set = io::create_double_dataset(group, name, {values.size()});
    describe(set, text);
    if (writer) io::write(set, values);
  };
  axis("delta", c.delta, "values of the delta axis (d/V), in grid order");
  axis("gamma", c.gamma, "values of the gamma axis (d/N), in grid order");
  axis("snr", c.snr, "values of the snr axis (||mu||^2), in grid order");
  std::size_t width = 1;
  for (const auto& w : weightings) width = std::max(width, w.size());
  const io::Dataset weighting = io::create_string_dataset(group, "weighting", weightings.size(), width);
  describe(weighting, "the weightings of the sweep (canonical text), in grid order");
  if (writer) io::write(weighting, weightings);
  std::vector<std::int64_t> trials(static_cast<std::size_t>(c.trials));
  for (std::size_t t = 0; t < trials.size(); ++t) trials[t] = static_cast<std::int64_t>(t);
  const io::Dataset trial = io::create_int_dataset(group, "trial", {trials.size()});
  describe(trial, "trial numbers 0..trials-1 (independent draws; trial varies fastest in /points)");
  if (writer) io::write(trial, trials);
}

void write_run_attributes(hid_t file, int run_index, const RunInfo& run) {
  const std::string prefix = "run_" + std::to_string(run_index) + "_";
  io::write_attribute(file, prefix + "started", run.started);
  io::write_attribute(file, prefix + "command_line", run.command_line);
  io::write_attribute(file, prefix + "mpi_ranks", run.mpi_ranks);
  io::write_attribute(file, prefix + "ranks_per_point", run.ranks_per_point);
  io::write_attribute(file, prefix + "eigensolver", run.eigensolver);
  io::write_attribute(file, "runs", run_index + 1);
}

}  // namespace

SweepFile SweepFile::create(const std::string& path, MPI_Comm comm, const Grid& grid,
                            const std::vector<theory::Prediction>& predictions, const RunInfo& run) {
  const SweepConfig& c = grid.config();
  const bool writer = rank_of(comm) == 0;
  const auto points = static_cast<hsize_t>(grid.size());
  SweepFile sweep;
  sweep.file_ = io::create_file(path, comm, true);
  sweep.k_ = c.k;
  std::vector<std::string> weightings;
  for (const auto& w : c.weighting) weightings.push_back(model::to_string(w));
  write_grid(sweep.file_, grid, weightings, writer);

  const io::Group group = io::create_group(sweep.file_, "points");
  std::size_t weighting_width = 1;
  for (const auto& w : weightings) weighting_width = std::max(weighting_width, w.size());
  for (const auto& column : detail::parameter_columns()) {
    const std::string name = column.name;
    io::Dataset set = column.type == detail::ColumnType::text
                          ? io::create_string_dataset(group, name, points, weighting_width)
                      : column.type == detail::ColumnType::integer
                          ? io::create_int_dataset(group, name, {points})
                          : io::create_double_dataset(group, name, {points});
    describe(set, column.description);
    if (!writer) continue;
    if (column.type == detail::ColumnType::text) {
      std::vector<std::string> values(points);
      for (std::int64_t i = 0; i < grid.size(); ++i)
        values[static_cast<std::size_t>(i)] = weightings[grid.coordinates(i).weighting];
      io::write(set, values);
    } else if (column.type == detail::ColumnType::integer) {
      std::vector<std::int64_t> values(points);
      for (std::int64_t i = 0; i < grid.size(); ++i) {
        values[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(
            parameter_value(name, grid, i, predictions[static_cast<std::size_t>(i)]));
      }
      io::write(set, values);
    } else {
      std::vector<double> values(points);
      for (std::int64_t i = 0; i < grid.size(); ++i) {
        values[static_cast<std::size_t>(i)] =
            parameter_value(name, grid, i, predictions[static_cast<std::size_t>(i)]);
      }
      io::write(set, values);
    }
  }
  for (const auto& column : detail::measurement_columns()) {
    io::DatasetOptions options;
    options.int_fill = std::string(column.name) == "run" ? -1 : status_pending;
    const io::Dataset set = column.type == detail::ColumnType::integer
                                ? io::create_int_dataset(group, column.name, {points}, options)
                                : io::create_double_dataset(group, column.name, {points}, options);
    describe(set, column.description);
  }
  const auto k = static_cast<hsize_t>(c.k);
  describe(io::create_double_dataset(group, "top_eigenvalues", {points, k}),
           "the k largest eigenvalues of S per point, descending (points x k)");
  describe(io::create_double_dataset(group, "overlaps", {points, k}),
           "|u_j^T u|^2 of the eigenvectors of the top_eigenvalues with the signal direction u (points x k)");
  describe(io::create_string_dataset(group, "error", points, error_width),
           "message of a failed point (status 2), empty otherwise; truncated to 256 characters");
  if (c.store_spectra) {
    const io::Group spectra = io::create_group(sweep.file_, "spectra");
    describe(io::create_double_dataset(spectra, "eigenvalues", {points, static_cast<hsize_t>(c.d)}),
             "all d eigenvalues of S per point, ascending (points x d)");
  }

  LibraryVersions versions = library_versions();
  for (std::string* text : {&versions.mpi, &versions.hdf5, &versions.blas, &versions.scalapack}) {
    *text = from_rank_zero(std::move(*text), comm);
  }
  io::write_attribute(sweep.file_, "rmtsweep_version", rmtsweep::version);
  io::write_attribute(sweep.file_, "draws_version", random::draws_version);
  io::write_attribute(sweep.file_, "draws_library", random::draws_library());
  io::write_attribute(sweep.file_, "created", run.started);
  io::write_attribute(sweep.file_, "config", resolved_config_text(c));
  io::write_attribute(sweep.file_, "command_line", run.command_line);
  io::write_attribute(sweep.file_, "mpi_ranks", run.mpi_ranks);
  io::write_attribute(sweep.file_, "ranks_per_point", run.ranks_per_point);
  io::write_attribute(sweep.file_, "eigensolver", run.eigensolver);
  io::write_attribute(sweep.file_, "point_count", static_cast<std::int64_t>(points));
  io::write_attribute(sweep.file_, "point_order",
                      "index = (((delta_index * n_gamma + gamma_index) * n_snr + snr_index) * n_weighting + "
                      "weighting_index) * trials + trial");
  io::write_attribute(sweep.file_, "mpi_library_version", versions.mpi);
  io::write_attribute(sweep.file_, "hdf5_version", versions.hdf5);
  io::write_attribute(sweep.file_, "blas_version", versions.blas);
  io::write_attribute(sweep.file_, "scalapack_library", versions.scalapack);
  if (!c.fail_points.empty()) {
    io::write_attribute(sweep.file_, "fault_injection", "fail_points was set: some failures are deliberate");
  }
  write_run_attributes(sweep.file_, 0, run);
  io::flush(sweep.file_);
  io::write_attribute(sweep.file_, "schema_version", schema_version);  // the "complete" marker
  io::flush(sweep.file_);
  sweep.open_point_datasets(c.store_spectra);
  return sweep;
}

StoredDraws stored_draws(const io::File& file) {
  StoredDraws draws;
  if (io::has_attribute(file, "draws_version")) draws.version = io::read_int_attribute(file, "draws_version");
  if (io::has_attribute(file, "draws_library")) draws.library = io::read_string_attribute(file, "draws_library");
  return draws;
}

std::string SweepFile::stored_config(const std::string& path, MPI_Comm comm) {
  const io::File file = io::open_file(path, io::Access::read_only, comm);
  if (!io::has_attribute(file, "schema_version") || !io::has_attribute(file, "config")) {
    throw InvalidOption(
        "resume", path,
        "not a complete rmtsweep sweep file (was its creation interrupted?); start again with --force");
  }
  if (io::read_int_attribute(file, "schema_version") != schema_version) {
    throw InvalidOption("resume", path,
                        "written with schema_version " +
                            std::to_string(io::read_int_attribute(file, "schema_version")) +
                            ", this rmtsweep resumes " + std::to_string(schema_version));
  }
  const StoredDraws draws = stored_draws(file);
  const auto refuse = [&](const std::string& why) {
    return InvalidOption("resume", path,
                         why + ": resuming would mix the two; finish it with the rmtsweep that started it, or "
                               "start again with --force");
  };
  if (draws.version != random::draws_version) {
    throw refuse("its points were drawn with draws_version " + std::to_string(draws.version) +
                 " and this rmtsweep draws version " + std::to_string(random::draws_version) +
                 " (other random numbers for the same seed)");
  }
  if (draws.library != random::draws_library()) {
    throw refuse("its Gaussian draws came from " + (draws.library.empty() ? "(unrecorded)" : draws.library) +
                 " and this rmtsweep's from " + random::draws_library() + " (they may differ for the same seed)");
  }
  return io::read_string_attribute(file, "config");
}

SweepFile SweepFile::open_for_resume(const std::string& path, MPI_Comm comm, const RunInfo& run) {
  (void)stored_config(path, comm);  // checks the file is complete
  SweepFile sweep;
  sweep.file_ = io::open_file(path, io::Access::read_write, comm);
  sweep.run_index_ = static_cast<int>(io::read_int_attribute(sweep.file_, "runs"));
  write_run_attributes(sweep.file_, sweep.run_index_, run);
  io::flush(sweep.file_);
  const io::Dataset top = io::open_dataset(sweep.file_, "points/top_eigenvalues");
  sweep.k_ = static_cast<int>(io::shape(top)[1]);
  sweep.open_point_datasets(io::exists(sweep.file_, "spectra/eigenvalues"));
  return sweep;
}

void SweepFile::open_point_datasets(bool with_spectra) {
  for (const auto& column : detail::measurement_columns()) {
    columns_.emplace_back(column.name, io::open_dataset(file_, std::string("points/") + column.name));
  }
  top_eigenvalues_ = io::open_dataset(file_, "points/top_eigenvalues");
  overlaps_ = io::open_dataset(file_, "points/overlaps");
  error_ = io::open_dataset(file_, "points/error");
  status_ = io::open_dataset(file_, "points/status");
  run_ = io::open_dataset(file_, "points/run");
  if (with_spectra) eigenvalues_ = io::open_dataset(file_, "spectra/eigenvalues");
}

io::Dataset& SweepFile::column(const std::string& name) {
  for (auto& [n, set] : columns_) {
    if (n == name) return set;
  }
  throw std::logic_error("no column " + name);
}

SweepFile::~SweepFile() {
  if (!file_.valid()) return;
  if (std::uncaught_exceptions() > 0) {
    (void)file_.release();  // H5Fclose is collective: leave it to MPI_Abort
    return;
  }
  try {
    close();
  } catch (...) {  // destructors must not throw; close() is called explicitly on the normal path
  }
}

std::vector<std::int64_t> SweepFile::read_status() const { return io::read_ints(status_); }

void SweepFile::write_done(std::int64_t index, const simulate::PointResult& result, double seconds) {
  const auto row = static_cast<hsize_t>(index);
  auto put = [&](const std::string& name, double value) {
    io::write_rows(column(name), row, 1, std::vector<double>{value});
  };
  std::vector<double> top = result.top_eigenvalues, overlaps = result.overlaps;
  top.resize(static_cast<std::size_t>(k_), nan);
  overlaps.resize(static_cast<std::size_t>(k_), nan);
  io::write_rows(top_eigenvalues_, row, 1, top);
  io::write_rows(overlaps_, row, 1, overlaps);
  if (eigenvalues_.valid()) io::write_rows(eigenvalues_, row, 1, result.eigenvalues);
  put("top_eigenvalue", result.top_eigenvalues.empty() ? nan : result.top_eigenvalues.front());
  put("overlap", result.overlap);
  put("ridge_accuracy", result.ridge_accuracy);
  put("weights_deviation", result.weights_deviation.value_or(nan));
  put("seconds", seconds);
  io::write_rows(error_, row, 1, std::vector<std::string>{""});
  io::write_rows(run_, row, 1, std::vector<std::int64_t>{run_index_});
  io::write_rows(status_, row, 1, std::vector<std::int64_t>{status_done});
}

void SweepFile::write_failed(std::int64_t index, const std::string& message, double seconds) {
  const auto row = static_cast<hsize_t>(index);
  // Clear what an interrupted earlier attempt may have left, so a failed row holds no stale values.
  for (const char* name : {"top_eigenvalue", "overlap", "ridge_accuracy", "weights_deviation"}) {
    io::write_rows(column(name), row, 1, std::vector<double>{nan});
  }
  io::write_rows(top_eigenvalues_, row, 1, std::vector<double>(static_cast<std::size_t>(k_), nan));
  io::write_rows(overlaps_, row, 1, std::vector<double>(static_cast<std::size_t>(k_), nan));
  if (eigenvalues_.valid()) {
    io::write_rows(eigenvalues_, row, 1,
                   std::vector<double>(static_cast<std::size_t>(io::shape(eigenvalues_)[1]), nan));
  }
  io::write_rows(error_, row, 1, std::vector<std::string>{message.empty() ? "failed" : message});
  io::write_rows(column("seconds"), row, 1, std::vector<double>{seconds});
  io::write_rows(run_, row, 1, std::vector<std::int64_t>{run_index_});
  io::write_rows(status_, row, 1, std::vector<std::int64_t>{status_failed});
}

void SweepFile::close() {
  columns_.clear();
  top_eigenvalues_.reset();
  overlaps_.reset();
  error_.reset();
  status_.reset();
  run_.reset();
  eigenvalues_.reset();
  if (file_.valid()) io::check(H5Fclose(file_.release()), "H5Fclose");
}

}  // namespace rmtsweep::sweep
