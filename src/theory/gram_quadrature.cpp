// The finite-T measures from a sparse token Gram (include/rmtsweep/theory/gram_quadrature.hpp).
#define EIGEN_DONT_PARALLELIZE  // the same bits whatever the OpenMP threads: rank counts must not matter
#include "rmtsweep/theory/gram_quadrature.hpp"

#include <Spectra/SymEigsSolver.h>

#include <Eigen/Core>
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"

namespace rmtsweep::theory {
namespace {

using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int jackknife_batches = 8;
constexpr int highest_moment = 4;
/// A probe's run stops when its two watched sums change by less than this, relative, on two steps running:
/// its Gauss quadrature then errs by about as much (always low: the sums are of completely monotone
/// functions), a thousandth of what the calibrated estimate's own spread allows at the asked tolerance.
constexpr double probe_quiet = 1e-7;

/// x = (zeta - d T)^(-1) e_1 for the Lanczos tridiagonal T (diagonal alpha, off-diagonal beta), by
/// elimination without pivoting: zeta - d T is positive definite for zeta above d lambda_max(T).
std::vector<double> resolvent_first_column(const std::vector<double>& alpha, const std::vector<double>& beta,
                                           int d, double zeta) {
  const std::size_t k = alpha.size();
  std::vector<double> diag(k), rhs(k, 0.0), x(k);
  rhs[0] = 1.0;
  for (std::size_t i = 0; i < k; ++i) diag[i] = zeta - d * alpha[i];
  for (std::size_t i = 1; i < k; ++i) {
    const double off = -d * beta[i - 1];
    const double factor = off / diag[i - 1];
    diag[i] -= factor * off;
    rhs[i] -= factor * rhs[i - 1];
  }
  x[k - 1] = rhs[k - 1] / diag[k - 1];
  for (std::size_t i = k - 1; i-- > 0;) x[i] = (rhs[i] + d * beta[i] * x[i + 1]) / diag[i];
  return x;
}

/// The two quadrature values a run watches at zeta: the signal's G and -G' (e1^T (zeta - dT)^-1 e1 and its
/// square norm), or a probe's sums of x/(zeta - dx) and d x^2/(zeta - dx)^2 (the z and z' of a bulk).
std::array<double, 2> watched(const std::vector<double>& alpha, const std::vector<double>& beta, int d,
                              double zeta, bool bulk) {
  const std::vector<double> x = resolvent_first_column(alpha, beta, d, zeta);
  if (!bulk) {
    double norm = 0.0;
    for (const double v : x) norm += v * v;
    return {x[0], norm};
  }
  double second = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = zeta * x[i] - (i == 0 ? 1.0 : 0.0);
    second += v * v;
  }
  return {(zeta * x[0] - 1.0) / d, second / d};
}

/// sum_i x(i, j) y(i, j) for every column j, in one pass over the rows.
std::vector<double> column_sums_of_products(const RowBlock& x, const RowBlock& y) {
  const auto b = static_cast<std::size_t>(x.cols());
  std::vector<double> sums(b, 0.0);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double* xi = x.data() + i * x.cols();
    const double* yi = y.data() + i * y.cols();
    for (std::size_t j = 0; j < b; ++j) sums[j] += xi[j] * yi[j];
  }
  return sums;
}

/// w(:, j) -= c_j v(:, j) for every column j, in one pass over the rows.
void subtract_scaled_columns(RowBlock& w, const RowBlock& v, const std::vector<double>& c) {
  const auto b = static_cast<std::size_t>(w.cols());
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    double* wi = w.data() + i * w.cols();
    const double* vi = v.data() + i * v.cols();
    for (std::size_t j = 0; j < b; ++j) wi[j] -= c[j] * vi[j];
  }
}

/// w(:, j) *= c_j for every column j, in one pass over the rows.
void scale_columns(RowBlock& w, const std::vector<double>& c) {
  const auto b = static_cast<std::size_t>(w.cols());
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    double* wi = w.data() + i * w.cols();
    for (std::size_t j = 0; j < b; ++j) wi[j] *= c[j];
  }
}

/// Nodes and weights (first components squared, times `scale`) of a Lanczos tridiagonal.
void append_gauss(const std::vector<double>& alpha, const std::vector<double>& beta, double scale,
                  SpectralMeasure& out) {
  const std::size_t k = alpha.size();
  std::vector<double> t(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    t[i * k + i] = alpha[i];
    if (i + 1 < k) t[i * k + i + 1] = t[(i + 1) * k + i] = beta[i];
  }
  const model::SymmetricEigen e = model::symmetric_eigen(t, static_cast<int>(k));
  for (std::size_t q = 0; q < k; ++q) {
    const double first = e.vectors[q * k];
    out.nodes.push_back(std::max(e.values[q], 0.0));
    out.weights.push_back(scale * first * first);
  }
}

/// `starts` (n x b, a start vector per column) run through b Lanczos recurrences in lockstep on
/// (I - U U^T) X (I - U U^T), full reorthogonalisation twice, each stopping when its watched values change by
/// less than `quiet` relative on two steps running (or its Krylov space is exhausted). Returns each run's
/// quadrature measure scaled by its start's squared norm times `scale`.
std::vector<SpectralMeasure> lanczos_runs(const TokenGram& gram, GramSide side, RowBlock starts,
                                          const Eigen::MatrixXd& U, int d, double zeta, bool bulk,
                                          double scale, double quiet) {
  const auto n = static_cast<Eigen::Index>(gram.dimension(side));
  const Eigen::Index b = starts.cols();
  const auto project = [&](RowBlock& y) {
    if (U.cols() > 0) y.noalias() -= U * (U.transpose() * y);
  };
  project(starts);
  std::vector<SpectralMeasure> out(static_cast<std::size_t>(b));
  std::vector<double> norm2(static_cast<std::size_t>(b));
  std::vector<std::vector<double>> alpha(static_cast<std::size_t>(b)), beta(static_cast<std::size_t>(b));
  std::vector<std::array<double, 2>> previous(static_cast<std::size_t>(b), {0.0, 0.0});
  std::vector<int> quiet_steps(static_cast<std::size_t>(b), 0);
  std::vector<char> running(static_cast<std::size_t>(b), 1);
  std::vector<RowBlock> basis;  // basis[k] is n x b: the k-th Lanczos vector of every run
  RowBlock q(n, b), w(n, b);
  for (Eigen::Index j = 0; j < b; ++j) {
    const double nrm = starts.col(j).norm();
    norm2[static_cast<std::size_t>(j)] = nrm * nrm;
    if (!(nrm > 0.0)) {
      running[static_cast<std::size_t>(j)] = 0;
      q.col(j).setZero();
    } else {
      q.col(j) = starts.col(j) / nrm;
    }
  }
  double scale_seen = 0.0;
  for (int step = 0;; ++step) {
    if (std::none_of(running.begin(), running.end(), [](char r) { return r != 0; })) break;
    if (step >= max_quadrature_steps)
      throw NumericalFailure("finite-T quadrature: a Lanczos run did not converge within " +
                             std::to_string(max_quadrature_steps) + " steps (dimension " + std::to_string(n) +
                             ")");
    basis.push_back(q);
    gram.apply(side, std::span<const double>(q.data(), static_cast<std::size_t>(q.size())),
               std::span<double>(w.data(), static_cast<std::size_t>(w.size())), static_cast<std::size_t>(b));
    // The block's rows hold one entry of every run: each pass below goes over them once, in order (a column
    // at a time would stride through the whole block once per run).
    const std::vector<double> products = column_sums_of_products(q, w);
    for (Eigen::Index j = 0; j < b; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      if (running[jj]) alpha[jj].push_back(products[jj]);
    }
    if (bulk) {
      // A probe's run: the three-term recurrence alone. Its Gauss quadrature stays accurate without
      // reorthogonalisation (lost orthogonality repeats converged nodes, whose weights then add up to the one
      // node's: Golub and Meurant, Matrices, Moments and Quadrature, ch. 4), and the run stops on its
      // quadrature's values, not on a node count.
      const std::size_t last = basis.size() - 1;
      std::vector<double> a(static_cast<std::size_t>(b), 0.0), c(static_cast<std::size_t>(b), 0.0);
      for (std::size_t j = 0; j < a.size(); ++j) {
        if (!running[j]) continue;
        a[j] = alpha[j].back();
        if (last > 0) c[j] = beta[j].back();
      }
      subtract_scaled_columns(w, basis[last], a);
      if (last > 0) subtract_scaled_columns(w, basis[last - 1], c);
      if (basis.size() > 2) basis.erase(basis.begin());
    } else {
      // The signal's run: full reorthogonalisation, twice (classical Gram-Schmidt against the whole basis).
      for (int pass = 0; pass < 2; ++pass) {
        for (const RowBlock& v : basis) {
          const Eigen::RowVectorXd c = (v.cwiseProduct(w)).colwise().sum();
          w -= v * c.asDiagonal();
        }
      }
    }
    const std::vector<double> squares = column_sums_of_products(w, w);
    std::vector<double> rescale(static_cast<std::size_t>(b), 0.0);
    for (Eigen::Index j = 0; j < b; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      if (!running[jj]) continue;
      scale_seen = std::max(scale_seen, std::abs(alpha[jj].back()));
      const std::array<double, 2> now = watched(alpha[jj], beta[jj], d, zeta, bulk);
      const bool still = std::abs(now[0] - previous[jj][0]) <= quiet * std::abs(now[0]) &&
                         std::abs(now[1] - previous[jj][1]) <= quiet * std::abs(now[1]);
      quiet_steps[jj] = still ? quiet_steps[jj] + 1 : 0;
      previous[jj] = now;
      const double nrm = std::sqrt(squares[jj]);
      if (quiet_steps[jj] >= 2 || nrm <= 1e-13 * scale_seen ||
          alpha[jj].size() >= static_cast<std::size_t>(n)) {
        running[jj] = 0;
        append_gauss(alpha[jj], beta[jj], norm2[jj] * scale, out[jj]);
        continue;  // its column is scaled by 0
      }
      beta[jj].push_back(nrm);
      rescale[jj] = 1.0 / nrm;
    }
    scale_columns(w, rescale);
    q.swap(w);
  }
  return out;
}

/// Spectra's operator: X on one side of the Gram.
struct GramOp {
  using Scalar = double;
  const TokenGram* gram;
  GramSide side;
  Eigen::Index rows() const { return static_cast<Eigen::Index>(gram->dimension(side)); }
  Eigen::Index cols() const { return rows(); }
  void perform_op(const double* x, double* y) const {
    const auto n = gram->dimension(side);
    gram->apply(side, std::span<const double>(x, n), std::span<double>(y, n), 1);
  }
};

/// The dense spectrum of X (ascending, clipped at 0), formed column block by column block.
std::vector<double> dense_spectrum(const TokenGram& gram, GramSide side) {
  const std::size_t n = gram.dimension(side), chunk = 256;
  std::vector<double> x(n * n, 0.0);
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t b = std::min(chunk, n - first);
    std::vector<double> e(n * b, 0.0), y(n * b);
    for (std::size_t j = 0; j < b; ++j) e[(first + j) * b + j] = 1.0;
    gram.apply(side, e, y, b);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < b; ++j) x[(first + j) * n + i] = y[i * b + j];
  }
  // Symmetrise the rounding of the two passes before LAPACK reads one triangle.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) x[i * n + j] = x[j * n + i] = 0.5 * (x[i * n + j] + x[j * n + i]);
  std::vector<double> tau = model::symmetric_eigenvalues(std::move(x), static_cast<int>(n));
  for (double& t : tau) t = std::max(t, 0.0);
  return tau;
}

/// Weights w_i exp(lambda . h(x_i)), h_j = (x/s)^j for j < moments, whose moments equal `target` (target_j
/// the j-th moment over s^j), by Newton's method on the convex dual sum w e^{lambda.h} - lambda.target.
/// nullopt when it does not converge (the targets outside what these nodes can carry).
std::optional<std::vector<double>> tilt(const std::vector<double>& x, const std::vector<double>& w, double s,
                                        const std::vector<double>& target, int moments) {
  const auto m = static_cast<Eigen::Index>(moments);
  const std::size_t count = x.size();
  Eigen::MatrixXd H(m, static_cast<Eigen::Index>(count));
  for (std::size_t i = 0; i < count; ++i) {
    double p = 1.0;
    for (Eigen::Index j = 0; j < m; ++j, p *= x[i] / s) H(j, static_cast<Eigen::Index>(i)) = p;
  }
  Eigen::VectorXd t(m), lambda = Eigen::VectorXd::Zero(m);
  for (Eigen::Index j = 0; j < m; ++j) t(j) = target[static_cast<std::size_t>(j)];
  const Eigen::Map<const Eigen::VectorXd> w0(w.data(), static_cast<Eigen::Index>(count));
  const auto dual = [&](const Eigen::VectorXd& l, Eigen::VectorXd& tilted) {
    tilted = w0.array() * (H.transpose() * l).array().exp();
    return tilted.sum() - l.dot(t);
  };
  Eigen::VectorXd tilted;
  double value = dual(lambda, tilted);
  for (int iteration = 0; iteration < 100; ++iteration) {
    const Eigen::VectorXd gradient = H * tilted - t;
    bool done = true;
    for (Eigen::Index j = 0; j < m; ++j) done = done && std::abs(gradient(j)) <= 1e-12 * std::abs(t(j));
    const Eigen::MatrixXd hessian = H * tilted.asDiagonal() * H.transpose();
    const Eigen::VectorXd step = hessian.ldlt().solve(gradient);
    if (!step.allFinite()) return std::nullopt;
    // Newton's decrement: below rounding of the dual's value, the step changes nothing that can be measured.
    const double decrement = gradient.dot(step);
    if (done || decrement <= 1e-24 * std::abs(value)) {
      if (iteration == 0 || decrement <= 1e-16 * std::abs(value))
        return std::vector<double>(tilted.data(), tilted.data() + tilted.size());
    }
    double length = 1.0;
    Eigen::VectorXd next_tilted;
    double next = dual(lambda - step, next_tilted);
    while (!(next <= value + 1e-15 * std::abs(value)) && length > 1e-10) {
      length *= 0.5;
      next = dual(lambda - length * step, next_tilted);
    }
    if (!std::isfinite(next) || length <= 1e-10) return std::nullopt;
    lambda -= length * step;
    value = next;
    tilted = next_tilted;
  }
  return std::nullopt;
}

/// What one estimate of the bulk gives, and the bulk measure itself.
struct Estimate {
  SpectralMeasure bulk;
  double edge = 0.0, zeta = 0.0;
  int moments = 0;
};

/// The bulk from the exact top eigenvalues and the probes' runs (those with `use` set), tilted to the rest's
/// exact moments (as many as converge, from highest_moment + 1 down).
Estimate estimate(const std::vector<double>& top, const std::vector<SpectralMeasure>& runs,
                  const std::vector<char>& use, const std::array<double, 5>& powers, std::size_t dimension,
                  int d) {
  std::size_t used = 0;
  for (const char u : use) used += u ? 1 : 0;
  std::vector<double> x, w;
  for (std::size_t p = 0; p < runs.size(); ++p) {
    if (!use[p]) continue;
    for (std::size_t i = 0; i < runs[p].nodes.size(); ++i) {
      x.push_back(runs[p].nodes[i]);
      w.push_back(runs[p].weights[i] / static_cast<double>(used));
    }
  }
  const double s = std::max(*std::max_element(x.begin(), x.end()), std::numeric_limits<double>::min());
  std::vector<double> target(static_cast<std::size_t>(highest_moment + 1));
  for (int j = 0; j <= highest_moment; ++j) {
    double rest = j == 0 ? static_cast<double>(dimension) : powers[static_cast<std::size_t>(j)];
    for (const double t : top) rest -= std::pow(t, j);
    target[static_cast<std::size_t>(j)] = rest / std::pow(s, j);
  }
  Estimate e;
  std::optional<std::vector<double>> tilted;
  int moments = highest_moment + 1;
  for (; moments > 0; --moments) {
    tilted = tilt(x, w, s, target, moments);
    if (tilted) break;
  }
  e.moments = tilted ? moments : 0;
  if (tilted) w = std::move(*tilted);
  e.bulk.nodes = x;
  e.bulk.weights = w;
  for (const double t : top) {
    e.bulk.nodes.push_back(t);
    e.bulk.weights.push_back(1.0);
  }
  const EdgePoint p = finite_t_edge_point(e.bulk, d);
  e.edge = p.edge;
  e.zeta = p.zeta;
  return e;
}

double relative_jackknife_error(const std::vector<double>& leave_out, double full) {
  const double B = static_cast<double>(leave_out.size());
  const double mean = std::accumulate(leave_out.begin(), leave_out.end(), 0.0) / B;
  double sum = 0.0;
  for (const double v : leave_out) sum += (v - mean) * (v - mean);
  return std::sqrt((B - 1.0) / B * sum) / std::abs(full);
}

}  // namespace

SpectralMeasure signal_measure(const TokenGram& gram, int d, double zeta_min) {
  const std::vector<double> r = gram.signal_start();
  const auto N = static_cast<Eigen::Index>(r.size());
  RowBlock start(N, 1);
  for (Eigen::Index i = 0; i < N; ++i) start(i, 0) = r[static_cast<std::size_t>(i)];
  if (!(start.norm() > 0.0)) return {};
  return lanczos_runs(gram, GramSide::sequences, std::move(start), Eigen::MatrixXd(N, 0), d, zeta_min, false,
                      1.0, 1e-14)
      .front();
}

GramMeasures token_gram_measures(const TokenGram& gram, int d, const ProbeSigns& signs,
                                 const BulkQuadratureOptions& options) {
  const GramSide side = gram.smaller_side();
  const std::size_t n = gram.dimension(side);
  GramMeasures out;
  if (n <= dense_bulk_limit) {
    out.bulk = counting_measure(dense_spectrum(gram, side));
    out.signal = signal_measure(gram, d, finite_t_edge_point(out.bulk, d).zeta);
    return out;
  }
  out.exact_bulk = false;
  // The top eigenpairs, exactly.
  const int k = std::min<int>(options.deflated, static_cast<int>(n / 4));
  GramOp op{&gram, side};
  const int ncv = std::min<int>(static_cast<int>(n), std::max(2 * k + 1, k + 32));
  Spectra::SymEigsSolver<GramOp> eigs(op, k, ncv);
  eigs.init();
  eigs.compute(Spectra::SortRule::LargestAlge, 2000, options.eigen_tolerance);
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw NumericalFailure("finite-T quadrature: the top " + std::to_string(k) +
                           " eigenpairs of the token Gram (" + std::to_string(n) + " x " + std::to_string(n) +
                           ") did not converge");
  const Eigen::VectorXd values = eigs.eigenvalues();
  const Eigen::MatrixXd U = eigs.eigenvectors();
  std::vector<double> top(values.data(), values.data() + values.size());
  for (double& t : top) t = std::max(t, 0.0);
  out.deflated = k;
  const std::array<double, 5> powers = gram.trace_powers(side);
  // Every run (the probes', the signal's) is watched at the edge of the top eigenvalues alone: z' falls when
  // atoms are added, so it lies at or below the whole bulk's zeta_e, below every zeta the theory evaluates,
  // and above d tau_1, so that no run meets a pole.
  SpectralMeasure top_only;
  top_only.nodes = top;
  top_only.weights.assign(top.size(), 1.0);
  const double zeta_watch = finite_t_edge_point(top_only, d).zeta;
  std::vector<SpectralMeasure> runs;
  std::vector<double> sign(n);
  constexpr std::size_t block = 16;
  auto add_probes = [&](std::size_t until) {
    while (runs.size() < until) {
      const std::size_t b = std::min(block, until - runs.size());
      RowBlock starts(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(b));
      for (std::size_t j = 0; j < b; ++j) {
        signs(runs.size() + j, sign);
        for (std::size_t i = 0; i < n; ++i)
          starts(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = sign[i];
      }
      for (SpectralMeasure& m :
           lanczos_runs(gram, side, std::move(starts), U, d, zeta_watch, true, 1.0, probe_quiet))
        runs.push_back(std::move(m));
    }
  };
  out.signal = signal_measure(gram, d, zeta_watch);
  std::size_t probes = static_cast<std::size_t>(std::max(options.first_probes, jackknife_batches));
  const std::size_t max_probes = std::max(probes, static_cast<std::size_t>(options.max_probes));
  Estimate full;
  while (true) {
    add_probes(probes);
    const std::vector<char> all(runs.size(), 1);
    full = estimate(top, runs, all, powers, n, d);
    std::vector<double> edges, inverse_g;
    for (int batch = 0; batch < jackknife_batches; ++batch) {
      std::vector<char> use(runs.size(), 1);
      for (std::size_t p = static_cast<std::size_t>(batch); p < runs.size(); p += jackknife_batches)
        use[p] = 0;
      const Estimate e = estimate(top, runs, use, powers, n, d);
      edges.push_back(e.edge);
      inverse_g.push_back(1.0 / finite_t_g(out.signal, d, e.zeta));
    }
    out.edge_error = relative_jackknife_error(edges, full.edge);
    out.threshold_error =
        out.signal.nodes.empty()
            ? 0.0
            : relative_jackknife_error(inverse_g, 1.0 / finite_t_g(out.signal, d, full.zeta));
    const bool precise = out.edge_error <= options.tolerance && out.threshold_error <= options.tolerance;
    if (precise || runs.size() >= max_probes) break;
    // The next round: as many probes as the errors say the tolerance needs (they fall as 1/sqrt(probes)), a
    // tenth more, in whole blocks, between one more block and four times as many.
    const double worst = std::max(out.edge_error, out.threshold_error) / options.tolerance;
    const auto needed =
        static_cast<std::size_t>(std::ceil(1.1 * worst * worst * static_cast<double>(probes)));
    probes =
        std::min(max_probes, std::clamp(((needed + block - 1) / block) * block, probes + block, 4 * probes));
  }
  out.bulk = std::move(full.bulk);
  out.probes = static_cast<int>(runs.size());
  out.calibrated_moments = full.moments;
  return out;
}

}  // namespace rmtsweep::theory
