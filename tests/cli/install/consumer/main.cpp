// Prints the right bulk edge of the mean-pooled worked example of model.md 5.3 (0.374669).
#include <cstdio>

#include "rmtsweep/theory/prediction.hpp"
#include "rmtsweep/version.hpp"

int main() {
  rmtsweep::model::PointParams params;  // T = 10, prefix:3, delta 0.5, gamma 0.25, snr 1, mean, iid
  const auto prediction = rmtsweep::theory::predict(params);
  std::printf("rmtsweep %s right edge %.6f\n", rmtsweep::version, prediction.bulk_edge_right);
  return 0;
}
