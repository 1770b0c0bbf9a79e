#pragma once
/// Keeping a file or directory under another name instead of deleting it (`rmtsweep recover`
/// keeps the damaged file, `run --force` the old journal).
#include <string>

namespace rmtsweep::io {

/// The time now (UTC) in strftime's `format`.
std::string utc_time(const char* format);

/// The time now as it goes into a file name: "20260314T101500Z" (UTC).
inline std::string utc_stamp() { return utc_time("%Y%m%dT%H%M%SZ"); }

/// A name beside `path` that nothing has yet: "<path>.<label>-<utc_stamp()>", with "-2", "-3", ...
/// appended when that exists.
std::string aside_name(const std::string& path, const std::string& label);

/// Flushes the data of the file at `path` to its storage (fsync), e.g. before renaming it into place.
/// Throws FileIoError.
void sync_file(const std::string& path, const std::string& operation);

/// Renames `path` to `to` (same directory), then syncs the directory. Throws FileIoError.
void rename_path(const std::string& path, const std::string& to, const std::string& operation);

}  // namespace rmtsweep::io
