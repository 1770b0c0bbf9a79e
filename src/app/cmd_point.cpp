// `rmtsweep point`: simulate one point on all ranks and set it beside the theory
// (model.md sections 1-7).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "command_line.hpp"
#include "command_options.hpp"
#include "commands.hpp"
#include "feasibility.hpp"
#include "point_options.hpp"
#include "prediction_json.hpp"
#include "rmtsweep/assemble/phase.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/blas_threads.hpp"
#include "rmtsweep/simulate/line.hpp"
#include "rmtsweep/simulate/point.hpp"
#include "rmtsweep/spectral/rank_one.hpp"
#include "rmtsweep/sweep/plan.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

simulate::SimulationOptions simulation_options(const po::variables_map& values,
                                               const model::PointParams& params) {
  const auto text = [&](const char* name) { return values[name].as<std::string>(); };
  simulate::SimulationOptions options;
  options.k = config::parse_k(text("k"), params.d, values["k"].defaulted());
  config::require_top_four(options.k, params.d);  // model.md 1.2 records at least the top 4
  options.ridge = config::parse_ridge(text("ridge"));
  options.ntest = config::parse_ntest(text("ntest"));
  options.spectrum = values.count("spectrum") > 0;
  const config::EigenSetting setting = config::parse_eigensolver(text("eigensolver"));
  config::require_spectrum_engine(setting, options.spectrum, text("eigensolver"), "--spectrum",
                                  "no --spectrum");
  options.eigensolver = config::reducer_of(setting);
  options.engine = config::engine_of(setting);
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
  if (r.finite_t) out["theory"]["finite_t"]["levels"] = finite_t_levels_json(r.finite_t_levels);
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
    std::printf(
        "sizes          V=%lld tokens, N=%lld sequences, %d rank(s); S never formed: %s, %lld products of "
        "S, residual %.2g\n",
        static_cast<long long>(params.vocabulary()), static_cast<long long>(params.sequences()), ranks,
        parallel::to_string(r.eigensolver), r.products, r.residual);
  } else {
    std::printf("sizes          V=%lld tokens, N=%lld sequences, %d rank(s); S from %s, reduced by %s%s\n",
                static_cast<long long>(params.vocabulary()), static_cast<long long>(params.sequences()),
                ranks, simulate::to_string(r.path), parallel::to_string(r.eigensolver),
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
  if (r.finite_t_levels) {
    std::printf(
        "finite-T at finite d (its top levels exact, docs/finite_t.md): overlap %.4g +- %.2g, top "
        "eigenvalue %.6g\n",
        r.finite_t_levels->overlap, r.finite_t_levels->overlap_error, r.finite_t_levels->top_eigenvalue);
  }
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

/// Refuses, on every rank alike and before anything is computed, a point that would be accepted and then
/// end in std::bad_alloc (its memory per rank, by the estimate of `run --plan`, above a rank's share of this
/// node) unless --force-memory, and an ntest beyond any statistical use unless --force-ntest.
void check_feasible(const po::variables_map& values, const model::PointParams& params,
                    const simulate::SimulationOptions& options, int ranks) {
  config::SweepConfig config;  // the point as a one-point sweep on a group of all ranks
  config.d = {params.d};
  config.k = options.k;
  config.ridge = options.ridge;
  config.ntest = options.ntest;
  config.store_spectra = options.spectrum ? config::SpectraSetting::always : config::SpectraSetting::never;
  config.eigensolver = config::parse_eigensolver(values["eigensolver"].as<std::string>());
  config.ranks_per_point = ranks;
  const sweep::PointEstimate estimate = sweep::estimate_point(params, config, parallel::blas_threads());
  const double available = memory_per_rank(MPI_COMM_WORLD);
  if (available > 0.0 && estimate.bytes_per_rank > available && values.count("force-memory") == 0) {
    throw InvalidOption(
        "d", values["d"].as<std::string>(),
        "allowed: a point that fits in memory: this one (delta=" + model::format_double(params.delta) +
            ", gamma=" + model::format_double(params.gamma) + ") needs about " +
            sweep::memory_text(estimate.bytes_per_rank) + " per rank and a rank here has " +
            sweep::memory_text(available) +
            " (this node's memory over its ranks); a smaller d, more ranks, --eigensolver krylov "
            "for the table alone, or --force-memory to try anyway");
  }
  require_ntest_consent(options.ntest, values["ntest"].as<std::string>(), values.count("force-ntest") > 0,
                        estimate.seconds);
}

/// Whether --snr names several values (a list or a range): then `point` computes the line.
bool is_snr_line(const std::string& text) {
  return text.find(',') != std::string::npos || text.find(':') != std::string::npos;
}

/// The exact snr from which the trial is detected by the edge rule (lambda_1 above the bulk edge times
/// 1 + c d^{-2/3}, c the default margin), from the line's secular form (docs/model.md section 9).
nlohmann::json edge_threshold_json(const simulate::LineResult& line, const theory::Prediction& prediction,
                                   int d) {
  const double level =
      assemble::detection_threshold(prediction.bulk_edge_right, d, assemble::default_detection_margin);
  nlohmann::json out;
  out["level"] = level;
  if (line.secular.size() == 0) {  // no rank-one form (q = 0): its points were computed one at a time
    out["threshold_snr"] = nullptr;
    out["secular_form"] = false;
    return out;
  }
  const spectral::LevelCrossing crossing = spectral::level_crossing(line.secular, level);
  out["threshold_snr"] = std::isfinite(crossing.r_from) ? nlohmann::json(crossing.r_from * crossing.r_from)
                                                        : nlohmann::json(nullptr);
  out["detected_at_zero"] = crossing.at_zero;
  out["detected_below_snr"] = crossing.r_below * crossing.r_below;
  return out;
}

/// `point --snr LIST|a:b:n`: the line of every given snr from one factorization, one record per snr.
int point_line(const po::variables_map& values, const std::string& snr_text, int rank, int ranks) {
  const std::vector<double> snr = config::parse_axis(snr_text, "snr");
  std::map<std::string, std::string> texts;
  for (const std::string& name : point_option_names()) {
    if (values.count(name) && !values[name].defaulted()) texts[name] = values[name].as<std::string>();
  }
  texts["snr"] = model::format_double(snr.front());
  model::PointParams params = point_params_from(texts);
  if (!simulate::line_applies(params)) {
    throw InvalidOption(
        "snr", snr_text,
        "a single value for causal:tau pooling (its weights depend on the data, so its points are "
        "computed one at a time)");
  }
  check_simulable(values, params);
  const simulate::SimulationOptions sim_options = simulation_options(values, params);
  parallel::configure_blas_threads(MPI_COMM_WORLD);
  check_feasible(values, params, sim_options, ranks);
  const simulate::LineResult line = simulate::simulate_line(params, snr, sim_options, MPI_COMM_WORLD);
  if (rank != 0) return 0;
  const theory::Prediction at_zero = theory::predict(params);
  if (values.count("json")) {
    nlohmann::json out;
    out["params"] = point_params_json(params);
    out["params"].erase("snr");
    out["snr"] = snr;
    out["points"] = nlohmann::json::array();
    for (std::size_t i = 0; i < snr.size(); ++i) {
      params.snr = snr[i];
      out["points"].push_back(result_json(params, sim_options, line.points[i], theory::predict(params)));
    }
    out["line"] = {{"recomputed_alone", line.recomputed_alone},
                   {"seconds",
                    {{"generate", line.seconds.generate},
                     {"covariance", line.seconds.covariance},
                     {"eigen", line.seconds.eigen},
                     {"ridge", line.seconds.ridge},
                     {"total", line.seconds.total}}}};
    out["thresholds"] = {{"edge", edge_threshold_json(line, at_zero, params.d)}};
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::printf(
      "line           d=%d T=%d delta=%g gamma=%g weighting=%s correlation=%s table=%s seed=%llu trial=%d, "
      "%zu snr values on %d rank(s)\n",
      params.d, params.T, params.delta, params.gamma, model::to_string(params.weighting).c_str(),
      model::to_string(params.correlation).c_str(), model::to_string(params.table).c_str(),
      static_cast<unsigned long long>(params.seed), params.trial, snr.size(), ranks);
  std::printf("%12s %14s %14s %10s %10s %9s  %s\n", "snr", "top eigenvalue", "theory", "overlap", "theory",
              "ridge acc", "solver");
  for (std::size_t i = 0; i < snr.size(); ++i) {
    params.snr = snr[i];
    const theory::Prediction p = theory::predict(params);
    const simulate::PointResult& r = line.points[i];
    std::printf("%12.6g %14.8g %14.8g %10.6f %10.6f %9.4f  %s\n", snr[i], r.top_eigenvalues.at(0),
                p.top_eigenvalue, r.overlap, p.overlap, r.ridge_accuracy, parallel::to_string(r.eigensolver));
  }
  const nlohmann::json edge = edge_threshold_json(line, at_zero, params.d);
  std::printf("edge rule      lambda_1 > %.8g (bulk edge x (1 + d^-2/3)): ", edge["level"].get<double>());
  if (edge.contains("secular_form")) {
    std::printf(
        "no exact threshold: the signal weights sigma_n do not vary (q = 0), so the line has no rank-one "
        "form and its points were computed one at a time\n");
  } else if (edge["threshold_snr"].is_null()) {
    std::printf("never detected\n");
  } else {
    std::printf("detected for every snr > %.10g", edge["threshold_snr"].get<double>());
    if (edge["detected_below_snr"].get<double>() > 0.0)
      std::printf(", and below %.10g (the top eigenvalue dips first)",
                  edge["detected_below_snr"].get<double>());
    std::printf("\n");
  }
  std::printf("seconds        the line: generate %.3f, covariance %.3f, eigen %.3f, ridge %.3f, total %.3f\n",
              line.seconds.generate, line.seconds.covariance, line.seconds.eigen, line.seconds.ridge,
              line.seconds.total);
  return 0;
}

}  // namespace

int command_point(int argc, char** argv) {
  po::options_description options;
  options.add_options()("help,h", "this help");
  for (const char* name : {"json", "spectrum", "force-memory", "force-ntest"})
    add_command_option(options, config::in_point, name);
  for (const config::OptionSpec& spec : config::option_table()) {
    if ((spec.use & config::in_point) && !(spec.use & config::in_theory)) add_option(options, spec.name);
  }
  po::options_description point("point");
  add_point_options(point);
  options.add(point);

  const po::variables_map values = parse_command_line(argc, argv, options, "point");
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (values.count("help")) {
    if (rank == 0)
      std::cout << help_text(
          "rmtsweep point [options]",
          "Simulates one point on all ranks and compares it with theory (docs/model.md 1-7); with --snr a "
          "list or a:b:n, the line of those snr values from one factorization and the trial's exact "
          "edge-rule threshold (docs/model.md 9). Under MPI: mpirun -np P rmtsweep point ...",
          options, {}, {{"point options", &point}});
    return 0;
  }
  if (values.count("snr") && is_snr_line(values["snr"].as<std::string>()))
    return point_line(values, values["snr"].as<std::string>(), rank, ranks);
  const model::PointParams params = point_params_from(values);
  check_simulable(values, params);
  const simulate::SimulationOptions sim_options = simulation_options(values, params);
  parallel::configure_blas_threads(MPI_COMM_WORLD);
  check_feasible(values, params, sim_options, ranks);
  const theory::Prediction prediction = theory::predict(params);

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
                     values["ridge"].as<std::string>().c_str(), sim_options.ridge * prediction.kappa,
                     e.what());
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
