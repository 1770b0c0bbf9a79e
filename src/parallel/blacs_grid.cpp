#include "rmtsweep/parallel/blacs_grid.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "rmtsweep/common/error.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {

std::pair<int, int> BlacsGrid::near_square_shape(int size) noexcept {
  int cols = static_cast<int>(std::sqrt(static_cast<double>(size)));
  while (cols > 1 && size % cols != 0) --cols;
  if (cols < 1) cols = 1;
  return {size / cols, cols};
}

BlacsGrid::BlacsGrid(MPI_Comm comm) : BlacsGrid(comm, 0, 0) {}

BlacsGrid::BlacsGrid(MPI_Comm comm, int rows, int cols) : comm_(Communicator::borrow(comm)) {
  const int size = comm_.size();
  if (rows <= 0 || cols <= 0) std::tie(rows, cols) = near_square_shape(size);
  if (rows * cols != size) {
    throw std::invalid_argument("BlacsGrid: a " + std::to_string(rows) + " x " + std::to_string(cols) +
                                " grid does not match " + std::to_string(size) + " ranks");
  }
  system_handle_ = Csys2blacs_handle(comm);
  context_ = system_handle_;
  Cblacs_gridinit(&context_, "Row", rows, cols);
  Cblacs_gridinfo(context_, &rows_, &cols_, &my_row_, &my_col_);
  if (rows_ != rows || cols_ != cols || my_row_ < 0 || my_col_ < 0) {
    if (my_row_ >= 0) Cblacs_gridexit(context_);
    Cfree_blacs_system_handle(system_handle_);
    throw std::runtime_error("Cblacs_gridinit did not give the requested " + std::to_string(rows) + " x " +
                             std::to_string(cols) + " grid");
  }
  column_comm_ = Communicator::split(comm, my_col_, my_row_);
}

BlacsGrid::~BlacsGrid() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (context_ >= 0) Cblacs_gridexit(context_);
  if (system_handle_ >= 0) Cfree_blacs_system_handle(system_handle_);
}

}  // namespace rmtsweep::parallel
