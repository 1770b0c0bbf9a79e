// Rebuilding a sweep file from its journal (include/rmtsweep/store/recover.hpp).
#include "rmtsweep/store/recover.hpp"

#include <filesystem>
#include <map>
#include <optional>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/verify.hpp"
#include "rmtsweep/store/writer_lock.hpp"
#include "rmtsweep/version.hpp"

namespace fs = std::filesystem;

namespace rmtsweep::store {
namespace {

/// What the file at the path still says, when it opens.
struct OldFile {
  std::string sweep_id;
  std::vector<std::int64_t> status;
  bool refined = false;
  /// Its points done or failed that no journal record vouches for (a journal file removed or cut):
  /// kept from the file, so that recover never loses a point the file and the journal hold together.
  std::vector<PointRecord> kept;
  std::int64_t not_kept = 0;  ///< such points it could not read (a file of another rmtsweep's columns)
  /// Its /lines rows, by grid line (kept where the journal has no record of the line, as for points).
  std::map<std::int64_t, StoredLine> lines;
  /// Nothing to recover: it opens, holds every point the journal holds as the journal does (none pending
  /// that a record holds, none done in one and failed in the other), every failed point's message, and
  /// neither its checksums nor its journal find damage. Rebuilding it would only lose what is not journaled
  /// (refine's blocks).
  bool intact = false;
  std::int64_t without_record = 0;  ///< its points done or failed that no record holds
};

/// Whether the file `reader` reads (`status`, its journal `journal`) is whole: see OldFile::intact.
bool is_intact(const SweepReader& reader, const std::vector<std::int64_t>& status, const Journal& journal,
               std::int64_t& without_record) {
  const JournalAgreement agreement = compare_with_file(journal, status);
  without_record = agreement.file_only;
  if (agreement.journal_only != 0 || agreement.differing != 0) return false;
  const std::vector<char> settled =
      messages_settled(reader, reader.has(column::run) ? reader.integers(column::run)
                                                       : std::vector<std::int64_t>(status.size(), 0));
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] == static_cast<std::int64_t>(PointStatus::failed) && !settled[i]) return false;
  }
  if (check_checksums(reader.file()).damaged()) return false;
  return verify_sweep(reader, &journal).damaged.empty();
}

std::optional<OldFile> read_old(const std::string& path, const Journal& journal) {
  try {
    const SweepReader reader(path);
    OldFile old{reader.text_attribute("sweep_id").value_or(""),
                reader.status(),
                io::exists(reader.file(), "refine"),
                {},
                0,
                {},
                false,
                0};
    if (old.sweep_id != journal.head().provenance.sweep_id ||
        static_cast<std::int64_t>(old.status.size()) != journal.head().points)
      return old;  // another sweep's: refused by the caller
    try {
      old.intact = is_intact(reader, old.status, journal, old.without_record);
    } catch (const Error&) {  // a column that does not read: rebuilt
      old.intact = false;
    }
    if (old.intact) return old;
    const std::vector<JournalColumn>& columns = journal.head().columns;
    std::size_t run_cell = columns.size();
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (columns[c].name == column::run.name) run_cell = c;
    const std::vector<std::int64_t> rows = rows_without_record(
        old.status, reader.has(column::run) ? reader.integers(column::run) : std::vector<std::int64_t>{},
        reader.integer_attribute("runs").value_or(0), latest_records(journal), run_cell);
    try {
      old.kept = read_records(reader, columns, rows);
    } catch (const Error&) {
      old.not_kept = static_cast<std::int64_t>(rows.size());
    }
    if (!old.kept.empty()) {
      try {
        old.lines = read_lines(reader.file(), reader.config());
      } catch (const Error&) {  // no thresholds from these lines then: assemble reads them off the grid
      }
    }
    return old;
  } catch (const Error&) {  // truncated, damaged, not a sweep file: nothing to compare with
    return std::nullopt;
  }
}

/// The columns a record of a file this rmtsweep creates holds (SweepFile::written_columns of a new file).
std::vector<JournalColumn> expected_columns() {
  std::vector<std::pair<const Column*, std::size_t>> written;
  for (const Column* column : point_columns()) {
    if (column->phase == ColumnPhase::measurement && column != &column::status)
      written.emplace_back(column, stored_width(*column));
  }
  written.emplace_back(&column::status, 0);
  return journal_columns(written);
}

/// "a, b (only in the journal); c (only in this rmtsweep)"; widths that differ.
std::string column_differences(const std::vector<JournalColumn>& journal,
                               const std::vector<JournalColumn>& ours) {
  const auto names = [](const std::vector<JournalColumn>& from, const std::vector<JournalColumn>& without) {
    std::string text;
    for (const JournalColumn& c : from) {
      bool same = false;
      for (const JournalColumn& o : without) same = same || o == c;
      if (!same)
        text +=
            (text.empty() ? "" : ", ") + c.name + (c.width ? " (" + std::to_string(c.width) + " bytes)" : "");
    }
    return text;
  };
  const std::string only_journal = names(journal, ours), only_ours = names(ours, journal);
  std::string text;
  if (!only_journal.empty()) text += only_journal + " in the journal";
  if (!only_ours.empty()) text += (text.empty() ? "" : " against ") + only_ours + " in this rmtsweep";
  return text.empty() ? "the same columns in another order" : text;
}

void check_journal(const std::string& path, const Journal& journal) {
  const JournalHead& head = journal.head();
  // A journal of schema_version 3 holds the same records (4 added the file's checksums only): rebuilt as 4.
  if (head.schema_version != schema_version && head.schema_version != 3) {
    throw InvalidFile(
        journal.directory,
        "was written for a file of schema_version " + std::to_string(head.schema_version) +
            "; this rmtsweep rebuilds files of schema_version 3 and " + std::to_string(schema_version) +
            " only: recover " + path + " with the rmtsweep that wrote the journal (rmtsweep " +
            head.provenance.rmtsweep_version + "), whose file this rmtsweep then reads and resumes");
  }
  const std::vector<JournalColumn> ours = expected_columns();
  if (head.columns != ours) {
    throw InvalidFile(journal.directory,
                      "its records hold other /points columns than this rmtsweep writes (" +
                          column_differences(head.columns, ours) + "; written by rmtsweep " +
                          head.provenance.rmtsweep_version + "): recover " + path + " with that rmtsweep");
  }
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : ", ") + line;
  return text;
}

}  // namespace

RecoverOutcome recover_sweep(const std::string& path, const io::FileLock* held) {
  std::error_code ec;
  const std::string directory = journal_directory(path);
  if (fs::is_directory(path, ec)) {
    throw InvalidFile(path,
                      "a directory: give the sweep file (`rmtsweep recover FILE.h5` rebuilds FILE.h5 from "
                      "FILE.h5.journal)");
  }
  if (const std::string problem = io::not_regular_problem(path); !problem.empty())
    throw InvalidFile(path, problem + ": give the sweep file (FILE.h5), which recover would replace");
  const bool exists = fs::exists(fs::symlink_status(path, ec));
  if (!fs::is_directory(directory, ec)) {
    if (!exists) {
      throw InvalidFile(path, "no such file, and no journal " + directory +
                                  " beside it: check the name (recover takes the sweep file's path)");
    }
    const std::string kind = io::kind_at(directory);
    throw InvalidFile(
        path, "has no journal (" + directory +
                  (kind.empty() ? " is missing: the file was written without one, by an rmtsweep before "
                                  "journals, or its journal was moved)"
                                : " is " + kind + ", not the journal's directory)") +
                  ": there is nothing to rebuild it from; resume it if it opens, else start it again with "
                  "--force");
  }
  const Journal journal = read_journal(directory);
  check_journal(path, journal);
  const JournalHead& head = journal.head();
  const std::optional<OldFile> old = exists ? read_old(path, journal) : std::nullopt;
  if (old && old->sweep_id != head.provenance.sweep_id) {
    throw InvalidFile(path, "belongs to another sweep than the journal beside it (sweep_id " +
                                (old->sweep_id.empty() ? std::string("unrecorded") : old->sweep_id) +
                                ", the journal's " + head.provenance.sweep_id + "): is " + directory +
                                " another sweep's journal? nothing was changed");
  }
  const std::string name = fs::path(io::resolved_path(path)).filename().string();
  if (!old && head.file_name != name) {
    throw InvalidFile(directory, "was written beside a sweep file named " + head.file_name + ", not " + name +
                                     ": to rebuild that sweep, rename the journal to " + head.file_name +
                                     ".journal and run `rmtsweep recover` on " + head.file_name);
  }
  config::SweepConfig config;
  try {
    config = config::with_stored_axes(config::parse_sweep_config(config_lines(head.config)), head.config);
  } catch (const InvalidArgument& e) {
    throw InvalidFile(directory, std::string("its config does not parse: ") + e.what());
  }
  const config::Grid grid(config);
  if (grid.size() != head.points) {
    throw InvalidFile(directory, "its config gives " + std::to_string(grid.size()) + " points, its head " +
                                     std::to_string(head.points));
  }

  io::FileLock lock;
  if (!held) lock = lock_for_writing(path, "file");
  RecoverOutcome outcome;
  outcome.points = grid.size();
  outcome.records = journal.record_count();
  if (old && old->intact) {  // nothing to rebuild: left in place, untouched
    outcome.intact = true;
    for (const std::int64_t s : old->status) {
      if (s == static_cast<std::int64_t>(PointStatus::done)) ++outcome.done;
      if (s == static_cast<std::int64_t>(PointStatus::failed)) ++outcome.failed;
    }
    if (old->without_record > 0) {
      outcome.notes.push_back(std::to_string(old->without_record) +
                              " points done or failed in the file have no record in the journal (a journal "
                              "file removed or cut short): the file keeps them");
    }
    return outcome;
  }
  const std::vector<const PointRecord*> latest = latest_records(journal);
  const std::vector<theory::Prediction> predictions = config::grid_predictions(grid);

  io::StagedPath building = io::StagedPath::fixed(path, "recovering");
  const std::string damaged = exists ? io::aside_name(path, "damaged") : std::string();
  try {
    const parallel::Communicator self = parallel::Communicator::duplicate(MPI_COMM_SELF);
    SweepFile file =
        SweepFile::create(building.path(), self, grid, predictions, head.provenance, head.config);
    // The lines' rows before the points, as a run writes them: the journal's, then the old file's
    // rows the journal has no record of (their points are kept below).
    const std::vector<const LineRecord*> journal_lines = latest_lines(journal);
    std::vector<char> line_written(static_cast<std::size_t>(grid.line_count()), 0);
    for (const LineRecord* line : journal_lines) {
      if (line == nullptr || line->line >= grid.line_count()) continue;
      file.write_line(line->line, line->secular, line->converged);
      line_written[static_cast<std::size_t>(line->line)] = 1;
    }
    if (old) {
      for (const auto& [line, stored] : old->lines) {
        if (line >= 0 && line < grid.line_count() && !line_written[static_cast<std::size_t>(line)])
          file.write_line(line, stored.secular, stored.converged);
      }
    }
    std::vector<const PointRecord*> rows = latest;
    if (old) {
      for (const PointRecord& record : old->kept) rows.at(static_cast<std::size_t>(record.index)) = &record;
    }
    for (const PointRecord* record : rows) {
      if (record == nullptr) continue;
      file.write_record(*record);
      (record_status(*record) == PointStatus::done ? outcome.done : outcome.failed) += 1;
    }
    io::write_attribute(file.handle(), "recovered",
                        io::utc_stamp() + " by rmtsweep " + rmtsweep::version + " recover from " + directory +
                            " (" + std::to_string(outcome.done + outcome.failed) + " of " +
                            std::to_string(grid.size()) + " points)" +
                            (exists ? "; the file it replaced kept as " + damaged : std::string()));
    file.close();
  } catch (const Hdf5Error& e) {  // told before `building` is removed (file_error looks at the free space)
    throw io::file_error(building.path(), "write the rebuilt sweep file", e,
                         "nothing was changed (" + path + " and its journal are as they were; the partial " +
                             building.path() +
                             " was removed): once there is room, run the same command again");
  }
  // Failing here, nothing was changed either: the rebuilt file is removed with `building`.
  if (exists) io::rename_path(path, damaged, "keep the damaged sweep file under another name");
  outcome.damaged = damaged;
  try {
    building.put_in_place("put the rebuilt sweep file in its place");
  } catch (const FileIoError& e) {
    throw e.with_note(" -- the rebuilt file is " + building.path() +
                      (exists ? ", the old one " + damaged : std::string()) + ": rename the first to " +
                      path);
  }

  for (const JournalFile& file : journal.files) {
    if (file.ignored_bytes > 0) {
      outcome.notes.push_back(file.path + ": " + std::to_string(file.ignored_bytes) + " bytes ignored (" +
                              file.problem + ")");
    }
  }
  if (!journal.headless.empty())
    outcome.notes.push_back("ignored, without a readable head: " + joined(journal.headless));
  if (old && !old->kept.empty()) {
    outcome.notes.push_back(
        std::to_string(old->kept.size()) + " points done or failed in " + damaged +
        " had no record of theirs in the journal (a journal file removed or cut short): kept "
        "from that file as it held them");
  }
  if (old && old->not_kept > 0) {
    outcome.notes.push_back(std::to_string(old->not_kept) + " points done or failed in " + damaged +
                            " have no record in the journal and other columns than this rmtsweep's: they are "
                            "pending here (the old file keeps them)");
  }
  bool refined = old && old->refined;
  for (const RunInfo& run : head.provenance.runs)
    refined = refined || run.command_line.find(" refine ") != std::string::npos;
  if (refined) {
    outcome.notes.push_back(
        "the refined points (/refine, `rmtsweep refine`) are not journaled: the same `rmtsweep "
        "refine` computes them again");
  }
  return outcome;
}

}  // namespace rmtsweep::store
