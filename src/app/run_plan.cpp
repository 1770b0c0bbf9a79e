// The plan of `rmtsweep run --plan [--ranks N]` (src/app/run_plan.hpp).
#include "run_plan.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "feasibility.hpp"
#include "rmtsweep/common/duration_text.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/sweep/plan.hpp"

namespace rmtsweep::app {
namespace {

/// The BLAS threads each rank of a planned job runs: OPENBLAS_NUM_THREADS where set (then this process
/// runs as many, configure_blas_threads), else 1 (a job of one-core tasks).
int planned_threads() {
  return std::getenv("OPENBLAS_NUM_THREADS") != nullptr ? parallel::blas_threads() : 1;
}

/// "HH:MM:SS" of whole minutes (hours past 24 as they are): what sbatch --time and PBS walltime take.
std::string clock_text(long long minutes) {
  char text[32];
  std::snprintf(text, sizeof text, "%02lld:%02lld:00", minutes / 60, minutes % 60);
  return text;
}

/// The resource lines of a job of `ranks` ranks, `threads` cores each, for the plan's wall time and
/// memory per rank, both times plan_margin: the time rounded up to whole minutes (at least 5, for the
/// start-up and the file's creation), the memory to whole MiB.
void print_resource_lines(int ranks, int threads, double wall_seconds, double bytes_per_rank) {
  const long long minutes =
      std::max(5LL, static_cast<long long>(std::ceil(wall_seconds * plan_margin / 60.0)));
  const double mib = 1024.0 * 1024.0;
  const auto per_rank = static_cast<long long>(std::ceil(bytes_per_rank * plan_margin / mib));
  const auto per_cpu = static_cast<long long>(std::ceil(bytes_per_rank * plan_margin / threads / mib));
  const std::string time = clock_text(minutes);
  std::printf("  resources to request (the wall time and the memory per rank above x %.1f, rounded up):\n",
              plan_margin);
  std::printf("    Slurm (sbatch):\n");
  std::printf("      #SBATCH --ntasks=%d\n", ranks);
  if (threads > 1) std::printf("      #SBATCH --cpus-per-task=%d\n", threads);
  std::printf("      #SBATCH --time=%s\n", time.c_str());
  std::printf("      #SBATCH --mem-per-cpu=%lldM\n", per_cpu);
  std::printf("    PBS Pro (qsub):\n");
  std::printf("      #PBS -l select=%d:ncpus=%d:mpiprocs=1:mem=%lldmb\n", ranks, threads, per_rank);
  std::printf("      #PBS -l walltime=%s\n", time.c_str());
  std::printf("    Torque (qsub):\n");
  std::printf("      #PBS -l procs=%d,pmem=%lldmb,walltime=%s\n", ranks, per_rank, time.c_str());
}

}  // namespace

bool check_plan(const RunArguments& args, const config::Grid& grid, int size) {
  const config::SweepConfig& c = grid.config();
  const bool elsewhere = args.plan_ranks > 0;  // a job not started yet: its ranks, threads and memory
  if (elsewhere && args.plan_ranks % c.ranks_per_point != 0) {
    throw InvalidOption("ranks", args.plan_ranks_text,
                        "a multiple of ranks_per_point (" + std::to_string(c.ranks_per_point) +
                            "): N ranks compute in N / ranks_per_point groups");
  }
  const int on_node = parallel::ranks_on_this_node(MPI_COMM_WORLD);
  const int threads = elsewhere ? planned_threads() : parallel::blas_threads();  // configure_blas_threads ran
  const double available = memory_per_rank(MPI_COMM_WORLD);
  const int ranks = elsewhere ? args.plan_ranks : size;
  const sweep::SweepPlan plan = sweep::plan_sweep(grid, threads);
  const model::PointParams& p = plan.largest_point;
  const std::string point = "d=" + std::to_string(p.d) + " delta=" + model::format_double(p.delta) +
                            " gamma=" + model::format_double(p.gamma) +
                            " weighting=" + model::to_string(p.weighting);
  if (args.plan && parallel::rank_of(MPI_COMM_WORLD) == 0) {
    const int groups = ranks / c.ranks_per_point;
    const double wall = sweep::wall_seconds(plan, ranks, threads);
    std::printf("rmtsweep run --plan: %lld points (%lld without forming S) on %d ranks in groups of %d%s\n",
                static_cast<long long>(plan.points), static_cast<long long>(plan.krylov_points), ranks,
                c.ranks_per_point, elsewhere ? " (--ranks: planned by this process alone)" : "");
    if (plan.lines > 0) {
      std::printf(
          "  %lld of them in %lld lines of %zu snr values, each line from one factorization (lines = auto)\n",
          static_cast<long long>(plan.line_points), static_cast<long long>(plan.lines), c.snr.size());
    }
    std::printf("  largest unit: %s: about %s per rank, %.3g s (%s)\n", point.c_str(),
                sweep::memory_text(plan.largest.bytes_per_rank).c_str(), plan.largest.seconds,
                plan.largest.krylov ? "S never formed" : "S formed");
    std::printf("  slowest unit (a point, or a line): about %.3g s on a group of %d rank(s)\n",
                plan.longest_seconds, c.ranks_per_point);
    std::printf(
        "  whole sweep: about %.3g core-hours (ranks x %d BLAS thread(s) each); %.3g s (%s) of wall time "
        "on %d group(s) of these ranks\n",
        plan.core_hours, threads, wall, duration_text(wall).c_str(), groups);
    std::printf(
        "  file: at least %s (its datasets, allocated when it is created); its journal: about %s once every "
        "point is done\n",
        sweep::memory_text(sweep::file_data_bytes(grid)).c_str(),
        sweep::memory_text(sweep::journal_data_bytes(grid)).c_str());
    if (!elsewhere) {
      std::printf("  memory here: %s per rank (this node's memory over its %d rank(s))\n",
                  sweep::memory_text(available).c_str(), on_node);
    }
    print_resource_lines(ranks, threads, wall, plan.largest.bytes_per_rank);
    std::printf(
        "  (estimates from the cost models measured on this project's 2-core machine: within a factor of "
        "about 2 there, slower machines take longer)\n");
  }
  if (!elsewhere && available > 0.0 && plan.largest.bytes_per_rank > available && !args.force_memory) {
    throw InvalidOption(
        "d", std::to_string(p.d),
        "the largest point (" + point + ") needs about " + sweep::memory_text(plan.largest.bytes_per_rank) +
            " per rank and a rank here has " + sweep::memory_text(available) +
            "; allowed: a sweep whose points fit (a smaller d or delta, more ranks per point with "
            "ranks_per_point, eigensolver = krylov for the table alone), or --force-memory to run "
            "anyway");
  }
  const auto given = args.values.find("ntest");
  require_ntest_consent(c.ntest, given == args.values.end() ? std::to_string(c.ntest) : given->second,
                        args.force_ntest, plan.longest_seconds);
  return args.plan;
}

}  // namespace rmtsweep::app
