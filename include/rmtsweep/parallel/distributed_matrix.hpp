#pragma once
/// A dense matrix distributed 2D block-cyclically over a BLACS grid (ScaLAPACK layout).
#include <array>
#include <memory>
#include <vector>

#include "rmtsweep/common/huge_page_allocator.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"

namespace rmtsweep::parallel {

/// The default square block size (rows and columns) of distributed matrices.
inline constexpr int default_block_size = 64;

/// Block-cyclic index arithmetic along one dimension (0-based, source process 0).
struct BlockCyclic {
  int global = 0;  ///< global extent
  int block = 1;   ///< block size
  int procs = 1;   ///< processes along this dimension
  int me = 0;      ///< this process's coordinate

  /// numroc: how many of the global indices this process holds.
  int local_size() const noexcept;
  /// The process coordinate that holds global index g.
  int owner(int g) const noexcept { return (g / block) % procs; }
  /// The local index of global index g (meaningful on its owner).
  int to_local(int g) const noexcept { return (g / (block * procs)) * block + g % block; }
  /// The global index of this process's local index l.
  int to_global(int l) const noexcept { return ((l / block) * procs + me) * block + l % block; }
};

/// An m x n matrix on a grid: the 9-int ScaLAPACK descriptor and this process's local
/// block-cyclic part, column-major with leading dimension lld = max(1, local_rows).
/// Holds the grid alive through a shared_ptr. Move-only.
class DistributedMatrix {
 public:
  /// A zero m x n matrix with mb x nb blocks (collective only in the sense that every rank
  /// of the grid must create it with the same arguments).
  DistributedMatrix(std::shared_ptr<const BlacsGrid> grid, int m, int n, int mb = default_block_size,
                    int nb = default_block_size);
  DistributedMatrix(DistributedMatrix&&) noexcept = default;
  DistributedMatrix& operator=(DistributedMatrix&&) noexcept = default;
  DistributedMatrix(const DistributedMatrix&) = delete;
  DistributedMatrix& operator=(const DistributedMatrix&) = delete;

  /// A deep copy (same grid and layout): the solvers overwrite their input.
  DistributedMatrix clone() const;

  int rows() const noexcept { return row_map_.global; }
  int cols() const noexcept { return col_map_.global; }
  int local_rows() const noexcept { return local_rows_; }
  int local_cols() const noexcept { return local_cols_; }
  int lld() const noexcept { return desc_[8]; }
  const BlockCyclic& row_map() const noexcept { return row_map_; }
  const BlockCyclic& col_map() const noexcept { return col_map_; }
  const int* desc() const noexcept { return desc_.data(); }
  const BlacsGrid& grid() const noexcept { return *grid_; }
  const std::shared_ptr<const BlacsGrid>& grid_ptr() const noexcept { return grid_; }

  double* data() noexcept { return local_.data(); }
  const double* data() const noexcept { return local_.data(); }
  /// Local entry (local row lr, local column lc).
  double& local(int lr, int lc) noexcept { return local_[static_cast<std::size_t>(lc) * lld_ + lr]; }
  double local(int lr, int lc) const noexcept { return local_[static_cast<std::size_t>(lc) * lld_ + lr]; }
  /// The local_rows() contiguous entries of local column lc.
  double* local_column(int lc) noexcept { return local_.data() + static_cast<std::size_t>(lc) * lld_; }
  const double* local_column(int lc) const noexcept {
    return local_.data() + static_cast<std::size_t>(lc) * lld_;
  }
  /// True when this process holds global entry (i, j).
  bool owns(int i, int j) const noexcept {
    return row_map_.owner(i) == row_map_.me && col_map_.owner(j) == col_map_.me;
  }

  /// Every rank gets the global entries (i, j) for i < rows_wanted, j < cols_wanted as a
  /// column-major rows_wanted x cols_wanted array (collective over the grid: one Allreduce).
  std::vector<double> gather_leading(int rows_wanted, int cols_wanted) const;

  /// The entries this process holds of global column j from `values` (rows() entries, the same
  /// on every rank); no communication.
  void set_column(int j, const std::vector<double>& values);

 private:
  std::shared_ptr<const BlacsGrid> grid_;
  BlockCyclic row_map_, col_map_;
  int local_rows_ = 0, local_cols_ = 0;
  std::size_t lld_ = 1;
  std::array<int, 9> desc_{};
  std::vector<double, HugePageAllocator<double>> local_;  ///< zeroed at construction
};

}  // namespace rmtsweep::parallel
