#pragma once
/// The theory of a sweep's points (docs/model.md section 5): what the /points columns of the theory hold,
/// written when a file is created (schema.hpp; by run, recover and merge), and what status's verification
/// (verify.hpp) and refine's check of a stored config compare them with.
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/theory/prediction.hpp"

namespace rmtsweep::config {

/// theory::predict of every point of `grid`, in point order.
std::vector<theory::Prediction> grid_predictions(const Grid& grid);

}  // namespace rmtsweep::config
