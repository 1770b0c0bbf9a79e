// The values-only symmetric eigensolver (model/symmetric_eigen.hpp) on both sides of the size where it
// changes from dsyevd to dsyevd_2stage: a reflected diagonal, H D H with H = I - 2 v v^T, has D's values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "rmtsweep/model/symmetric_eigen.hpp"

using namespace rmtsweep;

namespace {

struct KnownSpectrum {
  std::vector<double> matrix;  ///< n x n, H D H
  std::vector<double> values;  ///< D's diagonal, ascending
};

/// H D H for D with n values spread over [-1, 3] (two of them equal), H the reflection along a random v.
KnownSpectrum reflected_diagonal(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 3.0);
  std::normal_distribution<double> normal;
  const auto un = static_cast<std::size_t>(n);
  KnownSpectrum k;
  k.values.resize(un);
  for (double& x : k.values) x = uniform(rng);
  k.values[1] = k.values[0];
  std::vector<double> v(un);
  double norm = 0.0;
  for (double& x : v) {
    x = normal(rng);
    norm += x * x;
  }
  for (double& x : v) x /= std::sqrt(norm);
  // (H D H)_ij = D_i delta_ij - 2 v_i v_j (D_i + D_j) + 4 v_i v_j (v^T D v).
  double vdv = 0.0;
  for (std::size_t i = 0; i < un; ++i) vdv += v[i] * v[i] * k.values[i];
  k.matrix.assign(un * un, 0.0);
  for (std::size_t i = 0; i < un; ++i) {
    for (std::size_t j = 0; j < un; ++j) {
      k.matrix[i * un + j] = (i == j ? k.values[i] : 0.0) - 2.0 * v[i] * v[j] * (k.values[i] + k.values[j]) +
                             4.0 * v[i] * v[j] * vdv;
    }
  }
  std::sort(k.values.begin(), k.values.end());
  return k;
}

void expect_values_of(const KnownSpectrum& k) {
  const int n = static_cast<int>(k.values.size());
  const std::vector<double> values = model::symmetric_eigenvalues(k.matrix, n);
  ASSERT_EQ(values.size(), k.values.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) worst = std::max(worst, std::abs(values[i] - k.values[i]));
  EXPECT_LT(worst, 1e-12 * 3.0) << "n = " << n;  // 3 = the largest |value|
}

}  // namespace

TEST(SymmetricEigenvalues, BelowTheTwoStageSizeDivideAndConquerGivesTheValues) {
  expect_values_of(reflected_diagonal(300, 1));
}

TEST(SymmetricEigenvalues, FromTheTwoStageSizeTheTwoStageReductionGivesTheSameValues) {
  expect_values_of(reflected_diagonal(model::two_stage_from, 2));
}

TEST(SymmetricEigenvalues, AnEmptyMatrixHasNoValues) {
  EXPECT_TRUE(model::symmetric_eigenvalues({}, 0).empty());
}
