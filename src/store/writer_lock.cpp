// The writer's lock of a sweep file (include/rmtsweep/store/writer_lock.hpp).
#include "rmtsweep/store/writer_lock.hpp"

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::store {

std::string held_elsewhere_text(const std::string& path) {
  return "a file no other process is writing: a running rmtsweep (run, refine, recover, merge or assemble) "
         "holds its lock (" +
         io::lock_path(path) +
         ", or the file itself, under any of its names); wait for it to end (`rmtsweep status` reads the "
         "file "
         "meanwhile)";
}

io::FileLock lock_for_writing(const std::string& path, const std::string& name) {
  io::FileLock lock = io::FileLock::for_writing(path);
  if (lock.outcome() == io::FileLock::Outcome::held_elsewhere)
    throw InvalidArgument(name, path, held_elsewhere_text(path));
  return lock;
}

}  // namespace rmtsweep::store
