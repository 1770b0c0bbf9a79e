#pragma once
/// The one lock every command that writes or replaces a sweep file takes (run, refine, recover, merge's
/// output, assemble in place or its --output), keyed on the file's identity (io::FileLock::for_writing: the
/// lock file of its resolved path and a lock on the data file itself), so that no two processes write one
/// file through any names, and --force never replaces a file another process writes.
#include <string>

#include "rmtsweep/io/file_lock.hpp"

namespace rmtsweep::store {

/// Takes the writer's lock of the file at `path` (existing or not). Throws InvalidArgument named `name`
/// (the option the path came from) when another process holds it; where this file system locks nothing,
/// returns the lock with outcome unsupported (its reason()) for the caller to say so.
io::FileLock lock_for_writing(const std::string& path, const std::string& name);

/// The message of InvalidArgument for a file another process writes (its lock at lock_path(path)).
std::string held_elsewhere_text(const std::string& path);

}  // namespace rmtsweep::store
