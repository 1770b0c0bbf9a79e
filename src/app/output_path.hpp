#pragma once
/// Whether `rmtsweep run` can write its --output where it is asked to, checked by one process
/// (rank 0) before any collective HDF5 create or open, whose failure would be an HDF5 error stack
/// and an MPI_Abort.
#include <string>

namespace rmtsweep::app {

/// Why this process cannot write the sweep file at `path`, as the "allowed" part of an InvalidOption
/// for --output, or "" when it can. `exists`: the path is an existing regular file, to be opened for
/// reading and writing (--resume or --force); otherwise a new file is to be created there. Refused:
/// a dangling symbolic link, a directory in which no file can be created (e.g. not writable, or /proc),
/// an existing file this process cannot write. The check creates nothing that it does not remove, and
/// nothing at `path`: for a new file it creates `probe` (a name beside `path` that the command's own
/// write uses and clears, e.g. FILE.h5.creating) exclusively (O_EXCL) and removes it at once, so that a
/// kill between the two leaves no empty file where the result belongs; an existing file is opened, not
/// truncated.
std::string output_write_problem(const std::string& path, bool exists, const std::string& probe);

}  // namespace rmtsweep::app
