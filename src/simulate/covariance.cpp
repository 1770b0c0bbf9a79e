// The covariance, eigen and ridge-training stages of one point: the direct d x d path and
// the N x N Gram path (model.md sections 1.2, 5 and 6).
#include <algorithm>
#include <cmath>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {

using parallel::DistributedMatrix;

FormedCovariance form_covariance(PointContext& context, const PooledSequences& pooled) {
  const int d = context.params.d, N = context.N;
  const auto ud = static_cast<std::size_t>(d);
  FormedCovariance out{DistributedMatrix(context.grid, d, d), {}, {}, 0.0, CovariancePath::panels};
  DistributedMatrix& s = out.s;
  std::vector<double> sums(2 * ud + 1, 0.0);
  const CovariancePath path = context.options.path;
  out.path = path == CovariancePath::tokens || (path == CovariancePath::automatic && pooled.tokens_pay(N))
                 ? CovariancePath::tokens
                 : CovariancePath::panels;
  if (out.path == CovariancePath::tokens) {
    const double mark = MPI_Wtime();
    const double pooling = pooled.covariance_by_tokens(s, N, training_streams, sums);
    context.seconds.generate += pooling;
    context.seconds.covariance += MPI_Wtime() - mark - pooling;
  } else {
    DistributedMatrix panel(context.grid, d, std::min(panel_width, N));
    std::vector<int> labels;
    for (int first = 0; first < N; first += panel.cols()) {
      const int count = std::min(panel.cols(), N - first);
      double mark = MPI_Wtime();
      out.deviation_sum += pooled.fill(panel, first, count, training_streams, labels, sums);
      context.seconds.generate += MPI_Wtime() - mark;
      mark = MPI_Wtime();
      parallel::syrk_lower('N', count, 1.0 / N, panel, 1.0, s);
      context.seconds.covariance += MPI_Wtime() - mark;
    }
  }
  double mark = MPI_Wtime();
  parallel::all_sum(std::span<double>(sums), context.grid->comm());
  out.mean.assign(sums.begin(), sums.begin() + d);
  for (double& m : out.mean) m /= N;
  const double label_mean = sums[2 * ud] / N;
  // Centring: S = (1/N) sum c c^T - c-bar c-bar^T (lower triangle). Local rows map to increasing
  // global rows, so in each column the rows i >= j are a contiguous tail.
  const auto rows = global_rows(s);
  std::vector<double> local_mean(rows.size());
  for (std::size_t lr = 0; lr < rows.size(); ++lr) local_mean[lr] = out.mean[rows[lr]];
  for (int lc = 0; lc < s.local_cols(); ++lc) {
    const auto j = static_cast<std::size_t>(s.col_map().to_global(lc));
    const double mean_j = out.mean[j];
    double* column = s.local_column(lc);
    for (auto lr = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), j) - rows.begin());
         lr < rows.size(); ++lr) {
      column[lr] -= local_mean[lr] * mean_j;
    }
  }
  context.seconds.covariance += MPI_Wtime() - mark;
  // b = (1/N) sum (c - c-bar) y = (1/N) sum c y - c-bar y-bar (the ridge's right-hand side).
  out.rhs.resize(ud);
  for (std::size_t i = 0; i < ud; ++i) out.rhs[i] = sums[ud + i] / N - out.mean[i] * label_mean;
  return out;
}

Measurements direct_path(PointContext& context, const PooledSequences& pooled) {
  const int d = context.params.d;
  FormedCovariance formed = form_covariance(context, pooled);
  DistributedMatrix& s = formed.s;
  Measurements out;
  out.path = formed.path;
  out.deviation_sum = formed.deviation_sum;
  out.mean = std::move(formed.mean);
  // Ridge: (S + lambda I) beta = b = (1/N) sum (c - c-bar) y = (1/N) sum c y - c-bar y-bar, solved
  // from the eigen stage's own reduction S = Q T Q^T (beta = Q (T + lambda I)^{-1} Q^T b) instead of
  // a copy of S and its Cholesky factorisation. Here seconds.ridge is building b (simulate_point
  // adds the test); the solve itself (one more pass of Q^T over b, an O(d) tridiagonal solve,
  // one more column in the Q back-transformation) is inside symmetric_eigen, timed as eigen.
  parallel::ShiftedSystem ridge{context.lambda, std::move(formed.rhs)};

  const double mark = MPI_Wtime();
  const int k = std::min(context.options.k, d);
  auto eigen = parallel::symmetric_eigen(s, k, &ridge, context.options.eigensolver);
  out.elpa = eigen.elpa;
  out.beta = std::move(eigen.solution);
  out.eigenvalues = std::move(eigen.values);
  const auto first_row = eigen.vectors.gather_leading(1, k);
  for (double x : first_row) out.overlaps.push_back(x * x);
  context.seconds.eigen += MPI_Wtime() - mark;
  return out;
}

CentredData centred_data(PointContext& context, const PooledSequences& pooled) {
  const int d = context.params.d, N = context.N;
  const auto ud = static_cast<std::size_t>(d);
  CentredData out{DistributedMatrix(context.grid, d, N), {}, 0.0};
  DistributedMatrix& c = out.c;
  double mark = MPI_Wtime();
  std::vector<int> labels;
  std::vector<double> sums(2 * ud + 1, 0.0);
  out.deviation_sum = pooled.fill(c, 0, N, training_streams, labels, sums);
  context.seconds.generate += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  parallel::all_sum(std::span<double>(sums.data(), ud), context.grid->comm());
  out.mean.assign(sums.begin(), sums.begin() + d);
  for (double& m : out.mean) m /= N;
  const auto rows = global_rows(c);
  for (int lc = 0; lc < c.local_cols(); ++lc) {
    double* column = c.local_column(lc);
    for (std::size_t lr = 0; lr < rows.size(); ++lr) column[lr] -= out.mean[rows[lr]];
  }
  context.seconds.covariance += MPI_Wtime() - mark;
  return out;
}

Measurements gram_path(PointContext& context, const PooledSequences& pooled) {
  const int d = context.params.d, N = context.N;
  const auto ud = static_cast<std::size_t>(d);
  CentredData centred = centred_data(context, pooled);
  const DistributedMatrix& c = centred.c;
  Measurements out;
  out.path = CovariancePath::gram;
  out.deviation_sum = centred.deviation_sum;
  out.mean = std::move(centred.mean);
  double mark = MPI_Wtime();
  DistributedMatrix gram(context.grid, N, N);
  parallel::syrk_lower('T', d, 1.0 / N, c, 0.0, gram);
  context.seconds.covariance += MPI_Wtime() - mark;

  // Ridge and eigen from one reduction of K (as in direct_path; timed under eigen):
  // alpha = (K + lambda I)^{-1} y, beta = C~ alpha / N. K's eigenvalues and d - N zeros are
  // S's; u_j = C~ v_j / sqrt(N lambda_j), so (u_j^T e_1)^2 = (row 0 of C~ times v_j)^2 / (N lambda_j).
  mark = MPI_Wtime();
  const int k = std::min(context.options.k, N);
  parallel::ShiftedSystem ridge{context.lambda, std::vector<double>(static_cast<std::size_t>(N))};
  {
    const random::CounterRng rng(context.params.seed, static_cast<std::uint64_t>(context.params.trial));
    std::vector<int> xi(static_cast<std::size_t>(context.params.T));
    for (int n = 0; n < N; ++n) {
      draw_signs(rng, training_streams.sign, context.params.correlation, n, xi);
      ridge.rhs[static_cast<std::size_t>(n)] = xi[0];
    }
  }
  auto eigen = parallel::symmetric_eigen(gram, k, &ridge, context.options.eigensolver);
  out.elpa = eigen.elpa;
  {
    DistributedMatrix alpha(context.grid, N, 1), beta(context.grid, d, 1);
    alpha.set_column(0, eigen.solution);
    parallel::gemm('N', 'N', d, 1, N, 1.0 / N, c, alpha, 0.0, beta);
    out.beta = beta.gather_leading(d, 1);
  }
  out.eigenvalues.assign(ud - static_cast<std::size_t>(std::min(N, d)), 0.0);
  out.eigenvalues.insert(out.eigenvalues.end(), eigen.values.end() - std::min(N, d), eigen.values.end());
  std::sort(out.eigenvalues.begin(), out.eigenvalues.end());
  DistributedMatrix projection(context.grid, 1, k);
  parallel::gemm('N', 'N', 1, k, N, 1.0, c, eigen.vectors, 0.0, projection);
  const auto first_row = projection.gather_leading(1, k);
  for (int j = 0; j < k; ++j) {
    const double lambda = eigen.values[static_cast<std::size_t>(N - 1 - j)];
    const double x = first_row[static_cast<std::size_t>(j)];
    out.overlaps.push_back(lambda > 0.0 ? x * x / (N * lambda) : 0.0);
  }
  context.seconds.eigen += MPI_Wtime() - mark;
  return out;
}

}  // namespace rmtsweep::simulate
