#include "rmtsweep/model/scalars.hpp"

#include <cmath>
#include <cstddef>

namespace rmtsweep::model {

PoolingScalars pooling_scalars(const std::vector<double>& w, const std::vector<double>& R) {
  const std::size_t n = w.size();
  PoolingScalars scalars;
  for (std::size_t t = 0; t < n; ++t) {
    scalars.kappa += w[t] * w[t];
    double row = 0.0;
    for (std::size_t s = 0; s < n; ++s) row += R[t * n + s] * w[s];
    scalars.alpha += w[t] * row;
  }
  scalars.g = scalars.alpha / scalars.kappa;
  return scalars;
}

double effective_tokens(const std::vector<double>& w) {
  double l1 = 0.0, l2 = 0.0;
  for (double x : w) {
    l1 += std::abs(x);
    l2 += x * x;
  }
  return l2 > 0.0 ? l1 * l1 / l2 : 0.0;
}

}  // namespace rmtsweep::model
