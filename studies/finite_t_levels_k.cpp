// How many directions the finite-d model of the top levels keeps (docs/finite_t.md, "How many directions"):
// for `last` pooling, per trial, the count levels of the top of spec Pi, the model's overlap at several k
// (integers, or "L<n>": the top n whole count levels, or "rule": the library's rule), and a brute force: S
// formed in Pi's eigenbasis from the trial's own measures, X = sum_j (sqrt(tau_j) y_j + beta_j m) q_j^T
// (docs/finite_t.md section 2, the model's own starting point, exact in distribution given the tokens) over
// many table draws.
//
// Build (from the repository, after scripts/build.sh):
//   g++ -O2 -std=c++20 -Iinclude studies/finite_t_levels_k.cpp build/librmtsweep.a \
//     $(mpicxx --showme:link) -lscalapack-openmpi -lopenblas -llapack -lblas -o build/finite_t_levels_k
// Usage:
//   build/finite_t_levels_k d=800 T=6 correlation=prefix:6 table=centered delta=0.6 gamma=0.3 seed=11 \
//     trials=0:8 snr=2,2.5,3 k=1,3,5,10,L1,L2,L3,rule draws=200 brute=200
// Output: whitespace-separated rows on stdout, "level" rows (per trial: count c, directions, signal weight,
// the level's pole d tau, the rest's edge zeta_e below the level) and "model"/"brute" rows
// (trial, snr, k, overlap, its standard error, lambda_1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
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

/// Pi's top directions, one per row, from the largest tau down: tau, beta (the atom's whole signal weight on
/// its first direction, as FiniteTTopLevels does) and the count level c = round(tau N / w^2).
struct Direction {
  double tau, beta;
  long level;
};

std::vector<Direction> directions(const theory::FiniteTOutlier& outlier, double n_over_w2) {
  const auto& bulk = outlier.bulk();
  const auto& signal = outlier.signal();
  std::vector<Direction> out;
  std::vector<std::size_t> order(bulk.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return bulk.nodes[a] > bulk.nodes[b]; });
  const double largest = bulk.nodes[order.front()];
  for (const auto b : order) {
    double weight = 0.0;
    for (std::size_t s = 0; s < signal.nodes.size(); ++s)
      if (std::abs(signal.nodes[s] - bulk.nodes[b]) <= 1e-9 * largest) weight += signal.weights[s];
    const auto m = static_cast<long>(std::llround(bulk.weights[b]));
    for (long j = 0; j < m; ++j)
      out.push_back(
          {bulk.nodes[b], j == 0 ? std::sqrt(weight) : 0.0, std::lround(bulk.nodes[b] * n_over_w2)});
  }
  return out;
}

struct Stat {
  double mean, error, lambda;
};

/// The brute force: `draws` tables in Pi's eigenbasis, `centered` or `iid`.
Stat brute(const std::vector<Direction>& dir, int d, double V, model::Table table, double snr, int draws,
           std::uint64_t seed) {
  const int n = static_cast<int>(dir.size());
  const random::CounterRng rng(seed, 0);
  std::vector<double> X(static_cast<std::size_t>(d) * n), S(static_cast<std::size_t>(d) * d), m(d), y(d);
  double s1 = 0, s2 = 0, sl = 0;
  for (int r = 0; r < draws; ++r) {
    // m = sqrt(snr) e_1 (+ Z s/V: N(0, 1/V) per coordinate for `iid`)
    rng.gaussians(random::Stream::table_noise, 1000000 + static_cast<std::uint64_t>(r), 0, m);
    for (int i = 0; i < d; ++i) m[i] = table == model::Table::iid ? m[i] / std::sqrt(V) : 0.0;
    m[0] += std::sqrt(snr);
    for (int j = 0; j < n; ++j) {
      rng.gaussians(random::Stream::table_noise, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(j),
                    y);
      const double st = std::sqrt(dir[j].tau);
      for (int i = 0; i < d; ++i) X[static_cast<std::size_t>(j) * d + i] = st * y[i] + dir[j].beta * m[i];
    }
    const double one = 1.0, zero = 0.0;
    dsyrk_("L", "N", &d, &n, &one, X.data(), &d, &zero, S.data(), &d, 1, 1);
    int found = 0, info = 0, il = d, iu = d, lwork = -1, liwork = -1, isuppz[2];
    double w[1], vec[4096], wq;
    int iwq;
    const double abstol = 0.0, vl = 0, vu = 0;
    std::vector<double> v(d);
    dsyevr_("V", "I", "L", &d, S.data(), &d, &vl, &vu, &il, &iu, &abstol, &found, w, v.data(), &d, isuppz,
            &wq, &lwork, &iwq, &liwork, &info, 1, 1, 1);
    lwork = static_cast<int>(wq), liwork = iwq;
    std::vector<double> work(lwork);
    std::vector<int> iwork(liwork);
    dsyevr_("V", "I", "L", &d, S.data(), &d, &vl, &vu, &il, &iu, &abstol, &found, w, v.data(), &d, isuppz,
            work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
    (void)vec;
    if (info != 0) std::abort();
    const double o = v[0] * v[0];
    s1 += o, s2 += o * o, sl += w[0];
  }
  const double mean = s1 / draws;
  return {mean, std::sqrt(std::max(0.0, (s2 - draws * mean * mean) / (draws - 1.0)) / draws), sl / draws};
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a{{"d", "800"},          {"T", "6"},        {"correlation", "prefix:6"},
                                       {"table", "centered"}, {"delta", "0.6"},  {"gamma", "0.3"},
                                       {"seed", "11"},        {"trials", "0:4"}, {"snr", "2.5"},
                                       {"k", "10"},           {"draws", "32"},   {"brute", "0"}};
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
  params.table = a["table"] == "iid" ? model::Table::iid : model::Table::centered;
  params.seed = std::stoull(a["seed"]);
  params.correlation = model::parse_correlation(a["correlation"], params.T);
  params.weighting = model::parse_weighting("last", params.T);
  const auto tr = split(a["trials"], ':');
  const int first = std::stoi(tr[0]), count = std::stoi(tr[1]);
  std::vector<double> snrs;
  for (const auto& x : split(a["snr"], ',')) snrs.push_back(std::stod(x));
  const int draws = std::stoi(a["draws"]), brute_draws = std::stoi(a["brute"]);
  const double N = static_cast<double>(params.sequences()), V = static_cast<double>(params.vocabulary());
  std::printf("# d %d V %.0f N %.0f table %s seed %s delta %g gamma %g\n", params.d, V, N, a["table"].c_str(),
              a["seed"].c_str(), params.delta, params.gamma);
  for (int t = first; t < first + count; ++t) {
    params.trial = t;
    const theory::FiniteTOutlier outlier = simulate::build_finite_t_outlier(params);
    const std::vector<Direction> dir = directions(outlier, N);
    // Count levels from the top: where each ends in the direction list.
    std::vector<int> level_end;
    for (std::size_t j = 1; j <= dir.size(); ++j)
      if (j == dir.size() || dir[j].level != dir[j - 1].level) level_end.push_back(static_cast<int>(j));
    int isolated = 0;  // directions of the top levels whose pole lies above the edge of the rest below them
    bool still = true;
    for (std::size_t l = 0; l < std::min<std::size_t>(6, level_end.size() - 1); ++l) {
      const int begin = l == 0 ? 0 : level_end[l - 1], end = level_end[l];
      double w2 = 0.0;
      for (int j = begin; j < end; ++j) w2 += dir[j].beta * dir[j].beta;
      // The rest below the level (every direction from `end` on) and its edge.
      theory::SpectralMeasure rest;
      for (std::size_t j = static_cast<std::size_t>(end); j < dir.size(); ++j) {
        if (!rest.nodes.empty() && rest.nodes.back() == dir[j].tau)
          rest.weights.back() += 1.0;
        else
          rest.nodes.push_back(dir[j].tau), rest.weights.push_back(1.0);
      }
      std::reverse(rest.nodes.begin(), rest.nodes.end());
      std::reverse(rest.weights.begin(), rest.weights.end());
      const theory::EdgePoint e = theory::finite_t_edge_point(rest, params.d);
      if (still && params.d * dir[begin].tau > e.zeta)
        isolated = end;
      else
        still = false;
      std::printf("level %d %ld %d %.5g %.6g %.6g %.6g %.6g\n", t, dir[begin].level, end - begin, w2,
                  params.d * dir[begin].tau, e.zeta, e.edge, outlier.threshold_snr());
    }
    std::vector<int> ks;
    std::vector<std::string> labels;
    for (const auto& k : split(a["k"], ',')) {
      int kk = 0;
      if (k[0] == 'L')
        kk = level_end[std::stoi(k.substr(1)) - 1];
      else if (k == "iso")
        kk = std::max(1, isolated);
      else if (k == "rule") {
        const auto levels = simulate::finite_t_levels(params, outlier);
        kk = levels ? levels->k() : 0;
      } else
        kk = std::stoi(k);
      ks.push_back(kk), labels.push_back(k);
    }
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const theory::FiniteTTopLevels levels(outlier.bulk(), outlier.signal(), params.d, params.vocabulary(),
                                            params.table, ks[i]);
      const theory::TopLevelDraws dr = simulate::top_level_draws(params, ks[i], draws);
      for (const double snr : snrs) {
        const auto p = levels.at(snr, dr);
        std::printf("model %d %g %s %d %.5f %.5f %.5f %.5f\n", t, snr, labels[i].c_str(), ks[i], p.overlap,
                    p.overlap_error, p.top_eigenvalue, outlier.at(snr).overlap);
      }
    }
    if (brute_draws > 0)
      for (const double snr : snrs) {
        const Stat s = brute(dir, params.d, V, params.table, snr, brute_draws, 7919u * (t + 1));
        std::printf("brute %d %g - 0 %.5f %.5f %.5f %.5f\n", t, snr, s.mean, s.error, s.lambda,
                    outlier.at(snr).overlap);
      }
    std::fflush(stdout);
  }
}
