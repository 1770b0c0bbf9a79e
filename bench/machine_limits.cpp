/// rmtsweep_bench_limits: what the linked BLAS/LAPACK can do on this machine, the limits the
/// simulation's stages are measured against (issue "Performance").
///
///   rmtsweep_bench_limits gemm   --d 2000 --panels 256,1024,2000 --threads 1,2
///   rmtsweep_bench_limits lapack --d 1000,2000,4000 --threads 2 --k 4
///
/// Prints one JSON object per line (consumed by bench/report.py).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rmtsweep/common/lapack.hpp"

namespace {

using rmtsweep::bench::parse_list;
using rmtsweep::bench::seconds_of;

/// Best of repeated runs, repeating until `budget` seconds are spent (at least once, at most 5).
double best_seconds(const std::function<void()>& prepare, const std::function<void()>& work, double budget) {
  double best = 1e300, spent = 0.0;
  for (int rep = 0; rep < 5 && (rep == 0 || spent < budget); ++rep) {
    prepare();
    const double s = seconds_of(work);
    best = std::min(best, s);
    spent += s;
  }
  return best;
}

/// Uniform entries of variance one from a xorshift generator: the spectrum of X Xᵀ / N is then
/// Marchenko-Pastur like the simulated one, which matters for the eigensolvers' deflation.
std::vector<double> random_matrix(std::size_t count, std::uint64_t seed) {
  std::vector<double> x(count);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (auto& value : x) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    value = (static_cast<double>(s >> 11) * 0x1.0p-53 - 0.5) * 3.4641016151377544;
  }
  return x;
}

void emit(nlohmann::json record) {
  record["blas_core"] = openblas_get_corename();
  std::cout << record.dump() << std::endl;
}

void bench_gemm(const std::vector<int>& dims, const std::vector<int>& panels,
                const std::vector<int>& threads) {
  for (const int t : threads) {
    openblas_set_num_threads(t);
    for (const int d : dims) {
      for (const int p : panels) {
        const auto a = random_matrix(static_cast<std::size_t>(d) * p, 1);
        std::vector<double> c(static_cast<std::size_t>(d) * d, 0.0);
        const double one = 1.0, zero = 0.0;
        const double gemm = best_seconds([] {},
                                         [&] {
                                           dgemm_("N", "T", &d, &d, &p, &one, a.data(), &d, a.data(), &d,
                                                  &zero, c.data(), &d, 1, 1);
                                         },
                                         1.0);
        const double syrk = best_seconds(
            [] {}, [&] { dsyrk_("L", "N", &d, &p, &one, a.data(), &d, &zero, c.data(), &d, 1, 1); }, 1.0);
        const double dd = d, pp = p;
        emit({{"kind", "dgemm"},
              {"threads", t},
              {"d", d},
              {"panel", p},
              {"seconds", gemm},
              {"gflops", 2.0 * dd * dd * pp / gemm * 1e-9}});
        emit({{"kind", "dsyrk"},
              {"threads", t},
              {"d", d},
              {"panel", p},
              {"seconds", syrk},
              {"gflops", dd * (dd + 1.0) * pp / syrk * 1e-9}});
      }
    }
  }
}

void check_info(const char* routine, int info) {
  if (info != 0) throw std::runtime_error(std::string(routine) + " failed, info = " + std::to_string(info));
}

/// dsyevd / dsyevr / dsytrd / dsterf / the tridiagonal top-k path on S = X Xᵀ / N, N = 4d.
void bench_lapack(int d, int threads, int k) {
  openblas_set_num_threads(threads);
  const int n = 4 * d;
  const auto x = random_matrix(static_cast<std::size_t>(d) * n, 2);
  std::vector<double> s(static_cast<std::size_t>(d) * d, 0.0), a(s.size());
  const double scale = 1.0 / n, zero = 0.0;
  dsyrk_("L", "N", &d, &n, &scale, x.data(), &d, &zero, s.data(), &d, 1, 1);
  const auto reset = [&] { std::copy(s.begin(), s.end(), a.begin()); };
  std::vector<double> w(d), z(static_cast<std::size_t>(d) * k), diag(d), offdiag(d), tau(d);
  std::vector<int> isuppz(2 * static_cast<std::size_t>(d));
  int info = 0, m = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double work_query = 0.0;
  const double budget = 0.5;

  // Workspace for the largest caller (dsyevd with vectors), reused by every routine.
  dsyevd_("V", "L", &d, a.data(), &d, w.data(), &work_query, &lwork, &iwork_query, &liwork, &info, 1, 1);
  std::vector<double> work(static_cast<std::size_t>(work_query) + 64 * static_cast<std::size_t>(d));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(iwork_query, 10 * d)));
  lwork = static_cast<int>(work.size());
  liwork = static_cast<int>(iwork.size());

  const auto record = [&](const char* routine, double secs) {
    emit({{"kind", routine}, {"threads", threads}, {"d", d}, {"k", k}, {"seconds", secs}});
  };
  record("dsyevd_all_vectors", best_seconds(
                                   reset,
                                   [&] {
                                     dsyevd_("V", "L", &d, a.data(), &d, w.data(), work.data(), &lwork,
                                             iwork.data(), &liwork, &info, 1, 1);
                                     check_info("dsyevd", info);
                                   },
                                   budget));
  const double top_exact = w[d - 1];
  record("dsyevd_values_only", best_seconds(
                                   reset,
                                   [&] {
                                     dsyevd_("N", "L", &d, a.data(), &d, w.data(), work.data(), &lwork,
                                             iwork.data(), &liwork, &info, 1, 1);
                                     check_info("dsyevd", info);
                                   },
                                   budget));
  const int il = d - k + 1;
  const double vl = 0.0, vu = 0.0, abstol = 0.0;
  record("dsyevr_top_k_vectors", best_seconds(
                                     reset,
                                     [&] {
                                       dsyevr_("V", "I", "L", &d, a.data(), &d, &vl, &vu, &il, &d, &abstol,
                                               &m, w.data(), z.data(), &d, isuppz.data(), work.data(), &lwork,
                                               iwork.data(), &liwork, &info, 1, 1, 1);
                                       check_info("dsyevr", info);
                                     },
                                     budget));
  record("dsytrd", best_seconds(
                       reset,
                       [&] {
                         dsytrd_("L", &d, a.data(), &d, diag.data(), offdiag.data(), tau.data(), work.data(),
                                 &lwork, &info, 1);
                         check_info("dsytrd", info);
                       },
                       budget));
  std::vector<double> d2(d), e2(d);
  record("dsterf", best_seconds(
                       [&] {
                         d2 = diag;
                         e2 = offdiag;
                       },
                       [&] {
                         dsterf_(&d, d2.data(), e2.data(), &info);
                         check_info("dsterf", info);
                       },
                       budget));

  // The path an eigen stage needs: one reduction, all values from the tridiagonal, the top k
  // vectors of the tridiagonal (MRRR) and their back-transformation.
  double top_path = 0.0;
  record("tridiagonal_top_k_path", best_seconds(
                                       reset,
                                       [&] {
                                         dsytrd_("L", &d, a.data(), &d, diag.data(), offdiag.data(),
                                                 tau.data(), work.data(), &lwork, &info, 1);
                                         check_info("dsytrd", info);
                                         d2 = diag;
                                         e2 = offdiag;
                                         dsterf_(&d, d2.data(), e2.data(), &info);
                                         check_info("dsterf", info);
                                         int tryrac = 1, nzc = k;
                                         dstemr_("V", "I", &d, diag.data(), offdiag.data(), &vl, &vu, &il, &d,
                                                 &m, w.data(), z.data(), &d, &nzc, isuppz.data(), &tryrac,
                                                 work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
                                         check_info("dstemr", info);
                                         dormtr_("L", "L", "N", &d, &k, a.data(), &d, tau.data(), z.data(),
                                                 &d, work.data(), &lwork, &info, 1, 1, 1);
                                         check_info("dormtr", info);
                                         top_path = d2[d - 1];
                                       },
                                       budget));
  if (std::abs(top_path - top_exact) > 1e-10 * std::abs(top_exact))
    throw std::runtime_error("tridiagonal path disagrees with dsyevd on the top eigenvalue");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2)
      throw std::invalid_argument(
          "usage: rmtsweep_bench_limits gemm|lapack [--d ..] [--panels ..] [--threads ..] [--k ..]");
    const std::string what = argv[1];
    std::vector<int> dims{2000}, panels{256, 1024, 2000}, threads{1, 2};
    int k = 4;
    for (int i = 2; i + 1 < argc; i += 2) {
      const std::string key = argv[i], value = argv[i + 1];
      if (key == "--d")
        dims = parse_list(value);
      else if (key == "--panels")
        panels = parse_list(value);
      else if (key == "--threads")
        threads = parse_list(value);
      else if (key == "--k")
        k = std::stoi(value);
      else
        throw std::invalid_argument("unknown option " + key);
    }
    if (what == "gemm") {
      bench_gemm(dims, panels, threads);
    } else if (what == "lapack") {
      for (const int t : threads)
        for (const int d : dims) bench_lapack(d, t, k);
    } else {
      throw std::invalid_argument("unknown benchmark " + what);
    }
  } catch (const std::exception& error) {
    std::cerr << "rmtsweep_bench_limits: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
