// The sweep's main loop (include/rmtsweep/sweep/runner.hpp).
#include "rmtsweep/sweep/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "rmtsweep/common/duration_text.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/parallel/work_counter.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/sweep/eta.hpp"
#include "rmtsweep/sweep/plan.hpp"
#include "rmtsweep/sweep/schedule.hpp"

namespace rmtsweep::sweep {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Progress on rank 0: the points done of all, their percentage, the rate and the ETA (eta.hpp), at most
/// once per `interval` seconds (and always the last time). On a terminal one line, rewritten in place (a
/// carriage return, then the line, then the rest of the old one cleared); elsewhere a line each time.
class Progress {
 public:
  /// `planned_before[p]`: the planned seconds (eta.hpp) of order positions [0, p) (size todo + 1). The
  /// points are taken in that order, costliest first, so the plan's seconds of the first `finished`
  /// positions estimate the work done: in a sweep of mixed sizes a count of points would promise the small
  /// ones' rate for the large ones' remaining work, or the reverse.
  Progress(std::FILE* out, const PointBatch& batch, std::int64_t already_done,
           std::vector<double> planned_before, double unit_seconds, int groups)
      : out_(out),
        label_(batch.label),
        interval_(batch.progress_interval),
        terminal_(batch.progress_terminal),
        total_(batch.total),
        already_done_(already_done),
        todo_(static_cast<std::int64_t>(planned_before.size()) - 1),
        planned_before_(std::move(planned_before)),
        unit_seconds_(unit_seconds),
        groups_(groups),
        start_(Clock::now()) {}

  void report(std::int64_t finished_this_run, bool last = false) {
    if (!out_ || ended_) return;
    if (finished_this_run == last_) {
      if (last && terminal_ && last_ >= 0) end_line();
      return;
    }
    const double elapsed = seconds_since(start_);
    if (!last && elapsed - last_time_ < interval_ && finished_this_run < todo_) return;
    last_ = finished_this_run;
    last_time_ = elapsed;
    const double rate = elapsed > 0 ? static_cast<double>(finished_this_run) / elapsed : 0.0;
    const auto done = static_cast<std::size_t>(std::clamp<std::int64_t>(finished_this_run, 0, todo_));
    EtaInput eta;
    eta.planned_done = planned_before_[done];
    eta.planned_left = planned_before_.back() - planned_before_[done];
    eta.unit_seconds = unit_seconds_;
    eta.elapsed = elapsed;
    eta.groups = groups_;
    const std::int64_t all_done = already_done_ + finished_this_run;
    const double percent =
        total_ > 0 ? 100.0 * static_cast<double>(all_done) / static_cast<double>(total_) : 100.0;
    std::fprintf(out_, "%s%s: %lld/%lld points (%.0f%%; %lld this run), %.2f points/s, elapsed %s, ETA %s%s",
                 terminal_ ? "\r" : "", label_, static_cast<long long>(all_done),
                 static_cast<long long>(total_), std::floor(percent),
                 static_cast<long long>(finished_this_run), rate, duration_text(elapsed).c_str(),
                 duration_text(eta_seconds(eta)).c_str(), terminal_ ? "\033[K" : "\n");
    if (terminal_ && last) end_line();
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  const char* label_;
  double interval_;
  bool terminal_;
  std::int64_t total_, already_done_, todo_;
  std::vector<double> planned_before_;
  double unit_seconds_;
  int groups_;
  Clock::time_point start_;
  /// The line on a terminal ended, as the run's are: what is printed next starts on a line of its own.
  void end_line() {
    std::fputc('\n', out_);
    std::fflush(out_);
    ended_ = true;
  }

  std::int64_t last_ = -1;
  /// A line at the first finished point, then one per interval; on a terminal the first line waits for the
  /// first interval, so that its ETA has more than the costliest first units to go by.
  double last_time_ = terminal_ ? 0.0 : -1e9;
  bool ended_ = false;
};

/// The pending units of the grid, decided on rank 0 and broadcast: every line (config.lines_apply) with a
/// point not done, whole, and every other point not done; costliest first, the units of one noise table
/// together. Returned as the flattened points, the units' starts (then the number of points), which
/// points are to be written and the units' costs.
struct PendingWork {
  std::vector<std::int64_t> points;
  std::vector<std::int64_t> starts;
  std::vector<std::int64_t> wanted;
  std::vector<double> costs;  ///< per unit
};

PendingWork pending_work(const config::Grid& grid, const store::SweepFile& file,
                         const std::vector<char>& in_shard, MPI_Comm comm) {
  PendingWork work;
  const bool root = parallel::rank_of(comm) == 0;
  if (root) {
    const std::vector<std::int64_t> status = file.read_status();
    const auto done = [&](std::int64_t i) {
      return status[static_cast<std::size_t>(i)] == static_cast<std::int64_t>(store::PointStatus::done);
    };
    const config::SweepConfig& config = grid.config();
    struct Unit {
      double cost;
      config::GridCoordinates at;
      std::vector<std::int64_t> points;
    };
    std::vector<Unit> units;
    for (std::int64_t line = 0; line < grid.line_count(); ++line) {
      const std::vector<std::int64_t> points = grid.line_points(line);
      if (!in_shard[static_cast<std::size_t>(points.front())]) continue;  // another shard's (shard.hpp)
      if (std::all_of(points.begin(), points.end(), done)) continue;
      const model::PointParams params = grid.params(points.front());
      if (config.lines_apply(params.weighting)) {
        units.push_back({line_cost(params, points.size(), config), grid.coordinates(points.front()), points});
        continue;
      }
      for (const std::int64_t i : points) {
        if (!done(i)) units.push_back({point_cost(grid.params(i), config), grid.coordinates(i), {i}});
      }
    }
    // Costliest first (longest-processing-time-first); among equal costs, the units of one noise table
    // (d, delta, trial) together, then in index order, so that a group's next unit reuses its table.
    std::stable_sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) {
      if (a.cost != b.cost) return a.cost > b.cost;
      if (a.at.d != b.at.d) return a.at.d < b.at.d;
      if (a.at.delta != b.at.delta) return a.at.delta < b.at.delta;
      if (a.at.trial != b.at.trial) return a.at.trial < b.at.trial;
      return a.points.front() < b.points.front();
    });
    for (const Unit& unit : units) {
      work.starts.push_back(static_cast<std::int64_t>(work.points.size()));
      work.costs.push_back(unit.cost);
      for (const std::int64_t i : unit.points) {
        work.points.push_back(i);
        work.wanted.push_back(done(i) ? 0 : 1);
      }
    }
    work.starts.push_back(static_cast<std::int64_t>(work.points.size()));
  }
  work.points = parallel::broadcast(std::move(work.points), comm);
  work.starts = parallel::broadcast(std::move(work.starts), comm);
  work.wanted = parallel::broadcast(std::move(work.wanted), comm);
  work.costs = parallel::broadcast(std::move(work.costs), comm);
  return work;
}

/// Where a group leader's next task number comes from: the shared RMA counter (dynamic, the
/// default) or, with RMTSWEEP_SCHEDULE=static, round robin over the cost-ordered tasks (group g
/// takes g, g + G, g + 2G, ...) for MPI libraries whose one-sided layer misbehaves (e.g. Open
/// MPI 4.x osc/rdma over TCP across nodes). Constructed collectively.
class TaskSource {
 public:
  TaskSource(MPI_Comm comm, bool dynamic, int group_index, int groups)
      : counter_(dynamic ? std::make_unique<parallel::WorkCounter>(comm) : nullptr),
        next_(group_index),
        step_(groups) {}
  std::int64_t next() {
    if (counter_) return counter_->next();
    const std::int64_t task = next_;
    next_ += step_;
    return task;
  }
  void close(std::int64_t total) {
    if (counter_) counter_->close(total);
  }
  /// Whether another group was stopped (dynamic only; a static schedule stops by its own signal).
  bool closed() { return counter_ && counter_->closed(); }
  void add_done(std::int64_t points) {
    done_here_ += points;
    if (counter_) counter_->add_done(points);
  }
  /// Points finished by all groups (dynamic), or by this rank's group only (static).
  std::int64_t done() { return counter_ ? counter_->done() : done_here_; }

 private:
  std::unique_ptr<parallel::WorkCounter> counter_;
  std::int64_t next_, step_, done_here_ = 0;
};

/// RMTSWEEP_SCHEDULE as rank 0 sees it: false when it says "static".
bool dynamic_schedule(MPI_Comm comm) {
  return parallel::decided_on_root(comm, [] {
    const char* schedule = std::getenv("RMTSWEEP_SCHEDULE");
    return !(schedule && std::string(schedule) == "static");
  });
}

/// "d=60 T=10 delta=0.5 ... trial=1": a point's parameters in a failure's message.
std::string describe_point(const model::PointParams& point) {
  return "d=" + std::to_string(point.d) + " T=" + std::to_string(point.T) +
         " delta=" + model::format_double(point.delta) + " gamma=" + model::format_double(point.gamma) +
         " snr=" + model::format_double(point.snr) + " weighting=" + model::to_string(point.weighting) +
         " correlation=" + model::to_string(point.correlation) + " table=" + model::to_string(point.table) +
         " trial=" + std::to_string(point.trial);
}

}  // namespace

std::string point_failure_text(const std::exception& e, const model::PointParams& point,
                               int ranks_per_point) {
  if (const auto* memory = dynamic_cast<const std::bad_alloc*>(&e))
    return out_of_memory(*memory, point, ranks_per_point).what();
  const std::string what = e.what();
  return what.empty() ? "unknown error" : what;
}

OutOfMemory out_of_memory(const std::bad_alloc& e, const model::PointParams& point, int ranks_per_point) {
  const double d = point.d;
  const double per_rank = d * d * 8.0 / static_cast<double>(std::max(ranks_per_point, 1));
  return OutOfMemory("out of memory (" + std::string(e.what()) + ") computing the point " +
                     describe_point(point) + ": the d x d matrix S alone takes about " +
                     memory_text(per_rank) + " per rank (d^2 x 8 bytes / " + std::to_string(ranks_per_point) +
                     " ranks_per_point); give each point more ranks (a larger ranks_per_point, "
                     "with as many more MPI ranks) or more memory per rank");
}

namespace {

/// What one unit gave: per point its result or its failure message.
struct UnitOutcome {
  std::vector<simulate::PointResult> results;  ///< one per point of the unit (empty on failure)
  std::string failure;                         ///< the unit's failure, empty when it was computed
  std::optional<simulate::LineResult> line;    ///< a line's whole result
};

}  // namespace

RunOutcome run_batch(const PointBatch& batch, int ranks_per_point, MPI_Comm comm, std::FILE* progress_out) {
  const auto start = Clock::now();
  int rank = 0, size = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &size));
  const int per_group = ranks_per_point;
  if (size % per_group != 0) throw std::logic_error("ranks_per_point must divide the number of ranks");
  if (batch.costs.size() != batch.unit_count()) throw std::logic_error("a batch needs one cost per unit");
  const parallel::Communicator group = parallel::Communicator::split(comm, rank / per_group, rank);
  const bool leader = group.rank() == 0;

  RunOutcome outcome;
  outcome.total = batch.total;
  const std::vector<model::PointParams>& points = batch.points;
  const std::size_t units = batch.unit_count();
  for (std::size_t at = 0; at < points.size(); ++at) outcome.todo += batch.is_wanted(at) ? 1 : 0;
  // A task is a run of units sharing their noise table, computed by one group, which draws the table
  // once; runs shrink towards the end of the order, so that the last tasks are single units and the
  // groups finish together.
  const int groups = size / per_group;
  const std::vector<double>& costs = batch.costs;
  std::vector<model::PointParams> firsts;
  for (std::size_t u = 0; u < units; ++u) firsts.push_back(points[batch.unit_begin(u)]);
  const std::vector<std::int64_t> runs = unit_runs(firsts, costs, groups);
  const auto tasks = static_cast<std::int64_t>(runs.size()) - 1;
  // Progress in points, each wanted point carrying its unit's planned seconds (its cost where the batch has
  // no plan) over the unit's wanted points.
  const std::vector<double>& planned = batch.planned_seconds.empty() ? costs : batch.planned_seconds;
  std::vector<double> planned_before(1, 0.0);
  if (rank == 0 && progress_out) {
    for (std::size_t u = 0; u < units; ++u) {
      std::size_t wanted = 0;
      for (std::size_t at = batch.unit_begin(u); at < batch.unit_end(u); ++at)
        wanted += batch.is_wanted(at) ? 1 : 0;
      for (std::size_t i = 0; i < wanted; ++i)
        planned_before.push_back(planned_before.back() + planned[u] / static_cast<double>(wanted));
    }
  } else {
    planned_before.assign(static_cast<std::size_t>(outcome.todo) + 1, 0.0);
  }
  const double unit_seconds =
      batch.unit_seconds > 0.0 || units == 0
          ? batch.unit_seconds
          : std::accumulate(planned.begin(), planned.end(), 0.0) / static_cast<double>(units);
  Progress progress(rank == 0 ? progress_out : nullptr, batch, batch.total - outcome.todo,
                    std::move(planned_before), unit_seconds, groups);

  // Units along snr and weighting share their noise table; the order puts them one after the other and
  // unit_runs hands them to one group, which draws the table once for all of them.
  simulate::TableCache tables;
  // Likewise the points of a line (all its snr) share their token draws, hence their finite-T theory.
  simulate::FiniteTCache finite_t;

  double busy = 0.0;
  std::int64_t computed = 0, failed = 0, elpa = 0, krylov = 0, lines = 0;
  // A leader's write that failed (its journal or the file on a full disk): the leader stops taking points,
  // as on a signal, and every rank learns of it below; cmd_run then ends every rank alike.
  std::exception_ptr write_error;
  {
    const bool dynamic = dynamic_schedule(comm);
    if (rank == 0 && !dynamic && progress_out) {
      std::fprintf(
          progress_out,
          "rmtsweep run: static schedule (RMTSWEEP_SCHEDULE=static): progress of rank 0's group only\n");
    }
    TaskSource counter(comm, dynamic, rank / per_group, groups);
    std::int64_t next = 0, run_end = 0;  // the leader's current task: positions [next, run_end) of the units
    while (true) {
      std::int64_t position = -1;
      // A signal may reach any rank of a group (a scheduler signals every rank on a node): the
      // group agrees on it before its leader takes the next unit.
      const int group_stop = per_group > 1 ? parallel::all_max(stop_signal(), group) : stop_signal();
      if (leader) {
        if (group_stop != 0 || write_error) {
          counter.close(tasks);
          run_end = next;  // a stop also ends the current run
        } else if (next == run_end) {
          const std::int64_t task = counter.next();
          if (task < tasks) {
            next = runs[static_cast<std::size_t>(task)];
            run_end = runs[static_cast<std::size_t>(task) + 1];
          }
        } else if (counter.closed()) {
          run_end = next;  // a stop signal reached another group (another node): end this run too
        }
        if (next < run_end) position = next++;
      }
      position = parallel::broadcast(position, group);
      if (position < 0) break;
      const auto unit = static_cast<std::size_t>(position);
      const std::size_t first = batch.unit_begin(unit), end = batch.unit_end(unit);
      const bool is_line = end - first > 1;
      const model::PointParams& params = points[first];
      const auto unit_start = Clock::now();
      UnitOutcome result;
      // A group of one rank records any error and goes on. In a larger group only the errors every
      // rank raises together can be recorded: a NumericalFailure (a ScaLAPACK info agreed across
      // the grid) or a refused parameter (InvalidArgument). Any other error, an out-of-memory one
      // among them, may have hit some ranks only while the others wait in a collective call, so it
      // ends the job instead of hanging it. Here, not by a throw to main: unwinding would run
      // collective destructors (the file's H5Fclose, the counter's MPI_Win_free) that the waiting
      // ranks never join.
      const auto local_failure = [&](const std::exception& e) {
        const std::string text = point_failure_text(e, params, per_group);
        if (per_group > 1) {
          std::fprintf(
              stderr,
              "%s: rank %d: %s %lld failed on this rank (%s); the other ranks of its "
              "group cannot know, so the job ends here (MPI_Abort); the file is resumable with "
              "--resume\n",
              batch.label, rank, is_line ? "the line of point" : "point",
              static_cast<long long>(batch.id_of ? batch.id_of(first) : static_cast<std::int64_t>(first)),
              text.c_str());
          std::fflush(stderr);
          MPI_Abort(comm, 1);
        }
        return text;
      };
      try {
        // The injected fault, like an out-of-memory error, hits one rank: the group's last.
        for (std::size_t at = first; at < end; ++at) {
          if (group.rank() == group.size() - 1 && batch.fail_injected && batch.fail_injected(at)) {
            // Longer than the 256 bytes of /points/error in the first files (variable-length now).
            throw std::runtime_error(
                std::string("fault injected by the test-only fail_points key, instead of computing the ") +
                (is_line ? "line of the point " : "point ") + describe_point(points[at]) +
                "; a message this long checks that a failure's whole text is kept in /points/error "
                "and shown by rmtsweep status, as real ones (out of memory, a refused value) are");
          }
        }
        simulate::SimulationOptions options = batch.options_of(params.d);
        options.tables = &tables;
        options.finite_t = &finite_t;
        if (is_line) {
          std::vector<double> snr;
          for (std::size_t at = first; at < end; ++at) snr.push_back(points[at].snr);
          result.line = simulate::simulate_line(params, snr, options, group);
          result.results = result.line->points;
        } else {
          result.results.push_back(simulate::simulate_point(params, options, group));
        }
      } catch (const NumericalFailure& e) {
        result.failure = point_failure_text(e, params, per_group);
      } catch (const InvalidArgument& e) {
        result.failure = point_failure_text(e, params, per_group);
      } catch (const std::exception& e) {
        result.failure = local_failure(e);
      }
      const double seconds = seconds_since(unit_start);
      busy += seconds;
      std::int64_t written = 0;
      for (std::size_t at = first; at < end; ++at) {
        if (!batch.is_wanted(at)) continue;
        ++written;
        ++computed;
        if (!result.failure.empty()) {
          ++failed;
          continue;
        }
        const simulate::PointResult& point = result.results[at - first];
        if (point.eigensolver == parallel::Reducer::elpa) ++elpa;
        if (point.krylov()) ++krylov;
        if (parallel::is_line(point.eigensolver)) ++lines;
      }
      if (leader) {
        try {
          // The line's secular form first: a point the file holds as done has its line's row.
          if (result.line && batch.write_line) batch.write_line(first, *result.line);
          // A point's time: its unit's, shared among the unit's points.
          const double share = seconds / static_cast<double>(end - first);
          for (std::size_t at = first; at < end; ++at) {
            if (!batch.is_wanted(at)) continue;
            if (result.failure.empty()) {
              batch.write_done(at, result.results[at - first], share);
            } else {
              batch.write_failed(at, result.failure, share);
            }
          }
        } catch (const Error&) {  // a FileIoError or Hdf5Error of an independent write: nothing collective
          write_error = std::current_exception();
        }
        counter.add_done(written);
      }
      if (rank == 0) progress.report(counter.done());
      if (batch.unit_pause > 0.0)
        std::this_thread::sleep_for(std::chrono::duration<double>(batch.unit_pause));
    }
    // Rank 0 keeps reporting while the other groups finish their last units.
    MPI_Request barrier = MPI_REQUEST_NULL;
    RMTSWEEP_MPI_CHECK(MPI_Ibarrier(comm, &barrier));
    int finished = 0;
    while (!finished) {
      RMTSWEEP_MPI_CHECK(MPI_Test(&barrier, &finished, MPI_STATUS_IGNORE));
      if (!finished) {
        if (rank == 0) progress.report(counter.done());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    if (rank == 0) progress.report(counter.done(), true);
  }

  // Counts per group from its leader; the signal from any rank stops every rank's exit status.
  std::int64_t sums[5] = {leader ? computed : 0, leader ? failed : 0, leader ? elpa : 0, leader ? krylov : 0,
                          leader ? lines : 0};
  parallel::all_sum(std::span<std::int64_t>(sums), comm);
  outcome.computed = sums[0];
  outcome.failed = sums[1];
  outcome.elpa = sums[2];
  outcome.krylov = sums[3];
  outcome.lines = sums[4];
  outcome.stop_signal = parallel::all_max(stop_signal(), comm);
  outcome.write_error = write_error;
  outcome.write_failed = parallel::all_max(write_error ? 1 : 0, comm) != 0;
  const double busy_max = parallel::all_max(busy, comm);
  const double busy_sum = parallel::all_sum(leader ? busy : 0.0, comm);
  const double busy_mean = busy_sum / static_cast<double>(size / per_group);
  outcome.load_imbalance = busy_mean > 0 ? busy_max / busy_mean : 1.0;
  outcome.done_total = (batch.total - outcome.todo) + (outcome.computed - outcome.failed);
  outcome.wall_seconds = seconds_since(start);
  return outcome;
}

RunOutcome run_sweep(const config::Grid& grid, store::SweepFile& file, MPI_Comm comm, std::FILE* progress,
                     double progress_interval, const config::Shard& shard, bool progress_terminal) {
  const std::vector<char> in_shard = config::shard_points(grid, shard);
  const PendingWork work = pending_work(grid, file, in_shard, comm);
  const std::vector<std::int64_t>& order = work.points;
  PointBatch batch;
  batch.label = "rmtsweep run";
  batch.progress_interval = progress_interval;
  batch.progress_terminal = progress_terminal;
  batch.total = static_cast<std::int64_t>(std::count(in_shard.begin(), in_shard.end(), 1));
  batch.points.reserve(order.size());
  for (const std::int64_t index : order) batch.points.push_back(grid.params(index));
  for (const std::int64_t start : work.starts) batch.units.push_back(static_cast<std::size_t>(start));
  for (const std::int64_t wanted : work.wanted) batch.wanted.push_back(static_cast<char>(wanted));
  batch.costs = work.costs;
  const config::SweepConfig& config = grid.config();
  if (progress != nullptr && parallel::rank_of(comm) == 0) {  // the plan's seconds, for the ETA
    const PlannedWork planned = planned_work(grid, parallel::blas_threads());
    for (std::size_t u = 0; u < batch.unit_count(); ++u) {
      double seconds = 0.0;
      for (std::size_t at = batch.unit_begin(u); at < batch.unit_end(u); ++at)
        seconds += planned.point_seconds[static_cast<std::size_t>(order[at])];
      batch.planned_seconds.push_back(seconds);
    }
    batch.unit_seconds = planned.unit_seconds;
  }
  batch.options_of = [&](int d) { return config::simulation_options(config, d); };
  batch.id_of = [&](std::size_t at) { return order[at]; };
  batch.fail_injected = [&](std::size_t at) {
    return std::find(config.fail_points.begin(), config.fail_points.end(), order[at]) !=
           config.fail_points.end();
  };
  batch.unit_pause = config.unit_pause;
  batch.write_done = [&](std::size_t at, const simulate::PointResult& result, double seconds) {
    file.write_done(order[at], result, seconds);
  };
  batch.write_failed = [&](std::size_t at, const std::string& message, double seconds) {
    file.write_failed(order[at], message, seconds);
  };
  batch.write_line = [&](std::size_t first, const simulate::LineResult& line) {
    file.write_line(grid.line_of(order[first]), line.secular, line.recomputed_alone.empty());
  };
  return run_batch(batch, config.ranks_per_point, comm, progress);
}

}  // namespace rmtsweep::sweep
