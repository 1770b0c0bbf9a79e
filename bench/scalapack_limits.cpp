/// rmtsweep_bench_scalapack: the distributed kernels of one point on the ranks of
/// MPI_COMM_WORLD, to see what PBLAS/ScaLAPACK add over plain BLAS/LAPACK (issue "Performance").
///
///   mpirun -np R rmtsweep_bench_scalapack --d 2000 --panels 256,1024 --blocks 64 --k 4
///
/// For each block size: pdsyrk of a d x panel panel into a d x d matrix (the covariance kernel,
/// GFLOP/s counted as d(d+1)panel), pdsytrd alone, and symmetric_eigen (the eigen stage).
/// Prints one JSON object per line from rank 0; peak memory is max-reduced over ranks.

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rmtsweep/common/lapack.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/distributed_matrix.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "scalapack_api.hpp"  // src/parallel's: pdsytrd_, timed bare

namespace {

using rmtsweep::bench::parse_list;
using rmtsweep::parallel::BlacsGrid;
using rmtsweep::parallel::DistributedMatrix;

/// Wall seconds of `work` on the slowest rank (a barrier before, a max-reduce after).
template <class Work>
double timed(Work&& work) {
  MPI_Barrier(MPI_COMM_WORLD);
  double secs = rmtsweep::bench::seconds_of(work);
  MPI_Allreduce(MPI_IN_PLACE, &secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return secs;
}

/// Fills the local part with variance-one entries that depend only on the global index, so the
/// matrix is the same whatever the grid.
void fill(DistributedMatrix& m, std::uint64_t seed) {
  for (int lc = 0; lc < m.local_cols(); ++lc) {
    const auto j = static_cast<std::uint64_t>(m.col_map().to_global(lc));
    for (int lr = 0; lr < m.local_rows(); ++lr) {
      std::uint64_t s = (seed * 0x9E3779B97F4A7C15ULL) ^ (j * 0xBF58476D1CE4E5B9ULL) ^
                        (static_cast<std::uint64_t>(m.row_map().to_global(lr)) * 0x94D049BB133111EBULL);
      s ^= s >> 31;
      s *= 0xD6E8FEB86659FD93ULL;
      s ^= s >> 32;
      m.local(lr, lc) = (static_cast<double>(s >> 11) * 0x1.0p-53 - 0.5) * 3.4641016151377544;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  rmtsweep::parallel::MpiEnvironment mpi(argc, argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<int> dims{2000}, panels{256, 1024}, blocks{64};
  int k = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--d")
      dims = parse_list(value);
    else if (key == "--panels")
      panels = parse_list(value);
    else if (key == "--blocks")
      blocks = parse_list(value);
    else if (key == "--k")
      k = std::stoi(value);
  }
  const auto grid = std::make_shared<const BlacsGrid>(MPI_COMM_WORLD);
  const auto emit = [&](nlohmann::json record) {
    record["ranks"] = ranks;
    record["blas_threads"] = openblas_get_num_threads();
    record["blas_core"] = openblas_get_corename();
    record["grid"] = std::to_string(grid->rows()) + "x" + std::to_string(grid->cols());
    if (rank == 0) std::cout << record.dump() << std::endl;
  };
  try {
    for (const int d : dims) {
      for (const int nb : blocks) {
        DistributedMatrix c(grid, d, d, nb, nb);
        for (const int p : panels) {
          DistributedMatrix a(grid, d, p, nb, nb);
          fill(a, 1);
          double best = 1e300;
          for (int rep = 0; rep < 3; ++rep)
            best = std::min(best, timed([&] { rmtsweep::parallel::syrk_lower('N', p, 1.0, a, 0.0, c); }));
          const double dd = d;
          emit({{"kind", "pdsyrk"},
                {"d", d},
                {"panel", p},
                {"block", nb},
                {"seconds", best},
                {"gflops", dd * (dd + 1.0) * p / best * 1e-9}});
        }
        // A Wishart matrix S = X X^T / (4d), the spectrum of the simulated covariance.
        const int n = 4 * d;
        {
          DistributedMatrix x(grid, d, n, nb, nb);
          fill(x, 2);
          rmtsweep::parallel::syrk_lower('N', n, 1.0 / n, x, 0.0, c);
        }
        DistributedMatrix work_matrix = c.clone();
        const double eigen = timed([&] { rmtsweep::parallel::symmetric_eigen(work_matrix, k); });
        work_matrix = c.clone();
        const int one = 1;
        int info = 0, lwork = -1;
        const std::size_t lc = static_cast<std::size_t>(std::max(1, work_matrix.local_cols()));
        std::vector<double> diag(lc), sub(lc), tau(lc);
        double query = 0.0;
        pdsytrd_("L", &d, work_matrix.data(), &one, &one, work_matrix.desc(), diag.data(), sub.data(),
                 tau.data(), &query, &lwork, &info, 1);
        std::vector<double> work(static_cast<std::size_t>(query) + 1);
        lwork = static_cast<int>(work.size());
        const double trd = timed([&] {
          pdsytrd_("L", &d, work_matrix.data(), &one, &one, work_matrix.desc(), diag.data(), sub.data(),
                   tau.data(), work.data(), &lwork, &info, 1);
        });
        emit({{"kind", "symmetric_eigen"}, {"d", d}, {"block", nb}, {"k", k}, {"seconds", eigen}});
        emit({{"kind", "pdsytrd"}, {"d", d}, {"block", nb}, {"seconds", trd}, {"info", info}});
      }
    }
    emit({{"kind", "scalapack_peak_rss"}, {"peak_rss_mb", rmtsweep::bench::peak_rss_mb(MPI_COMM_WORLD)}});
  } catch (const std::exception& error) {
    std::cerr << "rank " << rank << ": " << error.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
