#pragma once
/// JSON forms shared by the commands that print a point: its parameters and the theory's
/// predictions under the names `rmtsweep theory --json` uses.
#include <nlohmann/json.hpp>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {

/// {"d", "T", "delta", "gamma", "snr", "weighting", "correlation", "table", "seed", "trial",
/// "V", "N"}, with the option texts in canonical form.
nlohmann::json point_params_json(const model::PointParams& params);

/// Every field of theory::Prediction under its own name; "pop_outlier" is null when absent.
nlohmann::json theory_json(const theory::Prediction& prediction);

}  // namespace rmtsweep::app
