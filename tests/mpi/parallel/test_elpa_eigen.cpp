// symmetric_eigen through ELPA (groups of several ranks) against the closed-form spectrum and
// against the ScaLAPACK tridiagonal path on the same matrix, on 2 x 1, 3 x 1 and 2 x 2 grids; and
// where ELPA does not apply (one process, too few rows per process), that it is not taken.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "matrix_fixture.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/eigen.hpp"

using namespace rmtsweep::parallel;
using rmtsweep::test::block;
using rmtsweep::test::fill;
using rmtsweep::test::KnownSpectrum;
using rmtsweep::test::world_grid;

namespace {

constexpr int n = 45;  // 5 full blocks of 8 and one of 5: a whole block on every process of 2 x 2, 3 x 1

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

DistributedMatrix known_matrix(const KnownSpectrum& known, int size = n) {
  DistributedMatrix a(world_grid(), size, size, block, block);
  // Only the lower triangle, as the covariance stage leaves S; above it, values that must not
  // be read (ELPA is handed the full matrix, rebuilt from the lower triangle).
  fill(a, [&](int i, int j) { return i >= j ? known.entry(i, j) : 1e3; });
  return a;
}

ShiftedSystem system_with_shift(double shift) {
  ShiftedSystem system{shift, std::vector<double>(n)};
  for (int i = 0; i < n; ++i) system.rhs[static_cast<std::size_t>(i)] = std::cos(0.3 + 1.1 * i);
  return system;
}

}  // namespace

TEST(ElpaEigen, IsTakenOnSeveralProcessesWithAWholeBlockOnEach) {
  const KnownSpectrum known(n);
  DistributedMatrix a = known_matrix(known);
  EXPECT_EQ(elpa_applies(a), world_size() > 1);
  EXPECT_EQ(symmetric_eigen(a, 1).elpa, world_size() > 1) << "automatic takes ELPA where it applies";
  const KnownSpectrum small(7);  // one block: the other processes would hold no row
  EXPECT_FALSE(elpa_applies(known_matrix(small, 7)));
}

// The boundary: a whole block (8 rows here) on every process row and column of the grid, square
// blocks, a square matrix; on the near-square grid (2 x 1, 3 x 1, 2 x 2) and on a 1 x P grid.
TEST(ElpaEigen, AppliesFromOneWholeBlockPerProcessOnAndNotBelowIt) {
  const int size = world_size();
  for (const auto& grid : {world_grid(), std::make_shared<const BlacsGrid>(MPI_COMM_WORLD, 1, size)}) {
    const int edge = block * std::max(grid->rows(), grid->cols());
    EXPECT_EQ(elpa_applies(DistributedMatrix(grid, edge, edge, block, block)), size > 1) << edge;
    EXPECT_FALSE(elpa_applies(DistributedMatrix(grid, edge - 1, edge - 1, block, block))) << edge - 1;
    EXPECT_FALSE(elpa_applies(DistributedMatrix(grid, 2 * edge, 2 * edge, block, 2 * block))) << "mb != nb";
    EXPECT_FALSE(elpa_applies(DistributedMatrix(grid, 2 * edge, 2 * edge + 1, block, block))) << "not square";
  }
}

TEST(ElpaEigen, ForcedWhereItDoesNotApplyThrowsInvalidArgument) {
  const KnownSpectrum small(7);
  DistributedMatrix a = known_matrix(small, 7);
  EXPECT_THROW(symmetric_eigen(a, 2, nullptr, EigenSolver::elpa), std::invalid_argument);
}

// Eigenvalues 1..45 with gaps of 1 and ||A|| = 45: a backward-stable solver has errors of a few
// ulps times ||A||, below 1e-12 n; the eigenvectors are then accurate to ~ n eps, below 1e-12.
TEST(ElpaEigen, FindsAllEigenvaluesAndTheTopEigenvectorsOfAKnownMatrix) {
  if (world_size() == 1) GTEST_SKIP() << "ELPA is for several processes";
  const KnownSpectrum known(n);
  for (int k : {1, 3, block + 1}) {  // k = 9: the vectors span two process columns of a 2 x 2 grid
    DistributedMatrix a = known_matrix(known);
    const auto result = symmetric_eigen(a, k, nullptr, EigenSolver::elpa);
    EXPECT_TRUE(result.elpa);
    ASSERT_EQ(result.values.size(), static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) EXPECT_NEAR(result.values[static_cast<std::size_t>(j)], 1.0 + j, 1e-12 * n);
    ASSERT_EQ(result.vectors.cols(), k);
    const auto vectors = result.vectors.gather_leading(n, k);
    for (int j = 0; j < k; ++j) {
      double dot = 0.0;
      for (int i = 0; i < n; ++i)
        dot += vectors[static_cast<std::size_t>(j * n + i)] * known.vector(i, n - 1 - j);
      EXPECT_NEAR(std::abs(dot), 1.0, 1e-12) << "k = " << k << ", vector " << j;
    }
    EXPECT_TRUE(result.solution.empty());
  }
}

// The same matrix and system through both solvers: the eigenvalues to 1e-12 n (both backward
// stable, as above), the top vectors up to sign to 1e-12, and x of (A + 0.5 I) x = rhs (condition
// number 45.5 / 1.5 ~ 30: each solve within ~ 30 n eps ~ 3e-13 of the exact one, relative to
// max |x|) to 1e-12.
TEST(ElpaEigen, AgreesWithTheScalapackPathOnValuesVectorsAndTheShiftedSolve) {
  if (world_size() == 1) GTEST_SKIP() << "ELPA is for several processes";
  const KnownSpectrum known(n);
  const ShiftedSystem system = system_with_shift(0.5);
  const int k = 4;
  DistributedMatrix for_elpa = known_matrix(known), for_scalapack = known_matrix(known);
  const auto elpa = symmetric_eigen(for_elpa, k, &system, EigenSolver::elpa);
  const auto scalapack = symmetric_eigen(for_scalapack, k, &system, EigenSolver::scalapack);
  EXPECT_TRUE(elpa.elpa);
  EXPECT_FALSE(scalapack.elpa);
  for (int j = 0; j < n; ++j) {
    EXPECT_NEAR(elpa.values[static_cast<std::size_t>(j)], scalapack.values[static_cast<std::size_t>(j)],
                1e-12 * n);
  }
  const auto u = elpa.vectors.gather_leading(n, k), w = scalapack.vectors.gather_leading(n, k);
  for (int j = 0; j < k; ++j) {
    const auto at = [&](int i) { return static_cast<std::size_t>(j * n + i); };
    const double sign = u[at(0)] * w[at(0)] < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(u[at(i)], sign * w[at(i)], 1e-12) << "vector " << j << ", i = " << i;
  }
  ASSERT_EQ(elpa.solution.size(), static_cast<std::size_t>(n));
  double scale = 0.0;
  for (double x : scalapack.solution) scale = std::max(scale, std::abs(x));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(elpa.solution[static_cast<std::size_t>(i)], scalapack.solution[static_cast<std::size_t>(i)],
                1e-12 * scale);
  }
}

TEST(ElpaEigen, WithoutVectorsStillGivesEveryEigenvalue) {
  if (world_size() == 1) GTEST_SKIP() << "ELPA is for several processes";
  const KnownSpectrum known(n);
  DistributedMatrix a = known_matrix(known);
  const auto result = symmetric_eigen(a, 0, nullptr, EigenSolver::elpa);
  ASSERT_EQ(result.values.size(), static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) EXPECT_NEAR(result.values[static_cast<std::size_t>(j)], 1.0 + j, 1e-12 * n);
  EXPECT_EQ(result.vectors.cols(), 0);
}

// Shift -10.5 leaves 10 negative eigenvalues in A + shift I: the Cholesky factorisation of the
// ELPA path fails, and every rank throws the same ScalapackError naming pdposv.
TEST(ElpaEigen, ThrowsAScalapackErrorNamingPdposvOnEveryRankForAnIndefiniteShift) {
  if (world_size() == 1) GTEST_SKIP() << "ELPA is for several processes";
  const KnownSpectrum known(n);
  DistributedMatrix a = known_matrix(known);
  const ShiftedSystem system = system_with_shift(-10.5);
  int thrown = 0;
  try {
    symmetric_eigen(a, 3, &system, EigenSolver::automatic);
  } catch (const rmtsweep::ScalapackError& e) {
    thrown = 1;
    EXPECT_EQ(e.routine(), "pdposv");
    EXPECT_GT(e.info(), 0);
  }
  int everywhere = thrown;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(everywhere, 1);
}
