// Creating, resuming and writing the sweep file (include/rmtsweep/store/sweep_file.hpp).
#include "rmtsweep/store/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "column_io.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::store {
namespace {

using detail::create_column;
using detail::write_cell;

using detail::describe;

/// Writes a parameter column whole: one cell per point from the grid and the predictions.
/// Writes the checksum of `values` (checksums.hpp) as `set`'s attribute: every rank, the same values.
template <class Values>
void stamped(hid_t set, const Values& values, std::size_t width = 0) {
  Checksum sum;
  if constexpr (std::is_same_v<Values, std::vector<std::string>>) {
    sum.add(values, width);
  } else {
    sum.add(values);
  }
  stamp(set, sum);
}

/// Writes a parameter column's values (rank 0: `writer`) and, on every rank, their checksum.
void write_parameter_column(const io::Dataset& set, const Column& column, const config::Grid& grid,
                            const std::vector<theory::Prediction>& predictions, bool writer) {
  const auto cell = [&](std::int64_t i) {
    const model::PointParams params = grid.params(i);
    const config::GridCoordinates at = grid.coordinates(i);
    return column.parameter(PointFacts{params, at, predictions[static_cast<std::size_t>(i)]});
  };
  const auto points = static_cast<std::size_t>(grid.size());
  if (column.type == ColumnType::text) {
    std::vector<std::string> values(points);
    for (std::size_t i = 0; i < points; ++i)
      values[i] = std::get<std::string>(cell(static_cast<std::int64_t>(i)));
    if (writer) io::write(set, values);
    stamped(set, values, H5Tget_size(io::Datatype(H5Dget_type(set))));
  } else if (column.type == ColumnType::integer) {
    std::vector<std::int64_t> values(points);
    for (std::size_t i = 0; i < points; ++i)
      values[i] = std::get<std::int64_t>(cell(static_cast<std::int64_t>(i)));
    if (writer) io::write(set, values);
    stamped(set, values);
  } else {
    std::vector<double> values(points);
    for (std::size_t i = 0; i < points; ++i) values[i] = std::get<double>(cell(static_cast<std::int64_t>(i)));
    if (writer) io::write(set, values);
    stamped(set, values);
  }
}

/// Makes `set` the coordinate of its dimension `dim` (its name is the dataset's) with long_name and units.
void make_coordinate(hid_t set, const Dimension& dim) {
  io::make_coordinate(set);
  io::write_cf_attributes(set, dim.long_name, dim.units);
}

/// Attaches to each axis of `set` the scale of its dimension in `scales` (dimension -> scale dataset).
void attach(hid_t set, const std::vector<const Dimension*>& dims,
            const std::vector<std::pair<const Dimension*, hid_t>>& scales) {
  for (std::size_t axis = 0; axis < dims.size(); ++axis) {
    const auto scale =
        std::find_if(scales.begin(), scales.end(), [&](const auto& s) { return s.first == dims[axis]; });
    if (scale == scales.end())
      throw std::logic_error("no scale of dimension " + std::string(dims[axis]->name));
    io::attach_scale(set, scale->second, static_cast<unsigned>(axis));
  }
}

/// Writes /grid/* (values: rank 0 only, independent), each dataset the coordinate of its own axis.
void write_grid(hid_t file, const config::Grid& grid, const std::vector<std::string>& weightings,
                bool writer) {
  const config::SweepConfig& c = grid.config();
  const io::Group group = io::create_group(file, std::string(grid_group));
  const std::vector<std::int64_t> sizes(c.d.begin(), c.d.end());
  const io::Dataset d = io::create_int_dataset(file, std::string(grid_axis::d.path), {sizes.size()});
  describe(d, grid_axis::d.description);
  make_coordinate(d, dimension::d);
  if (writer) io::write(d, sizes);
  stamped(d, sizes);
  auto axis = [&](const DatasetEntry& entry, const Dimension& dim, const std::vector<double>& values) {
    const io::Dataset set = io::create_double_dataset(file, std::string(entry.path), {values.size()});
    describe(set, entry.description);
    make_coordinate(set, dim);
    if (writer) io::write(set, values);
    stamped(set, values);
  };
  axis(grid_axis::delta, dimension::delta, c.delta);
  axis(grid_axis::gamma, dimension::gamma, c.gamma);
  axis(grid_axis::snr, dimension::snr, c.snr);
  std::size_t width = 1;
  for (const auto& w : weightings) width = std::max(width, w.size());
  const io::Dataset weighting =
      io::create_string_dataset(file, std::string(grid_axis::weighting.path), weightings.size(), width);
  describe(weighting, grid_axis::weighting.description);
  make_coordinate(weighting, dimension::weighting);
  if (writer) io::write(weighting, weightings);
  stamped(weighting, weightings, width);
  std::vector<std::int64_t> trials(static_cast<std::size_t>(c.trials));
  for (std::size_t t = 0; t < trials.size(); ++t) trials[t] = static_cast<std::int64_t>(t);
  const io::Dataset trial = io::create_int_dataset(file, std::string(grid_axis::trial.path), {trials.size()});
  describe(trial, grid_axis::trial.description);
  make_coordinate(trial, dimension::trial);
  if (writer) io::write(trial, trials);
  stamped(trial, trials);
}

/// Creates /points: its scales (the coordinate point = 0..points-1, the dimension k), then every column
/// of the schema table with its dimensions attached; the parameter columns are written (rank 0).
void write_points(hid_t file, const config::Grid& grid, const std::vector<theory::Prediction>& predictions,
                  const std::vector<std::string>& weightings, bool writer) {
  const config::SweepConfig& c = grid.config();
  const auto points = static_cast<hsize_t>(grid.size());
  const io::Group group = io::create_group(file, std::string(points_group));
  const io::Dataset point = io::create_int_dataset(file, std::string(points_dimension::point.path), {points});
  describe(point, points_dimension::point.description);
  make_coordinate(point, dimension::point);
  {
    std::vector<std::int64_t> index(points);
    for (hsize_t i = 0; i < points; ++i) index[i] = static_cast<std::int64_t>(i);
    if (writer) io::write(point, index);
    stamped(point, index);
  }
  const io::Dataset k =
      io::create_dimension_only(file, std::string(points_dimension::k.path), static_cast<hsize_t>(c.k));
  describe(k, points_dimension::k.description);
  io::write_cf_attributes(k, dimension::k.long_name, dimension::k.units);
  const std::vector<std::pair<const Dimension*, hid_t>> scales{{&dimension::point, point},
                                                               {&dimension::k, k}};

  std::size_t weighting_width = 1;  // text columns of parameters hold a weighting
  for (const auto& w : weightings) weighting_width = std::max(weighting_width, w.size());
  for (const Column* column : point_columns()) {
    const io::Dataset set = create_column(group, *column, points, c.k, weighting_width, column->integer_fill);
    attach(set, dimensions_of(*column), scales);
    if (column->phase == ColumnPhase::parameter)
      write_parameter_column(set, *column, grid, predictions, writer);
    // The failed points' messages are written whole at a close (failure_messages.hpp), which stamps them
    // again: none yet.
    if (column == &column::error && io::is_variable_string(set))
      stamped(set, std::vector<std::string>(static_cast<std::size_t>(points)));
  }
  // Each point's row checksum (checksums.hpp), written with its row: none yet.
  const io::Group checksums = io::create_group(file, checksums_group);
  // Its own coordinate `point` (netCDF readers look for a dimension's scale in the group or above it).
  const io::Dataset rows_point =
      io::create_int_dataset(file, std::string(checksums_group) + "/point", {points});
  describe(rows_point, points_dimension::point.description);
  make_coordinate(rows_point, dimension::point);
  {
    std::vector<std::int64_t> index(points);
    for (hsize_t i = 0; i < points; ++i) index[i] = static_cast<std::int64_t>(i);
    if (writer) io::write(rows_point, index);
    stamped(rows_point, index);
  }
  const io::Dataset rows = io::create_int_dataset(file, point_checksums_path, {points},
                                                  io::DatasetOptions{.int_fill = no_checksum});
  io::attach_scale(rows, rows_point, 0);
  describe(rows,
           "per /points row, the CRC-32 of its measured cells (but error), its status and its spectrum row, "
           "written with the row (-1: none yet); docs/reliability.md");
}

/// Creates /spectra/d<d> for each size whose spectra are stored: its eigenvalues (rows x d), labelled
/// by the coordinate point (each row's /points row, written by rank 0) and the dimension eigenvalue_index.
void write_spectra(hid_t file, const config::SweepConfig& c, bool writer) {
  if (!c.any_spectra()) return;
  const io::Group spectra = io::create_group(file, std::string(spectra_group));
  const auto per_d = static_cast<hsize_t>(c.points_per_d());
  for (std::size_t n = 0; n < c.d.size(); ++n) {
    const int d = c.d[n];
    if (!c.spectra_stored(d)) continue;
    const io::Group size = io::create_group(file, spectra_group_of(d));
    const io::Dataset rows = io::create_int_dataset(file, spectra_points_path(d), {per_d});
    describe(rows, spectra_points_description);
    make_coordinate(rows, dimension::point);
    const io::Dataset index =
        io::create_dimension_only(file, spectra_eigenvalue_index_path(d), static_cast<hsize_t>(d));
    describe(index, spectra_eigenvalue_index_description);
    io::write_cf_attributes(index, dimension::eigenvalue_index.long_name, dimension::eigenvalue_index.units);
    const io::Dataset eigenvalues =
        io::create_double_dataset(file, spectra_eigenvalues_path(d), {per_d, static_cast<hsize_t>(d)});
    describe(eigenvalues, spectra_eigenvalues_description);
    io::write_cf_attributes(eigenvalues, {}, "1");
    attach(eigenvalues, {&dimension::point, &dimension::eigenvalue_index},
           {{&dimension::point, rows}, {&dimension::eigenvalue_index, index}});
    std::vector<std::int64_t> point(per_d);
    for (hsize_t r = 0; r < per_d; ++r) point[r] = static_cast<std::int64_t>(n * per_d + r);
    if (writer) io::write(rows, point);
    stamped(rows, point);
  }
}

}  // namespace

SweepFile SweepFile::create(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                            const std::vector<theory::Prediction>& predictions, const RunInfo& run) {
  const config::SweepConfig& c = grid.config();
  return create(path, comm, grid, predictions, new_provenance(run, !c.fail_points.empty(), comm),
                config::resolved_config_text(c));
}

SweepFile SweepFile::create(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                            const std::vector<theory::Prediction>& predictions, const Provenance& provenance,
                            const std::string& config_text) {
  const config::SweepConfig& c = grid.config();
  const bool writer = parallel::rank_of(comm) == 0;
  const auto points = static_cast<hsize_t>(grid.size());
  SweepFile sweep;
  sweep.file_ = io::create_file(path, comm, true);
  sweep.path_ = path;
  sweep.comm_ = comm;
  sweep.k_ = c.k;
  std::vector<std::string> weightings;
  for (const auto& w : c.weighting) weightings.push_back(model::to_string(w));
  write_grid(sweep.file_, grid, weightings, writer);
  write_points(sweep.file_, grid, predictions, weightings, writer);
  write_spectra(sweep.file_, c, writer);

  if (stores_lines(c)) create_line_datasets(sweep.file_, grid, writer);

  io::write_attribute(sweep.file_, "Conventions", std::string(cf_conventions));
  io::write_attribute(sweep.file_, "config", config_text);
  {
    // The typed config, with the settings of the run that created the file (a merged or recovered file's
    // first run, which its provenance carries).
    config::SweepConfig created = c;
    created.ranks_per_point = provenance.runs.at(0).ranks_per_point;
    created.eigensolver = provenance.runs.at(0).eigensolver;
    io::write_attribute(sweep.file_, std::string(config_json_attribute),
                        config::resolved_config_json(created));
  }
  io::write_attribute(sweep.file_, "point_count", static_cast<std::int64_t>(points));
  io::write_attribute(
      sweep.file_, "point_order",
      "index = ((((d_index * n_delta + delta_index) * n_gamma + gamma_index) * n_snr + snr_index) * "
      "n_weighting + weighting_index) * trials + trial");
  detail::write_provenance(sweep.file_, provenance);
  sweep.run_index_ = static_cast<int>(provenance.runs.size()) - 1;
  io::flush(sweep.file_);
  io::write_attribute(sweep.file_, "schema_version", schema_version);  // the "complete" marker
  io::flush(sweep.file_);
  sweep.open_point_datasets(c, schema_version);
  sweep.lines_ = LineStore(sweep.file_, grid);
  return sweep;
}

namespace {

/// "; its journal ... rebuilds it: ..." where `path` has a journal directory, else empty.
std::string recover_hint(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(journal_directory(path), ec)) return {};
  return "; its journal (" + journal_directory(path) + ") can rebuild it: `rmtsweep recover " + path +
         "`, then this command again";
}

/// Why the file at `path` cannot be resumed by this rmtsweep (empty: it can), and whether starting it again
/// (a new sweep over it) is the way out (rank 0's serial check): not for another program's file, which is
/// never to be overwritten.
struct ResumeProblem {
  std::string problem;
  bool start_again = false;
};

ResumeProblem resume_problem(const std::string& path, std::string& config) {
  try {
    const SweepReader reader(path);
    if (reader.schema_version() < oldest_schema_version || reader.schema_version() > schema_version) {
      return {"written with schema_version " + std::to_string(reader.schema_version()) +
              ", this rmtsweep resumes " + std::to_string(oldest_schema_version) + " to " +
              std::to_string(schema_version)};
    }
    const StoredDraws draws = reader.draws();
    const std::string mixing = ": resuming would mix the two; finish it with the rmtsweep that started it";
    if (draws.version != random::draws_version) {
      return {"its points were drawn with draws_version " + std::to_string(draws.version) +
                  " and this rmtsweep draws version " + std::to_string(random::draws_version) +
                  " (other random numbers for the same seed)" + mixing,
              true};
    }
    if (draws.library != random::draws_library()) {
      return {"its Gaussian draws came from " + (draws.library.empty() ? "(unrecorded)" : draws.library) +
                  " and this rmtsweep's from " + random::draws_library() +
                  " (they may differ for the same seed)" + mixing,
              true};
    }
    config = reader.config_text();
    return {};
  } catch (const InvalidFile& e) {  // another program's file says so itself, and is never to be overwritten
    const std::string what = e.what();
    return {what.substr(std::min(what.size(), path.size() + 2)), SweepReader::written_by_rmtsweep(path)};
  } catch (const FileIoError& e) {  // "<path>: cannot open the sweep file: <cause>; <advice>"
    const std::string what = e.what();
    return {what.substr(std::min(what.size(), path.size() + 2)) + recover_hint(path), true};
  } catch (const Hdf5Error& e) {
    const std::string what = e.what();
    return {"cannot be read as a sweep file (" + what.substr(0, what.find('\n')) + ")" + recover_hint(path),
            true};
  }
}

}  // namespace

std::string SweepFile::stored_config(const std::string& path, MPI_Comm comm, const std::string& option) {
  std::string config;
  bool start_again = false;
  const std::string problem = parallel::decided_on_root(comm, [&] {
    const ResumeProblem p = resume_problem(path, config);
    start_again = p.start_again;
    return p.problem;
  });
  if (!problem.empty()) {
    // A resume's way out is a new sweep over the file (run's force); refine's is not.
    if (option == "resume" && parallel::broadcast(start_again, comm))
      throw InvalidArgument(option, path, problem, "force", "start it again (overwriting it)");
    throw InvalidArgument(option, path, problem);
  }
  return parallel::broadcast(std::move(config), comm);
}

SweepFile SweepFile::open_for_resume(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                                     const RunInfo& run) {
  SweepFile sweep;
  sweep.file_ = io::open_file(path, io::Access::read_write, comm);
  sweep.path_ = path;
  sweep.comm_ = comm;
  const std::int64_t version = io::read_int_attribute(sweep.file_, "schema_version");
  sweep.run_index_ = static_cast<int>(io::read_int_attribute(sweep.file_, "runs"));
  detail::write_run_attributes(sweep.file_, static_cast<std::size_t>(sweep.run_index_), run);
  // A file written before sweep_id existed gets one: its journal carries it (journal.hpp).
  if (!io::has_attribute(sweep.file_, "sweep_id")) {
    io::write_attribute(sweep.file_, "sweep_id",
                        parallel::decided_on_root(comm, [] { return new_sweep_id(); }));
  }
  io::flush(sweep.file_);
  const io::Dataset top = io::open_dataset(sweep.file_, path_of(column::top_eigenvalues));
  sweep.k_ = static_cast<int>(io::shape(top)[1]);
  sweep.open_point_datasets(grid.config(), version);
  sweep.lines_ = LineStore(sweep.file_, grid);
  return sweep;
}

void SweepFile::open_point_datasets(const config::SweepConfig& config, std::int64_t version) {
  for (const Column* column : point_columns()) {
    if (column->phase != ColumnPhase::measurement || column == &column::status) continue;
    // A file written before a column existed is resumed without it (its points keep what they had).
    if (!io::exists(file_, path_of(*column))) continue;
    io::Dataset set = io::open_dataset(file_, path_of(*column));
    const bool deferred = column->type == ColumnType::text && io::is_variable_string(set);
    const std::size_t width =
        column->type == ColumnType::text && !deferred ? H5Tget_size(io::Datatype(H5Dget_type(set))) : 0;
    measurements_.push_back({column, std::move(set), deferred, width});
  }
  status_ = io::open_dataset(file_, path_of(column::status));
  // A file of schema_version 3 or older has no row checksums: its rows are written without.
  if (io::exists(file_, point_checksums_path)) row_checksums_ = io::open_dataset(file_, point_checksums_path);
  // The spectra of size index n hold the points [n P, (n + 1) P) of the grid, P = points_per_d: row
  // index - n P. A version 1 file has one size, all points in /spectra/eigenvalues (n = 0).
  points_per_d_ = config.points_per_d();
  spectra_.clear();
  spectra_.resize(config.d.size());
  for (std::size_t n = 0; n < config.d.size(); ++n) {
    const std::string path =
        version < 2 ? std::string(spectra_eigenvalues.path) : spectra_eigenvalues_path(config.d[n]);
    if (io::exists(file_, path)) spectra_[n] = io::open_dataset(file_, path);
  }
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

Provenance SweepFile::provenance() const { return detail::read_provenance(file_); }

std::string SweepFile::config_text() const { return io::read_string_attribute(file_, "config"); }

std::vector<std::pair<const Column*, std::size_t>> SweepFile::written_columns() const {
  std::vector<std::pair<const Column*, std::size_t>> columns;
  // A text's stored width; 0 for a variable-length one (kept whole) and for a number.
  for (const Measurement& m : measurements_) {
    const bool fixed = m.column->type == ColumnType::text && !m.deferred;
    columns.emplace_back(m.column, fixed ? H5Tget_size(io::Datatype(H5Dget_type(m.set))) : 0);
  }
  columns.emplace_back(&column::status, 0);
  return columns;
}

void SweepFile::attach_journal(std::unique_ptr<JournalWriter> journal) { journal_ = std::move(journal); }

void SweepFile::write_outcome(std::int64_t index, const PointOutcome& outcome,
                              const std::vector<double>* spectrum) {
  PointRecord record;
  record.index = index;
  record.cells.reserve(measurements_.size() + 1);
  for (const Measurement& m : measurements_) record.cells.push_back(m.column->measurement(outcome));
  record.cells.push_back(column::status.measurement(outcome));
  const auto size = static_cast<std::size_t>(index / points_per_d_);
  if (const io::Dataset& eigenvalues = spectra_.at(size); eigenvalues.valid()) {
    record.spectrum = spectrum ? *spectrum
                               : std::vector<double>(static_cast<std::size_t>(io::shape(eigenvalues)[1]),
                                                     std::numeric_limits<double>::quiet_NaN());
  }
  // In the journal before any of it is in the file: a point the file holds as done is in the journal.
  if (journal_) journal_->append(record);
  write_record(record);
}

void SweepFile::write_record(const PointRecord& record) {
  if (record.cells.size() != measurements_.size() + 1)
    throw std::logic_error("a point record of " + std::to_string(record.cells.size()) + " cells for " +
                           std::to_string(measurements_.size() + 1) + " columns");
  const auto row = static_cast<hsize_t>(record.index);
  for (std::size_t c = 0; c < measurements_.size(); ++c) {
    if (!measurements_[c].deferred) {
      write_cell(measurements_[c].set, row, record.cells[c]);
    } else if (const std::string& message = std::get<std::string>(record.cells[c]); !message.empty()) {
      messages_.add(std::string(points_group), record.index, message);  // written at the close
    }
  }
  Checksum sum;  // over what the row holds as written (checksums.hpp)
  for (std::size_t c = 0; c < measurements_.size(); ++c)
    if (!measurements_[c].deferred) sum.add(record.cells[c], measurements_[c].width);
  sum.add(record.cells.back(), 0);
  const auto size = static_cast<std::size_t>(record.index / points_per_d_);
  if (const io::Dataset& eigenvalues = spectra_.at(size); eigenvalues.valid()) {
    const auto d = static_cast<std::size_t>(io::shape(eigenvalues)[1]);
    const std::vector<double> spectrum =
        record.spectrum.size() == d ? record.spectrum
                                    : std::vector<double>(d, std::numeric_limits<double>::quiet_NaN());
    write_cell(eigenvalues,
               static_cast<hsize_t>(record.index - static_cast<std::int64_t>(size) * points_per_d_),
               spectrum);
    sum.add(spectrum);
  }
  if (row_checksums_.valid()) write_cell(row_checksums_, row, Cell{sum.value()});
  write_cell(status_, row, record.cells.back());  // last: the point's data are complete
}

void SweepFile::write_line(std::int64_t line, const spectral::RankOneLine& secular, bool converged) {
  if (!lines_.valid()) return;
  // In the journal first, as a point: the row the file holds is in the journal.
  if (journal_) journal_->append(LineRecord{line, secular, converged});
  lines_.write(line, secular, converged);
}

void SweepFile::write_parameters(std::int64_t index, const config::Grid& grid,
                                 const theory::Prediction& prediction,
                                 const std::vector<std::string>& names) {
  const model::PointParams params = grid.params(index);
  const config::GridCoordinates at = grid.coordinates(index);
  for (const Column* column : point_columns()) {
    if (column->phase != ColumnPhase::parameter || !io::exists(file_, path_of(*column))) continue;
    if (std::find(names.begin(), names.end(), column->name) == names.end()) continue;
    write_cell(io::open_dataset(file_, path_of(*column)), static_cast<hsize_t>(index),
               column->parameter(PointFacts{params, at, prediction}));
  }
}

void SweepFile::mark_pending(std::int64_t index) {
  write_cell(status_, static_cast<hsize_t>(index), Cell{static_cast<std::int64_t>(PointStatus::pending)});
}

void SweepFile::restore_line(const LineRecord& record) {
  lines_.write(record.line, record.secular, record.converged);
}

bool SweepFile::restore_created(const std::string& path, const config::Grid& grid,
                                const std::vector<theory::Prediction>& predictions) {
  const std::string name = path.starts_with("/") ? path.substr(1) : path;
  if (name.empty() || !io::exists(file_, name)) return false;
  const config::SweepConfig& c = grid.config();
  const bool writer = parallel::rank_of(comm_) == 0;
  const io::Dataset set = io::open_dataset(file_, name);
  const auto integers = [&](const std::vector<std::int64_t>& values) {
    if (writer) io::write(set, values);
    stamped(set, values);
    return true;
  };
  const auto reals = [&](const std::vector<double>& values) {
    if (writer) io::write(set, values);
    stamped(set, values);
    return true;
  };
  const auto range = [](std::int64_t from, std::int64_t count) {
    std::vector<std::int64_t> values(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = from + i;
    return values;
  };
  if (name == grid_axis::d.path) return integers(std::vector<std::int64_t>(c.d.begin(), c.d.end()));
  if (name == grid_axis::delta.path) return reals(c.delta);
  if (name == grid_axis::gamma.path) return reals(c.gamma);
  if (name == grid_axis::snr.path) return reals(c.snr);
  if (name == grid_axis::trial.path) return integers(range(0, c.trials));
  if (name == grid_axis::weighting.path) {
    std::vector<std::string> weightings;
    for (const auto& w : c.weighting) weightings.push_back(model::to_string(w));
    const std::size_t width = H5Tget_size(io::Datatype(H5Dget_type(set)));
    if (writer) io::write(set, weightings);
    stamped(set, weightings, width);
    return true;
  }
  if (name == points_dimension::point.path || name == std::string(checksums_group).substr(1) + "/point")
    return integers(range(0, grid.size()));
  const std::int64_t sizes = static_cast<std::int64_t>(c.d.size());
  for (std::int64_t n = 0; n < sizes; ++n) {
    const int d = c.d[static_cast<std::size_t>(n)];
    if (name == spectra_points_path(d)) return integers(range(n * c.points_per_d(), c.points_per_d()));
    if (name == lines_group_of(d) + "/line") {
      const std::int64_t rows = grid.line_count() / sizes;
      return integers(range(n * rows, rows));
    }
  }
  for (const Column* column : point_columns()) {
    if (column->phase != ColumnPhase::parameter || name != path_of(*column)) continue;
    write_parameter_column(set, *column, grid, predictions, writer);
    return true;
  }
  return false;
}

void SweepFile::write_done(std::int64_t index, const simulate::PointResult& result, double seconds) {
  write_outcome(index, PointOutcome{&result, PointStatus::done, seconds, run_index_, "", k_},
                &result.eigenvalues);
}

void SweepFile::write_failed(std::int64_t index, const std::string& message, double seconds) {
  // Every measurement is written (NaN), so a failed row holds nothing an interrupted earlier attempt left.
  write_outcome(index,
                PointOutcome{nullptr, PointStatus::failed, seconds, run_index_,
                             message.empty() ? std::string_view("failed") : std::string_view(message), k_},
                nullptr);
}

void SweepFile::close() {
  measurements_.clear();
  status_.reset();
  row_checksums_.reset();
  spectra_.clear();
  lines_ = LineStore();
  if (!file_.valid()) {  // closed before: nothing collective is left
    if (journal_) std::exchange(journal_, nullptr)->close();
    return;
  }
  io::check(H5Fclose(file_.release()), "H5Fclose");
  // After the file (whose collective close must not wait on a rank that threw): its last records synced,
  // on every rank before rank 0 writes the messages (which a kill could tear: the journal rebuilds it).
  parallel::agreed(comm_, [&] {
    if (!journal_) return;
    const std::unique_ptr<JournalWriter> journal = std::move(journal_);
    journal->close();
  });
  messages_.write(path_, comm_);
}

}  // namespace rmtsweep::store
