#include "rmtsweep/theory/prediction.hpp"

#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/theory/bulk.hpp"
#include "rmtsweep/theory/spike.hpp"

namespace rmtsweep::theory {

Prediction predict(const model::PointParams& params) {
  const auto w = model::pooling_weights(params.weighting, params.correlation, params.T);
  const auto scalars = model::pooling_scalars(w, model::correlation_matrix(params.correlation, params.T));
  const SignalStrength signal = signal_strength(scalars.g, params.snr, params.delta, params.table);
  const BulkEdges edges = bulk_edges(params.delta, params.gamma, scalars.kappa);

  Prediction prediction;
  prediction.alpha = scalars.alpha;
  prediction.kappa = scalars.kappa;
  prediction.theta = signal.theta;
  prediction.bulk_edge_left = edges.left;
  prediction.bulk_edge_right = edges.right;
  prediction.pop_threshold_snr = population_threshold_snr(scalars.g, params.delta, params.table);
  prediction.sample_threshold_snr = sample_threshold_snr(scalars.g, params.delta, params.gamma, params.table);
  prediction.pop_outlier = population_outlier(signal.s, params.delta, scalars.kappa);
  prediction.pop_overlap = population_overlap(signal.s, params.delta, signal.cap);
  prediction.detectable = sample_detectable(signal.s, params.delta, params.gamma);
  prediction.top_eigenvalue = prediction.detectable
                                  ? sample_outlier(signal.s, params.delta, params.gamma, scalars.kappa)
                                  : edges.right;
  prediction.overlap = sample_overlap(signal.s, params.delta, params.gamma, signal.cap);
  prediction.effective_tokens = model::effective_tokens(w);
  return prediction;
}

}  // namespace rmtsweep::theory
