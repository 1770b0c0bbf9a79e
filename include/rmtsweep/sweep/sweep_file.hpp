#pragma once
/// The shared HDF5 file of a sweep, written in parallel: its layout is the schema table
/// (schema.hpp), its root attributes are schema_version, rmtsweep_version, draws_version,
/// draws_library, created, config, command_line, mpi_ranks, ranks_per_point, eigensolver,
/// mpi_library_version, hdf5_version, blas_version, scalapack_library, runs and
/// run_<i>_{started,command_line,mpi_ranks,ranks_per_point,eigensolver}. Every dataset has a
/// `description`.
///
/// Crash safety: every dataset is created (early allocation, contiguous, no filters) and the
/// parameter and theory columns are written before any point runs, then the file is flushed
/// and `schema_version` is written last as the "complete" marker and flushed again. After
/// that only raw data is written, so a killed process leaves metadata intact. A point's
/// status (0 pending, 1 done, 2 failed) is written after its data.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/sweep/grid.hpp"
#include "rmtsweep/sweep/schema.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::sweep {

/// Who runs this invocation; identical on every rank (rank 0's values are broadcast).
struct RunInfo {
  std::string command_line;
  std::string started;  ///< ISO 8601 UTC
  int mpi_ranks = 1;
  int ranks_per_point = 1;
  EigenSetting eigensolver = EigenSetting::automatic;  ///< the run's eigensolver setting
};

/// Library versions recorded in the root attributes.
struct LibraryVersions {
  std::string mpi, hdf5, blas, scalapack;
};

/// Versions of the libraries this process runs with (MPI_Get_library_version,
/// H5get_libversion, openblas_get_config, the ScaLAPACK shared object's file name).
LibraryVersions library_versions();

class SweepFile {
 public:
  /// Creates (truncates) `path` collectively on `comm` with every dataset, the grid, the
  /// parameter and theory columns (predictions[i] for point i), then flushes. Run index 0.
  static SweepFile create(const std::string& path, MPI_Comm comm, const Grid& grid,
                          const std::vector<theory::Prediction>& predictions, const RunInfo& run);
  /// Opens an existing complete sweep file of `grid` (schema_version 1 or 2) collectively for a
  /// resumed run: records the run's attributes (collective, then flushed) and returns it with
  /// run_index() = previous runs. Check it with stored_config first.
  static SweepFile open_for_resume(const std::string& path, MPI_Comm comm, const Grid& grid, const RunInfo& run);

  /// The resolved config text stored at creation (the `config` root attribute), read on rank 0
  /// of `comm` and broadcast. Throws InvalidOption("resume", path, ...) on every rank when the
  /// file is not a complete sweep file of this schema whose draws this rmtsweep reproduces.
  static std::string stored_config(const std::string& path, MPI_Comm comm);

  SweepFile(SweepFile&&) noexcept = default;
  SweepFile& operator=(SweepFile&&) noexcept = default;
  /// Closes the file unless an exception unwinds (closing is collective; main aborts then).
  ~SweepFile();

  int run_index() const noexcept { return run_index_; }
  /// Top eigenvalues stored per point.
  int k() const noexcept { return k_; }
  /// The open file, for the refined points' blocks beside /points (refine_file.hpp).
  hid_t handle() const noexcept { return file_; }
  /// /points/status of every point (independent read).
  std::vector<std::int64_t> read_status() const;

  /// Writes a computed point's measurements, then its status = done (independent; one rank).
  void write_done(std::int64_t index, const simulate::PointResult& result, double seconds);
  /// Writes a failed point's message, then its status = failed (independent; one rank).
  void write_failed(std::int64_t index, const std::string& message, double seconds);

  /// Collective close.
  void close();

 private:
  SweepFile() = default;
  void open_point_datasets(const SweepConfig& config, std::int64_t version);

  io::File file_;
  int run_index_ = 0;
  int k_ = 0;
  void write_outcome(std::int64_t index, const PointOutcome& outcome, const std::vector<double>* spectrum);

  /// The measurement columns in schema order, each with its open dataset.
  std::vector<std::pair<const Column*, io::Dataset>> measurements_;
  io::Dataset status_;
  /// Per size of the d axis: its spectra (invalid where they are not stored), and the points per size.
  std::vector<io::Dataset> spectra_;
  std::int64_t points_per_d_ = 1;
};

}  // namespace rmtsweep::sweep
