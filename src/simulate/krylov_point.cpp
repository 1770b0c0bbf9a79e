// The Krylov engine of simulate_point: the top k eigenpairs and the ridge of S without forming it.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "block_lanczos.hpp"
#include "krylov_operator.hpp"
#include "krylov_settings.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {

long long krylov_budget(const SimulationOptions& options) noexcept {
  return options.krylov_budget > 0 ? options.krylov_budget : default_budget(std::min(options.k, 4096));
}

KrylovOutcome krylov_point(const model::PointParams& params, const SimulationOptions& options,
                           MPI_Comm comm) {
  const double start = MPI_Wtime();
  int ranks = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  // A P x 1 grid: each rank holds whole rows of the table, none twice.
  const auto grid = std::make_shared<const parallel::BlacsGrid>(comm, ranks, 1);
  const auto N = static_cast<int>(params.sequences());
  PointContext context{params, options, grid, N};
  const auto R = model::correlation_matrix(params.correlation, params.T);
  const parallel::DistributedMatrix row_layout(grid, params.d, 1);
  double mark = MPI_Wtime();
  const PooledSequences pooled(params, row_layout,
                               options.tables != nullptr ? options.tables->get(params, row_layout) : nullptr);
  const SparsePooling seqs = pooled.sparse_pooling(N, training_streams);
  context.seconds.generate += MPI_Wtime() - mark;
  const double kappa = model::pooling_scalars(pooled.weights(), R).kappa;
  context.lambda = options.ridge * kappa;

  mark = MPI_Wtime();
  FactoredCovariance s(pooled.table(), seqs, params.d, row_layout.row_map().block, params.snr, comm);
  s.compress(compress_fraction);
  // c-bar = E a-bar and the ridge's b = E (label weights): one product of the table with two columns.
  const auto uV = static_cast<std::size_t>(s.mean_weights().size());
  std::vector<double> sides(2 * uV);
  for (std::size_t v = 0; v < uV; ++v) {
    sides[2 * v] = s.mean_weights()[v];
    sides[2 * v + 1] = s.label_weights()[v];
  }
  const std::vector<double> both = s.table_times(sides, 2);
  const auto ud = static_cast<std::size_t>(params.d);
  std::vector<double> mean(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(ud));
  std::vector<double> rhs(both.begin() + static_cast<std::ptrdiff_t>(ud), both.end());
  context.seconds.covariance += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  KrylovTargets targets;
  targets.k = std::min(options.k, params.d - 1);
  targets.block = options.krylov_block > 0 ? options.krylov_block : default_block;
  targets.budget = options.krylov_budget > 0 ? options.krylov_budget : default_budget(targets.k);
  targets.eigen_tolerance = eigen_tolerance;
  targets.scale = kappa;
  targets.lambda = context.lambda;
  targets.ridge_tolerance = ridge_tolerance;
  // One basis for the eigenpairs and the ridge: the time is the eigen stage's (the ridge's is its
  // test below).
  // The block products run on the kernels' threads; the solver's small dgemms are single-threaded,
  // so OpenBLAS's idle workers do not spin (sched_yield) against them: measured with perf at
  // d = 4000, 20 % of the time went to that spinning with OpenBLAS left at 2 threads.
  // (Blocks of one vector are dgemv products, which want the BLAS threads.)
  const KrylovSolution solution = [&] {
    std::optional<parallel::SingleThreadedBlas> single;
    if (targets.block > 1) single.emplace();
    return block_lanczos(s, rhs, targets);
  }();
  context.seconds.eigen += MPI_Wtime() - mark;

  KrylovOutcome out;
  out.converged = solution.converged && solution.residual <= accepted_residual &&
                  solution.ridge_residual <= accepted_ridge_residual;
  PointResult& result = out.result;
  result.eigensolver = parallel::Reducer::block_lanczos;
  result.products = s.products();
  result.residual = solution.residual;
  result.top_eigenvalues = solution.values;
  for (std::size_t j = 0; j < solution.values.size(); ++j) {
    const double x = solution.vectors[j * ud];
    result.overlaps.push_back(x * x);
  }
  result.overlaps.resize(static_cast<std::size_t>(std::min(options.k, params.d)), 0.0);
  result.top_eigenvalues.resize(result.overlaps.size(), 0.0);
  result.overlap = result.overlaps.empty() ? 0.0 : result.overlaps[0];
  if (!out.converged) return out;

  mark = MPI_Wtime();
  const std::int64_t ntest = options.ntest > 0 ? options.ntest : N;
  result.ridge_accuracy = test_accuracy(context, pooled, solution.ridge, mean, ntest);
  context.seconds.ridge += MPI_Wtime() - mark;
  if (params.weighting.data_dependent()) {
    result.weights_deviation = parallel::all_sum(seqs.deviation_sum, comm) / N;
  }
  context.seconds.total = MPI_Wtime() - start;
  result.seconds = slowest_rank(context.seconds, comm);
  return out;
}

}  // namespace rmtsweep::simulate
