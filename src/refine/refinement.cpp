// A refinement of one sweep file (include/rmtsweep/refine/refinement.hpp).
#include "rmtsweep/refine/refinement.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <tuple>
#include <variant>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/refined_line_store.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/sweep/runner.hpp"
#include "rmtsweep/sweep/schedule.hpp"

namespace rmtsweep::refine {
namespace {

/// The round's units of work in hand-out order, as for the grid: costliest first, the units of one noise
/// table together. A unit is a point alone (bisection) or a new trial's line over the grid's snr (exact
/// lines).
struct RoundBatch {
  std::vector<model::PointParams> points;
  std::vector<std::int64_t> rows;      ///< per point: its /refine row
  std::vector<char> wanted;            ///< per point: whether it is written
  std::vector<std::size_t> units;      ///< unit starts, then the number of points
  std::vector<double> costs;           ///< per unit
  std::vector<std::int64_t> line_row;  ///< per point: its unit's /refine/lines row (-1 for a point alone)
};

RoundBatch round_batch(const RoundPlan& plan, const config::Grid& grid, const Lines& geometry) {
  const config::SweepConfig& config = grid.config();
  struct Unit {
    std::size_t begin, end;
    double cost;
    std::tuple<double, int, double, int, double, std::size_t> key;
  };
  std::vector<Unit> units;
  std::vector<model::PointParams> params(plan.compute_rows.size());
  for (std::size_t p = 0; p < params.size(); ++p) {
    params[p] = refined_point(grid, geometry, static_cast<std::size_t>(plan.compute_line[p]),
                              plan.compute_snr[p], static_cast<int>(plan.compute_trial[p]))
                    .params;
  }
  for (std::size_t u = 0; u + 1 < plan.unit_starts.size(); ++u) {
    const auto begin = static_cast<std::size_t>(plan.unit_starts[u]),
               end = static_cast<std::size_t>(plan.unit_starts[u + 1]);
    const model::PointParams& q = params[begin];
    const double cost =
        end - begin > 1 ? sweep::line_cost(q, end - begin, config) : sweep::point_cost(q, config);
    units.push_back({begin, end, cost, std::make_tuple(-cost, q.d, q.delta, q.trial, q.snr, u)});
  }
  std::sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) { return x.key < y.key; });
  RoundBatch batch;
  for (const Unit& unit : units) {
    batch.units.push_back(batch.points.size());
    batch.costs.push_back(unit.cost);
    const std::int64_t line_row = plan.unit_line_row[static_cast<std::size_t>(std::get<5>(unit.key))];
    for (std::size_t p = unit.begin; p < unit.end; ++p) {
      batch.points.push_back(params[p]);
      batch.rows.push_back(plan.compute_rows[p]);
      batch.wanted.push_back(static_cast<char>(plan.compute_wanted[p] != 0));
      batch.line_row.push_back(line_row);
    }
  }
  batch.units.push_back(batch.points.size());
  return batch;
}

/// Room kept free beyond a new block's data: HDF5's own metadata for its datasets (object headers, the
/// group's heap; about 1 KiB a dataset), the run's attributes and the failed points' messages at the close.
constexpr double space_margin = 256.0 * 1024.0;

/// The bytes a /refine block of `rows` points takes (its columns and its two row checksums, allocated when
/// created), as sweep::file_data_bytes counts a grid's.
double block_bytes(const config::SweepConfig& config, std::int64_t rows) {
  std::size_t width = 1;
  for (const auto& w : config.weighting) width = std::max(width, model::to_string(w).size());
  double per_row = 2.0 * 8.0;  // checksum, parameters_checksum (store/checksums.hpp)
  for (const store::Column* column : store::point_columns()) {
    if (column->type == store::ColumnType::text && column->text_width == store::variable_length) {
      per_row += 16.0;
    } else if (column->type == store::ColumnType::text) {
      per_row += static_cast<double>(column->text_width > 0 ? column->text_width : width);
    } else {
      per_row += 8.0 * (column->shape == store::ColumnShape::top_k ? config.k : 1);
    }
  }
  return per_row * static_cast<double>(rows);
}

/// The bytes a /refine/lines block of `rows` trials of size d[d_index] takes: poles, signal and offset of
/// the line's width, and its scalars, coordinates and two row checksums.
double line_block_bytes(const config::SweepConfig& config, std::size_t d_index, std::int64_t rows) {
  return static_cast<double>(rows) *
         (3.0 * 8.0 * static_cast<double>(store::line_row_width(config, d_index)) + 14.0 * 8.0);
}

/// The free bytes of the file system holding `path` (statvfs, as `run` checks a new file's); -1 when unknown.
double free_bytes(const std::string& path) {
  struct statvfs fs {};
  const std::string directory = std::filesystem::absolute(path).parent_path().string();
  if (::statvfs(directory.c_str(), &fs) != 0) return -1.0;
  return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
}

/// "2.4 MiB"
std::string bytes_text(double bytes) {
  char text[32];
  if (bytes >= 1024.0 * 1024.0) {
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024.0));
  } else {
    std::snprintf(text, sizeof text, "%.0f KiB", std::ceil(bytes / 1024.0));
  }
  return text;
}

/// Rank 0's check that the file system of `path` has `needed` bytes free for `what` (every rank learns
/// it): nullptr when it has, or when its free space is unknown; else the full disk's error, as `run` says
/// it, which rank 0 holds (the others hold an empty one, so that the line is said once). A collective HDF5
/// call that fails for want of space (a block's creation) ends in MPI_Abort's banner, and may leave the
/// file unwritable: refine stops before it instead.
std::exception_ptr space_problem(const std::string& path, double needed, const std::string& what,
                                 const std::string& then, MPI_Comm comm) {
  const double available = parallel::decided_on_root(comm, [&] { return free_bytes(path); });
  if (available < 0.0 || available >= needed) return nullptr;
  const FileIoError error = io::os_file_error(
      path, what + " (" + bytes_text(needed) + " needed with HDF5's own, " + bytes_text(available) + " free)",
      ENOSPC, then);
  return std::make_exception_ptr(error);
}

/// Ends every rank alike (exit status 1, no MPI_Abort) with `problem`, said by rank 0.
[[noreturn]] void end_for_space(const std::exception_ptr& problem, MPI_Comm comm) {
  throw AgreedFailure(parallel::rank_of(comm) == 0 ? problem : nullptr);
}

}  // namespace

std::vector<std::string> stored_config_mismatches(const std::string& path) {
  const store::SweepReader reader(path);
  const config::Grid grid(reader.config());
  std::vector<std::string> out;
  if (reader.points() != grid.size()) {
    out.push_back("the stored config gives " + std::to_string(grid.size()) + " points, /points holds " +
                  std::to_string(reader.points()));
    return out;
  }
  const std::vector<theory::Prediction> predictions = config::grid_predictions(grid);
  for (const store::Column* column : store::point_columns()) {
    if (column->phase != store::ColumnPhase::parameter || column->type == store::ColumnType::text ||
        !reader.has(*column))
      continue;
    const std::vector<double> stored = reader.reals(*column);
    for (std::int64_t i = 0; i < grid.size(); ++i) {
      const model::PointParams params = grid.params(i);
      const config::GridCoordinates at = grid.coordinates(i);
      const store::Cell cell = column->parameter({params, at, predictions[static_cast<std::size_t>(i)]});
      const double expected = std::holds_alternative<double>(cell)
                                  ? std::get<double>(cell)
                                  : static_cast<double>(std::get<std::int64_t>(cell));
      const double x = stored[static_cast<std::size_t>(i)];
      const bool same = (std::isnan(x) && std::isnan(expected)) ||
                        std::abs(x - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
      if (!same) {
        out.push_back("/points/" + std::string(column->name) + " of point " + std::to_string(i) + " holds " +
                      model::format_double(x) + ", the stored config gives " +
                      model::format_double(expected));
        break;
      }
    }
  }
  return out;
}

Refinement::Refinement(std::string path, config::Grid grid, const RefineOptions& options, MPI_Comm comm,
                       const assemble::LeftOut& left_out)
    : path_(std::move(path)), grid_(std::move(grid)), options_(options), comm_(comm) {
  Lines lines_root;
  const bool root = parallel::rank_of(comm_) == 0;
  if (root) lines_root = read_lines(path_, options_, left_out);
  geometry_ = geometry_everywhere(lines_root, comm_);
  if (root) replay_ = std::make_unique<Replay>(std::move(lines_root), options_, grid_.config().trials);
}

RefineOutcome Refinement::run(const store::RunInfo& run, std::FILE* log) {
  const bool root = parallel::rank_of(comm_) == 0;
  const config::SweepConfig& config = grid_.config();
  const parallel::Communicator io_comm = parallel::Communicator::duplicate(comm_);
  // A full disk before anything is written: opening the file records the run in it.
  if (const std::exception_ptr full =
          space_problem(path_, space_margin, "start refining the sweep file",
                        "nothing was written: once there is room, run the same command again", comm_))
    end_for_space(full, comm_);
  store::SweepFile file = store::SweepFile::open_for_resume(path_, io_comm, grid_, run);
  store::RefineFile refined(file.handle(), config, file.k(), file.run_index(), file.messages());
  store::RefinedLineStore refined_lines(file.handle(), config);
  const FormReader read_form = [&](std::int64_t row, std::int64_t count) {
    return refined_lines.read(row, count);
  };
  if (root && log) {
    std::fprintf(
        log,
        "rmtsweep refine: %s: tolerance %g, at most %d trials per line and %lld refined points, rule %s\n",
        path_.c_str(), options_.tolerance, options_.trials, static_cast<long long>(options_.max_points),
        assemble::to_string(options_.rule));
  }
  RefineOutcome done;
  std::exception_ptr full;  // a disk too full for the next round's blocks
  for (; done.rounds < options_.max_rounds; ++done.rounds) {
    RoundPlan plan;
    if (root) {
      plan = replay_->next(store::read_refined_rows(file.handle()), refined.capacity(),
                           store::read_refined_line_rows(file.handle()), refined_lines.capacity(), read_form);
    }
    plan = broadcast_plan(std::move(plan), comm_);
    if (plan.stop) break;
    // The round's new blocks are allocated whole when created (collectively): checked first, and on a disk
    // too full for them refine stops here, closing the file as after its last round, then ends.
    double needed = space_margin + (plan.block_rows > 0 ? block_bytes(config, plan.block_rows) : 0.0);
    for (std::size_t b = 0; b < plan.line_block_d.size(); ++b)
      needed +=
          line_block_bytes(config, static_cast<std::size_t>(plan.line_block_d[b]), plan.line_block_rows[b]);
    if (plan.block_rows > 0 || !plan.line_block_d.empty()) {
      full = space_problem(
          path_, needed, "add round " + std::to_string(done.rounds) + "'s block of refined points",
          "nothing of this round was written, the refined points of the rounds before are kept "
          "(`rmtsweep status` shows them): once there is room, run the same command again",
          comm_);
      if (full) break;
    }
    if (plan.block_rows > 0) refined.add_block(plan.block_rows);
    for (std::size_t b = 0; b < plan.line_block_d.size(); ++b)
      refined_lines.add_block(static_cast<std::size_t>(plan.line_block_d[b]), plan.line_block_rows[b]);
    if (root) {
      std::vector<store::RefinedPoint> points;
      for (std::size_t p = 0; p < plan.new_rows.size(); ++p) {
        points.push_back(refined_point(grid_, geometry_, static_cast<std::size_t>(plan.new_line[p]),
                                       plan.new_snr[p], static_cast<int>(plan.new_trial[p])));
      }
      refined.write_pending(plan.new_rows, points);
      std::vector<config::GridCoordinates> at;
      for (std::size_t i = 0; i < plan.new_line_rows.size(); ++i) {
        at.push_back(line_coordinates(geometry_, static_cast<std::size_t>(plan.new_line_line[i]),
                                      static_cast<int>(plan.new_line_trial[i])));
      }
      refined_lines.write_pending(plan.new_line_rows, at);
    }
    const RoundBatch work = round_batch(plan, grid_, geometry_);
    sweep::PointBatch batch;
    batch.label = "rmtsweep refine";
    batch.total = std::count(work.wanted.begin(), work.wanted.end(), 1);
    batch.points = work.points;
    batch.units = work.units;
    batch.costs = work.costs;
    batch.options_of = [&](int d) { return config::simulation_options(config, d); };
    batch.wanted = work.wanted;
    batch.id_of = [&](std::size_t at) { return work.rows[at]; };
    batch.write_done = [&](std::size_t at, const simulate::PointResult& result, double seconds) {
      refined.write_done(work.rows[at], result, seconds);
    };
    batch.write_failed = [&](std::size_t at, const std::string& message, double seconds) {
      refined.write_failed(work.rows[at], message, seconds);
    };
    // A new trial's secular form before its points: a done point's trial has its exact threshold.
    batch.write_line = [&](std::size_t first, const simulate::LineResult& line) {
      if (work.line_row[first] >= 0)
        refined_lines.write(work.line_row[first], line.secular, line.recomputed_alone.empty());
    };
    const sweep::RunOutcome outcome = sweep::run_batch(batch, config.ranks_per_point, comm_, nullptr);
    if (outcome.write_failed) throw AgreedFailure(outcome.write_error);  // a full disk: every rank ends alike
    io::flush(file.handle());  // the round's raw data reach the file before rank 0 reads them back
    done.computed += outcome.computed;
    done.failed += outcome.failed;
    if (root && log) {
      std::fprintf(
          log,
          "rmtsweep refine: round %d: %lld new points (%zu new trials as whole lines), %lld computed (%lld "
          "failed), %.2f s\n",
          done.rounds, static_cast<long long>(plan.new_rows.size()), plan.new_line_rows.size(),
          static_cast<long long>(outcome.computed), static_cast<long long>(outcome.failed),
          outcome.wall_seconds);
    }
    if (outcome.stop_signal != 0) {
      done.stop_signal = outcome.stop_signal;
      break;
    }
  }
  if (root && done.stop_signal == 0 && !full) {
    done.axes = replay_->lines().axes;
    done.summaries = replay_->summaries(store::read_refined_rows(file.handle()),
                                        store::read_refined_line_rows(file.handle()), read_form);
    done.used = replay_->used();
    done.budget_spent = replay_->budget_spent();
  }
  refined_lines.close();
  refined.close();
  file.close();
  if (full) end_for_space(full, comm_);  // every rank found it alike (rank 0's free space)
  return done;
}

}  // namespace rmtsweep::refine
