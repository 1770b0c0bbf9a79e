// rmtsweep: where attention pooling lets a hidden signal be recovered (arXiv:2605.06826).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/version.hpp"

namespace {

struct Subcommand {
  std::string_view name;
  int (*run)(int, char**);
  /// Whether MPI is initialised: `always`; `when_launched`, only under an MPI launcher (mpirun, srun), for a
  /// command that reads a file alone and otherwise need not wait a third of a second for a singleton MPI's
  /// start; `never`.
  enum class Mpi { never, when_launched, always } mpi;
  /// Rank 0 alone does the work (the other ranks return at once): an error there ends the program
  /// with exit status 1 (after MPI_Finalize, or at once after an HDF5 error: end_after_file_error),
  /// without MPI_Abort's banner.
  bool serial;
  std::string_view summary;
};

constexpr Subcommand subcommands[] = {
    {"theory", rmtsweep::app::command_theory, Subcommand::Mpi::never, true,
     "print the theory's predictions for one point"},
    {"point", rmtsweep::app::command_point, Subcommand::Mpi::always, false,
     "simulate one point (or, with --snr LIST, a line of snr values) on all ranks beside theory"},
    {"run", rmtsweep::app::command_run, Subcommand::Mpi::always, false,
     "run a sweep config into one HDF5 file (resumable)"},
    {"status", rmtsweep::app::command_status, Subcommand::Mpi::when_launched, true,
     "summarise a sweep file: done, pending, failed points; verify it against its journal"},
    {"assemble", rmtsweep::app::command_assemble, Subcommand::Mpi::when_launched, true,
     "write phase diagrams (/phase) into a sweep file, or into a file of their own (--output)"},
    {"refine", rmtsweep::app::command_refine, Subcommand::Mpi::always, false,
     "add trials or points near every line's threshold until it is known to a tolerance"},
    {"recover", rmtsweep::app::command_recover, Subcommand::Mpi::always, true,
     "rebuild a sweep file that cannot be read from its point journal"},
    {"merge", rmtsweep::app::command_merge, Subcommand::Mpi::always, true,
     "combine the files of a sweep's shards (run --shard i/n) into one sweep file"},
    {"plot", rmtsweep::app::command_plot, Subcommand::Mpi::never, true,
     "draw figures (PNG, PDF or SVG) from an assembled sweep file or phase file"},
    {"schema", rmtsweep::app::command_schema, Subcommand::Mpi::never, true,
     "print the /points columns of a sweep file (Markdown or JSON)"},
};

void print_usage(std::FILE* out) {
  std::fprintf(out, "usage: rmtsweep <command> [options]   (rmtsweep <command> --help)\n\ncommands:\n");
  for (const auto& sub : subcommands) {
    std::fprintf(out, "  %-10s %s\n", std::string(sub.name).c_str(), std::string(sub.summary).c_str());
  }
  std::fprintf(out,
               "\noptions (anywhere on the line, after a command too):\n"
               "  --help, -h   this list; after a command, that command's options\n"
               "  --version    print rmtsweep's version and exit\n"
               "  --verbose    with an error, HDF5's error stack too (or RMTSWEEP_VERBOSE=1)\n"
               "\nExit status: 0 done, 1 an error (a file that cannot be written, ...), 2 a bad option,\n"
               "value or file, 3 run/refine: some points failed, 4 damage found (status; assemble, refine\n"
               "and plot refuse it) or refine: budget spent, tolerance not met, 128 + signal: stopped,\n"
               "resumable (mpirun signalled itself exits 1) (docs/commands.md).\n");
}

/// Whether an MPI launcher started this process (Open MPI's mpirun, or a PMI/PMIx one such as srun): then
/// every rank initialises MPI, so that only rank 0 of a serial command reports.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

/// Whether "--version" is on the line after the command (before a bare "--"): `rmtsweep run --version`
/// prints the version as `rmtsweep --version` does.
bool asks_version(int argc, char** argv) {
  for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    if (std::strcmp(argv[i], "--version") == 0) return true;
  }
  return false;
}

/// Removes every "--verbose" from argv (any command, anywhere) and says whether there was one.
bool take_verbose(int& argc, char** argv) {
  int kept = 1;
  bool found = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0) {
      found = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argv[kept] = nullptr;
  argc = kept;
  return found;
}

/// The one-line message of an error, prefixed, then with --verbose HDF5's error stack under it.
void print_error(const char* prefix, const std::exception& e) {
  std::string stack;
  if (const auto* file = dynamic_cast<const rmtsweep::FileIoError*>(&e)) stack = file->detail();
  if (const auto* hdf5 = dynamic_cast<const rmtsweep::Hdf5Error*>(&e)) stack = hdf5->stack();
  std::fprintf(stderr, "%s%s\n", prefix, e.what());
  if (rmtsweep::io::verbose() && !stack.empty()) {
    std::fprintf(stderr, "  HDF5 error stack (outermost first):\n");
    std::size_t begin = 0;
    while (begin < stack.size()) {
      const std::size_t end = std::min(stack.find('\n', begin), stack.size());
      std::fprintf(stderr, "    %s\n", stack.substr(begin, end - begin).c_str());
      begin = end + 1;
    }
  }
  std::fflush(stderr);
}

int run_subcommand(const Subcommand& sub, int argc, char** argv) {
  try {
    return sub.run(argc - 1, argv + 1);
  } catch (const rmtsweep::InvalidArgument& e) {  // an InvalidOption, or the library's refusal said as one
    if (rmtsweep::parallel::world_rank() == 0)
      std::fprintf(stderr, "rmtsweep %s: %s\n", argv[1], rmtsweep::app::as_option(e).what());
    return 2;
  } catch (const rmtsweep::InvalidFile& e) {
    // Raised on every rank that reads the file, or by a serial command on rank 0 alone.
    std::fprintf(stderr, "rmtsweep %s: %s\n", argv[1], e.what());
    return 2;
  }
}

/// After a failed HDF5 write the library may hold a file it could not close (H5Fclose fails when
/// its metadata cannot be flushed to a full disk), and HDF5 1.10's own cleanup of it, run by
/// MPI_Finalize or at exit, then crashes (SIGSEGV in H5F__close_cb): exit 1 at once instead, after
/// the message. Nothing is lost: what could be written was, and the lock goes with the process.
void end_after_file_error(const std::exception& e) {
  if (dynamic_cast<const rmtsweep::FileIoError*>(&e) == nullptr &&
      dynamic_cast<const rmtsweep::Hdf5Error*>(&e) == nullptr)
    return;
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (take_verbose(argc, argv)) rmtsweep::io::set_verbose(true);
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (asks_version(argc, argv)) {
    std::printf("rmtsweep %s\n", rmtsweep::version);
    return 0;
  }
  const Subcommand* chosen = nullptr;
  for (const auto& sub : subcommands) {
    if (sub.name == argv[1]) chosen = &sub;
  }
  if (!chosen) {
    std::string names;
    for (const auto& sub : subcommands) names += (names.empty() ? "" : ", ") + std::string(sub.name);
    std::fprintf(stderr, "rmtsweep: unknown command '%s': allowed are %s\n", argv[1], names.c_str());
    return 2;
  }
  const bool needs_mpi = chosen->mpi == Subcommand::Mpi::always ||
                         (chosen->mpi == Subcommand::Mpi::when_launched && launched_by_mpi());
  std::optional<rmtsweep::parallel::MpiEnvironment> mpi;
  try {
    if (needs_mpi) mpi.emplace(argc, argv);
  } catch (const rmtsweep::Error& e) {  // an MPI without the thread level rmtsweep needs
    print_error(("rmtsweep " + std::string(argv[1]) + ": error: ").c_str(), e);
    return 1;
  }
  if (!needs_mpi || chosen->serial) {
    // No other rank waits on this one (none exist, or they have returned): no MPI_Abort; with MPI,
    // MPI_Finalize in the environment's destructor.
    try {
      return run_subcommand(*chosen, argc, argv);
    } catch (const std::exception& e) {
      print_error(("rmtsweep " + std::string(argv[1]) + ": error: ").c_str(), e);
      end_after_file_error(e);
      return 1;
    }
  }
  // A throw on one rank must never leave the others hanging: print, then MPI_Abort; but an error every
  // rank has agreed on ends every rank alike, without the abort's banner.
  try {
    return run_subcommand(*chosen, argc, argv);
  } catch (const rmtsweep::AgreedFailure& e) {
    if (e.cause()) {
      try {
        std::rethrow_exception(e.cause());
      } catch (const std::exception& cause) {
        print_error(("rmtsweep " + std::string(argv[1]) + ": error: ").c_str(), cause);
      }
    }
    // Exited at once: a file HDF5 could not close would crash its cleanup (end_after_file_error), and the
    // collective closes the other ranks would wait in are not run.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(1);
  } catch (const std::exception& e) {
    print_error(("rmtsweep " + std::string(argv[1]) + ": rank " +
                 std::to_string(rmtsweep::parallel::world_rank()) + ": error: ")
                    .c_str(),
                e);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}
