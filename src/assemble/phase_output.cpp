// Where /phase is written (include/rmtsweep/assemble/phase_output.hpp).
#include "rmtsweep/assemble/phase_output.hpp"

#include <filesystem>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/sweep/plan.hpp"

namespace rmtsweep::assemble {

void write_phase_in_place(const std::string& path, const std::function<void(const std::string&)>& write) {
  const std::string untouched =
      "nothing was written into the sweep file; once there is room, run assemble again";
  io::StagedPath scratch = io::StagedPath::fixed(path, "phase.tmp");
  try {
    io::File created = io::create_file(scratch.path());
    created.reset();
    write(scratch.path());
  } catch (
      const Hdf5Error& e) {  // told before the scratch file is removed (file_error looks at the free space)
    throw io::file_error(path, "write /phase", e, untouched);
  }
  std::error_code ec;
  const auto needed = static_cast<double>(std::filesystem::file_size(scratch.path(), ec));
  (void)scratch.discard();
  const std::filesystem::space_info space =
      std::filesystem::space(std::filesystem::absolute(path).parent_path(), ec);
  const double margin = 64.0 * 1024.0;
  if (!ec && static_cast<double>(space.available) < needed + margin) {
    throw FileIoError(path, "write /phase into the sweep file",
                      "too little free space to write it safely: /phase takes about " +
                          sweep::memory_text(needed) + " and its file system has " +
                          sweep::memory_text(static_cast<double>(space.available)) +
                          " free (a write cut short inside the sweep file could leave it unwritable, so " +
                          sweep::memory_text(needed + margin) + " are asked for)",
                      "free space there (df -h " + std::filesystem::absolute(path).parent_path().string() +
                          "); " + untouched);
  }
  try {
    write(path);
  } catch (const Hdf5Error& e) {
    throw io::file_error(
        path, "write /phase into the sweep file", e,
        "then run assemble again (`rmtsweep status` says whether the points are still readable)");
  }
}

void write_phase_file(const std::string& output, const std::string& sweep, const SweepData& data,
                      const std::function<void(const std::string&)>& write) {
  io::StagedPath scratch = io::StagedPath::fresh(output, "partial");
  try {
    create_phase_file(scratch.path(), data, sweep);
    write(scratch.path());
  } catch (const Hdf5Error& e) {  // the scratch file goes with `scratch`, after the message is made
    throw io::file_error(output, "write the phase file", e, "nothing was written at " + output);
  }
  scratch.put_in_place("write the phase file", io::StagedPath::Sync::file_and_directory);
}

}  // namespace rmtsweep::assemble
