// Reading a sweep's point journal (include/rmtsweep/store/journal.hpp).
#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>

#include "journal_format.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/store/journal.hpp"

namespace rmtsweep::store {
namespace {

/// Why two heads cannot be of one sweep, or empty.
std::string difference(const JournalHead& a, const JournalHead& b) {
  if (a.provenance.sweep_id != b.provenance.sweep_id)
    return "sweep_id " + b.provenance.sweep_id + ", not " + a.provenance.sweep_id;
  if (a.config != b.config) return "another config";
  if (a.schema_version != b.schema_version || a.points != b.points || a.k != b.k)
    return "another schema_version, number of points or k";
  if (a.columns != b.columns) return "other columns";
  return {};
}

}  // namespace

JournalFile read_journal_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::os_file_error(path, "read the sweep's journal file", errno ? errno : EIO);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  if (in.bad()) throw io::os_file_error(path, "read the sweep's journal file", EIO);
  return read_journal_bytes(bytes, path);
}

JournalFile read_journal_bytes(std::span<const unsigned char> bytes, const std::string& path) {
  JournalFile file;
  file.path = path;
  file.bytes = bytes.size();
  detail::FoundHead found = detail::find_head(bytes);
  if (!found.found) {
    file.problem = found.problem;
    file.ignored_bytes = bytes.size();
    return file;
  }
  file.has_head = true;
  file.head = std::move(found.head);
  const detail::Frames frames = detail::split_frames(bytes, found.records);
  std::size_t used = found.records;  // bytes of the head and of the frames decoded
  file.problem = frames.problem;
  for (const detail::Frame& frame : frames.frames) {
    try {
      if (frame.kind == detail::FrameKind::head) throw detail::BadPayload{"a second head"};
      if (frame.kind == detail::FrameKind::line) {
        file.lines.push_back(detail::decode_line(frame.payload));
      } else {
        file.records.push_back(detail::decode_record(frame.payload, file.head));
      }
    } catch (const detail::BadPayload& bad) {
      const auto at = static_cast<std::size_t>(frame.payload.data() - bytes.data()) - 8;
      file.problem = "a record at byte " + std::to_string(at) + " that does not decode: " + bad.what;
      break;
    }
    used += frame.payload.size() + detail::frame_overhead;
  }
  file.ignored_bytes = bytes.size() - used;
  return file;
}

std::int64_t Journal::record_count() const {
  std::int64_t n = 0;
  for (const JournalFile& f : files) n += static_cast<std::int64_t>(f.records.size());
  return n;
}

std::uint64_t Journal::ignored_bytes() const {
  std::uint64_t n = 0;
  for (const JournalFile& f : files) n += f.ignored_bytes;
  return n;
}

Journal read_journal(const std::string& directory) {
  Journal journal;
  journal.directory = directory;
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    throw InvalidFile(directory, "no such journal directory");
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.path().extension() == ".jrnl" && entry.is_regular_file(ec))
      paths.push_back(entry.path().string());
  }
  if (ec) throw io::os_file_error(directory, "list the sweep's journal", ec.value());
  for (const std::string& path : paths) {
    JournalFile file = read_journal_file(path);
    if (file.has_head) {
      journal.files.push_back(std::move(file));
    } else {
      journal.headless.push_back(path);
    }
  }
  if (journal.files.empty()) {
    std::string names;
    for (const std::string& path : journal.headless)
      names += (names.empty() ? "" : ", ") + std::filesystem::path(path).filename().string();
    throw InvalidFile(directory, paths.empty() ? "holds no journal file (run-<i>-rank-<r>.jrnl)"
                                               : "holds no journal file with a readable head (" + names +
                                                     ": damaged, their records cannot be read)");
  }
  std::sort(journal.files.begin(), journal.files.end(), [](const JournalFile& a, const JournalFile& b) {
    return std::tie(a.head.run, a.head.rank) < std::tie(b.head.run, b.head.rank);
  });
  const JournalFile& first = journal.files.front();
  for (const JournalFile& file : journal.files) {
    const std::string why = difference(first.head, file.head);
    if (!why.empty()) {
      throw InvalidFile(file.path, "belongs to another sweep than " + first.path + " (" + why +
                                       "): a journal holds one sweep's files; move the other sweep's out");
    }
  }
  return journal;
}

std::vector<const LineRecord*> latest_lines(const Journal& journal) {
  std::int64_t count = 0;
  for (const JournalFile& file : journal.files) {
    for (const LineRecord& record : file.lines) count = std::max(count, record.line + 1);
  }
  std::vector<const LineRecord*> latest(static_cast<std::size_t>(count), nullptr);
  for (const JournalFile& file : journal.files) {
    for (const LineRecord& record : file.lines) {
      if (record.line >= 0) latest[static_cast<std::size_t>(record.line)] = &record;
    }
  }
  return latest;
}

std::vector<const PointRecord*> latest_records(const Journal& journal) {
  std::vector<const PointRecord*> latest(static_cast<std::size_t>(journal.head().points), nullptr);
  for (const JournalFile& file : journal.files) {  // by run: a later run's record replaces an earlier one's
    for (const PointRecord& record : file.records) latest[static_cast<std::size_t>(record.index)] = &record;
  }
  return latest;
}

PointStatus record_status(const PointRecord& record) {
  const auto* status = record.cells.empty() ? nullptr : std::get_if<std::int64_t>(&record.cells.back());
  return status ? static_cast<PointStatus>(*status) : PointStatus::pending;
}

JournalAgreement compare_with_file(const Journal& journal, const std::vector<std::int64_t>& status) {
  JournalAgreement a;
  const std::vector<const PointRecord*> latest = latest_records(journal);
  std::vector<bool> last_written(latest.size(), false), by_latest_run(latest.size(), false);
  for (const JournalFile& file : journal.files) {  // by run, as latest_records
    const bool latest_run = file.head.run == journal.head().run;
    for (const PointRecord& record : file.records)
      by_latest_run[static_cast<std::size_t>(record.index)] = latest_run;
    if (latest_run && !file.records.empty())
      last_written[static_cast<std::size_t>(file.records.back().index)] = true;
  }
  const auto pending = static_cast<std::int64_t>(PointStatus::pending);
  for (std::size_t i = 0; i < std::min(latest.size(), status.size()); ++i) {
    if (latest[i] == nullptr) {
      a.file_only += status[i] != pending ? 1 : 0;
    } else if (status[i] == pending) {
      ++a.journal_only;
      a.in_flight += last_written[i] ? 1 : 0;
      a.of_latest_run += by_latest_run[i] ? 1 : 0;
    } else if (status[i] != static_cast<std::int64_t>(record_status(*latest[i]))) {
      ++a.differing;
    }
  }
  return a;
}

}  // namespace rmtsweep::store
