#pragma once
/// The noise Z (d x V) of the embedding table, in the rows this process holds (model.md
/// section 1.1), and a cache that lets the points of a sweep that share it draw it once.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rmtsweep/common/huge_page_allocator.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"

namespace rmtsweep::simulate {

class NoiseTable {
 public:
  /// Draws the rows of Z that this process holds in a d-row matrix distributed like `like`
  /// (its row map) and centres them for `table = centered` (Z <- Z (I - 11^T/V - ss^T/V), row by
  /// row). Entry (i, v) depends only on (seed, trial, i, v): the same on any grid. Uses this
  /// rank's BLAS threads; no MPI call.
  NoiseTable(const model::PointParams& params, const parallel::DistributedMatrix& like);

  /// The same for the given global rows (increasing, each < params.d) of Z: the entries equal
  /// those of any table that holds these rows.
  NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows);

  /// The same, copying the rows that `held` (a table of the same draws: seed, trial, d, V and
  /// kind) holds and drawing only the others: the entries are those of the constructor above.
  NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows, const NoiseTable& held);

  /// Whether NoiseTable(params, like) would draw exactly this table: the same seed, trial, d,
  /// V, table kind and local rows (snr, weighting, gamma, T do not enter Z).
  bool same_draws(const model::PointParams& params, const parallel::DistributedMatrix& like) const;

  /// Local rows of token v's noise z_v (token-major storage).
  const double* column(std::int64_t v) const noexcept {
    return values_.data() + static_cast<std::size_t>(v) * global_rows_.size();
  }
  std::int64_t vocabulary() const noexcept { return vocabulary_; }
  /// The global index of each local row.
  const std::vector<std::size_t>& global_rows() const noexcept { return global_rows_; }

 private:
  struct Empty {};
  /// The identity of the draws and the checked rows (increasing, below d), no entries yet.
  NoiseTable(const model::PointParams& params, std::vector<std::size_t> global_rows, Empty);

  std::uint64_t seed_ = 0;
  int trial_ = 0, d_ = 0;
  model::Table kind_ = model::Table::iid;
  std::int64_t vocabulary_ = 0;
  std::vector<std::size_t> global_rows_;
  std::vector<double, HugePageAllocator<double>> values_;  ///< token-major, each entry drawn once
};

/// Keeps the last table drawn on this rank. A sweep's points along snr and weighting share their
/// table (model.md section 7: draws are common across them), so get() draws it once for all of
/// them; a point with another table releases the old one before drawing, so at most one table is
/// held. Not thread-safe; one per rank.
class TableCache {
 public:
  std::shared_ptr<const NoiseTable> get(const model::PointParams& params,
                                        const parallel::DistributedMatrix& like);

 private:
  std::shared_ptr<const NoiseTable> last_;
};

}  // namespace rmtsweep::simulate
