#pragma once
/// Where `rmtsweep assemble` writes /phase, so that no failure leaves a file half written: into the sweep
/// file only where it fits (measured first in a scratch copy), or into a phase file of its own built under a
/// temporary name and renamed into place (io::StagedPath, the protocol of every file rmtsweep writes whole).
#include <functional>
#include <string>

#include "rmtsweep/assemble/phase_file.hpp"

namespace rmtsweep::assemble {

/// Writes /phase (by `write`, given the file to write it into) into the sweep file `path` only where it
/// fits: first into a scratch file beside it, FILE.h5.phase.tmp (discarded), whose size says what /phase
/// takes. A write that fails inside the sweep file on a full disk can leave its root group past what HDF5
/// flushed, unreadable to every later write (HDF5 1.10: "len not positive after adjustment for EOA"); in the
/// scratch file it costs nothing, and the sweep file is written when its file system has that room and
/// 64 KiB more (the sweep file grows by less than the scratch file's size, whose superblock and root group
/// it has already). Throws FileIoError, saying that nothing was written into the sweep file where nothing
/// was.
void write_phase_in_place(const std::string& path, const std::function<void(const std::string&)>& write);

/// Writes the phase file `output` whole: into a scratch file beside it, PHASE.h5.partial-<UTC> (created by
/// create_phase_file from `data` and the sweep file's path `sweep`, filled by `write`), synced and renamed
/// over `output`, so that `output` is either complete or untouched. Throws FileIoError.
void write_phase_file(const std::string& output, const std::string& sweep, const SweepData& data,
                      const std::function<void(const std::string&)>& write);

}  // namespace rmtsweep::assemble
