#pragma once
/// `rmtsweep recover FILE.h5`: a sweep file rebuilt from its config and its point journal
/// (journal.hpp), the damaged file kept under another name.
///
/// The journal's head gives the config text, the schema's columns and the file's provenance (its
/// sweep_id, versions and runs); the rebuilt file is created as `run` creates one (every dataset, the
/// grid, the parameter and theory columns from the config), with that provenance, and every point the
/// journal holds is written from its latest record (done or failed as recorded, status last); the
/// others stay pending. A file that opens and is whole (RecoverOutcome::intact) is left as it is. So it
/// equals the file an uninterrupted run would have written for those points, and `run --resume` computes the
/// rest. The rebuilt file is written as FILE.h5.recovering and renamed to FILE.h5 only when complete
/// (io::StagedPath), after FILE.h5 (if any) was renamed to FILE.h5.damaged-<UTC>: a recover that fails (a
/// full disk) leaves both as they were, and nothing is ever deleted but its own partial FILE.h5.recovering.
/// /refine blocks (`rmtsweep refine`) are not journaled: refine again.
#include <cstdint>
#include <string>
#include <vector>

#include "rmtsweep/io/file_lock.hpp"

namespace rmtsweep::store {

struct RecoverOutcome {
  /// The file at the path opens, agrees with its journal and verifies (its checksums, its points against
  /// their records, every failed point's message in it): nothing was rebuilt, renamed or written, and the
  /// counts are the file's.
  bool intact = false;
  std::string damaged;  ///< where the file that was at the path went; empty when there was none
  std::int64_t points = 0, done = 0, failed = 0;
  std::int64_t records = 0;  ///< records read (several for a point retried by --resume)
  std::vector<std::string>
      notes;  ///< lines for the user: bytes ignored, points lost against the old file, /refine
};

/// Rebuilds `path` (serial: one process, its own MPI_COMM_SELF file). Throws InvalidFile (exit 2)
/// when there is nothing to rebuild from: no journal, a journal of another sweep or schema, a
/// directory given for the file; InvalidArgument when another process holds the file's lock;
/// FileIoError when the rebuilt file cannot be written (then nothing was changed). `held`: the writer's
/// lock of `path` (writer_lock.hpp), where the caller holds it already (`run --resume`); else taken here.
RecoverOutcome recover_sweep(const std::string& path, const io::FileLock* held = nullptr);

}  // namespace rmtsweep::store
