#pragma once
/// The shared HDF5 file of a sweep, written in parallel: its layout is the schema table
/// (schema.hpp), its root attributes are schema_version, config, point_count, point_order and
/// those of its provenance (provenance.hpp): sweep_id, rmtsweep_version, draws_version,
/// draws_library, created, command_line, mpi_ranks, ranks_per_point, eigensolver,
/// mpi_library_version, hdf5_version, blas_version, scalapack_library, runs and
/// run_<i>_{started,command_line,mpi_ranks,ranks_per_point,eigensolver}. Every dataset has a
/// `description`.
///
/// Crash safety: every dataset is created (early allocation, contiguous, no filters) and the
/// parameter and theory columns are written before any point runs, then the file is flushed
/// and `schema_version` is written last as the "complete" marker and flushed again. After
/// that only raw data is written, so a killed process leaves metadata intact. A point's
/// status (0 pending, 1 done, 2 failed) is written after its data, and, with a journal attached,
/// after the point's record reached the journal (journal.hpp), so that every point the file holds
/// as done or failed is in the journal. A variable-length error column (schema_version 3) is the exception:
/// parallel HDF5 cannot write it, so the failed points' messages are kept by the ranks that wrote them and
/// written by rank 0 after the parallel close (failure_messages.hpp).
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/provenance.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::store {

class SweepFile {
 public:
  /// Creates (truncates) `path` collectively on `comm` with every dataset, the grid, the
  /// parameter and theory columns (predictions[i] for point i), then flushes. Run index 0. `comm` must
  /// outlive the file's close (which gathers the failed points' messages on it).
  static SweepFile create(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                          const std::vector<theory::Prediction>& predictions, const RunInfo& run);
  /// The same with the root attributes of `provenance` and `config_text` as the stored config (a
  /// text that describes grid's config): what `rmtsweep recover` rebuilds a file with.
  static SweepFile create(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                          const std::vector<theory::Prediction>& predictions, const Provenance& provenance,
                          const std::string& config_text);
  /// Opens an existing complete sweep file of `grid` (schema_version 1 or 2) collectively for a
  /// resumed run: records the run's attributes (collective, then flushed) and returns it with
  /// run_index() = previous runs. Check it with stored_config first.
  static SweepFile open_for_resume(const std::string& path, MPI_Comm comm, const config::Grid& grid,
                                   const RunInfo& run);

  /// The resolved config text stored at creation (the `config` root attribute), read on rank 0
  /// of `comm` and broadcast. Throws InvalidArgument(option, path, ...) on every rank when the
  /// file is not a complete sweep file of this schema whose draws this rmtsweep reproduces: `option` is
  /// "resume" for `run --resume` (naming the switch `force`, which starts an rmtsweep file again), "file"
  /// for `refine`.
  static std::string stored_config(const std::string& path, MPI_Comm comm,
                                   const std::string& option = "resume");

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

  /// The root attributes of how the file was made (collective reads on every rank alike).
  Provenance provenance() const;
  /// The stored config text (root attribute `config`).
  std::string config_text() const;
  /// The measurement columns this file writes, in the order of a PointRecord's cells (status last),
  /// each with its stored width for a text column (0 otherwise).
  std::vector<std::pair<const Column*, std::size_t>> written_columns() const;

  /// From now on every point written is first appended to `journal` (leaders only; see journal.hpp).
  void attach_journal(std::unique_ptr<JournalWriter> journal);
  /// The journal attached, or null.
  JournalWriter* journal() const noexcept { return journal_.get(); }
  /// After the file was renamed to `path` while open (a new sweep's file built under a temporary name,
  /// sweep_creation.hpp): where close() opens it again to write the messages.
  void moved_to(const std::string& path) { path_ = path; }
  /// The failed points' messages of variable-length error columns, kept until close(): /points' (written
  /// here) and the refined points' (refine_file.hpp).
  DeferredMessages& messages() noexcept { return messages_; }

  /// Writes a computed point's measurements, then its status = done (independent; one rank).
  void write_done(std::int64_t index, const simulate::PointResult& result, double seconds);
  /// Writes a failed point's message, then its status = failed (independent; one rank).
  void write_failed(std::int64_t index, const std::string& message, double seconds);

  /// Writes the secular form of grid line `line` into /lines (independent; one rank; before its points, so
  /// that a done point's line has its row). Nothing where the file has no /lines.
  void write_line(std::int64_t line, const spectral::RankOneLine& secular, bool converged);
  /// Per grid line whether /lines holds its row (all false without /lines).
  std::vector<char> lines_written() const { return lines_.written(); }

  /// Writes a record's cells, its spectrum, and its status cell last (independent; one rank); the
  /// journal is not written (recover writes what a journal holds).
  void write_record(const PointRecord& record);

  /// Rewrites point `index`'s cells of the creation-time (parameter) columns called `names` from the grid
  /// and its prediction (independent; one rank): a damaged row restored (verify.hpp).
  void write_parameters(std::int64_t index, const config::Grid& grid, const theory::Prediction& prediction,
                        const std::vector<std::string>& names);
  /// Sets point `index`'s status to pending (independent; one rank): a damaged row no record vouches for,
  /// computed again by the run.
  void mark_pending(std::int64_t index);
  /// Writes line `record.line`'s row of /lines again as the journal recorded it, its checksum with it
  /// (independent; one rank; the journal is not written): a row that failed its checksum restored.
  void restore_line(const LineRecord& record);
  /// Rewrites the dataset at `path` ("/grid/snr", checksums.hpp's names) that creation wrote whole from the
  /// config (a /grid axis, a /points column of parameters, /points/point, /checksums/point,
  /// /spectra/d<d>/point, /lines/d<d>/line), from the grid and `predictions`, and its checksum. Collective
  /// (every rank; rank 0 writes the values). False, and nothing written, for any other dataset.
  bool restore_created(const std::string& path, const config::Grid& grid,
                       const std::vector<theory::Prediction>& predictions);

  /// Collective close: the file, then the journal (its last records reach the disk), then rank 0 writes
  /// the failed points' messages (failure_messages.hpp), the file opened serially. A failure of the
  /// journal's sync or of the messages' write ends every rank alike (AgreedFailure).
  void close();

 private:
  SweepFile() = default;
  void open_point_datasets(const config::SweepConfig& config, std::int64_t version);

  io::File file_;
  std::string path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int run_index_ = 0;
  int k_ = 0;
  void write_outcome(std::int64_t index, const PointOutcome& outcome, const std::vector<double>* spectrum);
  std::unique_ptr<JournalWriter> journal_;
  DeferredMessages messages_;

  /// A measurement column with its open dataset; `deferred`: a variable-length text, kept in messages_.
  struct Measurement {
    const Column* column;
    io::Dataset set;
    bool deferred = false;
    std::size_t width = 0;  ///< a fixed-length text's stored width
  };
  /// The measurement columns in schema order.
  std::vector<Measurement> measurements_;
  io::Dataset status_;
  io::Dataset row_checksums_;  ///< /checksums/points (schema_version 4 on)
  /// Per size of the d axis: its spectra (invalid where they are not stored), and the points per size.
  std::vector<io::Dataset> spectra_;
  LineStore lines_;
  std::int64_t points_per_d_ = 1;
};

}  // namespace rmtsweep::store
