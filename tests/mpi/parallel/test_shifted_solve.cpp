// symmetric_eigen with a shifted system: (A + shift I) x = rhs from the eigenproblem's own
// tridiagonal reduction (the ridge solve of model.md section 6), against a Cholesky solve of the
// same matrix, on 1 x 1, 2 x 1 and 2 x 2 grids with n not a multiple of the block size.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "matrix_fixture.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/scalapack.hpp"

using namespace rmtsweep::parallel;
using rmtsweep::test::block;
using rmtsweep::test::fill;
using rmtsweep::test::KnownSpectrum;
using rmtsweep::test::world_grid;

namespace {

constexpr int n = 45;  // 5 full blocks of 8 and one of 5

double rhs_entry(int i) { return std::sin(1.0 + 0.7 * i); }

ShiftedSystem system_with_shift(double shift) {
  ShiftedSystem system{shift, std::vector<double>(n)};
  for (int i = 0; i < n; ++i) system.rhs[static_cast<std::size_t>(i)] = rhs_entry(i);
  return system;
}

DistributedMatrix known_matrix(const KnownSpectrum& known) {
  DistributedMatrix a(world_grid(), n, n, block, block);
  fill(a, [&](int i, int j) { return known.entry(i, j); });
  return a;
}

/// These tests are of the tridiagonal path: ScaLAPACK (LAPACK on one rank), even where ELPA
/// applies (its shifted solve is pdposv on a copy; test_elpa_eigen compares the two).
EigenResult tridiagonal_path(DistributedMatrix& a, int k, const ShiftedSystem* system = nullptr) {
  return symmetric_eigen(a, k, system, EigenSolver::scalapack);
}

double max_abs(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

// A has eigenvalues 1..45; with shift 0.5, A + shift I has condition number 45.5 / 1.5 ~ 30.
// Both solves are backward stable (Householder reduction and Cholesky), so each x is within
// ~ cond * n * eps ~ 30 * 45 * 2.2e-16 ~ 3e-13 of the exact solution, relative to max |x|
// (a worst-case bound: 1.5e-15 is seen on 1, 2 and 4 ranks); 1e-12 is that bound with a factor 3.
TEST(ShiftedSolve, EqualsACholeskySolveOfTheShiftedMatrix) {
  const KnownSpectrum known(n);
  const double shift = 0.5;
  for (int k : {0, 3, block}) {  // k = 8: the solution is column 8, on process column 1 of a 2 x 2 grid
    DistributedMatrix a = known_matrix(known);
    const ShiftedSystem system = system_with_shift(shift);
    const auto result = tridiagonal_path(a, k, &system);
    ASSERT_EQ(result.solution.size(), static_cast<std::size_t>(n));

    const auto grid = world_grid();  // one BLACS context for both operands of pdposv
    DistributedMatrix shifted(grid, n, n, block, block), b(grid, n, 1, block, block);
    fill(shifted, [&](int i, int j) { return known.entry(i, j) + (i == j ? shift : 0.0); });
    fill(b, [](int i, int) { return rhs_entry(i); });
    cholesky_solve(shifted, b);
    const auto expected = b.gather_leading(n, 1);
    const double scale = max_abs(expected);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(result.solution[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)],
                  1e-12 * scale)
          << "k = " << k << ", i = " << i;
    }
  }
}

// The same reduction, the same dsterf and dstevr: the eigenvalues are bitwise the same. The
// vectors go through one Q application on n x (k + 1) instead of n x k, which may round
// differently (on one process k = 8 columns are applied unblocked, 9 blocked), so they agree
// to a few ulps of a unit vector: 1e-14.
TEST(ShiftedSolve, LeavesTheEigenvaluesAndEigenvectorsUnchanged) {
  const KnownSpectrum known(n);
  const int k = block;
  DistributedMatrix plain = known_matrix(known), with_solve = known_matrix(known);
  const ShiftedSystem system = system_with_shift(0.5);
  const auto alone = tridiagonal_path(plain, k);
  const auto both = tridiagonal_path(with_solve, k, &system);
  EXPECT_EQ(alone.values, both.values);
  EXPECT_TRUE(alone.solution.empty());
  ASSERT_EQ(both.vectors.cols(), k);
  const auto u = alone.vectors.gather_leading(n, k), w = both.vectors.gather_leading(n, k);
  for (std::size_t i = 0; i < u.size(); ++i) EXPECT_NEAR(u[i], w[i], 1e-14) << i;
}

// Shift -10.5 puts 10 eigenvalues of A + shift I below zero: T + shift I is indefinite, so
// dptsv meets a pivot <= 0. Every rank runs the same dptsv and must get the same exception.
TEST(ShiftedSolve, ThrowsAScalapackErrorNamingDptsvOnEveryRankForAnIndefiniteShift) {
  const KnownSpectrum known(n);
  DistributedMatrix a = known_matrix(known);
  int thrown = 0;
  try {
    const ShiftedSystem system = system_with_shift(-10.5);
    tridiagonal_path(a, 3, &system);
  } catch (const rmtsweep::ScalapackError& e) {
    thrown = 1;
    EXPECT_EQ(e.routine(), "dptsv");
    EXPECT_GT(e.info(), 0);
    EXPECT_NE(std::string(e.what()).find("dptsv"), std::string::npos);
  }
  int everywhere = thrown;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(everywhere, 1);
}

TEST(ShiftedSolve, RejectsARightHandSideOfTheWrongLength) {
  DistributedMatrix a = known_matrix(KnownSpectrum(n));
  EXPECT_THROW(symmetric_eigen(a, 3, ShiftedSystem{0.5, std::vector<double>(n - 1)}), std::invalid_argument);
}
