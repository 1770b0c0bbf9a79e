#pragma once
/// What a failed read or write of a file means for the user:
/// one line naming the file, the operation, the operating system's error and what to do, with
/// HDF5's error stack kept apart for `--verbose` / RMTSWEEP_VERBOSE=1.
#include <string>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::io {

/// The FileIoError of a failed HDF5 call on `path` while doing `operation` ("read the sweep
/// file", "create the sweep file"): the cause (the OS error, or that the file is truncated to
/// N of the M bytes HDF5 expects), what to do about that cause, then `then` (what the command
/// left behind: "the partly written file was removed, so the same command starts it again").
FileIoError file_error(const std::string& path, const std::string& operation, const Hdf5Error& error,
                       const std::string& then = {});

/// The FileIoError of a system call on `path` that failed with `os_error` (an errno), e.g. a
/// file that cannot be opened for want of permission.
FileIoError os_file_error(const std::string& path, const std::string& operation, int os_error,
                          const std::string& then = {});

/// What to do about the errno `os_error` met reading or writing `path`: "its file system is full (df -h
/// DIR): ..." for ENOSPC, or "its file system has no free inodes (df -i DIR): ..." where that is why (the
/// same errno, with free space left); empty for an errno without advice.
std::string os_error_advice(int os_error, const std::string& path);

/// Whether the file system holding `directory` has no free inode (statvfs: f_favail or f_ffree 0 of a
/// nonzero f_files), so that a new file cannot be created whatever its free space.
bool out_of_inodes(const std::string& directory);

/// What a path that exists is, for a message: "a directory", "a FIFO", "a character device", ... (from
/// stat's st_mode).
std::string file_kind(unsigned mode);

/// file_kind of what is at `path` (after symbolic links), or empty when nothing is there.
std::string kind_at(const std::string& path);

/// Why `path` cannot be read as a regular file without opening it (opening a FIFO blocks until a writer
/// comes, a device reads endlessly): "a directory", "not a regular file (a FIFO)"; empty for a regular
/// file (after symbolic links) or a path that does not exist (the open that follows says why).
std::string not_regular_problem(const std::string& path);

/// True when RMTSWEEP_VERBOSE is set to anything but "" or "0", or `rmtsweep --verbose` was given
/// (set_verbose): main then prints HDF5's error stack under the one-line message.
bool verbose();
void set_verbose(bool on) noexcept;

}  // namespace rmtsweep::io
