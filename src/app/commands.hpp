#pragma once
/// The subcommands of the rmtsweep program. Each parses its own options from argv
/// (argv[0] is the subcommand's name) and returns the process exit status.
#include <string>

namespace rmtsweep::app {

int command_theory(int argc, char** argv);    ///< predictions for one point (no MPI)
int command_point(int argc, char** argv);     ///< simulate one point on all ranks
int command_run(int argc, char** argv);       ///< a whole sweep into one HDF5 file
int command_status(int argc, char** argv);    ///< what a sweep file holds
int command_assemble(int argc, char** argv);  ///< phase diagrams into the sweep file
int command_refine(int argc, char** argv);    ///< adaptive refinement of every line's threshold
int command_recover(int argc, char** argv);   ///< a sweep file rebuilt from its journal
int command_merge(int argc, char** argv);     ///< the shards of a sweep combined into one file
int command_plot(int argc, char** argv);      ///< PNG figures from a sweep file (no MPI)
int command_schema(int argc, char** argv);    ///< the /points columns (no MPI)

/// `refine`'s exit status when its budget (--max-points, --max-rounds) is spent, or nothing more can be
/// proposed, and some lines' threshold error is still above --tolerance (docs/commands.md lists it).
inline constexpr int tolerance_not_met_exit = 4;

/// The time now, ISO 8601 UTC (a run's `started`; run and refine record it).
std::string utc_now();

}  // namespace rmtsweep::app
