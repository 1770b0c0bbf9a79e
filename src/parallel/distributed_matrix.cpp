#include "rmtsweep/parallel/distributed_matrix.hpp"

#include <algorithm>
#include <stdexcept>

#include "rmtsweep/common/error.hpp"
#include "scalapack_api.hpp"

namespace rmtsweep::parallel {

int BlockCyclic::local_size() const noexcept {
  const int source = 0;
  return numroc_(&global, &block, &me, &source, &procs);
}

DistributedMatrix::DistributedMatrix(std::shared_ptr<const BlacsGrid> grid, int m, int n, int mb, int nb)
    : grid_(std::move(grid)) {
  if (!grid_) throw std::invalid_argument("DistributedMatrix: no grid");
  if (m < 0 || n < 0 || mb < 1 || nb < 1)
    throw std::invalid_argument("DistributedMatrix: bad shape or blocks");
  row_map_ = {m, mb, grid_->rows(), grid_->my_row()};
  col_map_ = {n, nb, grid_->cols(), grid_->my_col()};
  local_rows_ = row_map_.local_size();
  local_cols_ = col_map_.local_size();
  const int lld = std::max(1, local_rows_);
  lld_ = static_cast<std::size_t>(lld);
  const int source = 0, context = grid_->context();
  int info = 0;
  descinit_(desc_.data(), &m, &n, &mb, &nb, &source, &source, &context, &lld, &info);
  if (info != 0) throw ScalapackError("descinit", info);
  local_.assign(lld_ * static_cast<std::size_t>(std::max(1, local_cols_)), 0.0);
}

DistributedMatrix DistributedMatrix::clone() const {
  DistributedMatrix copy(grid_, rows(), cols(), row_map_.block, col_map_.block);
  copy.local_ = local_;
  return copy;
}

void DistributedMatrix::set_column(int j, const std::vector<double>& values) {
  if (values.size() != static_cast<std::size_t>(rows()))
    throw std::invalid_argument("DistributedMatrix::set_column: values must have rows() entries");
  if (col_map_.owner(j) != col_map_.me) return;
  double* column = local_column(col_map_.to_local(j));
  for (int lr = 0; lr < local_rows_; ++lr)
    column[lr] = values[static_cast<std::size_t>(row_map_.to_global(lr))];
}

std::vector<double> DistributedMatrix::gather_leading(int rows_wanted, int cols_wanted) const {
  rows_wanted = std::clamp(rows_wanted, 0, rows());
  cols_wanted = std::clamp(cols_wanted, 0, cols());
  std::vector<double> out(static_cast<std::size_t>(rows_wanted) * static_cast<std::size_t>(cols_wanted), 0.0);
  for (int lc = 0; lc < local_cols_; ++lc) {
    const int j = col_map_.to_global(lc);
    if (j >= cols_wanted) continue;
    for (int lr = 0; lr < local_rows_; ++lr) {
      const int i = row_map_.to_global(lr);
      if (i < rows_wanted)
        out[static_cast<std::size_t>(j) * static_cast<std::size_t>(rows_wanted) +
            static_cast<std::size_t>(i)] = local(lr, lc);
    }
  }
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, out.data(), static_cast<int>(out.size()), MPI_DOUBLE,
                                   MPI_SUM, grid_->comm()));
  return out;
}

}  // namespace rmtsweep::parallel
