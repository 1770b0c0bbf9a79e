// The rank-one updated eigenproblem along r against LAPACK's dense dsyev of the same matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

namespace rmtsweep::spectral {
namespace {

/// diag(poles) + rho z z^T, z = r g + a, as a dense n x n matrix.
std::vector<double> dense(const RankOneLine& line, double r) {
  const std::size_t n = line.size();
  std::vector<double> m(n * n, 0.0), z(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = r * line.signal[i] + line.offset[i];
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) m[i * n + j] = line.rho * z[i] * z[j];
    m[i * n + i] += line.poles[i];
  }
  return m;
}

RankOneLine random_line(std::size_t n, unsigned seed, OverlapForm form = OverlapForm::direct) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 4.0);
  RankOneLine line;
  line.form = form;
  line.rho = 0.7;
  for (std::size_t i = 0; i < n; ++i) {
    line.poles.push_back(uniform(rng));
    line.signal.push_back(normal(rng) / std::sqrt(static_cast<double>(n)));
    line.offset.push_back(normal(rng) / std::sqrt(static_cast<double>(n)));
  }
  std::sort(line.poles.begin(), line.poles.end());
  return line;
}

/// The overlap that the dense eigenvector `v` (unit) of eigenvalue `lambda` gives in `form`.
double dense_overlap(const RankOneLine& line, double r, const double* v, double lambda) {
  double along = 0.0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const double along_i =
        line.form == OverlapForm::direct ? line.signal[i] : r * line.signal[i] + line.offset[i];
    along += v[i] * along_i;
  }
  return line.form == OverlapForm::direct ? along * along : along * along * line.rho / lambda;
}

// Tolerances: both sides are backward stable, so eigenvalues agree to a few eps times the norm (about 8
// here); the overlaps of the top pairs, whose gaps are >= 1e-3 here, agree to eps ||M|| / gap, below 1e-11.
void expect_matches_dense(const RankOneLine& line, double r, int k) {
  const auto n = static_cast<int>(line.size());
  const auto reference = model::symmetric_eigen(dense(line, r), n);
  const RankOneSolution solution = solve(line, r, k, true);
  ASSERT_EQ(solution.top.size(), static_cast<std::size_t>(k));
  ASSERT_EQ(solution.all.size(), line.size());
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(solution.all[static_cast<std::size_t>(i)], reference.values[static_cast<std::size_t>(i)],
                1e-13);
  for (int j = 0; j < k; ++j) {
    const auto at = static_cast<std::size_t>(n - 1 - j);
    EXPECT_NEAR(solution.top[static_cast<std::size_t>(j)], reference.values[at], 1e-13);
    const double gap = std::min(j > 0 ? reference.values[at + 1] - reference.values[at] : INFINITY,
                                reference.values[at] - reference.values[at - 1]);
    if (gap < 1e-3) continue;
    EXPECT_NEAR(solution.overlaps[static_cast<std::size_t>(j)],
                dense_overlap(line, r, reference.vectors.data() + at * line.size(), reference.values[at]),
                1e-11)
        << "r " << r << " pair " << j;
  }
}

TEST(RankOneLine, GivesTheEigenvaluesAndOverlapsOfTheDenseMatrixAtEveryR) {
  const RankOneLine line = random_line(60, 1);
  for (double r : {0.0, 0.3, 1.0, 2.5, 10.0}) expect_matches_dense(line, r, 4);
}

TEST(RankOneLine, GivesTheGramFormsOverlaps) {
  const RankOneLine line = random_line(50, 2, OverlapForm::gram);
  for (double r : {0.0, 0.7, 3.0}) expect_matches_dense(line, r, 3);
}

TEST(RankOneLine, DeflatesRepeatedPolesAndZeroWeights) {
  RankOneLine line = random_line(40, 3);
  // A cluster of ten zero poles (N < d or V < d), a repeated pair at the top, weights that vanish.
  for (std::size_t i = 0; i < 10; ++i) line.poles[i] = 0.0;
  line.poles[39] = line.poles[38];
  line.signal[20] = line.offset[20] = 0.0;
  line.signal[39] = 0.0;
  std::sort(line.poles.begin(), line.poles.end());
  for (double r : {0.0, 0.5, 2.0}) expect_matches_dense(line, r, 5);
}

TEST(RankOneLine, KeepsATopPoleThatTheUpdateDoesNotReach) {
  RankOneLine line = random_line(30, 4);
  line.poles.back() = 50.0;  // far above the rest, and untouched by z
  line.signal.back() = line.offset.back() = 0.0;
  const RankOneSolution solution = solve(line, 1.0, 2);
  EXPECT_EQ(solution.top[0], 50.0);
  EXPECT_EQ(solution.overlaps[0], 0.0);  // its eigenvector is e_n, and g_n = 0
}

TEST(RankOneLine, HasOneCanonicalFormWhateverTheBasisOfItsEigenspacesAndTheSignsOfItsEigenvectors) {
  RankOneLine line = random_line(30, 7);
  for (std::size_t i = 0; i < 6; ++i) line.poles[i] = 0.0;  // a six-fold eigenvalue: any basis of it will do
  std::sort(line.poles.begin(), line.poles.end());
  // The same matrix in another basis: a rotation inside the zero eigenspace and flipped eigenvectors.
  RankOneLine other = line;
  const double c = std::cos(0.7), s = std::sin(0.7);
  for (const std::size_t i : {0ul, 2ul, 4ul}) {
    for (auto* v : {&other.signal, &other.offset}) {
      const double x = (*v)[i], y = (*v)[i + 1];
      (*v)[i] = c * x - s * y;
      (*v)[i + 1] = s * x + c * y;
    }
  }
  for (const std::size_t i : {3ul, 9ul, 17ul}) {
    other.signal[i] = -other.signal[i];
    other.offset[i] = -other.offset[i];
  }
  const RankOneLine a = canonical(line), b = canonical(other);
  for (std::size_t i = 0; i < line.size(); ++i) {
    EXPECT_NEAR(a.signal[i], b.signal[i], 1e-14) << i;
    EXPECT_NEAR(a.offset[i], b.offset[i], 1e-14) << i;
  }
  // And the matrix is the same: its spectrum and overlaps along r.
  for (double r : {0.0, 1.3}) {
    const RankOneSolution x = solve(line, r, 4, true), y = solve(a, r, 4, true);
    for (std::size_t j = 0; j < x.all.size(); ++j) EXPECT_NEAR(x.all[j], y.all[j], 1e-13);
    for (std::size_t j = 0; j < 4; ++j) EXPECT_NEAR(x.overlaps[j], y.overlaps[j], 1e-12);
  }
}

/// Largest eigenvalue of the dense matrix.
double top_dense(const RankOneLine& line, double r) {
  return model::symmetric_eigen(dense(line, r), static_cast<int>(line.size())).values.back();
}

TEST(LevelCrossing, DetectsExactlyWhereTheTopEigenvalueExceedsTheLevel) {
  const RankOneLine line = random_line(40, 5);
  const double level = line.poles.back() + 0.5;
  const LevelCrossing crossing = level_crossing(line, level);
  ASSERT_GT(crossing.r_from, 0.0);
  // Just below and above the crossing, and on a grid.
  EXPECT_LT(top_dense(line, crossing.r_from * (1 - 1e-9)), level);
  EXPECT_GT(top_dense(line, crossing.r_from * (1 + 1e-9)), level);
  EXPECT_NEAR(top_dense(line, crossing.r_from), level, 1e-12);
  for (double r = 0.0; r < 3 * crossing.r_from; r += crossing.r_from / 7.3)
    EXPECT_EQ(top_dense(line, r) > level, r > crossing.r_from || (crossing.at_zero && r < crossing.r_below))
        << r;
}

TEST(LevelCrossing, FindsTheDipWhereTheSignalFirstCancelsTheOffset) {
  // z(r) = r g + a with a against g: lambda_1 first falls as r grows, then rises.
  RankOneLine line;
  line.poles = {0.0, 0.5, 1.0};
  line.signal = {0.1, 0.2, 1.0};
  line.offset = {0.3, -0.1, -0.8};
  line.rho = 1.0;
  const double level = 1.2;
  const LevelCrossing crossing = level_crossing(line, level);
  ASSERT_TRUE(crossing.at_zero);
  ASSERT_GT(crossing.r_below, 0.0);
  ASSERT_GT(crossing.r_from, crossing.r_below);
  EXPECT_GT(top_dense(line, 0.5 * crossing.r_below), level);
  EXPECT_LT(top_dense(line, 0.5 * (crossing.r_below + crossing.r_from)), level);
  EXPECT_GT(top_dense(line, 1.01 * crossing.r_from), level);
}

TEST(LevelCrossing, DetectsEveryRAtOrBelowTheLargestPole) {
  const RankOneLine line = random_line(20, 6);
  const LevelCrossing crossing = level_crossing(line, line.poles.back());
  EXPECT_TRUE(crossing.at_zero);
  EXPECT_EQ(crossing.r_from, 0.0);
}

}  // namespace
}  // namespace rmtsweep::spectral
