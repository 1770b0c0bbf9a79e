#pragma once
// Helpers of the tests of src/parallel: the world grid, filling a distributed matrix from a
// formula, and a symmetric matrix whose eigenvalues and eigenvectors are known in closed form.
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"

namespace rmtsweep::test {

/// Small blocks, so that every matrix spans several blocks on every process.
inline constexpr int block = 8;

/// The near-square grid over every rank.
inline std::shared_ptr<const parallel::BlacsGrid> world_grid() {
  return std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
}

/// Fills every local entry with f(i, j) of its global indices.
template <class F>
void fill(parallel::DistributedMatrix& m, F f) {
  for (int lc = 0; lc < m.local_cols(); ++lc) {
    for (int lr = 0; lr < m.local_rows(); ++lr)
      m.local(lr, lc) = f(m.row_map().to_global(lr), m.col_map().to_global(lc));
  }
}

/// A = H D H with H = I - 2 v v^T / (v^T v), v_i = 1 + i, D = diag(1..n): eigenvalues 1..n,
/// the eigenvector of eigenvalue j+1 is H e_j.
struct KnownSpectrum {
  int n;
  std::vector<double> v;
  double s = 0.0, vdv = 0.0;
  explicit KnownSpectrum(int size) : n(size), v(static_cast<std::size_t>(size)) {
    for (int i = 0; i < n; ++i) {
      v[static_cast<std::size_t>(i)] = 1.0 + i;
      s += v[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(i)];
      vdv += (1.0 + i) * v[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(i)];
    }
  }
  double entry(int i, int j) const {
    const double vi = v[static_cast<std::size_t>(i)], vj = v[static_cast<std::size_t>(j)];
    return (i == j ? 1.0 + i : 0.0) - 2.0 * ((1.0 + i) + (1.0 + j)) * vi * vj / s +
           4.0 * vi * vj * vdv / (s * s);
  }
  /// Entry i of the eigenvector H e_j.
  double vector(int i, int j) const {
    return (i == j ? 1.0 : 0.0) - 2.0 * v[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(j)] / s;
  }
};

}  // namespace rmtsweep::test
