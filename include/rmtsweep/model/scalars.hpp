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

/// T_eff = (sum_t |w_t|)^2 / sum_t w_t^2: how many tokens pooling effectively averages (1 for `last`,
/// T for `mean`, k for k equal nonzero weights; between 1 and the number of nonzero weights). It is the
/// participation ratio of |w|: with distinct tokens, a pooled noise vector has norm^2 kappa = sum w^2 while
/// its weights' l1 mass is fixed, so 1/T_eff = kappa / (sum |w|)^2 is the share of the noise carried by
/// a typical single token. The law of the token Gram A A^T/N (model.md 5.5) approaches the limit law of
/// section 5.1 as T_eff grows; see theory/finite_t_bulk.hpp for the measured size of the gap.
double effective_tokens(const std::vector<double>& w);

}  // namespace rmtsweep::model
