// The embedding table's noise and its cache (include/rmtsweep/simulate/noise_table.hpp).
#include "rmtsweep/simulate/noise_table.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>
#include <utility>

#include "for_chunks.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {
namespace {

/// The entries of token v's noise at the local rows (global_rows, increasing) into z: entry
/// (i, v) is draw i % 64 of the normal sequence (table_noise, v, i / 64). A chunk of 64 rows
/// that this process holds whole, one row after another, is drawn straight into place; a chunk
/// it holds only some rows of, through a buffer.
void draw_column(const random::CounterRng& rng, std::uint64_t v, const std::vector<std::size_t>& global_rows,
                 std::uint64_t d, double* z) {
  constexpr std::uint64_t chunk = 64;
  std::array<double, chunk> draws{};
  const std::size_t lr = global_rows.size();
  for (std::size_t r = 0; r < lr;) {
    const auto i = static_cast<std::uint64_t>(global_rows[r]);
    const std::uint64_t c = i / chunk, width = std::min(chunk, d - chunk * c);
    // Local rows map to increasing global rows: width of them from i to i + width - 1 are the
    // whole chunk, in order.
    if (i % chunk == 0 && r + width <= lr && global_rows[r + width - 1] == i + width - 1) {
      rng.gaussians(random::Stream::table_noise, v, c, std::span(z + r, width));
      r += width;
      continue;
    }
    rng.gaussians(random::Stream::table_noise, v, c, std::span(draws.data(), width));
    for (; r < lr && global_rows[r] / chunk == c; ++r) z[r] = draws[global_rows[r] % chunk];
  }
}

}  // namespace

NoiseTable::NoiseTable(const model::PointParams& params, const parallel::DistributedMatrix& like)
    : NoiseTable(params, simulate::global_rows(like)) {}

NoiseTable::NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows, Empty)
    : seed_(params.seed),
      trial_(params.trial),
      d_(params.d),
      kind_(params.table),
      vocabulary_(params.vocabulary()),
      global_rows_(std::move(global_rows)) {
  for (std::size_t r = 0; r < global_rows_.size(); ++r) {
    if (global_rows_[r] >= static_cast<std::size_t>(params.d) ||
        (r > 0 && global_rows_[r] <= global_rows_[r - 1]))
      throw std::invalid_argument("NoiseTable: the rows must be increasing and below d");
  }
}

NoiseTable::NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows)
    : NoiseTable(params, std::move(global_rows), Empty{}) {
  const std::size_t lr = global_rows_.size();
  // Not zero-filled first (HugePageAllocator default-initialises): every entry is drawn below,
  // and the drawing threads touch the pages.
  values_.resize(static_cast<std::size_t>(vocabulary_) * lr);
  // Column v of the table is drawn in chunks of 64 rows (draw_column). A process draws the
  // chunks its rows fall in and keeps its rows, so every entry is the same on any grid; with
  // row blocks that are multiples of 64, as by default, every chunk is drawn in place.
  const random::CounterRng rng(params.seed, static_cast<std::uint64_t>(params.trial));
  const auto d = static_cast<std::uint64_t>(params.d);
  detail::for_chunks(vocabulary_, parallel::blas_threads(),
                     [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                       for (std::int64_t v = begin; v < end; ++v) {
                         draw_column(rng, static_cast<std::uint64_t>(v), global_rows_, d,
                                     values_.data() + static_cast<std::size_t>(v) * lr);
                       }
                     });
  if (params.table != model::Table::centered) return;
  // 1 and s are orthogonal with squared norm V, so removing both projections is exact.
  const std::int64_t half = vocabulary_ / 2;
  std::vector<double> mean(lr, 0.0), class_mean(lr, 0.0);
  for (std::int64_t v = 0; v < vocabulary_; ++v) {
    const double s = v < half ? 1.0 : -1.0;
    const double* z = column(v);
    for (std::size_t r = 0; r < lr; ++r) {
      mean[r] += z[r];
      class_mean[r] += s * z[r];
    }
  }
  const double inv_v = 1.0 / static_cast<double>(vocabulary_);
  for (std::int64_t v = 0; v < vocabulary_; ++v) {
    const double s = v < half ? 1.0 : -1.0;
    double* z = values_.data() + static_cast<std::size_t>(v) * lr;
    for (std::size_t r = 0; r < lr; ++r) z[r] -= (mean[r] + s * class_mean[r]) * inv_v;
  }
}

NoiseTable::NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows,
                       const NoiseTable& held)
    : NoiseTable(params, std::move(global_rows), Empty{}) {
  if (held.seed_ != seed_ || held.trial_ != trial_ || held.d_ != d_ || held.kind_ != kind_ ||
      held.vocabulary_ != vocabulary_)
    throw std::invalid_argument("NoiseTable: the held table has other draws (seed, trial, d, V or kind)");
  // Where each row comes from: position in `held`, or the next row of `drawn`. A row's entries
  // (centred or not) depend on that row alone, so copied and drawn rows are those of one draw.
  const std::size_t lr = global_rows_.size();
  const std::vector<std::size_t>& theirs = held.global_rows_;
  constexpr std::size_t not_held = ~std::size_t{0};
  std::vector<std::size_t> from(lr, not_held), missing;
  for (std::size_t r = 0; r < lr; ++r) {
    const auto it = std::lower_bound(theirs.begin(), theirs.end(), global_rows_[r]);
    if (it != theirs.end() && *it == global_rows_[r])
      from[r] = static_cast<std::size_t>(it - theirs.begin());
    else
      missing.push_back(global_rows_[r]);
  }
  const NoiseTable drawn(params, missing);
  values_.resize(static_cast<std::size_t>(vocabulary_) * lr);
  detail::for_chunks(vocabulary_, parallel::blas_threads(),
                     [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                       for (std::int64_t v = begin; v < end; ++v) {
                         const double* copied = held.column(v);
                         const double* fresh = drawn.column(v);
                         double* z = values_.data() + static_cast<std::size_t>(v) * lr;
                         for (std::size_t r = 0, m = 0; r < lr; ++r)
                           z[r] = from[r] != not_held ? copied[from[r]] : fresh[m++];
                       }
                     });
}

bool NoiseTable::same_draws(const model::PointParams& params, const parallel::DistributedMatrix& like) const {
  return params.seed == seed_ && params.trial == trial_ && params.d == d_ && params.table == kind_ &&
         params.vocabulary() == vocabulary_ && simulate::global_rows(like) == global_rows_;
}

std::shared_ptr<const NoiseTable> TableCache::get(const model::PointParams& params,
                                                  const parallel::DistributedMatrix& like) {
  if (last_ && last_->same_draws(params, like)) return last_;
  last_.reset();  // release the old table before drawing the new one
  last_ = std::make_shared<const NoiseTable>(params, like);
  return last_;
}

}  // namespace rmtsweep::simulate
