// Data generation (the table and the pooled panels) splits its loops over the rank's BLAS
// threads. Every draw is a pure function of its coordinates and each thread writes its own
// entries, so the generated data must be bitwise the same whatever the number of threads.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cfloat>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "point_fixture.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"

using namespace rmtsweep;

namespace {

struct Generated {
  std::vector<double> panel;  // this rank's local part
  std::vector<int> labels;
  double deviation = 0.0;
};

/// The pooled panel of sequences 100..355 (d = 300 rows, 256 columns) generated with `threads`.
Generated generate(const model::PointParams& params, int threads) {
  parallel::set_blas_threads(threads);
  const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
  const parallel::DistributedMatrix layout(grid, params.d, 1);
  const simulate::PooledSequences pooled(params, layout);
  parallel::DistributedMatrix panel(grid, params.d, 256);
  Generated out;
  out.deviation = pooled.fill(panel, 100, 256, simulate::training_streams, out.labels);
  out.panel.assign(panel.data(), panel.data() + static_cast<std::size_t>(panel.lld()) *
                                                    static_cast<std::size_t>(panel.local_cols()));
  parallel::set_blas_threads(1);
  return out;
}

void expect_bitwise_same_with_1_and_2_threads(const model::PointParams& params) {
  const Generated one = generate(params, 1), two = generate(params, 2);
  ASSERT_EQ(one.panel.size(), two.panel.size());
  for (std::size_t i = 0; i < one.panel.size(); ++i) ASSERT_EQ(one.panel[i], two.panel[i]) << i;
  EXPECT_EQ(one.labels, two.labels);
  EXPECT_EQ(one.deviation, two.deviation);
}

}  // namespace

TEST(GenerationThreads, IidTableMeanPoolingIsBitwiseTheSameWithOneAndTwoThreads) {
  expect_bitwise_same_with_1_and_2_threads(test::make_point(300, 0.5, 0.5, 2.0, "mean", "prefix:3", "iid"));
}

TEST(GenerationThreads, CenteredTableCausalAttentionIsBitwiseTheSameWithOneAndTwoThreads) {
  expect_bitwise_same_with_1_and_2_threads(
      test::make_point(300, 0.7, 0.5, 2.0, "causal:1", "markov:0.5", "centered"));
}

// fill's fused sums (sum c, sum y c, sum y; the direct path's mean and ridge right-hand side)
// are added per thread chunk and the chunks' parts in chunk order, so with 2 threads they are
// another summation order of the same 256 columns: equal to rounding, not bitwise. Each order
// is within 255 u sum|c| of the exact sum (recursive summation, u = eps / 2), so they differ
// by at most 256 eps sum_n |c_n[i]|, the tolerance of each entry; the label sum is an integer
// and exact. This is also the only test of the multi-chunk path.
TEST(GenerationThreads, FillSumsAgreeToRoundingWithOneAndTwoThreads) {
  const auto params = test::make_point(300, 0.5, 0.5, 2.0, "mean", "prefix:3", "iid");
  const auto d = static_cast<std::size_t>(params.d);
  std::vector<std::vector<double>> sums;
  std::vector<double> bound(2 * d, 0.0);
  for (const int threads : {1, 2}) {
    parallel::set_blas_threads(threads);
    const auto grid = std::make_shared<const parallel::BlacsGrid>(MPI_COMM_WORLD);
    parallel::DistributedMatrix panel(grid, params.d, 256);
    const simulate::PooledSequences pooled(params, panel);
    std::vector<int> labels;
    sums.emplace_back(2 * d + 1, 0.0);
    pooled.fill(panel, 100, 256, simulate::training_streams, labels, sums.back());
    parallel::set_blas_threads(1);
    if (threads != 1) continue;  // the panel itself is bitwise the same (tests above)
    for (int lc = 0; lc < panel.local_cols(); ++lc) {
      for (int lr = 0; lr < panel.local_rows(); ++lr) {
        const auto i = static_cast<std::size_t>(panel.row_map().to_global(lr));
        const double term = 256 * DBL_EPSILON * std::abs(panel.local(lr, lc));  // |y c| = |c|
        bound[i] += term;
        bound[d + i] += term;
      }
    }
  }
  for (std::size_t i = 0; i < 2 * d; ++i) {
    EXPECT_NEAR(sums[0][i], sums[1][i], bound[i]) << "entry " << i;
  }
  EXPECT_EQ(sums[0][2 * d], sums[1][2 * d]);
}
