#pragma once
/// The theory's predictions for one point (model.md section 5). Pure functions, no MPI.
#include <optional>
#include <utility>
#include <vector>

#include "rmtsweep/model/params.hpp"

namespace rmtsweep::theory {

/// Every prediction `rmtsweep theory --json` prints, with the same names.
struct Prediction {
  double alpha = 0.0;
  double kappa = 0.0;
  double theta = 0.0;
  double bulk_edge_left = 0.0;
  double bulk_edge_right = 0.0;
  double pop_threshold_snr = 0.0;     ///< clipped at 0
  double sample_threshold_snr = 0.0;  ///< clipped at 0
  std::optional<double> pop_outlier;  ///< lambda_pop, absent below the population threshold
  double pop_overlap = 0.0;           ///< 0 below the population threshold
  double top_eigenvalue = 0.0;        ///< lambda_S when detectable, else the right edge
  double overlap = 0.0;               ///< 0 when not detectable
  bool detectable = false;            ///< F(s) > 0
  double effective_tokens = 0.0;      ///< T_eff = (sum |w|)^2 / sum w^2 (model::effective_tokens)
  /// Right edge of the finite-T bulk (theory/finite_t_bulk.hpp) for this point's own token draws;
  /// absent unless asked for (`theory --bulk finite-T`), since it costs a V x V eigenvalue problem.
  std::optional<double> finite_t_bulk_edge_right;
};

/// The predictions for one (valid) point; `causal:tau` uses its limit weights w(tau).
Prediction predict(const model::PointParams& params);

}  // namespace rmtsweep::theory
