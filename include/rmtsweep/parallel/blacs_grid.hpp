#pragma once
/// A BLACS process grid over the ranks of a communicator (RAII for the BLACS context).
#include <mpi.h>

#include <utility>

#include "rmtsweep/parallel/communicator.hpp"

namespace rmtsweep::parallel {

/// Owns a BLACS context: Csys2blacs_handle + Cblacs_gridinit in the constructor,
/// Cblacs_gridexit + Cfree_blacs_system_handle in the destructor (skipped once MPI is
/// finalized). Also holds the column communicator (the ranks of this process column), used
/// to sum over the rows of a distributed matrix. Not copyable or movable: share it through
/// shared_ptr<const BlacsGrid>.
class BlacsGrid {
 public:
  /// A near-square grid over all ranks of `comm` (collective): rows x cols = size with
  /// rows >= cols and rows as close to sqrt(size) as possible. A single rank is a 1 x 1 grid.
  explicit BlacsGrid(MPI_Comm comm);
  /// An explicit rows x cols grid (rows * cols must equal the size of `comm`).
  BlacsGrid(MPI_Comm comm, int rows, int cols);
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;
  ~BlacsGrid();

  int context() const noexcept { return context_; }
  int rows() const noexcept { return rows_; }
  int cols() const noexcept { return cols_; }
  int my_row() const noexcept { return my_row_; }
  int my_col() const noexcept { return my_col_; }
  /// The communicator the grid spans.
  MPI_Comm comm() const noexcept { return comm_; }
  /// The ranks of this process column (same my_col), ordered by my_row.
  MPI_Comm column_comm() const noexcept { return column_comm_; }

  /// The (rows, cols) shape chosen for `size` ranks by the one-argument constructor.
  static std::pair<int, int> near_square_shape(int size) noexcept;

 private:
  Communicator comm_;
  Communicator column_comm_;
  int system_handle_ = -1;
  int context_ = -1;
  int rows_ = 1, cols_ = 1, my_row_ = 0, my_col_ = 0;
};

}  // namespace rmtsweep::parallel
