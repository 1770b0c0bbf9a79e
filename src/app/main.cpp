// rmtsweep: where attention pooling lets a hidden signal be recovered (arXiv:2605.06826).
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/version.hpp"

namespace {

struct Subcommand {
  std::string_view name;
  int (*run)(int, char**);
  bool needs_mpi;
  std::string_view summary;
};

constexpr Subcommand subcommands[] = {
    {"theory", rmtsweep::app::command_theory, false, "print the theory's predictions for one point"},
    {"point", rmtsweep::app::command_point, true, "simulate one point on all ranks and compare with theory"},
    {"run", rmtsweep::app::command_run, true, "run a sweep config into one HDF5 file (resumable)"},
    {"status", rmtsweep::app::command_status, true, "summarise a sweep file: done, pending, failed points"},
    {"assemble", rmtsweep::app::command_assemble, true, "write phase diagrams (/phase) into a sweep file"},
    {"refine", rmtsweep::app::command_refine, true, "add points near every line's threshold until it is known to a tolerance"},
    {"plot", rmtsweep::app::command_plot, false, "draw PNG figures from a sweep file"},
    {"schema", rmtsweep::app::command_schema, false, "print the /points columns of a sweep file (Markdown or JSON)"},
};

void print_usage(std::FILE* out) {
  std::fprintf(out, "usage: rmtsweep <command> [options]   (rmtsweep <command> --help)\n\ncommands:\n");
  for (const auto& sub : subcommands) {
    std::fprintf(out, "  %-10s %s\n", std::string(sub.name).c_str(), std::string(sub.summary).c_str());
  }
}

int run_subcommand(const Subcommand& sub, int argc, char** argv) {
  try {
    return sub.run(argc - 1, argv + 1);
  } catch (const rmtsweep::InvalidOption& e) {
    if (rmtsweep::parallel::world_rank() == 0) std::fprintf(stderr, "rmtsweep %s: %s\n", argv[1], e.what());
    return 2;
  } catch (const rmtsweep::InvalidFile& e) {
    // Raised on every rank that reads the file, or by a serial command on rank 0 alone.
    std::fprintf(stderr, "rmtsweep %s: %s\n", argv[1], e.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("rmtsweep %s\n", rmtsweep::version);
    return 0;
  }
  const Subcommand* chosen = nullptr;
  for (const auto& sub : subcommands) {
    if (sub.name == argv[1]) chosen = &sub;
  }
  if (!chosen) {
    std::fprintf(stderr, "rmtsweep: unknown command '%s': allowed are theory, point, run, status, assemble, refine, plot, schema\n",
                 argv[1]);
    return 2;
  }
  if (!chosen->needs_mpi) {
    try {
      return run_subcommand(*chosen, argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rmtsweep %s: error: %s\n", argv[1], e.what());
      return 1;
    }
  }
  // A throw on one rank must never leave the others hanging: print, then MPI_Abort.
  rmtsweep::parallel::MpiEnvironment mpi(argc, argv);
  try {
    return run_subcommand(*chosen, argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rmtsweep %s: rank %d: error: %s\n", argv[1], rmtsweep::parallel::world_rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}
