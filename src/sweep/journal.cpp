// Writing a sweep's point journal (include/rmtsweep/sweep/journal.hpp).
#include "rmtsweep/sweep/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "journal_format.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"

namespace rmtsweep::sweep {
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

std::string journal_directory(const std::string& sweep_path) { return sweep_path + ".journal"; }

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
  std::vector<unsigned char> bytes(detail::journal_magic.begin(), detail::journal_magic.end());
  const std::vector<unsigned char> head = detail::encode_head(head_);
  bytes.insert(bytes.end(), head.begin(), head.end());
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

void JournalWriter::append(const PointRecord& record) {
  open();
  write_frame(detail::encode_record(record, head_.columns), "append a point's record to the sweep's journal");
  if (std::chrono::steady_clock::now() - last_sync_ >= sync_interval) sync("sync the sweep's journal");
}

void JournalWriter::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  const bool synced = ::fdatasync(fd) == 0;
  const int error = errno;
  (void)::close(fd);
  if (!synced) throw io::os_file_error(path_, "sync the sweep's journal", error, then_resume);
}

}  // namespace rmtsweep::sweep
