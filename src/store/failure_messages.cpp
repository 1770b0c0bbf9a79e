// Failed points' messages: kept by the writing ranks, written serially at the close
// (include/rmtsweep/store/failure_messages.hpp).
#include "rmtsweep/store/failure_messages.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <span>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {
namespace {

/// The messages of every table as bytes: table, row (decimal) and message, each ended by a NUL (a message
/// holds none: add() cuts it there).
std::vector<char> encoded(const std::map<std::string, std::map<std::int64_t, std::string>>& tables) {
  std::vector<char> bytes;
  const auto put = [&](const std::string& text) {
    bytes.insert(bytes.end(), text.begin(), text.end());
    bytes.push_back('\0');
  };
  for (const auto& [table, rows] : tables) {
    for (const auto& [row, message] : rows) {
      put(table);
      put(std::to_string(row));
      put(message);
    }
  }
  return bytes;
}

/// The gathered bytes of every rank (rank order) as tables again: a later rank's message for a row replaces
/// an earlier one's (no row is written by two ranks in one run).
std::map<std::string, std::map<std::int64_t, std::string>> decoded(const std::vector<char>& bytes) {
  std::map<std::string, std::map<std::int64_t, std::string>> tables;
  std::size_t at = 0;
  const auto take = [&]() {
    const std::size_t end = std::string_view(bytes.data(), bytes.size()).find('\0', at);
    if (end == std::string_view::npos) throw std::logic_error("failure messages: a gathered entry cut short");
    std::string text(bytes.data() + at, end - at);
    at = end + 1;
    return text;
  };
  while (at < bytes.size()) {
    std::string table = take();
    const std::int64_t row = std::strtoll(take().c_str(), nullptr, 10);
    tables[std::move(table)][row] = take();
  }
  return tables;
}

}  // namespace

void DeferredMessages::add(const std::string& table, std::int64_t row, std::string_view message) {
  tables_[table][row] = std::string(message.substr(0, message.find('\0')));
}

namespace {

/// What settling one table writes: its rows whose stored message is not the one the rule gives.
struct Settlement {
  std::string table;
  std::vector<hsize_t> rows;
  std::vector<std::string> values;
};

/// The rule (failure_messages.hpp) on the table `table` of the open file: a failed row's message is
/// `messages`' for it, else the stored one; any other row's is empty. Nothing where the table's error is
/// fixed-length (a file of schema_version 1 or 2: written with the point).
Settlement settlement(hid_t file, const std::string& table,
                      const std::map<std::int64_t, std::string>& messages) {
  Settlement s{table, {}, {}};
  const std::string error_path = table + "/" + std::string(column::error.name);
  if (!io::exists(file, error_path)) return s;
  const io::Dataset error = io::open_dataset(file, error_path);
  if (!io::is_variable_string(error)) return s;
  const std::vector<std::int64_t> status =
      io::read_ints(io::open_dataset(file, table + "/" + std::string(column::status.name)));
  const std::vector<std::string> stored = io::read_strings(error);
  for (std::size_t i = 0; i < status.size() && i < stored.size(); ++i) {
    std::string wanted;
    if (status[i] == static_cast<std::int64_t>(PointStatus::failed)) {
      const auto given = messages.find(static_cast<std::int64_t>(i));
      wanted = given != messages.end() ? given->second : stored[i];
    }
    if (wanted != stored[i]) {
      s.rows.push_back(static_cast<hsize_t>(i));
      s.values.push_back(std::move(wanted));
    }
  }
  return s;
}

/// The failure messages a journal holds: per point, its latest record's message when that record is a
/// failure. Empty (finds nothing) where the journal has no error column.
class JournalFailures {
 public:
  explicit JournalFailures(const Journal& journal) {
    const std::vector<JournalColumn>& columns = journal.head().columns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].name == column::error.name) {
        cell_ = c;
        latest_ = latest_records(journal);
      }
    }
  }
  /// The message of point `row`'s latest record, where it is a failure.
  std::optional<std::string> at(std::size_t row) const {
    const PointRecord* record = row < latest_.size() ? latest_[row] : nullptr;
    if (record == nullptr || record_status(*record) != PointStatus::failed) return std::nullopt;
    const auto* text = std::get_if<std::string>(&record->cells.at(cell_));
    if (text == nullptr) return std::nullopt;
    return text->substr(0, text->find('\0'));
  }

 private:
  std::size_t cell_ = 0;
  std::vector<const PointRecord*> latest_;
};

/// A failed /points row whose message an earlier run, killed before its close, left in its journal only,
/// and that run.
struct LeftRow {
  std::int64_t row = 0, run = 0;
};

/// The rows left so: failed, not given a message by this close, and written by a run later than
/// messages_run (`through`) and earlier than this one (`current`).
std::vector<LeftRow> left_by_killed_runs(hid_t file, const std::map<std::int64_t, std::string>& given,
                                         std::int64_t through, std::int64_t current) {
  std::vector<LeftRow> left;
  if (!io::exists(file, path_of(column::run))) return left;
  const std::vector<std::int64_t> status = io::read_ints(io::open_dataset(file, path_of(column::status)));
  const std::vector<std::int64_t> run = io::read_ints(io::open_dataset(file, path_of(column::run)));
  for (std::size_t i = 0; i < status.size() && i < run.size(); ++i) {
    const auto row = static_cast<std::int64_t>(i);
    if (status[i] == static_cast<std::int64_t>(PointStatus::failed) && run[i] > through && run[i] < current &&
        !given.contains(row))
      left.push_back({row, run[i]});
  }
  return left;
}

/// The messages of `rows` in the journal beside the sweep file at `path` (the latest record of each, where
/// it is a failure), when that journal is this file's (its sweep_id); none where it cannot be read.
std::map<std::int64_t, std::string> journal_messages(const std::string& path, hid_t file,
                                                     const std::vector<LeftRow>& rows) {
  std::map<std::int64_t, std::string> found;
  try {
    const Journal journal = read_journal(journal_directory(path));
    if (journal.files.empty() ||
        journal.head().provenance.sweep_id != io::read_string_attribute(file, "sweep_id"))
      return found;
    const JournalFailures failures(journal);
    for (const LeftRow& left : rows) {
      if (auto message = failures.at(static_cast<std::size_t>(left.row)))
        found[left.row] = std::move(*message);
    }
  } catch (const std::exception&) {
    // No journal to read (moved, damaged): those rows stay unsettled (write() keeps messages_run below them).
  }
  return found;
}

}  // namespace

void DeferredMessages::write(const std::string& path, MPI_Comm comm) {
  const std::vector<char> mine = encoded(tables_);
  tables_.clear();
  const std::vector<char> all = parallel::gather(std::span<const char>(mine), comm);
  parallel::agreed(comm, [&] {
    if (parallel::rank_of(comm) != 0) return;
    auto tables = decoded(all);
    tables.try_emplace(std::string(points_group));  // settled at every close: an earlier run's left-overs
    try {
      // Read first (beside any reader): most closes change nothing, and then nothing is written.
      std::vector<Settlement> changes;
      // The run whose close this is, and the latest whose close settled /points: rows failed by a run between
      // them (killed before its close) take their messages from the journal here, since messages_run moves
      // past them; where the journal has none, it moves only to the run before the earliest such row's.
      std::int64_t settled_through = -1;
      {
        const io::File file = io::open_file(path, io::Access::read_only);
        const std::int64_t current = io::read_int_attribute(file, "runs") - 1;
        const std::int64_t through = io::has_attribute(file, std::string(messages_run_attribute))
                                         ? io::read_int_attribute(file, std::string(messages_run_attribute))
                                         : -1;
        settled_through = current;
        auto& points = tables[std::string(points_group)];
        if (io::exists(file, path_of(column::error)) &&
            io::is_variable_string(io::open_dataset(file, path_of(column::error)))) {
          const std::vector<LeftRow> left = left_by_killed_runs(file, points, through, current);
          if (!left.empty()) {
            std::map<std::int64_t, std::string> found = journal_messages(path, file, left);
            for (const LeftRow& l : left) {
              if (const auto message = found.find(l.row); message != found.end())
                points[l.row] = std::move(message->second);
              else
                settled_through = std::min(settled_through, l.run - 1);
            }
          }
        }
        for (const auto& [table, messages] : tables) {
          Settlement s = settlement(file, table, messages);
          if (!s.rows.empty()) changes.push_back(std::move(s));
        }
      }
      if (changes.empty()) return;
      io::File file = io::open_file_beside_readers(path);
      for (const Settlement& s : changes) {
        io::write_strings_at(io::open_dataset(file, s.table + "/" + std::string(column::error.name)), s.rows,
                             s.values);
        // Last: a kill before it leaves this run's rows unsettled, not wrongly settled.
        if (s.table == points_group) {
          io::write_attribute(file, std::string(messages_run_attribute), settled_through);
        }
      }
      io::check(H5Fclose(file.release()), "H5Fclose");
    } catch (const Hdf5Error& e) {
      throw io::file_error(path, "write the failed points' messages into the sweep file", e,
                           "its points are all in it, and the messages in its journal (`rmtsweep status` "
                           "shows them); `rmtsweep recover` rebuilds the file should it not open");
    }
  });
}

std::vector<char> messages_settled(const SweepReader& reader, const std::vector<std::int64_t>& run) {
  std::vector<char> settled(run.size(), 1);
  if (!reader.has(column::error) ||
      !io::is_variable_string(io::open_dataset(reader.file(), path_of(column::error))))
    return settled;
  const std::int64_t through = reader.integer_attribute(std::string(messages_run_attribute)).value_or(-1);
  for (std::size_t i = 0; i < run.size(); ++i) settled[i] = run[i] <= through ? 1 : 0;
  return settled;
}

std::vector<std::string> failure_messages(const SweepReader& reader, const Journal* journal) {
  const std::vector<std::int64_t> status = reader.status();
  std::vector<std::string> messages = reader.texts(column::error);
  const std::vector<char> settled =
      messages_settled(reader, reader.has(column::run) ? reader.integers(column::run)
                                                       : std::vector<std::int64_t>(status.size(), 0));
  std::optional<JournalFailures> failures;
  if (journal != nullptr && !journal->files.empty() &&
      journal->head().points == static_cast<std::int64_t>(status.size()))
    failures.emplace(*journal);
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] != static_cast<std::int64_t>(PointStatus::failed)) {
      messages[i].clear();  // an earlier failure's, left by a run killed before its close emptied it
      continue;
    }
    if (settled[i] || !failures) continue;
    if (auto message = failures->at(i)) messages[i] = std::move(*message);
  }
  return messages;
}

}  // namespace rmtsweep::store
