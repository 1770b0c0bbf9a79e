#pragma once
/// alpha, kappa and g of model.md section 4.
#include <vector>

namespace rmtsweep::model {

/// What pooling with weights w keeps of the signal and of the noise (model.md section 4).
struct PoolingScalars {
  double alpha = 0.0;  ///< w^T R w: signal kept by pooling
  double kappa = 0.0;  ///< ||w||^2: noise kept
  double g = 0.0;      ///< alpha / kappa
};

/// alpha = w^T R w, kappa = ||w||^2, g = alpha/kappa, for R row-major T x T.
PoolingScalars pooling_scalars(const std::vector<double>& w, const std::vector<double>& R);

}  // namespace rmtsweep::model
