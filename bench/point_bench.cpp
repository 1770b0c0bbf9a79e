/// rmtsweep_bench_point: one point of model.md through simulate_point, timed by stage, with the
/// peak resident memory of every rank (getrusage ru_maxrss, max-reduced over ranks).
///
///   mpirun -np R rmtsweep_bench_point --d 2000 --delta 0.5 --gamma 0.25 --T 10
///       [--correlation prefix:3] [--weighting mean] [--snr 1] [--k 4] [--reps 1] [--limits 1]
///       [--path auto|panels|tokens] [--eigensolver auto|scalapack|elpa] [--table iid|centered]
///       [--engine auto|dense|krylov] [--krylov-block B] [--krylov-budget P]
///
/// With --reps > 1 the point is simulated that many times and the fastest total is reported
/// (peak memory is the process's, so it covers every repetition). With --limits 1 on one rank,
/// the DGEMM rate and a dsyevd are measured right after the point in the same process
/// ("same_moment"). One JSON line from rank 0.

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rmtsweep/common/lapack.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/simulate/point.hpp"

namespace {

using rmtsweep::bench::seconds_of;

/// The limits in the same process, right after the point (1 rank only): the best of 3 DGEMM
/// rates for the covariance's panel shape (d x 512 x d) and one dsyevd with all vectors on a
/// Wishart matrix of the point's size, so the targets compare measurements of one moment.
nlohmann::json same_moment_limits(int d) {
  const int p = 512, n = 4 * d;
  std::vector<double> a(static_cast<std::size_t>(d) * n);
  std::uint64_t state = 88172645463325252ULL;
  for (auto& x : a) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    x = (static_cast<double>(state >> 11) * 0x1.0p-53 - 0.5) * 3.4641016151377544;
  }
  std::vector<double> c(static_cast<std::size_t>(d) * d, 0.0);
  const double one = 1.0, zero = 0.0, scale = 1.0 / n;
  double gemm = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    gemm =
        std::min(gemm, seconds_of([&] {
                   dgemm_("N", "T", &d, &d, &p, &one, a.data(), &d, a.data(), &d, &zero, c.data(), &d, 1, 1);
                 }));
  }
  dsyrk_("L", "N", &d, &n, &scale, a.data(), &d, &zero, c.data(), &d, 1, 1);
  std::vector<double> w(static_cast<std::size_t>(d));
  int lwork = -1, liwork = -1, iwork_query = 0, info = 0;
  double work_query = 0.0;
  dsyevd_("V", "L", &d, c.data(), &d, w.data(), &work_query, &lwork, &iwork_query, &liwork, &info, 1, 1);
  std::vector<double> work(static_cast<std::size_t>(work_query) + 1);
  std::vector<int> iwork(static_cast<std::size_t>(std::max(1, iwork_query)));
  lwork = static_cast<int>(work.size());
  liwork = static_cast<int>(iwork.size());
  const double syevd = seconds_of([&] {
    dsyevd_("V", "L", &d, c.data(), &d, w.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
  });
  const double dd = d;
  return {{"dgemm_gflops", 2.0 * dd * dd * p / gemm * 1e-9}, {"dsyevd_all_vectors_seconds", syevd}};
}

}  // namespace

int main(int argc, char** argv) {
  rmtsweep::parallel::MpiEnvironment mpi(argc, argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  try {
    rmtsweep::model::PointParams params;
    rmtsweep::simulate::SimulationOptions options;
    std::string correlation = "prefix:3", weighting = "mean";
    int reps = 1;
    std::string path_option = "auto", eigensolver_option = "auto", engine_option = "auto";
    bool limits_too = false;
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string key = argv[i], value = argv[i + 1];
      if (key == "--d")
        params.d = std::stoi(value);
      else if (key == "--delta")
        params.delta = std::stod(value);
      else if (key == "--gamma")
        params.gamma = std::stod(value);
      else if (key == "--T")
        params.T = std::stoi(value);
      else if (key == "--snr")
        params.snr = std::stod(value);
      else if (key == "--correlation")
        correlation = value;
      else if (key == "--weighting")
        weighting = value;
      else if (key == "--k")
        options.k = std::stoi(value);
      else if (key == "--reps")
        reps = std::stoi(value);
      else if (key == "--limits")
        limits_too = value == "1";
      else if (key == "--table")
        params.table = rmtsweep::model::parse_table(value);
      else if (key == "--krylov-block")
        options.krylov_block = std::stoi(value);
      else if (key == "--krylov-budget")
        options.krylov_budget = std::stoll(value);
      else if (key == "--engine")
        engine_option = value,
        options.engine = value == "dense"    ? rmtsweep::simulate::Engine::dense
                         : value == "krylov" ? rmtsweep::simulate::Engine::krylov
                         : value == "auto"   ? rmtsweep::simulate::Engine::automatic
                                             : throw std::invalid_argument("--engine: auto, dense or krylov");
      else if (key == "--path")
        path_option = value,
        options.path = value == "panels"   ? rmtsweep::simulate::CovariancePath::panels
                       : value == "tokens" ? rmtsweep::simulate::CovariancePath::tokens
                       : value == "auto"   ? rmtsweep::simulate::CovariancePath::automatic
                                           : throw std::invalid_argument("--path: auto, panels or tokens");
      else if (key == "--eigensolver")
        eigensolver_option = value,
        options.eigensolver = value == "scalapack" ? rmtsweep::parallel::EigenSolver::scalapack
                              : value == "elpa"    ? rmtsweep::parallel::EigenSolver::elpa
                              : value == "auto"
                                  ? rmtsweep::parallel::EigenSolver::automatic
                                  : throw std::invalid_argument("--eigensolver: auto, scalapack or elpa");
      else
        throw std::invalid_argument("unknown option " + key);
    }
    params.correlation = rmtsweep::model::parse_correlation(correlation, params.T);
    params.weighting = rmtsweep::model::parse_weighting(weighting, params.T);
    rmtsweep::model::validate(params);
    rmtsweep::parallel::configure_blas_threads(MPI_COMM_WORLD);

    rmtsweep::simulate::PointResult best;
    for (int rep = 0; rep < reps; ++rep) {
      auto result = rmtsweep::simulate::simulate_point(params, options, MPI_COMM_WORLD);
      if (rep == 0 || result.seconds.total < best.seconds.total) best = std::move(result);
    }
    const double peak_mb = rmtsweep::bench::peak_rss_mb(MPI_COMM_WORLD);
    const nlohmann::json limits = ranks == 1 && limits_too ? same_moment_limits(params.d) : nlohmann::json();
    if (rank == 0) {
      const auto& s = best.seconds;
      nlohmann::json record{{"kind", "cpp_point"},
                            {"d", params.d},
                            {"delta", params.delta},
                            {"gamma", params.gamma},
                            {"T", params.T},
                            {"N", params.sequences()},
                            {"V", params.vocabulary()},
                            {"ranks", ranks},
                            {"blas_threads", openblas_get_num_threads()},
                            {"blas_core", openblas_get_corename()},
                            {"covariance_path", rmtsweep::simulate::to_string(best.path)},
                            {"path_option", path_option},
                            {"eigensolver", rmtsweep::parallel::to_string(best.eigensolver)},
                            {"eigensolver_option", eigensolver_option},
                            {"seconds",
                             {{"generate", s.generate},
                              {"covariance", s.covariance},
                              {"eigen", s.eigen},
                              {"ridge", s.ridge},
                              {"total", s.total}}},
                            {"peak_rss_mb", peak_mb},
                            {"top_eigenvalues", best.top_eigenvalues},
                            {"overlaps", best.overlaps},
                            {"ridge_accuracy", best.ridge_accuracy},
                            {"solver", best.krylov() ? "krylov" : "dense"},
                            {"engine_option", engine_option},
                            {"products", best.products},
                            {"residual", best.residual},
                            {"fell_back", best.fell_back}};
      if (!limits.is_null()) record["same_moment"] = limits;
      std::cout << record.dump() << std::endl;
    }
  } catch (const std::exception& error) {
    std::cerr << "rank " << rank << ": " << error.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
