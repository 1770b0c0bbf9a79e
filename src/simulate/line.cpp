// simulate_line: every snr of a line from one factorization of its snr-free part
// (include/rmtsweep/simulate/line.hpp, docs/model.md section 9), and the dense engine (LAPACK dsytrd +
// dstedc, or ScaLAPACK pdsytrd on a group).
#include "rmtsweep/simulate/line.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "line_stages.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/parallel/tridiagonal.hpp"
#include "rmtsweep/simulate/engine.hpp"

namespace rmtsweep::simulate {
namespace {

using parallel::DistributedMatrix;
using Vector = std::vector<double>;

double dot(const double* x, const double* y, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

/// W^T x for the n x n column-major W and the n x b column-major x (this rank only).
Vector transposed_times(const Vector& w, const Vector& x, int n, int b) {
  Vector out(static_cast<std::size_t>(n) * static_cast<std::size_t>(b));
  if (n > 0) parallel::local_gemm('T', 'N', n, b, n, 1.0, w.data(), n, x.data(), n, 0.0, out.data(), n);
  return out;
}

/// Z w (d, replicated on every rank of the grid, the same bits everywhere) for the V-vector w:
/// each process column holds every row of the table once.
Vector table_times(const PooledSequences& pooled, const parallel::BlacsGrid& grid, const Vector& w, int d) {
  const NoiseTable& table = pooled.table();
  const auto rows = static_cast<int>(table.global_rows().size());
  const auto V = static_cast<int>(table.vocabulary());
  Vector local(static_cast<std::size_t>(rows), 0.0), out(static_cast<std::size_t>(d), 0.0);
  if (rows > 0 && V > 0)
    parallel::local_gemm('N', 'N', rows, 1, V, 1.0, table.column(0), rows, w.data(), V, 0.0, local.data(),
                         rows);
  for (std::size_t r = 0; r < local.size(); ++r) out[table.global_rows()[r]] = local[r];
  parallel::sum_on_root_then_broadcast(std::span<double>(out), grid.column_comm());
  // Process columns other than the first summed the same rows in the same order: the same bits, but
  // make it certain for the group's replicated computations.
  parallel::broadcast(std::span<double>(out), grid.comm());
  return out;
}

/// The line of the direct form (N >= d): S0' = S0 - p p^T / q, factored by (p)dsytrd; its eigenvalues and
/// the vectors of the update in its eigenbasis; the ridge's three fixed solutions.
struct Factored {
  spectral::RankOneLine secular;
  LineRidge ridge;
  Vector mean0;  ///< c-bar of the noise-only pooled vectors
  CovariancePath path = CovariancePath::panels;
};

Factored direct_line(PointContext& context, const PooledSequences& pooled, const LineSignal& signal) {
  const int d = context.params.d;
  const auto ud = static_cast<std::size_t>(d);
  FormedCovariance formed = form_covariance(context, pooled);
  double mark = MPI_Wtime();
  const Vector p = table_times(pooled, *context.grid, signal.sigma_weights, d);
  const double q = signal.q;
  // S0' = S0 - p p^T / q on the lower triangle: the noise with sigma regressed out, snr-free.
  DistributedMatrix& s = formed.s;
  for (int lc = 0; lc < s.local_cols(); ++lc) {
    const auto j = static_cast<std::size_t>(s.col_map().to_global(lc));
    double* column = s.local_column(lc);
    for (int lr = 0; lr < s.local_rows(); ++lr) {
      const auto i = static_cast<std::size_t>(s.row_map().to_global(lr));
      if (i >= j) column[lr] -= p[i] * p[j] / q;
    }
  }
  context.seconds.covariance += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  const parallel::Tridiagonal factor(s);
  // Q^T [u, p, b0]: the update's vectors and the ridge's right side in T's basis.
  Vector x(3 * ud, 0.0);
  x[0] = 1.0;
  std::copy(p.begin(), p.end(), x.begin() + static_cast<std::ptrdiff_t>(ud));
  std::copy(formed.rhs.begin(), formed.rhs.end(), x.begin() + static_cast<std::ptrdiff_t>(2 * ud));
  const Vector rotated = factor.apply("T", x, 3);
  const parallel::TridiagonalEigen eigen =
      parallel::tridiagonal_eigen(factor.diagonal(), factor.subdiagonal());
  const Vector in_eigenbasis = transposed_times(eigen.vectors, rotated, d, 2);
  Factored out;
  out.path = formed.path;
  out.mean0 = std::move(formed.mean);
  out.secular.poles = eigen.values;
  out.secular.signal.assign(in_eigenbasis.begin(), in_eigenbasis.begin() + static_cast<std::ptrdiff_t>(ud));
  out.secular.offset.assign(in_eigenbasis.begin() + static_cast<std::ptrdiff_t>(ud), in_eigenbasis.end());
  for (double& a : out.secular.offset) a /= q;
  out.secular.rho = q;
  out.secular.form = spectral::OverlapForm::direct;

  // The ridge: A = S0' + lambda I, beta_x = A^{-1} x for x = u, p, b0 from the tridiagonal (one dptsv
  // with three right sides, one back-transformation).
  Vector solved = rotated;
  parallel::solve_shifted_tridiagonal(factor.diagonal(), factor.subdiagonal(), context.lambda, solved, 3,
                                      context.grid->comm());
  const Vector betas = factor.apply("N", solved, 3);  // [beta_u, beta_p, beta_b]
  context.seconds.eigen += MPI_Wtime() - mark;
  out.ridge = direct_form_ridge(betas, p, q, signal.h);
  return out;
}

/// The line of the Gram form (N < d): K(r) = K0' + m m^T / N with K0' = C~'^T C~' / N (C~' the centred
/// noise-only data without its signal row) and m = c0 + r sigma~ (c0 that row). The eigenvectors of S are
/// C(r) w / sqrt(N lambda); the ridge beta = C(r) (K(r) + lambda I)^{-1} y / N.
Factored gram_line(PointContext& context, const PooledSequences& pooled, const LineSignal& signal) {
  const int d = context.params.d, N = context.N;
  const auto ud = static_cast<std::size_t>(d), uN = static_cast<std::size_t>(N);
  CentredData centred = centred_data(context, pooled);
  DistributedMatrix& c = centred.c;
  double mark = MPI_Wtime();
  const Vector c0 = c.gather_leading(1, N);
  if (c.row_map().owner(0) == c.row_map().me) {
    const int lr = c.row_map().to_local(0);
    for (int lc = 0; lc < c.local_cols(); ++lc) c.local(lr, lc) = 0.0;
  }
  DistributedMatrix gram(context.grid, N, N);
  parallel::syrk_lower('T', d, 1.0 / N, c, 0.0, gram);
  context.seconds.covariance += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  const parallel::Tridiagonal factor(gram);
  Vector x(3 * uN);
  std::copy(signal.sigma.begin(), signal.sigma.end(), x.begin());
  std::copy(c0.begin(), c0.end(), x.begin() + static_cast<std::ptrdiff_t>(uN));
  std::copy(signal.labels.begin(), signal.labels.end(), x.begin() + static_cast<std::ptrdiff_t>(2 * uN));
  const Vector rotated = factor.apply("T", x, 3);  // Q^T [sigma~, c0, y]
  const parallel::TridiagonalEigen eigen =
      parallel::tridiagonal_eigen(factor.diagonal(), factor.subdiagonal());
  const Vector in_eigenbasis = transposed_times(eigen.vectors, rotated, N, 2);
  Factored out;
  out.path = CovariancePath::gram;
  out.mean0 = std::move(centred.mean);
  out.secular.poles = eigen.values;
  out.secular.signal.assign(in_eigenbasis.begin(), in_eigenbasis.begin() + static_cast<std::ptrdiff_t>(uN));
  out.secular.offset.assign(in_eigenbasis.begin() + static_cast<std::ptrdiff_t>(uN), in_eigenbasis.end());
  out.secular.rho = 1.0 / N;
  out.secular.form = spectral::OverlapForm::gram;

  // alpha_x = (K0' + lambda I)^{-1} x for x = sigma~, c0, y; then the d-vectors C~' alpha_x / N.
  Vector solved = rotated;
  parallel::solve_shifted_tridiagonal(factor.diagonal(), factor.subdiagonal(), context.lambda, solved, 3,
                                      context.grid->comm());
  const Vector alphas = factor.apply("N", solved, 3);  // [alpha_sigma, alpha_c, alpha_y]
  DistributedMatrix alpha(context.grid, N, 3), basis(context.grid, d, 3);
  for (int j = 0; j < 3; ++j)
    alpha.set_column(j, Vector(alphas.begin() + static_cast<std::ptrdiff_t>(j * uN),
                               alphas.begin() + static_cast<std::ptrdiff_t>((j + 1) * uN)));
  parallel::gemm('N', 'N', d, 3, N, 1.0 / N, c, alpha, 0.0, basis);
  const Vector gathered = basis.gather_leading(d, 3);  // [B_sigma, B_c, B_y]
  context.seconds.eigen += MPI_Wtime() - mark;

  const double* a_s = alphas.data();
  const double* a_c = alphas.data() + uN;
  const double* a_y = alphas.data() + 2 * uN;
  const Vector& s = signal.sigma;
  const double cy = dot(c0.data(), a_y, uN), sy = dot(s.data(), a_y, uN), cc = dot(c0.data(), a_c, uN),
               cs = dot(c0.data(), a_s, uN), ss = dot(s.data(), a_s, uN);
  // basis: [B_y, B_c, B_sigma, u]; alpha(r) = alpha_y - gamma (alpha_c + r alpha_sigma) (Sherman-Morrison),
  // beta(r) = C~' alpha(r) / N + u m(r)^T alpha(r) / N.
  out.ridge.count = 4;
  out.ridge.basis.assign(4 * ud, 0.0);
  std::copy_n(gathered.begin() + static_cast<std::ptrdiff_t>(2 * ud), ud, out.ridge.basis.begin());
  std::copy_n(gathered.begin() + static_cast<std::ptrdiff_t>(ud), ud,
              out.ridge.basis.begin() + static_cast<std::ptrdiff_t>(ud));
  std::copy_n(gathered.begin(), ud, out.ridge.basis.begin() + static_cast<std::ptrdiff_t>(2 * ud));
  out.ridge.basis[3 * ud] = 1.0;
  const double n = N;
  out.ridge.coefficients = [=](double r) {
    const double my = cy + r * sy;
    const double gamma = my / (n + cc + 2.0 * r * cs + r * r * ss);
    const double m_alpha = my - gamma * (cc + 2.0 * r * cs + r * r * ss);
    return Vector{1.0, -gamma, -r * gamma, m_alpha / n};
  };
  return out;
}

LineResult dense_line(const model::PointParams& params, std::span<const double> snr,
                      const SimulationOptions& options, MPI_Comm comm) {
  const double start = MPI_Wtime();
  const auto grid = std::make_shared<const parallel::BlacsGrid>(comm);
  const auto N = static_cast<int>(params.sequences());
  model::PointParams noise_only = params;
  noise_only.snr = 0.0;
  PointContext context{noise_only, options, grid, N};
  const auto R = model::correlation_matrix(params.correlation, params.T);
  const DistributedMatrix row_layout(grid, params.d, 1);
  double mark = MPI_Wtime();
  const PooledSequences pooled(
      noise_only, row_layout,
      options.tables != nullptr ? options.tables->get(noise_only, row_layout) : nullptr);
  const LineSignal signal = line_signal(pooled.sparse_pooling(N, training_streams), params.vocabulary());
  context.seconds.generate += MPI_Wtime() - mark;
  context.lambda = options.ridge * model::pooling_scalars(pooled.weights(), R).kappa;

  const bool gram =
      options.path == CovariancePath::gram || (options.path == CovariancePath::automatic && N < params.d);
  if (!(signal.q > 0.0)) {
    throw SignalDoesNotVary();
  }
  Factored line = gram ? gram_line(context, pooled, signal) : direct_line(context, pooled, signal);
  line.secular = spectral::canonical(std::move(line.secular));

  std::vector<double> r(snr.size());
  std::transform(snr.begin(), snr.end(), r.begin(), [](double x) { return std::sqrt(x); });
  mark = MPI_Wtime();
  const std::int64_t ntest = options.ntest > 0 ? options.ntest : N;
  const Vector accuracies =
      line_test_accuracies(context, pooled, line.ridge, line.mean0, signal.sigma_mean, r, ntest);
  context.seconds.ridge += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  const int k = std::min(options.k, gram ? N : params.d);
  const std::size_t zeros = gram ? static_cast<std::size_t>(params.d - std::min(N, params.d)) : 0;
  const parallel::Reducer reducer =
      grid->rows() * grid->cols() > 1 ? parallel::Reducer::scalapack_line : parallel::Reducer::lapack_line;
  LineResult result;
  result.points = line_points(line.secular, k, zeros, r, accuracies, options.spectrum, reducer, line.path);
  for (PointResult& point : result.points)
    point.overlaps.resize(static_cast<std::size_t>(std::min(options.k, params.d)), 0.0);
  context.seconds.eigen += MPI_Wtime() - mark;
  result.secular = line.secular;
  context.seconds.total = MPI_Wtime() - start;
  result.seconds = slowest_rank(context.seconds, comm);
  return result;
}

}  // namespace

bool line_applies(const model::PointParams& params) noexcept { return !params.weighting.data_dependent(); }

LineSignal line_signal(const SparsePooling& sequences, std::int64_t vocabulary) {
  const std::int64_t N = sequences.sequences();
  const auto uN = static_cast<std::size_t>(N), terms = static_cast<std::size_t>(sequences.terms);
  LineSignal out;
  out.sigma.resize(uN);
  out.labels.resize(uN);
  const std::int64_t half = vocabulary / 2;
  double sum = 0.0;
  for (std::size_t n = 0; n < uN; ++n) {
    double sigma = 0.0;
    for (std::size_t j = 0; j < terms; ++j) {
      const double w = sequences.weights[n * terms + j];
      sigma += sequences.tokens[n * terms + j] < half ? w : -w;
    }
    out.sigma[n] = sigma;
    out.labels[n] = sequences.labels[n];
    sum += sigma;
  }
  out.sigma_mean = sum / static_cast<double>(N);
  out.sigma_weights.assign(static_cast<std::size_t>(vocabulary), 0.0);
  double q = 0.0, h = 0.0;
  for (std::size_t n = 0; n < uN; ++n) {
    const double centred = out.sigma[n] - out.sigma_mean;
    out.sigma[n] = centred;
    q += centred * centred;
    h += centred * out.labels[n];
    for (std::size_t j = 0; j < terms; ++j)
      out.sigma_weights[static_cast<std::size_t>(sequences.tokens[n * terms + j])] +=
          centred * sequences.weights[n * terms + j] / static_cast<double>(N);
  }
  out.q = q / static_cast<double>(N);
  out.h = h / static_cast<double>(N);
  return out;
}

LineRidge direct_form_ridge(const std::vector<double>& betas, const std::vector<double>& p, double q,
                            double h) {
  const std::size_t ud = p.size();
  const double* beta_u = betas.data();
  const double* beta_p = betas.data() + ud;
  const double* beta_b = betas.data() + 2 * ud;
  // Sherman-Morrison on A + q v v^T, v = r u + p/q, b(r) = b0 + r h u:
  // beta(r) = beta_b + r h beta_u - q (v^T A^{-1} b(r)) / (1 + q v^T A^{-1} v) (r beta_u + beta_p / q).
  const double uu = beta_u[0], ub = beta_b[0], pu = dot(p.data(), beta_u, ud), pb = dot(p.data(), beta_b, ud),
               pp = dot(p.data(), beta_p, ud);
  LineRidge ridge;
  ridge.count = 3;
  ridge.basis.resize(3 * ud);
  std::copy_n(beta_b, ud, ridge.basis.begin());
  std::copy_n(beta_u, ud, ridge.basis.begin() + static_cast<std::ptrdiff_t>(ud));
  std::copy_n(beta_p, ud, ridge.basis.begin() + static_cast<std::ptrdiff_t>(2 * ud));
  ridge.coefficients = [=](double r) {
    const double along = r * ub + r * r * h * uu + pb / q + r * h * pu / q;
    const double denominator = 1.0 + q * r * r * uu + 2.0 * r * pu + pp / q;
    const double ratio = along / denominator;
    return std::vector<double>{1.0, r * h - q * r * ratio, -ratio};
  };
  return ridge;
}

std::vector<PointResult> line_points(const spectral::RankOneLine& secular, int k, std::size_t zeros,
                                     std::span<const double> r, const std::vector<double>& accuracies,
                                     bool spectrum, parallel::Reducer reducer, CovariancePath path) {
  std::vector<PointResult> points(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    spectral::RankOneSolution solution = spectral::solve(secular, r[i], k, spectrum);
    PointResult& point = points[i];
    point.top_eigenvalues = std::move(solution.top);
    point.overlaps = std::move(solution.overlaps);
    point.overlap = point.overlaps.empty() ? 0.0 : point.overlaps.front();
    point.ridge_accuracy = accuracies[i];
    point.eigensolver = reducer;
    point.path = path;
    if (spectrum) {
      point.eigenvalues.assign(zeros, 0.0);
      point.eigenvalues.insert(point.eigenvalues.end(), solution.all.begin(), solution.all.end());
      std::sort(point.eigenvalues.begin(), point.eigenvalues.end());
    }
  }
  return points;
}

LineResult simulate_line(const model::PointParams& params, std::span<const double> snr,
                         const SimulationOptions& options, MPI_Comm comm) {
  if (!line_applies(params))
    throw std::invalid_argument(
        "simulate_line: causal:tau weights depend on the data; compute its points one at a time");
  if (snr.empty()) throw std::invalid_argument("simulate_line: no snr values");
  for (const double value : snr) {
    model::PointParams point = params;
    point.snr = value;
    model::validate(point);
  }
  int ranks = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  // Decided on rank 0, as simulate_point does: the memory check reads this node's free memory.
  const DenseMemory memory = parallel::decided_on_root(comm, [&] { return dense_memory(params, ranks); });
  const bool krylov = choose_engine(params, options, Work::line, memory) == Engine::krylov;
  std::vector<std::size_t> unconverged;
  LineResult result;
  try {
    result = krylov ? krylov_line(params, snr, options, comm, unconverged)
                    : dense_line(params, snr, options, comm);
  } catch (const SignalDoesNotVary&) {
    // No rank-one form in r (every rank of the group finds q = 0 alike): every point alone, as lines = off
    // computes it; the line's row then holds no secular form and says so (converged 0).
    result = LineResult{};
    result.points.resize(snr.size());
    unconverged.clear();
    for (std::size_t i = 0; i < snr.size(); ++i) unconverged.push_back(i);
  }
  // The snr values the line's basis did not converge for: each point alone (simulate_point, which falls back
  // to the dense engine where its own Krylov iteration does not converge either).
  for (const std::size_t i : unconverged) {
    model::PointParams point = params;
    point.snr = snr[i];
    result.points[i] = simulate_point(point, options, comm);
    result.recomputed_alone.push_back(i);
  }
  // The finite-T theory of the line's token draws: one outlier for every snr (recomputed points have theirs).
  const double theory_start = MPI_Wtime();
  const std::vector<FiniteTPoint> finite_t = finite_t_predictions(params, snr, options, comm);
  result.seconds.finite_t = parallel::all_max(MPI_Wtime() - theory_start, comm);
  result.seconds.total += result.seconds.finite_t;
  // Each point's share of the line's time.
  const double share = 1.0 / static_cast<double>(snr.size());
  for (std::size_t i = 0; i < snr.size(); ++i) {
    PointResult& point = result.points[i];
    if (!parallel::is_line(point.eigensolver)) continue;  // recomputed alone: its own times and theory
    point.finite_t = finite_t[i].finite_t;
    point.finite_t_levels = finite_t[i].levels;
    point.seconds = {result.seconds.generate * share, result.seconds.covariance * share,
                     result.seconds.eigen * share,    result.seconds.ridge * share,
                     result.seconds.total * share,    result.seconds.finite_t * share};
  }
  return result;
}

}  // namespace rmtsweep::simulate
