// Writing a sweep's point journal (include/rmtsweep/store/journal.hpp).
#include "rmtsweep/store/journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "journal_format.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"

namespace rmtsweep::store {
namespace {

/// The journal is synced to the disk at most this often (docs/reliability.md: a sync per record
/// cost 0.6-1.1 ms here, 5-8 % of a d = 200 point and more of a smaller one; a write(2) alone
/// survives any death of the process, the sync guards against a crash of the node).
constexpr std::chrono::seconds sync_interval{1};

constexpr const char* then_resume =
    "the points recorded before are kept: once that is mended, run the same command with --resume";

}  // namespace

std::vector<JournalColumn> journal_columns(
    const std::vector<std::pair<const Column*, std::size_t>>& written) {
  std::vector<JournalColumn> columns;
  for (const auto& [column, width] : written)
    columns.push_back({std::string(column->name), column->type, column->shape, width});
  return columns;
}

std::string journal_directory(const std::string& sweep_path) {
  return io::resolved_path(sweep_path) + ".journal";
}

std::string journal_file_name(std::int64_t run, int rank) {
  return "run-" + std::to_string(run) + "-rank-" + std::to_string(rank) + ".jrnl";
}

JournalWriter::JournalWriter(std::string directory, JournalHead head)
    : head_(std::move(head)), path_(directory + "/" + journal_file_name(head_.run, head_.rank)) {}

JournalWriter::~JournalWriter() {
  if (fd_ < 0) return;
  (void)::fdatasync(fd_);
  (void)::close(fd_);
}

void JournalWriter::open() {
  if (fd_ >= 0) return;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw io::os_file_error(path_, "create the sweep's journal file", errno,
                            errno == EEXIST ? "another run of the same index wrote it: move " + path_ +
                                                  " aside (it may hold points) and run the same command again"
                                            : std::string(then_resume));
  }
  const std::vector<unsigned char> bytes = detail::file_start(head_);  // the magic and the head, twice
  try {
    write_frame(bytes, "write the head of the sweep's journal");
    sync("sync the sweep's journal");
  } catch (const FileIoError&) {  // the file holds nothing: removed, so that no record follows a torn head
    (void)::close(fd_);
    fd_ = -1;
    (void)::unlink(path_.c_str());
    throw;
  }
  // The new file's name reaches the disk with its directory.
  const std::string directory = path_.substr(0, path_.rfind('/'));
  if (const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    (void)::fsync(dir);
    (void)::close(dir);
  }
}

void JournalWriter::moved_to(const std::string& directory) {
  path_ = directory + "/" + journal_file_name(head_.run, head_.rank);
}

void JournalWriter::write_frame(const std::vector<unsigned char>& frame, const char* operation) {
  std::size_t written = 0;
  while (written < frame.size()) {
    const ssize_t n = ::write(fd_, frame.data() + written, frame.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const int error = n < 0 ? errno : ENOSPC;  // a write of 0 bytes: no room
    // Undone, so that the next run appends after whole records only (the reader would stop here).
    (void)::ftruncate(fd_, static_cast<off_t>(size_));
    throw io::os_file_error(path_, operation, error, then_resume);
  }
  size_ += frame.size();
}

void JournalWriter::sync(const char* operation) {
  if (::fdatasync(fd_) != 0) throw io::os_file_error(path_, operation, errno, then_resume);
  last_sync_ = std::chrono::steady_clock::now();
}

void JournalWriter::check_not_lost(bool go_on) {
  struct stat now {};
  if (fd_ < 0 || ::fstat(fd_, &now) != 0) return;
  const bool removed = now.st_nlink == 0;
  const auto bytes = static_cast<std::uint64_t>(now.st_size);
  if (!removed && bytes >= size_) return;
  (void)::close(fd_);
  fd_ = -1;
  lost_ += records_;
  const std::string lost_path = path_;
  if (go_on) {  // a new file (a cut one keeps its whole records for the reader, up to the cut)
    const std::string directory = path_.substr(0, path_.rfind('/'));
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    const std::string_view extension = ".jrnl";
    do {  // run-<i>-rank-<r>.<n>.jrnl
      std::string name = journal_file_name(head_.run, head_.rank);
      name.resize(name.size() - extension.size());
      name += '.';
      name += std::to_string(++successor_);
      name += extension;
      path_ = directory + "/" + name;
    } while (std::filesystem::exists(path_, ec));
  }
  if (warnings_) {
    const std::string what = removed ? "removed by another process while this run wrote it: its " +
                                           std::to_string(records_) + " records are"
                                     : "cut short by another process while this run wrote it (" +
                                           std::to_string(bytes) + " of its " + std::to_string(size_) +
                                           " bytes left): those of its " + std::to_string(records_) +
                                           " records past the cut are";
    std::fprintf(
        warnings_,
        "rmtsweep: warning: %s was %s lost to `rmtsweep recover` (the sweep file holds their points; "
        "`rmtsweep status` counts them as without a record)%s%s\n",
        lost_path.c_str(), what.c_str(), go_on ? "; the journal goes on in " : "",
        go_on ? path_.c_str() : "");
    std::fflush(warnings_);
  }
  records_ = 0;
  size_ = 0;
  if (go_on) open();
}

void JournalWriter::append(const PointRecord& record) {
  open();
  check_not_lost(true);
  write_frame(detail::encode_record(record, head_.columns), "append a point's record to the sweep's journal");
  ++records_;
  if (std::chrono::steady_clock::now() - last_sync_ >= sync_interval) sync("sync the sweep's journal");
}

void JournalWriter::append(const LineRecord& record) {
  open();
  write_frame(detail::encode_line(record), "append a line's record to the sweep's journal");
  if (std::chrono::steady_clock::now() - last_sync_ >= sync_interval) sync("sync the sweep's journal");
}

void JournalWriter::close() {
  if (fd_ < 0) return;
  check_not_lost(false);
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  const bool synced = ::fdatasync(fd) == 0;
  const int error = errno;
  (void)::close(fd);
  if (!synced) throw io::os_file_error(path_, "sync the sweep's journal", error, then_resume);
}

}  // namespace rmtsweep::store
