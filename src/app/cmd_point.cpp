// `rmtsweep point`: simulate one point on all ranks and set it beside the theory
// (model.md sections 1-7).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "point_options.hpp"
#include "prediction_json.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/sweep/config.hpp"
#include "rmtsweep/sweep/option_table.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

simulate::SimulationOptions simulation_options(const po::variables_map& values,
                                               const model::PointParams& params) {
  const auto text = [&](const char* name) { return values[name].as<std::string>(); };
  simulate::SimulationOptions options;
  options.k = sweep::parse_k(text("k"), params.d, values["k"].defaulted());
  sweep::require_top_four(options.k, params.d);  // model.md 1.2 records at least the top 4
  options.ridge = sweep::parse_ridge(text("ridge"));
  options.ntest = sweep::parse_ntest(text("ntest"));
  options.spectrum = values.count("spectrum") > 0;
  const sweep::EigenSetting setting = sweep::parse_eigensolver(text("eigensolver"));
  options.eigensolver = sweep::reducer_of(setting);
  options.engine = sweep::engine_of(setting);
  return options;
}

nlohmann::json result_json(const model::PointParams& params, const simulate::SimulationOptions& options,
                           const simulate::PointResult& r, const theory::Prediction& prediction) {
  nlohmann::json out;
  out["params"] = point_params_json(params);
  out["params"]["k"] = options.k;
  out["params"]["ridge"] = options.ridge;
  out["params"]["ntest"] = options.ntest > 0 ? options.ntest : params.sequences();
  out["theory"] = theory_json(prediction);
  out["theory"]["finite_t"] = finite_t_json(r.finite_t);
  nlohmann::json& e = out["empirical"];
  e["top_eigenvalues"] = r.top_eigenvalues;
  e["overlaps"] = r.overlaps;
  e["overlap"] = r.overlap;
  e["ridge_accuracy"] = r.ridge_accuracy;
  if (r.weights_deviation) e["weights_deviation"] = *r.weights_deviation;
  e["covariance_path"] = simulate::to_string(r.path);
  // "krylov" where S was never formed, else what reduced S; eigen_method names the library.
  e["eigensolver"] = r.krylov() ? "krylov" : parallel::to_string(r.eigensolver);
  e["eigen_method"] = parallel::to_string(r.eigensolver);
  e["operator_products"] = r.products;
  e["solver_residual"] = r.products > 0 ? nlohmann::json(r.residual) : nlohmann::json(nullptr);
  e["solver_fell_back"] = r.fell_back;
  e["seconds"] = {{"generate", r.seconds.generate}, {"covariance", r.seconds.covariance},
                  {"eigen", r.seconds.eigen},       {"ridge", r.seconds.ridge},
                  {"finite_t", r.seconds.finite_t}, {"total", r.seconds.total}};
  if (options.spectrum) e["eigenvalues"] = r.eigenvalues;
  return out;
}

void print_human(const model::PointParams& params, const simulate::PointResult& r,
                 const theory::Prediction& p, int ranks) {
  std::printf(
      "point          d=%d T=%d delta=%g gamma=%g snr=%g weighting=%s correlation=%s table=%s seed=%llu "
      "trial=%d\n",
      params.d, params.T, params.delta, params.gamma, params.snr, model::to_string(params.weighting).c_str(),
      model::to_string(params.correlation).c_str(), model::to_string(params.table).c_str(),
      static_cast<unsigned long long>(params.seed), params.trial);
  if (r.krylov()) {
    std::printf("sizes          V=%lld tokens, N=%lld sequences, %d rank(s); S never formed: %s, %lld products of "
                "S, residual %.2g\n",
                static_cast<long long>(params.vocabulary()), static_cast<long long>(params.sequences()), ranks,
                parallel::to_string(r.eigensolver), r.products, r.residual);
  } else {
    std::printf("sizes          V=%lld tokens, N=%lld sequences, %d rank(s); S from %s, reduced by %s%s\n",
                static_cast<long long>(params.vocabulary()), static_cast<long long>(params.sequences()), ranks,
                simulate::to_string(r.path), parallel::to_string(r.eigensolver),
                r.fell_back ? " (the Krylov engine did not converge within its budget)" : "");
  }
  // The finite-T column: the theory of this trial's own token draws (docs/finite_t.md), "-" where not
  // computed.
  const auto finite_t = [&](double theory::FiniteTPrediction::*field) {
    char text[32] = "-";
    if (r.finite_t) std::snprintf(text, sizeof text, "%.6g", (*r.finite_t).*field);
    return std::string(text);
  };
  std::printf("%-14s %12s %12s %12s\n", "", "measured", "theory", "finite-T");
  std::printf("%-14s %12.6g %12.6g %12s  (%s)\n", "top eigenvalue", r.top_eigenvalues.at(0), p.top_eigenvalue,
              finite_t(&theory::FiniteTPrediction::top_eigenvalue).c_str(),
              p.detectable ? "outlier lambda_S" : "not detectable: right bulk edge");
  std::printf("%-14s %12.6g %12.6g %12s\n", "overlap", r.overlap, p.overlap,
              finite_t(&theory::FiniteTPrediction::overlap).c_str());
  std::printf("%-14s %12s %12.6g %12s\n", "bulk edge", "", p.bulk_edge_right,
              finite_t(&theory::FiniteTPrediction::bulk_edge_right).c_str());
  std::printf("%-14s %12s %12.6g %12s\n", "threshold snr", "", p.sample_threshold_snr,
              finite_t(&theory::FiniteTPrediction::threshold_snr).c_str());
  if (!r.finite_t) {
    std::printf(
        "               (finite-T: not computed for this weighting at this size; simulate/finite_t.hpp, "
        "`rmtsweep theory --bulk finite-T` computes it)\n");
  }
  std::printf("top eigenvalues");
  for (double x : r.top_eigenvalues) std::printf(" %.6g", x);
  std::printf("\noverlaps       ");
  for (double x : r.overlaps) std::printf(" %.4g", x);
  std::printf("\nridge accuracy  %.4f\n", r.ridge_accuracy);
  if (r.weights_deviation)
    std::printf("weights dev     %.6g  (mean_n |w_n - w(tau)|_1)\n", *r.weights_deviation);
  std::printf(
      "seconds         generate %.3f, covariance %.3f, eigen %.3f, ridge %.3f, finite-T %.3f, total %.3f\n",
      r.seconds.generate, r.seconds.covariance, r.seconds.eigen, r.seconds.ridge, r.seconds.finite_t,
      r.seconds.total);
  if (!r.eigenvalues.empty()) {
    std::printf("eigenvalues     %zu, ascending\n", r.eigenvalues.size());
    for (double x : r.eigenvalues) std::printf("%.12g\n", x);
  }
}

}  // namespace

int command_point(int argc, char** argv) {
  po::options_description options(
      "rmtsweep point [options]: simulate one point on all ranks (docs/model.md 1-7)");
  options.add_options()("help,h", "print this help")("json", "print one JSON object (rank 0)")(
      "spectrum", "also give all d eigenvalues of S");
  for (const sweep::OptionSpec& spec : sweep::option_table()) {
    if ((spec.use & sweep::in_point) && !(spec.use & sweep::in_theory)) add_option(options, spec.name);
  }
  po::options_description point("point");
  add_point_options(point);
  options.add(point);

  const po::variables_map values = parse_command_line(argc, argv, options, "point");
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (values.count("help")) {
    if (rank == 0) std::cout << options << "\n";
    return 0;
  }
  const model::PointParams params = point_params_from(values);
  const simulate::SimulationOptions sim_options = simulation_options(values, params);
  const theory::Prediction prediction = theory::predict(params);
  parallel::configure_blas_threads(MPI_COMM_WORLD);

  simulate::PointResult result;
  try {
    result = simulate::simulate_point(params, sim_options, MPI_COMM_WORLD);
  } catch (const ScalapackError& e) {
    // check_info agrees on the code over the grid, so every rank is here: exit cleanly. A ridge
    // solve (dptsv, dposv, pdposv) fails with info > 0 only where S + lambda I is not positive
    // definite, which a ridge <= 0 allows: say so in the option's terms.
    const bool ridge_solve = e.routine() == "dptsv" || e.routine() == "dposv" || e.routine() == "pdposv";
    if (rank == 0) {
      if (ridge_solve && e.info() > 0 && sim_options.ridge <= 0.0) {
        std::fprintf(stderr,
                     "rmtsweep point: error: --ridge '%s': S + lambda I is not positive definite "
                     "(lambda = ridge * kappa = %g; %s)\nallowed: a ridge that keeps S + lambda I "
                     "positive definite; any ridge > 0 does\n",
                     values["ridge"].as<std::string>().c_str(), sim_options.ridge * prediction.kappa, e.what());
      } else {
        std::fprintf(stderr, "rmtsweep point: error: %s\n", e.what());
      }
    }
    return 1;
  }
  if (rank != 0) return 0;
  if (values.count("json")) {
    std::cout << result_json(params, sim_options, result, prediction).dump() << "\n";
  } else {
    print_human(params, result, prediction, ranks);
  }
  return 0;
}

}  // namespace rmtsweep::app
