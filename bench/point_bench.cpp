/// rmtsweep_bench_point: one point of model.md through simulate_point, timed by stage, with the
/// peak resident memory of every rank (getrusage ru_maxrss, max-reduced over ranks).
///
///   mpirun -np R rmtsweep_bench_point --d 2000 --delta 0.5 --gamma 0.25 --T 10
///       [--correlation prefix:3] [--weighting mean] [--snr 1] [--k 4] [--reps 1]
///
/// With --reps > 1 the point is simulated that many times and the fastest total is reported
/// (peak memory is the process's, so it covers every repetition). One JSON line from rank 0.
#include <sys/resource.h>

#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "lapack_api.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/simulate/point.hpp"

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
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string key = argv[i], value = argv[i + 1];
      if (key == "--d") params.d = std::stoi(value);
      else if (key == "--delta") params.delta = std::stod(value);
      else if (key == "--gamma") params.gamma = std::stod(value);
      else if (key == "--T") params.T = std::stoi(value);
      else if (key == "--snr") params.snr = std::stod(value);
      else if (key == "--correlation") correlation = value;
      else if (key == "--weighting") weighting = value;
      else if (key == "--k") options.k = std::stoi(value);
      else if (key == "--reps") reps = std::stoi(value);
      else throw std::invalid_argument("unknown option " + key);
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
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double peak_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    MPI_Allreduce(MPI_IN_PLACE, &peak_mb, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      const auto& s = best.seconds;
      const nlohmann::json record{
          {"kind", "cpp_point"}, {"d", params.d}, {"delta", params.delta}, {"gamma", params.gamma},
          {"T", params.T}, {"N", params.sequences()}, {"V", params.vocabulary()}, {"ranks", ranks},
          {"blas_threads", openblas_get_num_threads()}, {"blas_core", openblas_get_corename()},
          {"seconds", {{"generate", s.generate}, {"covariance", s.covariance}, {"eigen", s.eigen},
                       {"ridge", s.ridge}, {"total", s.total}}},
          {"peak_rss_mb", peak_mb}, {"top_eigenvalues", best.top_eigenvalues}, {"overlaps", best.overlaps},
          {"ridge_accuracy", best.ridge_accuracy}};
      std::cout << record.dump() << std::endl;
    }
  } catch (const std::exception& error) {
    std::cerr << "rank " << rank << ": " << error.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
