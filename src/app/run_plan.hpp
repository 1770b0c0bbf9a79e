#pragma once
// `rmtsweep run --plan`: the plan of a sweep on the ranks of this run or, with
// --ranks N, on the N ranks of a job not started yet, with the scheduler's resource lines to paste; and
// the refusal of a sweep whose largest unit cannot fit in a rank's memory here.
#include "rmtsweep/config/grid.hpp"
#include "sweep_options.hpp"

namespace rmtsweep::app {

/// The safety margin of the time limit and the memory the plan's resource lines request: the cost
/// models are within a factor of about 2 on the machine they were measured on (sweep/plan.hpp).
inline constexpr double plan_margin = 1.5;

/// Prints the plan on rank 0 when --plan asks for it: on the `size` ranks of this run (their BLAS
/// threads), or with --ranks N on N ranks of OPENBLAS_NUM_THREADS threads (1 when unset: a job of N
/// one-core tasks), computed by this process alone. Refuses (InvalidOption, on every rank) --ranks not
/// a multiple of ranks_per_point; without --ranks, a sweep whose largest unit needs more memory per rank
/// than a rank of this node has (with or without --plan) unless --force-memory; an ntest beyond
/// max_unforced_ntest without --force-ntest. Returns whether --plan asked for the plan alone.
/// Collective on MPI_COMM_WORLD.
bool check_plan(const RunArguments& args, const config::Grid& grid, int size);

}  // namespace rmtsweep::app
