#pragma once
/// JSON forms shared by the commands that print a point: its parameters and the theory's
/// predictions under the names `rmtsweep theory --json` uses.
#include <nlohmann/json.hpp>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"
#include "rmtsweep/theory/finite_t_top_levels.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::app {

/// {"d", "T", "delta", "gamma", "snr", "weighting", "correlation", "table", "seed", "trial",
/// "V", "N"}, with the option texts in canonical form.
nlohmann::json point_params_json(const model::PointParams& params);

/// Every field of theory::Prediction under its own name; "pop_outlier" is null when absent.
nlohmann::json theory_json(const theory::Prediction& prediction);

/// The finite-T prediction (docs/finite_t.md) as {"top_eigenvalue", "overlap", "threshold_snr",
/// "bulk_edge_right", "detectable"}, or null where it was not computed.
nlohmann::json finite_t_json(const std::optional<theory::FiniteTPrediction>& prediction);
/// The finite-d model of the top levels (docs/finite_t.md) as {"top_eigenvalue", "overlap", "overlap_error",
/// "k", "draws"}, or null where it was not computed.
nlohmann::json finite_t_levels_json(const std::optional<theory::TopLevelPrediction>& prediction);

/// The two measures a finite-T outlier is built from, as `theory --bulk finite-T --json` gives them under
/// finite_t.measure: {"bulk": {"nodes", "multiplicities"}, "signal": {"nodes", "weights"}}.
nlohmann::json spectral_measures_json(const theory::FiniteTOutlier& outlier);

}  // namespace rmtsweep::app
