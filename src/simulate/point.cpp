// simulate_point: generate -> covariance -> eigen -> ridge for one point (model.md sections 1-7).
#include "rmtsweep/simulate/point.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/blacs_grid.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "rmtsweep/simulate/engine.hpp"
#include "rmtsweep/simulate/pooled_sequences.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {
namespace {

void check_options(const model::PointParams& params, const SimulationOptions& options) {
  model::validate(params);
  if (options.k < 1) throw InvalidArgument("k", std::to_string(options.k), "allowed: an integer >= 1");
  if (options.ntest < 0)
    throw InvalidArgument("ntest", std::to_string(options.ntest), "allowed: an integer >= 0 (0 means N)");
  if (!std::isfinite(options.ridge)) {
    throw InvalidArgument("ridge", model::format_double(options.ridge),
                          "allowed: a finite number (S + ridge*kappa*I must be positive definite)");
  }
  check_simulable_sizes(params);
}

}  // namespace

void check_simulable_sizes(const model::PointParams& params) {
  constexpr auto int_max = static_cast<std::int64_t>(std::numeric_limits<int>::max());
  const std::string d = " at d = " + std::to_string(params.d);
  if (params.sequences() > int_max) {
    throw InvalidArgument(
        "gamma", model::format_double(params.gamma),
        "allowed for a simulation: gamma such that N = round(d/gamma) is below 2^31 (ScaLAPACK's "
        "indices are 32-bit); gamma = " +
            model::format_double(params.gamma) +
            " gives N = " + model::format_double(static_cast<double>(params.sequences())) + d);
  }
  if (params.vocabulary() > int_max) {
    throw InvalidArgument("delta", model::format_double(params.delta),
                          "allowed for a simulation: delta such that V = 2 round(d/(2 delta)) is below 2^31 "
                          "(ScaLAPACK's indices are 32-bit); delta = " +
                              model::format_double(params.delta) + " gives V = " +
                              model::format_double(static_cast<double>(params.vocabulary())) + d);
  }
}

const char* to_string(CovariancePath path) noexcept {
  switch (path) {
    case CovariancePath::panels:
      return "panels";
    case CovariancePath::tokens:
      return "tokens";
    case CovariancePath::gram:
      return "gram";
    case CovariancePath::automatic:
      break;
  }
  return "automatic";
}

namespace {

PointResult dense_point(const model::PointParams& params, const SimulationOptions& options, MPI_Comm comm) {
  const double start = MPI_Wtime();
  const auto grid = std::make_shared<const parallel::BlacsGrid>(comm);
  const auto N = static_cast<int>(params.sequences());
  const bool gram =
      options.path == CovariancePath::gram || (options.path == CovariancePath::automatic && N < params.d);

  PointContext context{params, options, grid, N};
  const auto R = model::correlation_matrix(params.correlation, params.T);
  const parallel::DistributedMatrix row_layout(grid, params.d, 1);
  double mark = MPI_Wtime();
  const PooledSequences pooled(params, row_layout,
                               options.tables != nullptr ? options.tables->get(params, row_layout) : nullptr);
  context.seconds.generate += MPI_Wtime() - mark;
  context.lambda = options.ridge * model::pooling_scalars(pooled.weights(), R).kappa;

  Measurements measured = gram ? gram_path(context, pooled) : direct_path(context, pooled);

  PointResult result;
  const int k = std::min(options.k, params.d);
  const auto& values = measured.eigenvalues;
  for (int j = 0; j < k; ++j)
    result.top_eigenvalues.push_back(values[values.size() - 1 - static_cast<std::size_t>(j)]);
  result.path = measured.path;
  result.eigensolver = measured.elpa                     ? parallel::Reducer::elpa
                       : grid->rows() * grid->cols() > 1 ? parallel::Reducer::scalapack
                                                         : parallel::Reducer::lapack;
  result.overlaps = measured.overlaps;
  result.overlaps.resize(static_cast<std::size_t>(k), 0.0);
  result.overlap = result.overlaps.empty() ? 0.0 : result.overlaps[0];

  mark = MPI_Wtime();
  const std::int64_t ntest = options.ntest > 0 ? options.ntest : N;
  result.ridge_accuracy = test_accuracy(context, pooled, measured.beta, measured.mean, ntest);
  context.seconds.ridge += MPI_Wtime() - mark;

  if (params.weighting.data_dependent()) {
    result.weights_deviation = parallel::all_sum(measured.deviation_sum, comm) / N;
  }
  if (options.spectrum) result.eigenvalues = values;
  context.seconds.total = MPI_Wtime() - start;
  result.seconds = slowest_rank(context.seconds, comm);
  return result;
}

}  // namespace

std::vector<FiniteTPoint> finite_t_predictions(const model::PointParams& params, std::span<const double> snr,
                                               const SimulationOptions& options, MPI_Comm comm) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  // Per snr: the limit's lambda, overlap, threshold, edge and detectable, then the top levels' lambda,
  // overlap, its error, k and draws; NaN where not computed.
  constexpr std::size_t limit_fields = 5, level_fields = 5, per = limit_fields + level_fields;
  if (!options.finite_t_theory) return std::vector<FiniteTPoint>(snr.size());  // alike on every rank
  std::vector<double> values(per * snr.size(), nan);
  const auto warn = [&](const char* what, const char* columns, const std::exception& e) {
    std::fprintf(
        stderr,
        "rmtsweep: warning: %s of the point d=%d delta=%g gamma=%g weighting=%s trial=%d failed (%s); "
        "its %s values are NaN, its measurements stand\n",
        what, params.d, params.delta, params.gamma, model::to_string(params.weighting).c_str(), params.trial,
        e.what(), columns);
  };
  if (parallel::rank_of(comm) == 0) {
    try {
      std::optional<theory::FiniteTOutlier> built;
      if (options.finite_t == nullptr) built = finite_t_outlier(params);
      const std::optional<theory::FiniteTOutlier>& outlier =
          options.finite_t != nullptr ? options.finite_t->get(params) : built;
      if (outlier) {
        for (std::size_t i = 0; i < snr.size(); ++i) {
          const theory::FiniteTPrediction p = outlier->at(snr[i]);
          const double row[limit_fields] = {p.top_eigenvalue, p.overlap, p.threshold_snr, p.bulk_edge_right,
                                            p.detectable ? 1.0 : 0.0};
          std::copy(row, row + limit_fields, values.begin() + static_cast<std::ptrdiff_t>(per * i));
        }
        try {  // the levels apart: where they fail, the limit's values stand
          const std::vector<theory::TopLevelPrediction> levels =
              finite_t_levels_predictions(params, *outlier, snr);
          for (std::size_t i = 0; i < levels.size(); ++i) {
            const theory::TopLevelPrediction& p = levels[i];
            const double row[level_fields] = {p.top_eigenvalue, p.overlap, p.overlap_error,
                                              static_cast<double>(p.k), static_cast<double>(p.draws)};
            std::copy(row, row + level_fields,
                      values.begin() + static_cast<std::ptrdiff_t>(per * i + limit_fields));
          }
        } catch (const std::exception& e) {
          warn("the finite-T top levels", "theory_finite_t_levels_*", e);
        }
      }
    } catch (const std::exception& e) {
      warn("the finite-T theory", "theory_finite_t_*", e);
    }
  }
  values = parallel::broadcast(std::move(values), comm);
  std::vector<FiniteTPoint> out(snr.size());
  for (std::size_t i = 0; i < snr.size(); ++i) {
    const double* v = values.data() + per * i;
    if (!std::isnan(v[0])) out[i].finite_t = theory::FiniteTPrediction{v[0], v[1], v[2], v[3], v[4] != 0.0};
    const double* l = v + limit_fields;
    if (!std::isnan(l[0]))
      out[i].levels =
          theory::TopLevelPrediction{l[0], l[1], l[2], static_cast<int>(l[3]), static_cast<int>(l[4])};
  }
  return out;
}

namespace {

/// simulate_point without the finite-T theory.
PointResult simulate_measurements(const model::PointParams& params, const SimulationOptions& options,
                                  MPI_Comm comm) {
  int ranks = 1;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  // This node's free memory is read on rank 0: it may differ between the nodes of a group, and every rank
  // must take the same path.
  const DenseMemory memory = parallel::decided_on_root(comm, [&] { return dense_memory(params, ranks); });
  const bool krylov = choose_engine(params, options, Work::point, memory) == Engine::krylov;
  if (!krylov) return dense_point(params, options, comm);
  KrylovOutcome outcome = krylov_point(params, options, comm);
  if (outcome.converged) return std::move(outcome.result);
  if (memory == DenseMemory::too_small) {
    // Every rank of the group counted the same products (their iterates are bit-identical).
    throw NumericalFailure("simulate_point: the Krylov engine did not converge within " +
                           std::to_string(outcome.result.products) + " products of S (residual " +
                           std::to_string(outcome.result.residual) +
                           ") and the dense path does not fit in memory; raise krylov_budget");
  }
  PointResult result = dense_point(params, options, comm);
  result.fell_back = true;
  result.products = outcome.result.products;
  result.residual = outcome.result.residual;
  return result;
}

}  // namespace

PointResult simulate_point(const model::PointParams& params, const SimulationOptions& options,
                           MPI_Comm comm) {
  check_options(params, options);
  PointResult result = simulate_measurements(params, options, comm);
  const double start = MPI_Wtime();
  const double snr[] = {params.snr};
  const FiniteTPoint theory = finite_t_predictions(params, snr, options, comm).front();
  result.finite_t = theory.finite_t;
  result.finite_t_levels = theory.levels;
  result.seconds.finite_t = parallel::all_max(MPI_Wtime() - start, comm);
  result.seconds.total += result.seconds.finite_t;
  return result;
}

}  // namespace rmtsweep::simulate
