// The block table kernels (src/simulate/table_kernels.hpp) against plain sums, for every lane
// count they take (4, 8, 12, 16 and wider blocks split into groups of 16), with tables whose
// sizes leave remainders in every loop; and the same bits whatever the number of threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "simulate/table_kernels.hpp"

namespace {

using rmtsweep::simulate::stream_times;
using rmtsweep::simulate::stream_transpose_times;

struct Table {
  std::int64_t rows, columns, ld;
  std::vector<double> z;
};

Table random_table(std::int64_t rows, std::int64_t columns, std::int64_t padding, unsigned seed) {
  Table t{rows, columns, rows + padding, {}};
  t.z.resize(static_cast<std::size_t>(t.ld * columns));
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> gauss;
  for (double& x : t.z) x = gauss(engine);
  return t;
}

std::vector<double> random_block(std::int64_t rows, int lanes, unsigned seed) {
  std::vector<double> x(static_cast<std::size_t>(rows * lanes));
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> gauss;
  for (double& v : x) v = gauss(engine);
  return x;
}

/// |a - b| <= 1e-13 * (sum of |terms|): the rounding of any summation order.
void expect_sums_agree(const std::vector<double>& got, const std::vector<double>& want,
                       const std::vector<double>& scale) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-13 * scale[i]) << i;
}

void expect_kernels_match_plain_sums(std::int64_t rows, std::int64_t columns, int lanes) {
  if (!rmtsweep::simulate::table_kernels_available()) GTEST_SKIP() << "this CPU has no AVX2 + FMA";
  const Table t = random_table(rows, columns, 3, 1);
  const auto x = random_block(rows, lanes, 2);
  const auto w = random_block(columns, lanes, 3);
  std::vector<double> u(static_cast<std::size_t>(columns * lanes)), y(static_cast<std::size_t>(rows * lanes));
  stream_transpose_times(t.z.data(), rows, columns, t.ld, x.data(), lanes, u.data(), 2);
  stream_times(t.z.data(), rows, columns, t.ld, w.data(), lanes, y.data(), 2);

  std::vector<double> u_want(u.size(), 0.0), u_scale(u.size(), 0.0), y_want(y.size(), 0.0),
      y_scale(y.size(), 0.0);
  for (std::int64_t v = 0; v < columns; ++v) {
    for (std::int64_t i = 0; i < rows; ++i) {
      const double z = t.z[static_cast<std::size_t>(v * t.ld + i)];
      for (int j = 0; j < lanes; ++j) {
        const double a = z * x[static_cast<std::size_t>(i * lanes + j)],
                     b = z * w[static_cast<std::size_t>(v * lanes + j)];
        u_want[static_cast<std::size_t>(v * lanes + j)] += a;
        u_scale[static_cast<std::size_t>(v * lanes + j)] += std::abs(a);
        y_want[static_cast<std::size_t>(i * lanes + j)] += b;
        y_scale[static_cast<std::size_t>(i * lanes + j)] += std::abs(b);
      }
    }
  }
  expect_sums_agree(u, u_want, u_scale);
  expect_sums_agree(y, y_want, y_scale);

  // One thread gives the same bits: each entry is summed in one fixed order.
  std::vector<double> u1(u.size()), y1(y.size());
  stream_transpose_times(t.z.data(), rows, columns, t.ld, x.data(), lanes, u1.data(), 1);
  stream_times(t.z.data(), rows, columns, t.ld, w.data(), lanes, y1.data(), 1);
  EXPECT_EQ(u1, u);
  EXPECT_EQ(y1, y);
}

}  // namespace

TEST(TableKernels, FourLanesMatchPlainSums) { expect_kernels_match_plain_sums(301, 77, 4); }
TEST(TableKernels, EightLanesMatchPlainSums) { expect_kernels_match_plain_sums(1537, 203, 8); }
TEST(TableKernels, TwelveLanesMatchPlainSums) { expect_kernels_match_plain_sums(250, 131, 12); }
TEST(TableKernels, SixteenLanesMatchPlainSums) { expect_kernels_match_plain_sums(2100, 65, 16); }
TEST(TableKernels, WideBlocksAreSplitIntoGroupsOfSixteen) { expect_kernels_match_plain_sums(97, 53, 28); }
// Rows of x beyond one cache chunk (128 KiB / 8 lanes = 2048 rows) are summed chunk by chunk.
TEST(TableKernels, TallTablesSumAcrossChunks) { expect_kernels_match_plain_sums(5000, 21, 8); }
