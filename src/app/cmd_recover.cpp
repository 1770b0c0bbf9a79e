// `rmtsweep recover FILE.h5`: the sweep file rebuilt from its config and point journal
// (include/rmtsweep/store/recover.hpp). Serial, as status and assemble: rank 0 alone works.
//
// Exit status: 0 rebuilt, or nothing to recover (the file is whole: left as it is); 2 nothing to rebuild from
// (no journal, another sweep's, a wrong name) or its lock held; 1 the rebuilt file could not be written (a
// full disk: nothing was changed).
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/store/recover.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

int command_recover(int argc, char** argv) {
  std::string path;
  bool help = false;
  po::options_description options;
  options.add_options()("file", po::value<std::string>(&path), "the sweep file")(
      "help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(
          argc, argv, options, "recover", help, path, "rmtsweep recover FILE.h5",
          "Rebuilds FILE.h5 from its config and its point journal (FILE.h5.journal): every "
          "point the journal holds done or failed as recorded, the others pending; the file "
          "found at FILE.h5 is kept as FILE.h5.damaged-<UTC time>. A file that opens, agrees "
          "with its journal and verifies is left as it is (nothing to recover). Then `rmtsweep "
          "run ... --resume` computes the pending points."))
    return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return 0;  // serial: rank 0 alone reads the journal and writes the file
  const store::RecoverOutcome outcome = store::recover_sweep(path);
  const std::int64_t pending = outcome.points - outcome.done - outcome.failed;
  if (outcome.intact) {
    std::printf(
        "%s: nothing to recover: the file opens, agrees with its journal (%lld records) and no damage was "
        "found (%lld of %lld points done, %lld failed, %lld pending); it is left as it is\n",
        path.c_str(), static_cast<long long>(outcome.records), static_cast<long long>(outcome.done),
        static_cast<long long>(outcome.points), static_cast<long long>(outcome.failed),
        static_cast<long long>(pending));
    for (const std::string& note : outcome.notes) std::printf("note: %s\n", note.c_str());
    if (pending > 0 || outcome.failed > 0)
      std::printf("`rmtsweep run --config ... --output %s --resume` computes the rest\n", path.c_str());
    return 0;
  }
  std::printf(
      "%s: rebuilt from its journal (%lld records): %lld of %lld points done, %lld failed, %lld pending\n",
      path.c_str(), static_cast<long long>(outcome.records), static_cast<long long>(outcome.done),
      static_cast<long long>(outcome.points), static_cast<long long>(outcome.failed),
      static_cast<long long>(pending));
  if (!outcome.damaged.empty())
    std::printf("the file that was there is kept as %s\n", outcome.damaged.c_str());
  for (const std::string& note : outcome.notes) std::printf("note: %s\n", note.c_str());
  if (pending > 0 || outcome.failed > 0)
    std::printf("`rmtsweep run --config ... --output %s --resume` computes the rest\n", path.c_str());
  return 0;
}

}  // namespace rmtsweep::app
