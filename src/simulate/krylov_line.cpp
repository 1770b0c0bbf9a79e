// The Krylov engine of a line (docs/model.md section 9): one block Krylov basis of the snr-free S0 started
// from [u, p, b0, random...] is a Krylov basis of every S(r) = S0 + r (p u^T + u p^T) + r^2 q u u^T, because
// u and p lie in its first block: each snr's projected matrix T(r) differs from T0 = Q^T S0 Q in that block
// only, T(r) = T0' + q v v^T with T0' = T0 - p^ p^T / q, v = r u^ + p^ / q. So T0' is diagonalised once per
// check and every snr is a rank-one update of it (spectral/rank_one.hpp), its convergence read off the
// recurrence.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "block_lanczos.hpp"
#include "krylov_operator.hpp"
#include "krylov_settings.hpp"
#include "line_stages.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/scalapack.hpp"

namespace rmtsweep::simulate {
namespace {

using Vector = std::vector<double>;

double norm2(const double* x, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i] * x[i];
  return std::sqrt(sum);
}

/// T0' in its eigenbasis and what each snr needs of the Krylov basis: the update's vectors there, the rows of
/// the eigenvectors on the last block (for the recurrence's residuals) and the ridge's right side.
struct ProjectedLine {
  spectral::RankOneLine secular;  ///< poles: Ritz values of T0'; signal: Y^T u^; offset: Y^T p^ / q
  Vector last_rows;               ///< b x m, column-major: the last block's rows of Y
  Vector ridge_side;              ///< Y^T b^ (m)
  Vector vectors;                 ///< Y (m x m, column-major)
};

/// The first-block vectors of the start block's QR: start = Q_1 R, so Q^T u = R e_1, Q^T p = R e_2, Q^T b0 =
/// R e_3.
struct StartVectors {
  Vector u, p, b0;  ///< each b entries (the rest of the m-vector is 0)
};

ProjectedLine project(const BlockKrylov& krylov, const StartVectors& start, double q) {
  const int m = krylov.size(), b = krylov.block();
  const auto um = static_cast<std::size_t>(m), ub = static_cast<std::size_t>(b);
  Vector t = krylov.projected().dense();
  for (std::size_t j = 0; j < ub; ++j) {
    for (std::size_t i = 0; i < ub; ++i) t[j * um + i] -= start.p[i] * start.p[j] / q;
  }
  model::SymmetricEigen eigen = model::symmetric_eigen_dc(std::move(t), m);
  ProjectedLine out;
  out.secular.poles = std::move(eigen.values);
  out.secular.signal.assign(um, 0.0);
  out.secular.offset.assign(um, 0.0);
  out.ridge_side.assign(um, 0.0);
  out.last_rows.assign(ub * um, 0.0);
  for (std::size_t j = 0; j < um; ++j) {
    const double* y = eigen.vectors.data() + j * um;
    for (std::size_t i = 0; i < ub; ++i) {
      out.secular.signal[j] += y[i] * start.u[i];
      out.secular.offset[j] += y[i] * start.p[i] / q;
      out.ridge_side[j] += y[i] * start.b0[i];
      out.last_rows[j * ub + i] = y[um - ub + i];
    }
  }
  out.secular.rho = q;
  out.secular.form = spectral::OverlapForm::direct;
  out.vectors = std::move(eigen.vectors);
  return out;
}

/// ||B Y_last x|| for an m-vector x in T0's eigenbasis: the recurrence's residual of the vector Q Y x.
double residual_of(const ProjectedLine& line, const Vector& coupling, int b, const Vector& x) {
  const auto um = x.size(), ub = static_cast<std::size_t>(b);
  Vector last(ub, 0.0);
  for (std::size_t j = 0; j < um; ++j) {
    for (std::size_t i = 0; i < ub; ++i) last[i] += line.last_rows[j * ub + i] * x[j];
  }
  return coupled_norm(coupling, b, last.data());
}

/// The largest recurrence residuals at r: of the top k Ritz pairs (absolute) and of the ridge (relative to
/// ||b(r)||; b(r) = b0 + r h u, in the basis (b^ + r h u^)).
struct Residuals {
  double eigen = 0.0;           ///< max_j ||S(r) x_j - lambda_j x_j||
  double eigen_relative = 0.0;  ///< max_j of the same over |lambda_j| (what a point records)
  double ridge = 0.0;
};

Residuals residuals(const ProjectedLine& line, const StartVectors& start, const Vector& coupling, int b,
                    double r, double h, double lambda, int k) {
  const spectral::RankOneLine& s = line.secular;
  const std::size_t m = s.size();
  Vector z(m);
  for (std::size_t i = 0; i < m; ++i) z[i] = r * s.signal[i] + s.offset[i];
  Residuals out;
  const spectral::RankOneSolution solution = spectral::solve(s, r, k);
  for (const double value : solution.top) {
    // The Ritz vector (Theta - lambda)^{-1} z of T(r); at an exact pole (a deflated pair) that pole's axis.
    Vector x(m, 0.0);
    double norm = 0.0;
    for (std::size_t i = 0; i < m; ++i) {
      const double gap = s.poles[i] - value;
      x[i] = gap != 0.0 ? z[i] / gap : 0.0;
      norm += x[i] * x[i];
    }
    if (!(norm > 0.0) || !std::isfinite(norm)) {
      x.assign(m, 0.0);
      const auto nearest = static_cast<std::size_t>(
          std::min_element(s.poles.begin(), s.poles.end(),
                           [&](double a, double c) { return std::abs(a - value) < std::abs(c - value); }) -
          s.poles.begin());
      x[nearest] = 1.0;
      norm = 1.0;
    }
    for (double& xi : x) xi /= std::sqrt(norm);
    const double residual = residual_of(line, coupling, b, x);
    out.eigen = std::max(out.eigen, residual);
    out.eigen_relative = std::max(out.eigen_relative, residual / std::abs(value));
  }
  // (D + q v v^T)^{-1} c in the eigenbasis, D = Theta + lambda, c = Y^T (b^ + r h u^), v = z / sqrt(rho) ...
  // with z = r g + a already the update's vector (rho = q): Sherman-Morrison.
  Vector c(m), dc(m), dz(m);
  double zdc = 0.0, zdz = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    c[i] = line.ridge_side[i] + r * h * s.signal[i];
    const double diagonal = s.poles[i] + lambda;
    dc[i] = c[i] / diagonal;
    dz[i] = z[i] / diagonal;
    zdc += z[i] * dc[i];
    zdz += z[i] * dz[i];
  }
  const double ratio = s.rho * zdc / (1.0 + s.rho * zdz);
  Vector x(m);
  for (std::size_t i = 0; i < m; ++i) x[i] = dc[i] - ratio * dz[i];
  Vector side(start.b0.size());
  for (std::size_t i = 0; i < side.size(); ++i) side[i] = start.b0[i] + r * h * start.u[i];
  const double side_norm = norm2(side.data(), side.size());
  out.ridge = side_norm > 0.0 ? residual_of(line, coupling, b, x) / side_norm : 0.0;
  return out;
}

/// When to check a line's convergence next: the worst residual (over its tolerance) decays geometrically with
/// the blocks; from the last two checks, the block where it should reach 1.
struct CheckSchedule {
  int next = 8;  ///< no check before: a point's basis needs tens of blocks
  int last_blocks = 0;
  double last_worst = 0.0;
  int after(int blocks, double worst) {
    int step = std::max(1, blocks / 8);
    if (last_blocks > 0 && worst > 0.0 && last_worst > worst) {
      const double rate = std::log(last_worst / worst) / static_cast<double>(blocks - last_blocks);
      const double needed = std::log(worst) / rate;  // blocks until worst reaches 1 at this rate
      step = std::clamp(static_cast<int>(std::floor(0.9 * needed)), 1, std::max(1, blocks / 5));
    }
    last_blocks = blocks;
    last_worst = worst;
    return blocks + step;
  }
};

}  // namespace

LineResult krylov_line(const model::PointParams& params, std::span<const double> snr,
                       const SimulationOptions& options, MPI_Comm comm,
                       std::vector<std::size_t>& unconverged) {
  const double start_time = MPI_Wtime();
  int ranks = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  const auto grid = std::make_shared<const parallel::BlacsGrid>(comm, ranks, 1);
  const auto N = static_cast<int>(params.sequences());
  const auto d = params.d;
  const auto ud = static_cast<std::size_t>(d);
  model::PointParams noise_only = params;
  noise_only.snr = 0.0;
  PointContext context{noise_only, options, grid, N};
  const auto R = model::correlation_matrix(params.correlation, params.T);
  const parallel::DistributedMatrix row_layout(grid, d, 1);
  double mark = MPI_Wtime();
  const PooledSequences pooled(
      noise_only, row_layout,
      options.tables != nullptr ? options.tables->get(noise_only, row_layout) : nullptr);
  const SparsePooling sequences = pooled.sparse_pooling(N, training_streams);
  const LineSignal signal = line_signal(sequences, params.vocabulary());
  context.seconds.generate += MPI_Wtime() - mark;
  const double kappa = model::pooling_scalars(pooled.weights(), R).kappa;
  context.lambda = options.ridge * kappa;
  if (!(signal.q > 0.0)) {
    throw SignalDoesNotVary();
  }

  mark = MPI_Wtime();
  FactoredCovariance s(pooled.table(), sequences, d, row_layout.row_map().block, 0.0, comm);
  s.compress(compress_fraction);
  // c-bar0 = Z a-bar, b0 = Z a_y, p = Z a_sigma: one product of the table with three columns.
  const auto uV = s.mean_weights().size();
  Vector sides(3 * uV);
  for (std::size_t v = 0; v < uV; ++v) {
    sides[3 * v] = s.mean_weights()[v];
    sides[3 * v + 1] = s.label_weights()[v];
    sides[3 * v + 2] = signal.sigma_weights[v];
  }
  const Vector three = s.table_times(sides, 3);
  const Vector mean0(three.begin(), three.begin() + static_cast<std::ptrdiff_t>(ud));
  const Vector b0(three.begin() + static_cast<std::ptrdiff_t>(ud),
                  three.begin() + static_cast<std::ptrdiff_t>(2 * ud));
  const Vector p(three.begin() + static_cast<std::ptrdiff_t>(2 * ud), three.end());
  context.seconds.covariance += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  const int k = std::min(options.k, d - 1);
  const int b = std::max(4, std::min(options.krylov_block > 0 ? options.krylov_block : default_block, d));
  const long long budget = krylov_budget(options);
  // The start block [u, p, b0, b - 3 fixed pseudo-random vectors].
  Vector start(ud * static_cast<std::size_t>(b));
  start[0] = 1.0;
  std::copy(p.begin(), p.end(), start.begin() + static_cast<std::ptrdiff_t>(ud));
  std::copy(b0.begin(), b0.end(), start.begin() + static_cast<std::ptrdiff_t>(2 * ud));
  for (std::size_t j = 3; j < static_cast<std::size_t>(b); ++j) {
    for (std::size_t i = 0; i < ud; ++i) start[j * ud + i] = hashed_uniform(j * ud + i);
  }
  std::vector<double> r(snr.size());
  std::transform(snr.begin(), snr.end(), r.begin(), [](double x) { return std::sqrt(x); });

  ProjectedLine line;
  std::vector<char> converged(r.size(), 0);
  std::vector<double> relative_residual(r.size(), 0.0);
  long long products = 0;
  LineRidge ridge;
  {
    // The block products run on the kernels' threads; the small dense work stays single-threaded (see
    // krylov_point.cpp).
    const parallel::SingleThreadedBlas single;
    BlockKrylov krylov(s, std::move(start), b);
    const Vector& rs = krylov.start_coefficients();
    const auto ub = static_cast<std::size_t>(b);
    StartVectors first{Vector(ub, 0.0), Vector(ub, 0.0), Vector(ub, 0.0)};
    for (std::size_t i = 0; i < ub; ++i) {
      first.u[i] = rs[i];            // column 0 of R
      first.p[i] = rs[ub + i];       // column 1
      first.b0[i] = rs[2 * ub + i];  // column 2
    }
    // Every check diagonalises T0' (O(m^3)): the next check is where the worst residual, decaying at the rate
    // of the last two checks, is expected to meet its tolerance (at least one block on, at most a fifth of
    // the basis), and always at the end.
    CheckSchedule schedule;
    bool all = false;
    while (true) {
      const bool stepped = krylov.step(budget);
      const int blocks = krylov.blocks();
      const bool last = !stepped || !krylov.room();
      if (!last && blocks < schedule.next) continue;
      line = project(krylov, first, signal.q);
      double worst = 0.0;  // the largest residual over its tolerance
      for (std::size_t i = 0; i < r.size(); ++i) {
        const Residuals res = residuals(line, first, krylov.coupling(), b, r[i], signal.h, context.lambda,
                                        std::min(k, krylov.size()));
        converged[i] = res.eigen <= eigen_tolerance * kappa && res.ridge <= ridge_tolerance ? 1 : 0;
        relative_residual[i] = res.eigen_relative;
        worst = std::max({worst, res.eigen / (eigen_tolerance * kappa), res.ridge / ridge_tolerance});
      }
      all = parallel::decided_on_root(comm, [&] {
        return std::all_of(converged.begin(), converged.end(), [](char c) { return c != 0; });
      });
      if (all || last) break;
      schedule.next = parallel::decided_on_root(comm, [&] { return schedule.after(blocks, worst); });
    }
    converged = parallel::broadcast(std::vector<char>(converged.begin(), converged.end()), comm);
    products = s.products();
    // The ridge's fixed span: Q Y (Theta + lambda)^{-1} Y^T [b^, u^, p^] -> [beta_u, beta_p, beta_b] (d x 3).
    const int m = krylov.size();
    const auto um = static_cast<std::size_t>(m);
    Vector w(3 * um, 0.0);
    for (std::size_t j = 0; j < um; ++j) {
      const double* y = line.vectors.data() + j * um;
      double on_u = 0.0, on_p = 0.0, on_b = 0.0;
      for (std::size_t i = 0; i < ub; ++i) {
        on_u += y[i] * first.u[i];
        on_p += y[i] * first.p[i];
        on_b += y[i] * first.b0[i];
      }
      const double inverse = 1.0 / (line.secular.poles[j] + context.lambda);
      for (std::size_t i = 0; i < um; ++i) {
        w[i] += y[i] * on_u * inverse;
        w[um + i] += y[i] * on_p * inverse;
        w[2 * um + i] += y[i] * on_b * inverse;
      }
    }
    Vector betas(3 * ud);
    parallel::local_gemm('N', 'N', d, 3, m, 1.0, krylov.basis().data(), d, w.data(), m, 0.0, betas.data(), d);
    ridge = direct_form_ridge(betas, p, signal.q, signal.h);
  }
  context.seconds.eigen += MPI_Wtime() - mark;

  mark = MPI_Wtime();
  const std::int64_t ntest = options.ntest > 0 ? options.ntest : N;
  const Vector accuracies = line_test_accuracies(context, pooled, ridge, mean0, signal.sigma_mean, r, ntest);
  context.seconds.ridge += MPI_Wtime() - mark;

  LineResult result;
  line.secular = spectral::canonical(std::move(line.secular));
  result.points = line_points(line.secular, k, 0, r, accuracies, false, parallel::Reducer::lanczos_line,
                              CovariancePath::automatic);
  for (std::size_t i = 0; i < r.size(); ++i) {
    PointResult& point = result.points[i];
    point.overlaps.resize(static_cast<std::size_t>(std::min(options.k, d)), 0.0);
    point.top_eigenvalues.resize(point.overlaps.size(), 0.0);
    point.products = products;
    point.residual = relative_residual[i];
    if (!converged[i]) unconverged.push_back(i);
  }
  result.secular = std::move(line.secular);
  context.seconds.total = MPI_Wtime() - start_time;
  result.seconds = slowest_rank(context.seconds, comm);
  return result;
}

}  // namespace rmtsweep::simulate
