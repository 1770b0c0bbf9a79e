// The rank-one updated eigenproblem along a line of r (include/rmtsweep/spectral/rank_one.hpp).
#include "rmtsweep/spectral/rank_one.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/lapack.hpp"

namespace rmtsweep::spectral {
namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

/// M(r) after LAPACK dlaed2's deflation: the components that keep their pole (z_i negligible, or
/// rotated away against a neighbouring pole within rounding) and the rest, whose poles ascend
/// strictly, with z scaled to unit norm (dlaed4's convention) and rho carrying the norm.
struct Deflated {
  std::vector<double> poles, z, g;  ///< the moving part: poles, unit z, the overlap vector g rotated alike
  double rho = 0.0;
  double norm = 0.0;                   ///< ||z(r)|| sqrt(rho) before scaling: z_full = norm z
  std::vector<double> fixed, fixed_g;  ///< deflated eigenvalues and their rotated g
};

Deflated deflate(const RankOneLine& line, double r) {
  const std::size_t n = line.size();
  std::vector<double> d = line.poles, z(n), g = line.signal;
  double norm2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    z[i] = r * line.signal[i] + line.offset[i];
    norm2 += z[i] * z[i];
  }
  Deflated out;
  if (norm2 == 0.0 || n == 0) {
    out.fixed = d;
    out.fixed_g = g;
    return out;
  }
  const double norm = std::sqrt(norm2);
  for (double& x : z) x /= norm;
  const double rho = line.rho * norm2;
  double dmax = 0.0, zmax = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    dmax = std::max(dmax, std::abs(d[i]));
    zmax = std::max(zmax, std::abs(z[i]));
  }
  // dlaed2's tolerance (its z has unit norm too).
  const double tol = 64.0 * eps * std::max(dmax, zmax);
  out.rho = rho;
  out.norm = std::sqrt(line.rho) * norm;
  const auto keep = [&](std::size_t j) {
    out.poles.push_back(d[j]);
    out.z.push_back(z[j]);
    out.g.push_back(g[j]);
  };
  const auto fix = [&](std::size_t j) {
    out.fixed.push_back(d[j]);
    out.fixed_g.push_back(g[j]);
  };
  std::size_t previous = n;  // the last component not deflated yet, n for none
  for (std::size_t j = 0; j < n; ++j) {
    if (rho * std::abs(z[j]) <= tol) {
      fix(j);
      continue;
    }
    if (previous == n) {
      previous = j;
      continue;
    }
    // Two poles closer than rounding can resolve against their weights: rotate z_previous onto z_j.
    double s = z[previous], c = z[j];
    const double tau = std::hypot(c, s), t = d[j] - d[previous];
    c /= tau;
    s = -s / tau;
    if (std::abs(t * c * s) <= tol) {
      z[j] = tau;
      z[previous] = 0.0;
      const double gp = g[previous], gj = g[j];  // drot(q_previous, q_j, c, s)
      g[previous] = c * gp + s * gj;
      g[j] = c * gj - s * gp;
      const double dp = d[previous] * c * c + d[j] * s * s;
      d[j] = d[previous] * s * s + d[j] * c * c;
      d[previous] = dp;
      fix(previous);
    } else {
      keep(previous);
    }
    previous = j;
  }
  if (previous != n) keep(previous);
  return out;
}

/// Root i (0-based, ascending) of the deflated secular equation and dlaed4's delta_j = poles_j - lambda.
double root(const Deflated& m, int i, std::vector<double>& delta) {
  const int n = static_cast<int>(m.poles.size()), index = i + 1;
  delta.resize(m.poles.size());
  double lambda = 0.0;
  int info = 0;
  dlaed4_(&n, &index, m.poles.data(), m.z.data(), delta.data(), &m.rho, &lambda, &info);
  if (info != 0)
    throw NumericalFailure("dlaed4 did not converge for root " + std::to_string(index) + " of " +
                           std::to_string(n));
  return lambda;
}

/// The overlap of the eigenvector (poles - lambda)^{-1} z of a root (from dlaed4's delta).
double root_overlap(const Deflated& m, const RankOneLine& line, double lambda,
                    const std::vector<double>& delta) {
  double norm2 = 0.0, along = 0.0;
  for (std::size_t j = 0; j < delta.size(); ++j) {
    const double x = m.z[j] / delta[j];
    norm2 += x * x;
    along += x * (line.form == OverlapForm::direct ? m.g[j] : m.z[j]);
  }
  if (line.form == OverlapForm::direct) return along * along / norm2;
  // Gram: (w^T z_full)^2 rho / lambda with z_full = norm z and w = x / ||x||.
  return lambda > 0.0 ? m.norm * m.norm * along * along / (norm2 * lambda) : 0.0;
}

}  // namespace

namespace {

/// Rotates x[i], x[j] by the plane rotation that sends (g[i], g[j]) to (0, hypot): the same for every vector.
void rotate_onto(std::vector<double>& g, std::vector<double>& a, std::size_t i, std::size_t j) {
  const double r = std::hypot(g[i], g[j]);
  if (r == 0.0) return;
  const double c = g[j] / r, s = g[i] / r;
  const double gi = g[i], gj = g[j], ai = a[i], aj = a[j];
  g[i] = c * gi - s * gj;  // 0
  g[j] = s * gi + c * gj;  // r
  a[i] = c * ai - s * aj;
  a[j] = s * ai + c * aj;
  g[i] = 0.0;
}

}  // namespace

RankOneLine canonical(RankOneLine line) {
  line.check();
  const std::size_t n = line.size();
  std::vector<double>& g = line.signal;
  std::vector<double>& a = line.offset;
  double dmax = 0.0;
  for (const double d : line.poles) dmax = std::max(dmax, std::abs(d));
  const double tol = 64.0 * eps * dmax;
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first;
    while (last + 1 < n && line.poles[last + 1] - line.poles[first] <= tol) ++last;
    if (last > first) {
      // g onto the cluster's last component, then a's remainder (orthogonal to g there) onto the one before.
      for (std::size_t i = first; i < last; ++i) rotate_onto(g, a, i, last);
      for (std::size_t i = first; i + 1 < last; ++i) rotate_onto(a, g, i, last - 1);
    }
    first = last + 1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (g[i] < 0.0 || (g[i] == 0.0 && a[i] < 0.0)) {
      g[i] = -g[i];
      a[i] = -a[i];
    }
  }
  return line;
}

void RankOneLine::check() const {
  if (signal.size() != poles.size() || offset.size() != poles.size())
    throw std::invalid_argument("RankOneLine: poles, signal and offset differ in length");
  if (!(rho > 0.0)) throw std::invalid_argument("RankOneLine: rho must be positive");
  if (!std::is_sorted(poles.begin(), poles.end()))
    throw std::invalid_argument("RankOneLine: poles must ascend");
}

RankOneSolution solve(const RankOneLine& line, double r, int k, bool all_values) {
  line.check();
  const Deflated m = deflate(line, r);
  const int moving = static_cast<int>(m.poles.size());
  struct Pair {
    double value, overlap;
  };
  std::vector<Pair> candidates;
  // The k largest roots, and every deflated pair (few, and any may be among the top k).
  std::vector<double> delta;
  for (int i = moving - 1; i >= std::max(0, moving - k); --i) {
    const double lambda = root(m, i, delta);
    candidates.push_back({lambda, root_overlap(m, line, lambda, delta)});
  }
  for (std::size_t j = 0; j < m.fixed.size(); ++j) {
    const double overlap = line.form == OverlapForm::direct ? m.fixed_g[j] * m.fixed_g[j] : 0.0;
    candidates.push_back({m.fixed[j], overlap});
  }
  const auto count = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 0)), candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count),
                    candidates.end(), [](const Pair& x, const Pair& y) { return x.value > y.value; });
  RankOneSolution out;
  for (std::size_t j = 0; j < count; ++j) {
    out.top.push_back(candidates[j].value);
    out.overlaps.push_back(candidates[j].overlap);
  }
  if (all_values) {
    out.all = m.fixed;
    for (int i = 0; i < moving; ++i) out.all.push_back(root(m, i, delta));
    std::sort(out.all.begin(), out.all.end());
  }
  return out;
}

LevelCrossing level_crossing(const RankOneLine& line, double level) {
  line.check();
  LevelCrossing out;
  if (line.size() == 0 || !(level > line.poles.back())) {
    out.at_zero = true;  // lambda_1 >= the largest pole > level (or no poles: nothing to cross)
    return out;
  }
  double a = 0.0, b = 0.0, c = 0.0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const double w = line.rho / (level - line.poles[i]);
    a += w * line.signal[i] * line.signal[i];
    b += w * line.signal[i] * line.offset[i];
    c += w * line.offset[i] * line.offset[i];
  }
  // Detected where a r^2 + 2 b r + (c - 1) > 0.
  out.at_zero = c > 1.0;
  const double c1 = c - 1.0;
  if (a == 0.0) {
    // g = 0 (then b = 0 too): the update does not depend on r.
    out.r_from = out.at_zero ? 0.0 : std::numeric_limits<double>::infinity();
    return out;
  }
  const double discriminant = b * b - a * c1;
  if (discriminant <= 0.0) return out;  // positive for every r
  // The roots -b/a -+ sqrt(disc)/a, without cancellation.
  const double q = -(b + std::copysign(std::sqrt(discriminant), b));
  double r1 = q / a, r2 = q != 0.0 ? c1 / q : -r1;
  if (r1 > r2) std::swap(r1, r2);
  out.r_from = std::max(0.0, r2);
  if (r1 > 0.0) out.r_below = r1;
  return out;
}

}  // namespace rmtsweep::spectral
