// The BLACS grid, distributed matrices and the checked ScaLAPACK calls, on a 2 x 2 grid
// with small blocks so that every matrix spans several blocks on every process.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>
#include <vector>

#include "matrix_fixture.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/scalapack.hpp"

using namespace rmtsweep::parallel;

using rmtsweep::test::block;
using rmtsweep::test::fill;
using rmtsweep::test::KnownSpectrum;
using rmtsweep::test::world_grid;

TEST(BlacsGrid, ChoosesANearSquareShapeWithAtLeastAsManyRowsAsColumns) {
  EXPECT_EQ(BlacsGrid::near_square_shape(1), std::make_pair(1, 1));
  EXPECT_EQ(BlacsGrid::near_square_shape(2), std::make_pair(2, 1));
  EXPECT_EQ(BlacsGrid::near_square_shape(4), std::make_pair(2, 2));
  EXPECT_EQ(BlacsGrid::near_square_shape(6), std::make_pair(3, 2));
  EXPECT_EQ(BlacsGrid::near_square_shape(7), std::make_pair(7, 1));
}

TEST(BlacsGrid, SpansEveryRankOfTheCommunicator) {
  const auto grid = world_grid();
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(grid->rows() * grid->cols(), size);
  int column_size = 0;
  MPI_Comm_size(grid->column_comm(), &column_size);
  EXPECT_EQ(column_size, grid->rows());
}

TEST(DistributedMatrix, MapsGlobalToLocalIndicesAndBack) {
  const DistributedMatrix m(world_grid(), 37, 29, block, block);
  for (int lr = 0; lr < m.local_rows(); ++lr) {
    const int i = m.row_map().to_global(lr);
    EXPECT_EQ(m.row_map().owner(i), m.row_map().me);
    EXPECT_EQ(m.row_map().to_local(i), lr);
  }
  int total = m.local_rows() * m.local_cols();
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, 37 * 29);
}

TEST(DistributedMatrix, GathersItsLeadingEntriesOnEveryRank) {
  DistributedMatrix m(world_grid(), 37, 29, block, block);
  fill(m, [](int i, int j) { return 100.0 * i + j; });
  const auto leading = m.gather_leading(20, 11);
  for (int j = 0; j < 11; ++j) {
    for (int i = 0; i < 20; ++i) EXPECT_EQ(leading[static_cast<std::size_t>(j * 20 + i)], 100.0 * i + j);
  }
}

TEST(Syrk, AccumulatesTheLowerTriangleOfAProductWithItsTranspose) {
  const auto grid = world_grid();
  DistributedMatrix a(grid, 23, 40, block, block), c(grid, 23, 23, block, block);
  fill(a, [](int i, int j) { return std::sin(i + 3.0 * j); });
  fill(c, [](int i, int j) { return i == j ? 1.0 : 0.0; });
  syrk_lower('N', 31, 0.5, a, 2.0, c);
  const auto full = c.gather_leading(23, 23);
  for (int j = 0; j < 23; ++j) {
    for (int i = j; i < 23; ++i) {
      double expected = i == j ? 2.0 : 0.0;
      for (int t = 0; t < 31; ++t) expected += 0.5 * std::sin(i + 3.0 * t) * std::sin(j + 3.0 * t);
      EXPECT_NEAR(full[static_cast<std::size_t>(j * 23 + i)], expected, 1e-12);
    }
  }
}

TEST(SymmetricEigen, FindsAllEigenvaluesAndTheTopEigenvectorsOfAKnownMatrix) {
  const int n = 45, k = 3;
  const KnownSpectrum known(n);
  DistributedMatrix a(world_grid(), n, n, block, block);
  fill(a, [&](int i, int j) { return known.entry(i, j); });
  const auto result = symmetric_eigen(a, k);
  ASSERT_EQ(result.values.size(), static_cast<std::size_t>(n));
  // Backward-stable: errors of a few ulps times ||A|| = n.
  for (int j = 0; j < n; ++j) EXPECT_NEAR(result.values[static_cast<std::size_t>(j)], 1.0 + j, 1e-12 * n);
  const auto vectors = result.vectors.gather_leading(n, k);
  for (int j = 0; j < k; ++j) {
    double dot = 0.0;
    for (int i = 0; i < n; ++i)
      dot += vectors[static_cast<std::size_t>(j * n + i)] * known.vector(i, n - 1 - j);
    // Eigenvalue gaps are 1, so the vectors are accurate to ~ n * eps.
    EXPECT_NEAR(std::abs(dot), 1.0, 1e-12);
  }
}

TEST(CholeskySolve, SolvesAPositiveDefiniteSystem) {
  const auto grid = world_grid();
  const int n = 30;
  DistributedMatrix a(grid, n, n, block, block), b(grid, n, 1, block, block);
  fill(a, [](int i, int j) { return (i == j ? n : 0.0) + 1.0 / (1.0 + i + j); });
  fill(b, [](int i, int) { return 1.0 + i; });
  const auto a_full = a.gather_leading(n, n);
  cholesky_solve(a, b);
  const auto x = b.gather_leading(n, 1);
  for (int i = 0; i < n; ++i) {
    double ax = 0.0;
    for (int j = 0; j < n; ++j)
      ax += a_full[static_cast<std::size_t>(j * n + i)] * x[static_cast<std::size_t>(j)];
    EXPECT_NEAR(ax, 1.0 + i, 1e-10);
  }
}

TEST(CholeskySolve, ThrowsAScalapackErrorWithRoutineAndCodeOnEveryRankForAnIndefiniteMatrix) {
  const auto grid = world_grid();
  const int n = 30;
  DistributedMatrix a(grid, n, n, block, block), b(grid, n, 1, block, block);
  // Positive on the diagonal except entry 20: the leading minor of order 21 is the first
  // that is not positive, so pdpotrf reports info = 21.
  fill(a, [](int i, int j) { return i == j ? (i == 20 ? -1.0 : 2.0) : 0.0; });
  try {
    cholesky_solve(a, b);
    ADD_FAILURE() << "no exception";
  } catch (const rmtsweep::ScalapackError& e) {
    // One process solves with LAPACK's dposv (same info convention), a grid with pdposv.
    const std::string routine = grid->rows() * grid->cols() == 1 ? "dposv" : "pdposv";
    EXPECT_EQ(e.routine(), routine);
    EXPECT_EQ(e.info(), 21);
    EXPECT_NE(std::string(e.what()).find(routine), std::string::npos);
  }
}

TEST(CheckInfo, ThrowsOnEveryRankWhenOnlyTheLastRankReportsAFailure) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_THROW(check_info("pdtest", rank == size - 1 ? 7 : 0, MPI_COMM_WORLD), rmtsweep::ScalapackError);
  EXPECT_NO_THROW(check_info("pdtest", 0, MPI_COMM_WORLD));
}
