#include "rmtsweep/model/scalars.hpp"

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

}  // namespace rmtsweep::model
