// `rmtsweep theory`: the theory's predictions for one point (model.md section 5), no MPI.
#include <array>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "command_options.hpp"
#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/theory/bulk.hpp"
#include "rmtsweep/theory/finite_t_bulk.hpp"
#include "theory_point.hpp"

namespace rmtsweep::app {
namespace po = boost::program_options;

namespace {

constexpr std::int64_t max_density_points = 1000000;

/// The human form of theory_point_json's object `out` (what --json prints).
void print_human(const model::PointParams& params, const nlohmann::json& out) {
  const auto number = [&](const char* key) { return out[key].get<double>(); };
  const auto w = model::pooling_weights(params.weighting, params.correlation, params.T);
  std::printf("point       d=%d T=%d delta=%g gamma=%g snr=%g weighting=%s correlation=%s table=%s\n",
              params.d, params.T, params.delta, params.gamma, params.snr,
              model::to_string(params.weighting).c_str(), model::to_string(params.correlation).c_str(),
              model::to_string(params.table).c_str());
  std::printf("sizes       V=%lld tokens, N=%lld sequences\n", static_cast<long long>(params.vocabulary()),
              static_cast<long long>(params.sequences()));
  std::printf("weights     w =");
  constexpr std::size_t shown = 20;  // a long sequence is summarised
  for (std::size_t t = 0; t < w.size() && t < shown; ++t) std::printf(" %.6g", w[t]);
  if (w.size() > shown) std::printf(" ... (%zu more)", w.size() - shown);
  std::printf("\n");
  std::printf("pooling     alpha = w'Rw = %.6g, kappa = |w|^2 = %.6g, g = %.6g\n", number("alpha"),
              number("kappa"), number("alpha") / number("kappa"));
  std::printf("signal      theta = %.6g\n", number("theta"));
  std::printf("bulk        [%.6g, %.6g], mass %.6g at 0\n", number("bulk_edge_left"),
              number("bulk_edge_right"), theory::bulk_atom(params.delta, params.gamma));
  std::printf("tokens      T_eff = (sum|w|)^2/sum w^2 = %.6g\n", number("effective_tokens"));
  if (theory::limit_law_measurably_off(number("effective_tokens"), params.d)) {
    std::printf(
        "            T_eff < %.3g at d = %d: the limit bulk law is measurably off (its edge low by more "
        "than d^(-2/3); docs/model.md 5.5); see --bulk finite-T\n",
        theory::measurable_bias_effective_tokens(params.d), params.d);
  }
  if (!out["finite_t_bulk_edge_right"].is_null()) {
    const double edge = number("finite_t_bulk_edge_right");
    std::printf("finite-T    right edge %.6g for this trial's tokens (paper %.6g, %+.3g %%)\n", edge,
                number("bulk_edge_right"), 100.0 * (edge / number("bulk_edge_right") - 1.0));
  }
  if (const nlohmann::json& finite_t = out["finite_t"]; !finite_t.is_null()) {
    if (finite_t["detectable"].get<bool>()) {
      std::printf(
          "finite-T    outlier at %.6g, overlap %.6g (threshold snr %.6g) for this trial's tokens "
          "(docs/finite_t.md)\n",
          finite_t["top_eigenvalue"].get<double>(), finite_t["overlap"].get<double>(),
          finite_t["threshold_snr"].get<double>());
    } else {
      std::printf(
          "finite-T    not detectable: top eigenvalue at the finite-T edge, overlap 0 (threshold snr %.6g) "
          "for this trial's tokens (docs/finite_t.md)\n",
          finite_t["threshold_snr"].get<double>());
    }
  }
  if (!out["pop_outlier"].is_null()) {
    std::printf("population  outlier at %.6g, overlap %.6g (threshold snr %.6g)\n", number("pop_outlier"),
                number("pop_overlap"), number("pop_threshold_snr"));
  } else {
    std::printf("population  no outlier (threshold snr %.6g)\n", number("pop_threshold_snr"));
  }
  if (out["detectable"].get<bool>()) {
    std::printf("sample      outlier at %.6g, overlap %.6g (threshold snr %.6g)\n", number("top_eigenvalue"),
                number("overlap"), number("sample_threshold_snr"));
  } else {
    std::printf(
        "sample      not detectable: top eigenvalue at the bulk edge %.6g, overlap 0 (threshold snr %.6g)\n",
        number("top_eigenvalue"), number("sample_threshold_snr"));
  }
  if (out["finite_t"].is_null() || out["finite_t"]["levels"].is_null()) return;
  const nlohmann::json& levels = out["finite_t"]["levels"];
  std::printf(
      "finite-T    at d = %d, the top %d directions of Pi exact: overlap %.6g +- %.2g, top eigenvalue %.6g "
      "(mean of %d draws; docs/finite_t.md)\n",
      params.d, levels["k"].get<int>(), levels["overlap"].get<double>(),
      levels["overlap_error"].get<double>(), levels["top_eigenvalue"].get<double>(),
      levels["draws"].get<int>());
}

}  // namespace

int command_theory(int argc, char** argv) {
  po::options_description options;
  options.add_options()("help,h", "this help");
  for (const char* name : {"json", "density", "bulk"}) add_command_option(options, config::in_theory, name);
  po::options_description point("point");
  add_point_options(point);
  options.add(point);

  const po::variables_map values = parse_command_line(argc, argv, options, "theory");
  if (values.count("help")) {
    std::cout << help_text("rmtsweep theory [options]",
                           "The theory's predictions for one point (docs/model.md 5).", options, {},
                           {{"point options", &point}});
    return 0;
  }
  const model::PointParams params = point_params_from(values);
  std::int64_t density_points = 0;
  if (values.count("density")) {
    const std::string text = values["density"].as<std::string>();
    const std::string allowed = "allowed: an integer K with 1 <= K <= " + std::to_string(max_density_points);
    density_points = model::parse_integer(text, "density", allowed);
    if (density_points < 1 || density_points > max_density_points)
      throw InvalidOption("density", text, allowed);
  }

  const BulkLaw law = parse_bulk_law(values["bulk"].as<std::string>());
  std::optional<theory::FiniteTOutlier> outlier;
  if (law == BulkLaw::finite_t) {
    check_finite_t_fits(params, values["d"].as<std::string>());
    // The bulk and the outlier of this trial's own token draws: asked for, so computed at any size that fits.
    outlier = simulate::build_finite_t_outlier(params);
  }
  std::string levels_failure;
  nlohmann::json out = theory_point_json(params, outlier ? &*outlier : nullptr, true, levels_failure);
  if (!levels_failure.empty())
    std::fprintf(stderr, "rmtsweep theory: warning: the finite-T top levels failed (%s)\n",
                 levels_failure.c_str());
  std::vector<std::array<double, 2>> density;
  if (density_points > 0) {
    density = outlier ? theory::finite_t_density_grid(outlier->bulk().nodes, outlier->bulk().weights,
                                                      params.d, static_cast<int>(density_points))
                      : theory::bulk_density_grid(params.delta, params.gamma, out["kappa"].get<double>(),
                                                  static_cast<int>(density_points));
  }
  if (values.count("json")) {
    if (density_points > 0) out["density"] = density;
    std::cout << out.dump() << "\n";
    return 0;
  }
  print_human(params, out);
  if (density_points > 0) {
    std::printf("density     x f(x) at %lld points (%s bulk)\n", static_cast<long long>(density_points),
                to_string(law));
    for (const auto& [x, f] : density) std::printf("%.9g %.9g\n", x, f);
  }
  return 0;
}

}  // namespace rmtsweep::app
