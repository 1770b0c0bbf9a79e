// Which approximation of the levels model (theory/finite_t_top_levels.hpp) moves its overlap with k
// (docs/finite_t.md, "How many directions"). For `last` pooling on the `centered` table, per trial and table
// draw, S_R (the rest: every direction of Pi but the k largest, with its signal) is formed in Pi's eigenbasis
// and diagonalised, and three overlaps of S's top eigenvector with u are computed on the same draw:
//   exact:    S = S_R + X_K X_K^T with the kept directions' own Gaussian y_j (S from the definitions);
//   gaussian: the model's Schur complement on the realised S_R: its traces, the forms of m-hat and its
//             outlier from S_R's own eigenpairs, the y_j's forms by the model's mean + Gaussian (the model's
//             one approximation beside S_R);
//   model:    the library's model (S_R by the d -> infinity theory), the mean over its own 32 draws.
// exact - gaussian is what the Gaussian forms cost, gaussian - model what keeping S_R at its limit costs.
//
// Build (from the repository, after scripts/build.sh): as studies/finite_t_levels_k.cpp, with this file.
// Usage:
//   build/finite_t_levels_hybrid d=800 T=6 correlation=prefix:6 delta=0.6 gamma=0.3 seed=11 trials=0:8 \
//     snr=2.2,2.5 k=1,10 draws=10
// Output: rows "hybrid trial snr k exact gaussian model se(exact - gaussian) x" (x = snr - the trial's
// finite-T threshold), one per (trial, snr, k).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/finite_t_top_levels.hpp"

extern "C" {
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc, std::size_t,
            std::size_t);
void dsyevr_(const char* jobz, const char* range, const char* uplo, const int* n, double* a, const int* lda,
             const double* vl, const double* vu, const int* il, const int* iu, const double* abstol, int* m,
             double* w, double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork,
             const int* liwork, int* info, std::size_t, std::size_t, std::size_t);
}

using namespace rmtsweep;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, sep);) out.push_back(x);
  return out;
}

struct Direction {
  double tau, beta;
};

std::vector<Direction> directions(const theory::FiniteTOutlier& outlier) {
  const auto& bulk = outlier.bulk();
  const auto& signal = outlier.signal();
  std::vector<std::size_t> order(bulk.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return bulk.nodes[a] > bulk.nodes[b]; });
  const double largest = bulk.nodes[order.front()];
  std::vector<Direction> out;
  for (const auto b : order) {
    double weight = 0.0;
    for (std::size_t s = 0; s < signal.nodes.size(); ++s)
      if (std::abs(signal.nodes[s] - bulk.nodes[b]) <= 1e-9 * largest) weight += signal.weights[s];
    const auto m = static_cast<long>(std::llround(bulk.weights[b]));
    for (long j = 0; j < m; ++j) out.push_back({bulk.nodes[b], j == 0 ? std::sqrt(weight) : 0.0});
  }
  return out;
}

/// The top eigenpair of the symmetric n x n matrix s (lower triangle; destroyed).
double top_pair(std::vector<double>& s, int n, std::vector<double>& v) {
  int found = 0, info = 0, il = n, iu = n, lwork = -1, liwork = -1, isuppz[2], iwq;
  double w[1], wq;
  const double abstol = 0.0, vl = 0, vu = 0;
  v.resize(n);
  dsyevr_("V", "I", "L", &n, s.data(), &n, &vl, &vu, &il, &iu, &abstol, &found, w, v.data(), &n, isuppz, &wq,
          &lwork, &iwq, &liwork, &info, 1, 1, 1);
  lwork = static_cast<int>(wq), liwork = iwq;
  std::vector<double> work(lwork);
  std::vector<int> iwork(liwork);
  dsyevr_("V", "I", "L", &n, s.data(), &n, &vl, &vu, &il, &iu, &abstol, &found, w, v.data(), &n, isuppz,
          work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
  if (info != 0) std::abort();
  return w[0];
}

/// The model's Schur complement on a realised S_R (eigenvalues lambda ascending, m-hat's components c), its
/// outlier (index `o`, or -1) explicit, the kept directions' forms as the model draws them (xi, g, go).
double gaussian_overlap(const std::vector<Direction>& K, double m, const std::vector<double>& lambda,
                        const std::vector<double>& c, int o, const std::vector<double>& xi,
                        const std::vector<double>& g, const std::vector<double>& go) {
  const int k = static_cast<int>(K.size());
  const auto uk = static_cast<std::size_t>(k);
  const double rho = o >= 0 ? c[o] * c[o] : 0.0, zo = o >= 0 ? lambda[o] : 0.0;
  std::vector<double> a(uk * uk), num(uk), uo(uk);
  const auto build = [&](double z) {
    double t = 0, t2 = 0, r = 0, r2 = 0;
    for (std::size_t i = 0; i < lambda.size(); ++i) {
      if (static_cast<int>(i) == o) continue;
      const double p = 1.0 / (z - lambda[i]);
      t += p, t2 += p * p, r += c[i] * c[i] * p, r2 += c[i] * c[i] * p * p;
    }
    const double pole = o >= 0 ? 1.0 / (z - zo) : 0.0, sd = std::sqrt(t2), eta = m * std::sqrt(r2);
    for (std::size_t p = 0; p < uk; ++p) {
      uo[p] = std::sqrt(K[p].tau) * go[p] + std::sqrt(rho) * m * K[p].beta;
      num[p] = std::sqrt(K[p].tau * r2) * g[p] + m * r * K[p].beta + std::sqrt(rho) * pole * uo[p];
    }
    for (std::size_t p = 0; p < uk; ++p)
      for (std::size_t q = 0; q < uk; ++q)
        a[p * uk + q] = std::sqrt(K[p].tau * K[q].tau) * ((p == q ? t : 0.0) + sd * xi[p * uk + q]) +
                        std::sqrt(K[p].tau) * eta * g[p] * K[q].beta +
                        K[p].beta * std::sqrt(K[q].tau) * eta * g[q] + m * m * r * K[p].beta * K[q].beta +
                        pole * uo[p] * uo[q];
  };
  const auto excess = [&](double z) {
    build(z);
    const double top = model::symmetric_eigenvalues(a, k).back();
    return top > 1e-6 ? 1.0 - 1.0 / top : 1.0 - 1e6;
  };
  const double top = lambda.back();
  double lo = top * (1.0 + 1e-12), f_lo = excess(lo);
  if (!(f_lo > 0.0)) return c.back() * c.back();
  double hi = 2.0 * lo, f_hi = excess(hi);
  while (f_hi > 0.0) hi *= 2.0, f_hi = excess(hi);
  int side = 0;
  for (int it = 0; it < 300 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    const double x = (mid > lo && mid < hi) ? mid : 0.5 * (lo + hi);
    const double fx = excess(x);
    if (fx > 0.0) {
      lo = x, f_lo = fx;
      if (side == 1) f_hi *= 0.5;
      side = 1;
    } else {
      hi = x, f_hi = fx;
      if (side == -1) f_lo *= 0.5;
      side = -1;
    }
  }
  const double z = 0.5 * (lo + hi);
  build(z);
  const model::SymmetricEigen e = model::symmetric_eigen(a, k);
  const std::vector<double> v(e.vectors.end() - k, e.vectors.end());
  double along = 0.0;
  for (std::size_t p = 0; p < uk; ++p) along += v[p] * num[p];
  const double h = 1e-7 * (z - top);
  build(z + h);
  const std::vector<double> up = a;
  build(z - h);
  double slope = 0.0;
  for (std::size_t p = 0; p < uk; ++p)
    for (std::size_t q = 0; q < uk; ++q) slope += v[p] * (up[p * uk + q] - a[p * uk + q]) * v[q];
  const double norm2 = -slope / (2.0 * h);
  return norm2 > 0.0 ? along * along / norm2 : 0.0;
}

using cplx = std::complex<double>;

/// S_R's bulk by its deterministic equivalent: eigenvalues at the quantiles (i - 1/2)/d of its spectral
/// density, descending, and m-hat's mass c_i^2 in each quantile's bin (the density of m-hat^T (z - S_R)^(-1)
/// m-hat on the bulk; S_R's outlier, outside the bulk, is not in it).
struct QuantileRest {
  std::vector<double> lambda, c2;
};

QuantileRest quantile_rest(const theory::SpectralMeasure& rest, const theory::SpectralMeasure& rest_signal,
                           int d, double m2) {
  const theory::EdgePoint e = theory::finite_t_edge_point(rest, d);
  const auto zf = [&](cplx zeta) {
    cplx sum = 0.0;
    for (std::size_t j = 0; j < rest.nodes.size(); ++j)
      sum += rest.weights[j] * rest.nodes[j] / (zeta - d * rest.nodes[j]);
    return zeta * (1.0 + sum);
  };
  const auto zp = [&](cplx zeta) {
    cplx sum = 0.0;
    for (std::size_t j = 0; j < rest.nodes.size(); ++j) {
      const cplx q = rest.nodes[j] / (zeta - d * rest.nodes[j]);
      sum += rest.weights[j] * q * q;
    }
    return 1.0 - static_cast<double>(d) * sum;
  };
  const auto gf = [&](cplx zeta) {
    cplx sum = 0.0;
    for (std::size_t j = 0; j < rest_signal.nodes.size(); ++j)
      sum += rest_signal.weights[j] / (zeta - d * rest_signal.nodes[j]);
    return sum;
  };
  double zpp = 0.0;  // z''(zeta_e)
  for (std::size_t j = 0; j < rest.nodes.size(); ++j) {
    const double q = e.zeta - d * rest.nodes[j];
    zpp += 2.0 * d * rest.weights[j] * rest.nodes[j] * rest.nodes[j] / (q * q * q);
  }
  const int n = 200000;
  const double eta = 1e-9 * e.edge;
  std::vector<double> x(n + 1), rho(n + 1), rm(n + 1);
  cplx zeta = e.zeta;
  for (int g = 0; g <= n; ++g) {
    const double u = static_cast<double>(g) / n;
    x[g] = e.edge * (1.0 - u * u);
    if (g == 0) {
      rho[g] = rm[g] = 0.0;
      continue;
    }
    if (g == 1) zeta = e.zeta + cplx(0.0, std::sqrt(2.0 * (e.edge - x[g]) / zpp));
    const cplx target(x[g], eta);
    for (int it = 0; it < 100; ++it) {
      const cplx step = (zf(zeta) - target) / zp(zeta);
      zeta -= step;
      if (zeta.imag() < 0.0) zeta = cplx(zeta.real(), -zeta.imag());
      if (std::abs(step) < 1e-14 * std::abs(zeta)) break;
    }
    rho[g] = std::max(0.0, -(1.0 / zeta).imag() / M_PI);
    rm[g] = std::max(0.0, -(1.0 / (zeta * (1.0 - m2 * gf(zeta)))).imag() / M_PI);
  }
  // Cumulative masses from the top (trapezoids in x, which falls with g).
  std::vector<double> F(n + 1, 0.0), Fm(n + 1, 0.0);
  for (int g = 1; g <= n; ++g) {
    const double dx = x[g - 1] - x[g];
    F[g] = F[g - 1] + 0.5 * dx * (rho[g] + rho[g - 1]);
    Fm[g] = Fm[g - 1] + 0.5 * dx * (rm[g] + rm[g - 1]);
  }
  QuantileRest out;
  const int bulk = static_cast<int>(std::lround(F[n] * d));
  int g = 0;
  double prev_m = 0.0;
  for (int i = 1; i <= bulk; ++i) {
    const auto at = [&](double f, int& gg) {  // x and Fm where F = f, by linear interpolation
      while (gg < n && F[gg + 1] < f) ++gg;
      const double t = F[gg + 1] > F[gg] ? (f - F[gg]) / (F[gg + 1] - F[gg]) : 0.0;
      return std::pair<double, double>{x[gg] + t * (x[gg + 1] - x[gg]), Fm[gg] + t * (Fm[gg + 1] - Fm[gg])};
    };
    int g2 = g;
    const double mid = at((i - 0.5) / d, g2).first;
    const double upper_m = at(std::min(static_cast<double>(i) / d, F[n]), g).second;
    out.lambda.push_back(mid);
    out.c2.push_back(std::max(0.0, upper_m - prev_m));
    prev_m = upper_m;
  }
  return out;
}

/// The Schur complement with the kept directions' y_j drawn exactly (w_i = v_i^T y_j, iid N(0, 1) over S_R's
/// eigenvectors), S_R's bulk at its quantiles with m-hat's masses, its outlier explicit.
double wishart_overlap(const std::vector<Direction>& K, double m, const QuantileRest& q, double zo,
                       double rho, const std::vector<double>& w, const std::vector<double>& go) {
  const int k = static_cast<int>(K.size());
  const auto uk = static_cast<std::size_t>(k);
  const std::size_t nb = q.lambda.size();
  std::vector<double> xs(nb * uk), cs(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    cs[i] = std::sqrt(q.c2[i]);
    for (std::size_t p = 0; p < uk; ++p)
      xs[i * uk + p] = std::sqrt(K[p].tau) * w[i * uk + p] + K[p].beta * m * cs[i];
  }
  std::vector<double> a(uk * uk), num(uk), uo(uk);
  for (std::size_t p = 0; p < uk; ++p) uo[p] = std::sqrt(K[p].tau) * go[p] + std::sqrt(rho) * m * K[p].beta;
  const bool has_outlier = rho > 0.0;
  const auto build = [&](double z, int power) {
    std::fill(a.begin(), a.end(), 0.0);
    std::fill(num.begin(), num.end(), 0.0);
    for (std::size_t i = 0; i < nb; ++i) {
      double pw = 1.0 / (z - q.lambda[i]);
      const double p1 = pw;
      if (power == 2) pw *= pw;
      const double* xi = xs.data() + i * uk;
      for (std::size_t p = 0; p < uk; ++p) {
        num[p] += p1 * cs[i] * xi[p];
        for (std::size_t r = 0; r <= p; ++r) a[p * uk + r] += pw * xi[p] * xi[r];
      }
    }
    if (has_outlier) {
      double pole = 1.0 / (z - zo);
      const double p1 = pole;
      if (power == 2) pole *= pole;
      for (std::size_t p = 0; p < uk; ++p) {
        num[p] += std::sqrt(rho) * p1 * uo[p];
        for (std::size_t r = 0; r <= p; ++r) a[p * uk + r] += pole * uo[p] * uo[r];
      }
    }
    for (std::size_t p = 0; p < uk; ++p)
      for (std::size_t r = 0; r < p; ++r) a[r * uk + p] = a[p * uk + r];
  };
  const auto excess = [&](double z) {
    build(z, 1);
    const double top = model::symmetric_eigenvalues(a, k).back();
    return top > 1e-6 ? 1.0 - 1.0 / top : 1.0 - 1e6;
  };
  const double top = std::max(q.lambda.front(), has_outlier ? zo : 0.0);
  double lo = top * (1.0 + 1e-12), f_lo = excess(lo);
  if (!(f_lo > 0.0)) return has_outlier ? rho : q.c2.front();
  double hi = 2.0 * lo, f_hi = excess(hi);
  while (f_hi > 0.0) hi *= 2.0, f_hi = excess(hi);
  int side = 0;
  for (int it = 0; it < 300 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    const double x = (mid > lo && mid < hi) ? mid : 0.5 * (lo + hi);
    const double fx = excess(x);
    if (fx > 0.0) {
      lo = x, f_lo = fx;
      if (side == 1) f_hi *= 0.5;
      side = 1;
    } else {
      hi = x, f_hi = fx;
      if (side == -1) f_lo *= 0.5;
      side = -1;
    }
  }
  const double z = 0.5 * (lo + hi);
  build(z, 1);
  const model::SymmetricEigen e = model::symmetric_eigen(a, k);
  const std::vector<double> v(e.vectors.end() - k, e.vectors.end());
  double along = 0.0;
  for (std::size_t p = 0; p < uk; ++p) along += v[p] * num[p];
  build(z, 2);  // -A'(z) = sum x x^T/(z - lambda)^2
  double norm2 = 0.0;
  for (std::size_t p = 0; p < uk; ++p)
    for (std::size_t r = 0; r < uk; ++r) norm2 += v[p] * a[p * uk + r] * v[r];
  return norm2 > 0.0 ? along * along / norm2 : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a{{"d", "800"},      {"T", "6"},       {"correlation", "prefix:6"},
                                       {"delta", "0.6"},  {"gamma", "0.3"}, {"seed", "11"},
                                       {"trials", "0:4"}, {"snr", "2.5"},   {"k", "10"},
                                       {"draws", "10"}};
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const auto eq = s.find('=');
    a[s.substr(0, eq)] = s.substr(eq + 1);
  }
  model::PointParams params;
  params.d = std::stoi(a["d"]);
  params.T = std::stoi(a["T"]);
  params.delta = std::stod(a["delta"]);
  params.gamma = std::stod(a["gamma"]);
  params.table = model::Table::centered;
  params.seed = std::stoull(a["seed"]);
  params.correlation = model::parse_correlation(a["correlation"], params.T);
  params.weighting = model::parse_weighting("last", params.T);
  const auto tr = split(a["trials"], ':');
  const int first = std::stoi(tr[0]), count = std::stoi(tr[1]), draws = std::stoi(a["draws"]);
  const int d = params.d;
  std::printf("# d %d seed %s delta %g gamma %g table centered\n", d, a["seed"].c_str(), params.delta,
              params.gamma);
  for (int t = first; t < first + count; ++t) {
    params.trial = t;
    const theory::FiniteTOutlier outlier = simulate::build_finite_t_outlier(params);
    const std::vector<Direction> dir = directions(outlier);
    const int n = static_cast<int>(dir.size());
    for (const auto& ks : split(a["k"], ',')) {
      const int k = std::stoi(ks);
      const std::vector<Direction> K(dir.begin(), dir.begin() + k);
      const theory::FiniteTTopLevels levels(outlier.bulk(), outlier.signal(), d, params.vocabulary(),
                                            params.table, k);
      const theory::TopLevelDraws model_draws = simulate::top_level_draws(params, k, 32);
      // The rest's own measures, for whether the d -> infinity theory gives S_R an outlier.
      theory::SpectralMeasure rest, rest_signal;
      for (int j = n - 1; j >= k; --j) {
        if (!rest.nodes.empty() && rest.nodes.back() == dir[j].tau)
          rest.weights.back() += 1.0;
        else
          rest.nodes.push_back(dir[j].tau), rest.weights.push_back(1.0);
        if (dir[j].beta > 0)
          rest_signal.nodes.push_back(dir[j].tau), rest_signal.weights.push_back(dir[j].beta * dir[j].beta);
      }
      const theory::EdgePoint edge = theory::finite_t_edge_point(rest, d);
      const double rest_g = theory::finite_t_g(rest_signal, d, edge.zeta);
      for (const auto& ss : split(a["snr"], ',')) {
        const double snr = std::stod(ss), m = std::sqrt(snr);
        const bool has_outlier = snr * rest_g > 1.0;
        const random::CounterRng rng(params.seed * 1000003u + 17u, static_cast<std::uint64_t>(t));
        const QuantileRest qrest = quantile_rest(rest, rest_signal, d, snr);
        double zo = 0.0, rho_o = 0.0;
        if (has_outlier) {
          const theory::SignalOutlier so =
              theory::finite_t_signal_outlier(rest, rest_signal, d, edge.zeta, snr);
          zo = so.eigenvalue, rho_o = so.overlap;
        }
        double c2sum = rho_o;
        for (const double x : qrest.c2) c2sum += x;
        if (t == first)
          std::printf("# k %d snr %g: %zu quantiles, top %.5f (edge %.5f), m-hat mass %.5f (outlier %.5f)\n",
                      k, snr, qrest.lambda.size(), qrest.lambda.front(), edge.edge, c2sum, rho_o);
        const random::CounterRng wrng(params.seed * 7919u + 3u, static_cast<std::uint64_t>(t));
        double sw = 0.0, sw2 = 0.0;
        const int wdraws = draws > 0 ? 4 * draws : 32;
        std::vector<double> wv(qrest.lambda.size() * k), gov(k);
        for (int r = 0; r < wdraws; ++r) {
          wrng.gaussians(random::Stream::table_noise, static_cast<std::uint64_t>(r), 0, wv);
          wrng.gaussians(random::Stream::table_noise, static_cast<std::uint64_t>(r), 1, gov);
          const double o = wishart_overlap(K, m, qrest, zo, rho_o, wv, gov);
          sw += o, sw2 += o * o;
        }
        const double mw = sw / wdraws,
                     ew = std::sqrt(std::max(0.0, (sw2 - wdraws * mw * mw) / (wdraws - 1.0)) / wdraws);
        std::vector<double> XR(static_cast<std::size_t>(d) * (n - k)), S, y(d), v;
        std::vector<double> XK(static_cast<std::size_t>(d) * k);
        double se = 0, sg = 0, sd = 0, sd2 = 0;
        for (int r = 0; r < draws; ++r) {
          // One table draw: every direction's y_j, the same for every k and snr of the trial.
          for (int j = 0; j < n; ++j) {
            rng.gaussians(random::Stream::table_noise, static_cast<std::uint64_t>(r),
                          static_cast<std::uint64_t>(j), y);
            double* col = j < k ? XK.data() + static_cast<std::size_t>(j) * d
                                : XR.data() + static_cast<std::size_t>(j - k) * d;
            const double st = std::sqrt(dir[j].tau);
            for (int i = 0; i < d; ++i) col[i] = st * y[i] + (i == 0 ? dir[j].beta * m : 0.0);
          }
          // S_R and its eigenpairs.
          S.assign(static_cast<std::size_t>(d) * d, 0.0);
          const double one = 1.0, zero = 0.0;
          const int nr = n - k;
          dsyrk_("L", "N", &d, &nr, &one, XR.data(), &d, &zero, S.data(), &d, 1, 1);
          for (int i = 0; i < d; ++i)
            for (int j = i + 1; j < d; ++j)
              S[static_cast<std::size_t>(j) * d + i] = S[static_cast<std::size_t>(i) * d + j];
          const model::SymmetricEigen er = model::symmetric_eigen_dc(S, d);
          std::vector<double> c(d);
          for (int i = 0; i < d; ++i)
            c[i] = er.vectors[static_cast<std::size_t>(i) * d];  // component along u = e_1
          // exact: S = S_R + X_K X_K^T.
          dsyrk_("L", "N", &d, &k, &one, XK.data(), &d, &one, S.data(), &d, 1, 1);
          top_pair(S, d, v);
          const double exact = v[0] * v[0];
          // gaussian: the model's forms on the realised S_R, with the model's own draws (table draw r % 32).
          const std::size_t i32 = static_cast<std::size_t>(r % 32), uk = static_cast<std::size_t>(k);
          const std::vector<double> xi(model_draws.xi.begin() + i32 * uk * uk,
                                       model_draws.xi.begin() + (i32 + 1) * uk * uk),
              g(model_draws.g.begin() + i32 * uk, model_draws.g.begin() + (i32 + 1) * uk),
              go(model_draws.go.begin() + i32 * uk, model_draws.go.begin() + (i32 + 1) * uk);
          const double gauss = gaussian_overlap(K, m, er.values, c, has_outlier ? d - 1 : -1, xi, g, go);
          se += exact, sg += gauss, sd += exact - gauss, sd2 += (exact - gauss) * (exact - gauss);
        }
        const double md = draws > 1 ? sd / draws : 0.0;
        const double err =
            draws > 1 ? std::sqrt(std::max(0.0, (sd2 - draws * md * md) / (draws - 1.0)) / draws) : 0.0;
        if (draws == 0) se = sg = 0.0;
        std::printf("hybrid %d %g %d %.5f %.5f %.5f %.5f %.4f %.5f %.5f\n", t, snr, k,
                    se / std::max(draws, 1), sg / std::max(draws, 1), levels.at(snr, model_draws).overlap,
                    err, snr - outlier.threshold_snr(), mw, ew);
        std::fflush(stdout);
      }
    }
  }
}
