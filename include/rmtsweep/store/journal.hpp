#pragma once
/// The point journal of a sweep file: an append-only record of every point a run
/// finishes, beside the file, from which `rmtsweep recover` rebuilds a file that cannot be read.
///
/// Layout: FILE.h5.journal/run-<i>-rank-<r>.jrnl, one file per run i and writing world rank r
/// (the leaders of the groups: the ranks that write the points' records into the file). A file is
/// the 8 bytes "rmtsjrn2", then frames:
///
///     u32 kind (1 head, 2 point, 3 line) | u32 length | length bytes of payload | u32 crc32
///
/// little-endian, the CRC-32 (zlib's) taken over kind, length and payload. The first two frames are the
/// head, the same bytes twice: where one byte of the first copy is damaged, the second (found as the
/// head frame whose offset is 8 + 12 + its own length: where a copy as long would end) is read, so that no
/// damaged byte of the head loses the file's records (a file of format 1, "rmtsjrn1", has one copy, and is
/// still read). The head is a list of (key, value) texts ("format": "rmtsweep point journal 2"): the sweep
/// file's name, schema_version, the stored config text, the sweep_id and the whole provenance
/// (provenance.hpp: versions and every run up to this one), this run and rank, k, the number of points and
/// the record's columns (name, type, shape, width). Each point frame holds the point's index, one cell per
/// column of the head (real: f64; integer: i64; text: u32 length and the bytes, the whole message; top_k: u32
/// count and f64s) and its spectrum (u32 count and f64s; 0 where its size stores none). A line frame holds a
/// line's row of /lines (line_store.hpp): i64 line, i64 form, i64 converged, f64 rho, then poles, signal and
/// offset (each u32 count and f64s), written before its points' records. A record is written with one
/// write(2) before the point's status is written in the file, so every point the file holds as done or failed
/// is in the journal whatever kills the process afterwards; the journal is synced to the disk (fdatasync) at
/// most once a second and when the run closes it (docs/reliability.md: the cost of a sync per record,
/// measured). A frame cut short (kill -9 in the middle of a write, a full disk) or whose checksum fails ends
/// what is read of its file: the bytes after the last whole record are ignored, and said.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/store/provenance.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {

/// One point's outcome as a sweep file stores it: the cells of the measurement columns the file
/// writes (SweepFile::written_columns(), status last) and the row of its size's spectra (empty where
/// that size stores none). What SweepFile writes and what the journal records.
struct PointRecord {
  std::int64_t index = 0;
  std::vector<Cell> cells;
  std::vector<double> spectrum;
};

/// One line's row of /lines as the journal holds it (line_store.hpp).
struct LineRecord {
  std::int64_t line = 0;
  spectral::RankOneLine secular;
  bool converged = true;
};

/// A column of a journal's records, as its head describes it.
struct JournalColumn {
  std::string name;
  ColumnType type = ColumnType::real;
  ColumnShape shape = ColumnShape::scalar;
  std::size_t width = 0;  ///< a text column's width in the file it was written for; 0 otherwise
  bool operator==(const JournalColumn&) const = default;
};

/// The journal columns of the measurement columns `written` (SweepFile::written_columns()).
std::vector<JournalColumn> journal_columns(const std::vector<std::pair<const Column*, std::size_t>>& written);

/// What a journal file's head says: which sweep, which run and rank, which columns.
struct JournalHead {
  std::string file_name;  ///< the sweep file's name, without its directory
  std::int64_t schema_version = 0;
  std::string config;     ///< the sweep file's stored config text
  Provenance provenance;  ///< sweep_id, versions and runs[0..run]
  std::int64_t run = 0;
  int rank = 0;
  int k = 0;
  std::int64_t points = 0;
  std::vector<JournalColumn> columns;  ///< each record's cells, in order (status last)
};

/// "FILE.h5.journal": the journal directory of the sweep file `sweep_path`.
std::string journal_directory(const std::string& sweep_path);
/// "run-<run>-rank-<rank>.jrnl".
std::string journal_file_name(std::int64_t run, int rank);

/// The journal file of one run on one rank, appended to by that rank alone. Move-only; the
/// destructor closes it without throwing.
class JournalWriter {
 public:
  JournalWriter(std::string directory, JournalHead head);
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  ~JournalWriter();

  /// Creates the file (it must not exist) and writes its head; append() does it when not yet done.
  /// Throws FileIoError (a file whose head cannot be written is removed: it holds nothing).
  void open();
  /// Appends one record with one write(2). A write that fails (a full disk, a quota) is undone (the
  /// file cut back to its last whole record) and thrown as FileIoError. A file another process removed
  /// (its directory with it) or cut short meanwhile is said on `warnings` (its records are lost to
  /// `rmtsweep recover`; the sweep file still holds their points) and the records go on in a new file,
  /// run-<i>-rank-<r>.<n>.jrnl beside it, with its own head.
  void append(const PointRecord& record);
  /// Appends a line's row the same way (before its points' records).
  void append(const LineRecord& record);
  /// Syncs and closes (FileIoError when the sync fails); a loss found now is said as in append().
  void close();
  /// Where losses are said (stderr by default; null: not said).
  void warn_on(std::FILE* warnings) noexcept { warnings_ = warnings; }
  /// Records this writer wrote into files that another process then removed or cut short.
  std::int64_t lost_records() const noexcept { return lost_; }
  const std::string& path() const noexcept { return path_; }
  /// After the directory this writer's file is in was renamed to `directory` (the journal built beside a
  /// new sweep file under a temporary name, then put in place): its path from now on.
  void moved_to(const std::string& directory);

 private:
  void write_frame(const std::vector<unsigned char>& frame, const char* operation);
  void sync(const char* operation);
  /// Whether the open file is still the one written (not removed, not shorter); if not, says so and,
  /// with `go_on`, opens a new file for the records to come.
  void check_not_lost(bool go_on);

  JournalHead head_;
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;    ///< bytes of whole frames in the file
  std::int64_t records_ = 0;  ///< records in the open file
  std::int64_t lost_ = 0;
  int successor_ = 1;  ///< the files begun after a loss: run-<i>-rank-<r>.<n>.jrnl, n = 2, 3, ...
  std::FILE* warnings_ = stderr;
  std::chrono::steady_clock::time_point last_sync_{};
};

/// One journal file as read.
struct JournalFile {
  std::string path;
  bool has_head = false;
  JournalHead head;
  std::vector<PointRecord> records;
  std::vector<LineRecord> lines;    ///< the lines' rows, in the order written
  std::uint64_t bytes = 0;          ///< the file's size
  std::uint64_t ignored_bytes = 0;  ///< bytes after the last whole frame, not read
  std::string problem;              ///< why the rest was ignored ("a record cut short ..."), or empty
};

/// Reads one journal file: its head and every whole record up to the first frame cut short or
/// failing its checksum. Throws FileIoError only when the file cannot be read at all.
JournalFile read_journal_file(const std::string& path);
/// Reads the bytes of a journal file as read_journal_file() does (`path`: the file's name, said in problems).
JournalFile read_journal_bytes(std::span<const unsigned char> bytes, const std::string& path);

/// The journal of one sweep: every file of its directory with a head, ordered by run then rank.
struct Journal {
  std::string directory;
  std::vector<JournalFile> files;
  std::vector<std::string> headless;                             ///< files without a readable head (ignored)
  const JournalHead& head() const { return files.back().head; }  ///< of the latest run
  /// Records in all files and the ignored bytes.
  std::int64_t record_count() const;
  std::uint64_t ignored_bytes() const;
};

/// Reads `directory`. Throws InvalidFile naming the directory (or the file) when it is missing, holds
/// no journal file, or holds files of different sweeps (sweep_id, config, schema_version or columns).
Journal read_journal(const std::string& directory);

/// The latest record of each point, by index (size: the head's points; null where none): a later run's
/// record replaces an earlier one's (a failed point retried by --resume).
std::vector<const PointRecord*> latest_records(const Journal& journal);

/// The latest row of each line the journal holds, by line index (a later run's replaces an earlier one's).
std::vector<const LineRecord*> latest_lines(const Journal& journal);

/// How a file's /points/status and its journal agree (what `rmtsweep status` reports).
struct JournalAgreement {
  std::int64_t journal_only = 0;  ///< points the journal holds that the file marks pending
  /// Of those, points whose record is the last of its file in the latest run: a running sweep writes
  /// such a point's status next (in flight), or a killed one never did.
  std::int64_t in_flight = 0;
  /// Of journal_only, points whose latest record is the latest run's: while that run holds the file's lock
  /// all of them are in flight (its writes reach a reader of the file later than its records).
  std::int64_t of_latest_run = 0;
  std::int64_t file_only = 0;  ///< points done or failed in the file that no record holds
  std::int64_t differing = 0;  ///< points done in one and failed in the other
  bool agrees() const noexcept { return journal_only == 0 && file_only == 0 && differing == 0; }
};
JournalAgreement compare_with_file(const Journal& journal, const std::vector<std::int64_t>& status);

/// The status a record holds (its last cell).
PointStatus record_status(const PointRecord& record);

}  // namespace rmtsweep::store
