#pragma once
/// What `rmtsweep theory` computes for one point, as one JSON object: the one function behind both
/// `rmtsweep theory --json` and the Python module rmtsweep.theory (src/app/python/theory_module.cpp), so
/// that the two give the same numbers bit for bit (docs/python.md).
#include <nlohmann/json.hpp>
#include <string>

#include "rmtsweep/model/params.hpp"
#include "rmtsweep/theory/finite_t_outlier.hpp"

namespace rmtsweep::app {

/// Refuses (InvalidOption("d", d_text, ...)) a finite-T point whose token Gram does not fit in this
/// machine's memory (MemTotal), before build_finite_t_outlier tries.
void check_finite_t_fits(const model::PointParams& params, const std::string& d_text);

/// The object `rmtsweep theory --json` prints for `params` (without "density"): theory_json of the paper's
/// prediction, and "finite_t": null without `outlier`, else (the finite-T outlier of the point's own token
/// draws, simulate::build_finite_t_outlier, which does not depend on snr) its prediction at params.snr, with
/// "measure" (with_measure) and "levels" (the finite-d top levels; null where they are not computed or fail,
/// and then `levels_failure` says why). Where `outlier` is given, "finite_t_bulk_edge_right" is its edge.
nlohmann::json theory_point_json(const model::PointParams& params, const theory::FiniteTOutlier* outlier,
                                 bool with_measure, std::string& levels_failure);

}  // namespace rmtsweep::app
