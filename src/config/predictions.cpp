// The theory of a sweep's points (include/rmtsweep/config/predictions.hpp).
#include "rmtsweep/config/predictions.hpp"

namespace rmtsweep::config {

std::vector<theory::Prediction> grid_predictions(const Grid& grid) {
  std::vector<theory::Prediction> predictions;
  predictions.reserve(static_cast<std::size_t>(grid.size()));
  for (std::int64_t i = 0; i < grid.size(); ++i) predictions.push_back(theory::predict(grid.params(i)));
  return predictions;
}

}  // namespace rmtsweep::config
