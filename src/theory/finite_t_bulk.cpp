#include "rmtsweep/theory/finite_t_bulk.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <map>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "rmtsweep/model/symmetric_eigen.hpp"

namespace rmtsweep::theory {
namespace {

/// One sequence's nonzero weights at its tokens, merged when a token repeats: the nonzeros of a_n.
std::vector<std::pair<std::int64_t, double>> sequence_column(std::span<const double> w,
                                                             std::span<const std::int64_t> tokens) {
  std::vector<std::pair<std::int64_t, double>> column;
  for (std::size_t t = 0; t < w.size(); ++t) {
    if (w[t] == 0.0) continue;
    auto it = std::find_if(column.begin(), column.end(), [&](const auto& e) { return e.first == tokens[t]; });
    if (it == column.end())
      column.emplace_back(tokens[t], w[t]);
    else
      it->second += w[t];
  }
  return column;
}

/// The eigenvalues of the centred Gram divided by N, both entries of every symmetric pair being filled.
std::vector<double> centred_gram_spectrum(std::vector<double> gram, std::vector<double> sums, double total,
                                          std::size_t n, double N) {
  // P G P with P = I - 1 1^T/N when sums = G 1 and total = 1^T G 1 are given (N x N case); an empty
  // `sums` means G is centred already (V x V case). Then / N.
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double& g = gram[i * n + j];
      if (!sums.empty()) g += -(sums[i] + sums[j]) / N + total / (N * N);
      g /= N;
    }
  }
  auto tau = model::symmetric_eigenvalues(std::move(gram), static_cast<int>(n));
  for (double& t : tau) t = std::max(t, 0.0);  // M is positive semi-definite; rounding gives ~ -1e-17
  return tau;
}

/// The spectrum for pooling with ONE nonzero weight w (`last`, or a custom weighting on one position):
/// each a_n is w e_{v_n}, so M = w^2 (D - c c^T / N) with D = diag(c), c the token counts, and Q M Q
/// - w^2 D = w^2 W S W^T with W = [U, D U, c] (U = [1, s]/sqrt(V): at most 5 columns). D has few
/// distinct values (counts), each a level kappa over the tokens I_kappa. On the tokens of a level, W's
/// rows span at most 5 directions; orthogonal to them the matrix is kappa I exactly. So tau is each
/// level kappa w^2/N with multiplicity |I_kappa| - k_kappa (k_kappa = min(|I_kappa|, 5)) and the
/// eigenvalues of the small matrix blockdiag(kappa I_k) + F S F^T, F_kappa = Lambda^(1/2) V^T from the
/// eigenpairs of W_kappa^T W_kappa: exact, O(V) plus eigenvalue problems of size 5 x levels, where the
/// dense Gram costs O(min(V, N)^3) (1.5 s at 3200 on one core against milliseconds).
std::vector<double> single_token_spectrum(double w, const std::vector<std::int64_t>& token_of, std::size_t V,
                                          bool remove_table_directions) {
  const std::size_t N = token_of.size();
  const auto Nd = static_cast<double>(N);
  std::vector<double> count(V, 0.0);
  for (const std::int64_t v : token_of) count[static_cast<std::size_t>(v)] += 1.0;
  const double unit = 1.0 / std::sqrt(static_cast<double>(V));
  const auto u2 = [&](std::size_t v) { return v < V / 2 ? unit : -unit; };
  // W's columns as functions of v, and S (r x r, row-major).
  const std::size_t r = remove_table_directions ? 5 : 1;
  const auto column = [&](std::size_t j, std::size_t v) -> double {
    if (!remove_table_directions) return count[v];
    switch (j) {
      case 0:
        return unit;
      case 1:
        return u2(v);
      case 2:
        return count[v] * unit;
      case 3:
        return count[v] * u2(v);
      default:
        return count[v];
    }
  };
  std::vector<double> S(r * r, 0.0);
  if (!remove_table_directions) {
    S[0] = -1.0 / Nd;
  } else {
    // U^T D U, U^T c and G = U^T D U - (U^T c)(U^T c)^T / N.
    double udu[2][2] = {}, uc[2] = {};
    for (std::size_t v = 0; v < V; ++v) {
      const double a[2] = {unit, u2(v)};
      for (int i = 0; i < 2; ++i) {
        uc[i] += a[i] * count[v];
        for (int j = 0; j < 2; ++j) udu[i][j] += a[i] * count[v] * a[j];
      }
    }
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) S[static_cast<std::size_t>(i) * r + j] = udu[i][j] - uc[i] * uc[j] / Nd;
      S[static_cast<std::size_t>(i) * r + (2 + i)] = -1.0;  // -U (D U)^T
      S[static_cast<std::size_t>(2 + i) * r + i] = -1.0;    // -(D U) U^T
      S[static_cast<std::size_t>(i) * r + 4] = uc[i] / Nd;  // U (U^T c) c^T / N
      S[4 * r + static_cast<std::size_t>(i)] = uc[i] / Nd;  // c (c^T U) U^T / N
    }
    S[4 * r + 4] = -1.0 / Nd;  // -c c^T / N
  }
  // Per level: W_kappa^T W_kappa (r x r), its top k eigenpairs -> rows of F.
  std::map<double, std::vector<double>> gram_of_level;  // kappa -> W_kappa^T W_kappa
  std::map<double, std::size_t> size_of_level;
  for (std::size_t v = 0; v < V; ++v) {
    auto& g = gram_of_level[count[v]];
    g.resize(r * r, 0.0);
    ++size_of_level[count[v]];
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < r; ++j) g[i * r + j] += column(i, v) * column(j, v);
  }
  std::vector<double> tau, diagonal;
  std::vector<std::vector<double>> rows;  // rows of F (each length r)
  for (const auto& [kappa, g] : gram_of_level) {
    const std::size_t m = size_of_level[kappa], k = std::min(m, r);
    for (std::size_t i = k; i < m; ++i) tau.push_back(kappa);
    const model::SymmetricEigen e = model::symmetric_eigen(g, static_cast<int>(r));  // ascending
    for (std::size_t q = r - k; q < r; ++q) {
      const double scale = std::sqrt(std::max(e.values[q], 0.0));
      std::vector<double> row(r);
      for (std::size_t i = 0; i < r; ++i) row[i] = scale * e.vectors[q * r + i];
      rows.push_back(std::move(row));
      diagonal.push_back(kappa);
    }
  }
  const std::size_t n = rows.size();
  std::vector<double> B(n * n, 0.0);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      double x = a == b ? diagonal[a] : 0.0;
      for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j) x += rows[a][i] * S[i * r + j] * rows[b][j];
      B[a * n + b] = x;
    }
  }
  for (const double x : model::symmetric_eigenvalues(std::move(B), static_cast<int>(n))) tau.push_back(x);
  for (double& t : tau) t = std::max(t * w * w / Nd, 0.0);
  std::sort(tau.begin(), tau.end());
  // The dense path returns the smaller Gram's spectrum: min(V, N) values, the rest being zeros.
  if (N < V) tau.erase(tau.begin(), tau.begin() + static_cast<std::ptrdiff_t>(V - N));
  return tau;
}

}  // namespace

bool single_token_weights(std::span<const double> w) {
  return std::count_if(w.begin(), w.end(), [](double x) { return x != 0.0; }) == 1;
}

double measurable_bias_effective_tokens(int d) {
  if (d <= 1000) return 2.0;
  if (d >= 2000) return 3.0;
  return 2.0 + std::log(static_cast<double>(d) / 1000.0) / std::log(2.0);
}

bool limit_law_measurably_off(double effective_tokens, int d) {
  // A T_eff equal to the bound but for rounding (optimal pooling on prefix:3 has T_eff = 3 exactly, its
  // weights from an eigenvector) is not below it.
  return effective_tokens < measurable_bias_effective_tokens(d) * (1.0 - 1e-9);
}

std::vector<double> token_gram_spectrum(std::span<const double> w, std::span<const std::int64_t> tokens,
                                        std::int64_t vocabulary, bool remove_table_directions) {
  const std::size_t T = w.size();
  if (T == 0 || tokens.size() % T != 0)
    throw std::invalid_argument("token_gram_spectrum: tokens must be N x T");
  const std::size_t N = tokens.size() / T;
  const auto V = static_cast<std::size_t>(vocabulary);
  if (single_token_weights(w)) {
    const auto t0 = static_cast<std::size_t>(
        std::find_if(w.begin(), w.end(), [](double x) { return x != 0.0; }) - w.begin());
    std::vector<std::int64_t> token_of(N);
    for (std::size_t n = 0; n < N; ++n) {
      token_of[n] = tokens[n * T + t0];
      if (token_of[n] < 0 || static_cast<std::size_t>(token_of[n]) >= V)
        throw std::out_of_range("token_gram_spectrum: token outside V");
    }
    return single_token_spectrum(w[t0], token_of, V, remove_table_directions);
  }
  std::vector<std::vector<std::pair<std::int64_t, double>>> columns(N);
  for (std::size_t n = 0; n < N; ++n) {
    columns[n] = sequence_column(w, tokens.subspan(n * T, T));
    for (const auto& [v, a] : columns[n]) {
      if (v < 0 || static_cast<std::size_t>(v) >= V)
        throw std::out_of_range("token_gram_spectrum: token outside V");
    }
  }
  // The unit table directions u_1 = 1/sqrt(V), u_2 = s/sqrt(V) (s_v = +1 for v < V/2, else -1).
  const double unit = 1.0 / std::sqrt(static_cast<double>(V));
  const auto u2 = [&](std::size_t v) { return v < V / 2 ? unit : -unit; };
  const auto Nd = static_cast<double>(N);
  if (V <= N) {
    // M = sum_n a_n a_n^T - b b^T/N with b = sum_n a_n; then Q M Q.
    std::vector<double> gram(V * V, 0.0), b(V, 0.0);
    for (const auto& column : columns) {
      for (const auto& [v, a] : column) {
        b[static_cast<std::size_t>(v)] += a;
        for (const auto& [u, c] : column)
          gram[static_cast<std::size_t>(v) * V + static_cast<std::size_t>(u)] += a * c;
      }
    }
    for (std::size_t i = 0; i < V; ++i)
      for (std::size_t j = 0; j < V; ++j) gram[i * V + j] -= b[i] * b[j] / Nd;
    if (remove_table_directions) {
      // Q M Q = M - U (U^T M) - (M U) U^T + U (U^T M U) U^T with U = [u_1 u_2]; M is symmetric, so
      // U^T M = (M U)^T.
      std::vector<double> mu1(V, 0.0), mu2(V, 0.0);
      for (std::size_t i = 0; i < V; ++i) {
        for (std::size_t j = 0; j < V; ++j) {
          mu1[i] += gram[i * V + j] * unit;
          mu2[i] += gram[i * V + j] * u2(j);
        }
      }
      double c11 = 0.0, c12 = 0.0, c22 = 0.0;
      for (std::size_t i = 0; i < V; ++i) {
        c11 += unit * mu1[i];
        c12 += unit * mu2[i];
        c22 += u2(i) * mu2[i];
      }
      for (std::size_t i = 0; i < V; ++i) {
        for (std::size_t j = 0; j < V; ++j) {
          gram[i * V + j] += -unit * mu1[j] - u2(i) * mu2[j] - mu1[i] * unit - mu2[i] * u2(j) +
                             unit * unit * c11 + (unit * u2(j) + u2(i) * unit) * c12 + u2(i) * u2(j) * c22;
        }
      }
    }
    return centred_gram_spectrum(std::move(gram), {}, -1.0, V, Nd);
  }
  // K = A^T Q A (N x N), from each token's list of (sequence, weight); then P K P.
  std::vector<std::vector<std::pair<std::size_t, double>>> users(V);
  for (std::size_t n = 0; n < N; ++n) {
    for (const auto& [v, a] : columns[n]) users[static_cast<std::size_t>(v)].emplace_back(n, a);
  }
  std::vector<double> gram(N * N, 0.0);
  for (const auto& list : users) {
    for (const auto& [n, a] : list) {
      for (const auto& [m, c] : list) gram[n * N + m] += a * c;
    }
  }
  if (remove_table_directions) {
    std::vector<double> r1(N, 0.0), r2(N, 0.0);  // A^T u_1, A^T u_2
    for (std::size_t n = 0; n < N; ++n) {
      for (const auto& [v, a] : columns[n]) {
        r1[n] += a * unit;
        r2[n] += a * u2(static_cast<std::size_t>(v));
      }
    }
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t m = 0; m < N; ++m) gram[n * N + m] -= r1[n] * r1[m] + r2[n] * r2[m];
  }
  std::vector<double> rows(N, 0.0);
  double total = 0.0;
  for (std::size_t n = 0; n < N; ++n) {
    for (std::size_t m = 0; m < N; ++m) rows[n] += gram[n * N + m];
    total += rows[n];
  }
  return centred_gram_spectrum(std::move(gram), std::move(rows), total, N, Nd);
}

namespace {

/// The weight of atom i: weights[i], or 1 for an unweighted list of eigenvalues.
double weight_of(std::span<const double> weights, std::size_t i) {
  return weights.empty() ? 1.0 : weights[i];
}

double weighted_edge(std::span<const double> tau, std::span<const double> weights, int d) {
  double tau_max = 0.0;
  for (std::size_t i = 0; i < tau.size(); ++i)
    if (weight_of(weights, i) > 0.0) tau_max = std::max(tau_max, tau[i]);
  if (!(tau_max > 0.0)) return 0.0;
  const double dd = static_cast<double>(d);
  // z'(g) with g = -y/tau_max: d tau_max^2/y^2 - sum m tau^2/(1 - y tau/tau_max)^2, decreasing in y.
  const auto slope = [&](double y) {
    double sum = 0.0;
    for (std::size_t i = 0; i < tau.size(); ++i) {
      const double r = tau[i] / tau_max;
      sum += weight_of(weights, i) * r * r / ((1.0 - y * r) * (1.0 - y * r));
    }
    return dd / (y * y) - sum;
  };
  double lo = 0.0, hi = 1.0;  // slope(lo+) > 0 > slope(hi-)
  for (int step = 0; step < 200 && hi - lo > 1e-16; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (slope(mid) > 0.0 ? lo : hi) = mid;
  }
  const double y = 0.5 * (lo + hi), g = -y / tau_max;
  double z = -dd / g;
  for (std::size_t i = 0; i < tau.size(); ++i) z += weight_of(weights, i) * tau[i] / (1.0 + tau[i] * g);
  return z;
}

/// phi(m) = -z + sum w tau/(1 + d tau m) - 1/m and its derivative in m.
std::pair<std::complex<double>, std::complex<double>> silverstein(std::span<const double> tau,
                                                                  std::span<const double> weights, double dd,
                                                                  std::complex<double> z,
                                                                  std::complex<double> m) {
  std::complex<double> value = -z - 1.0 / m, slope = 1.0 / (m * m);
  for (std::size_t i = 0; i < tau.size(); ++i) {
    const double t = tau[i], w = weight_of(weights, i);
    const std::complex<double> q = 1.0 / (1.0 + dd * t * m);
    value += w * t * q;
    slope -= w * dd * t * t * q * q;
  }
  return {value, slope};
}

double weighted_density(std::span<const double> tau, std::span<const double> weights, int d, double x) {
  const double edge = weighted_edge(tau, weights, d);
  if (!(x > 0.0) || !(x < edge)) return 0.0;
  const double dd = static_cast<double>(d);
  double eta = 10.0 * edge;
  std::complex<double> z(x, eta);
  std::complex<double> m = 1.0 / (-z);  // m ~ -1/z for large |z|
  while (true) {
    for (int step = 0; step < 50; ++step) {
      const auto [value, slope] = silverstein(tau, weights, dd, z, m);
      std::complex<double> delta = value / slope;
      // Keep Im m > 0 (the physical branch for Im z > 0) by halving a step that would leave it.
      while ((m - delta).imag() <= 0.0 && std::abs(delta) > 1e-300) delta *= 0.5;
      m -= delta;
      if (std::abs(delta) <= 1e-14 * std::abs(m)) break;
    }
    if (eta <= 1e-10 * edge) break;
    eta *= 0.5;
    z = {x, eta};
  }
  return std::max(0.0, m.imag() / std::numbers::pi);
}

std::vector<std::array<double, 2>> weighted_density_grid(std::span<const double> tau,
                                                         std::span<const double> weights, int d, int points) {
  const double edge = weighted_edge(tau, weights, d);
  std::vector<std::array<double, 2>> grid;
  grid.reserve(static_cast<std::size_t>(std::max(points, 0)));
  for (int k = 0; k < points; ++k) {
    const double x = edge * (k + 0.5) / points;
    grid.push_back({x, weighted_density(tau, weights, d, x)});
  }
  return grid;
}

}  // namespace

double finite_t_edge(std::span<const double> tau, int d) { return weighted_edge(tau, {}, d); }

double finite_t_density(std::span<const double> tau, int d, double x) {
  return weighted_density(tau, {}, d, x);
}

std::vector<std::array<double, 2>> finite_t_density_grid(std::span<const double> tau, int d, int points) {
  return weighted_density_grid(tau, {}, d, points);
}

std::vector<std::array<double, 2>> finite_t_density_grid(std::span<const double> nodes,
                                                         std::span<const double> weights, int d, int points) {
  if (weights.size() != nodes.size())
    throw std::invalid_argument("finite_t_density_grid: nodes and weights of different lengths");
  return weighted_density_grid(nodes, weights, d, points);
}

}  // namespace rmtsweep::theory
