// One point's theory as `rmtsweep theory --json` gives it (src/app/theory_point.hpp).
#include "theory_point.hpp"

#include <exception>
#include <optional>

#include "prediction_json.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/meminfo.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "rmtsweep/sweep/plan.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {

void check_finite_t_fits(const model::PointParams& params, const std::string& d_text) {
  const double needed = simulate::token_gram_bytes(params), available = meminfo_bytes("MemTotal");
  if (available > 0.0 && needed > available) {
    throw InvalidOption(
        "d", d_text,
        "allowed with --bulk finite-T: a point whose token Gram fits in memory: this one (V = " +
            std::to_string(params.vocabulary()) + ", N = " + std::to_string(params.sequences()) +
            ") needs about " + sweep::memory_text(needed) + " and this machine has " +
            sweep::memory_text(available) + "; a smaller d, or --bulk paper");
  }
}

nlohmann::json theory_point_json(const model::PointParams& params, const theory::FiniteTOutlier* outlier,
                                 bool with_measure, std::string& levels_failure) {
  theory::Prediction prediction = theory::predict(params);
  if (outlier == nullptr) {
    nlohmann::json out = theory_json(prediction);
    out["finite_t"] = nullptr;
    return out;
  }
  prediction.finite_t_bulk_edge_right = outlier->bulk_edge_right();
  nlohmann::json out = theory_json(prediction);
  out["finite_t"] = finite_t_json(outlier->at(params.snr));
  if (with_measure) out["finite_t"]["measure"] = spectral_measures_json(*outlier);
  std::optional<theory::TopLevelPrediction> levels;
  try {  // the levels apart: where they fail, the limit's prediction still stands
    const double snr[] = {params.snr};
    if (const auto model = simulate::finite_t_levels_predictions(params, *outlier, snr); !model.empty())
      levels = model.front();
  } catch (const std::exception& e) {
    levels_failure = e.what();
  }
  out["finite_t"]["levels"] = finite_t_levels_json(levels);
  return out;
}

}  // namespace rmtsweep::app
