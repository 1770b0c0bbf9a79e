// The /points columns of the sweep file with their meanings (units in brackets).
#include "sweep_schema.hpp"

namespace rmtsweep::sweep::detail {

const std::vector<Column>& parameter_columns() {
  using enum ColumnType;
  static const std::vector<Column> columns{
      {"delta", real, "delta = d/V of the point (model.md section 1)"},
      {"gamma", real, "gamma = d/N of the point (model.md section 1)"},
      {"snr", real, "snr = ||mu||^2, raw signal strength of the embedding table"},
      {"weighting", text, "pooling weighting of the point, canonical text (model.md section 3)"},
      {"trial", integer, "trial number: which independent draw (0-based)"},
      {"delta_index", integer, "position of delta in /grid/delta"},
      {"gamma_index", integer, "position of gamma in /grid/gamma"},
      {"snr_index", integer, "position of snr in /grid/snr"},
      {"weighting_index", integer, "position of the weighting in /grid/weighting"},
      {"d", integer, "embedding dimension"},
      {"V", integer, "vocabulary size V = 2 round(d/(2 delta))"},
      {"N", integer, "number of sequences N = round(d/gamma)"},
      {"T", integer, "sequence length"},
      {"alpha", real, "alpha = w^T R w, signal kept by pooling (model.md section 4)"},
      {"kappa", real, "kappa = ||w||^2, noise kept by pooling (model.md section 4)"},
      {"theta", real, "theta = g (snr + delta) (iid table) or g snr (centered table) (model.md 5.2)"},
      {"theory_bulk_edge_left", real,
       "left edge of the continuous bulk of kappa (MP_delta [x] MP_gamma) (5.1)"},
      {"theory_bulk_edge_right", real, "right edge of the bulk kappa (MP_delta [x] MP_gamma) (model.md 5.1)"},
      {"theory_pop_threshold_snr", real,
       "snr above which the population covariance has an outlier, clipped at 0"},
      {"theory_sample_threshold_snr", real, "snr above which S has an outlier (detectable), clipped at 0"},
      {"theory_pop_outlier", real, "population outlier lambda_pop; NaN below the population threshold"},
      {"theory_pop_overlap", real,
       "population overlap cap (1 - delta/s^2); 0 below the population threshold"},
      {"theory_top_eigenvalue", real,
       "predicted top eigenvalue of S: lambda_S when detectable, else right edge"},
      {"theory_overlap", real, "predicted |u_hat^T u|^2 of the top eigenvector; 0 when not detectable"},
      {"theory_detectable", integer, "1 when F(s) > 0: the sample outlier exists (model.md 5.2), else 0"},
  };
  return columns;
}

const std::vector<Column>& measurement_columns() {
  using enum ColumnType;
  static const std::vector<Column> columns{
      {"top_eigenvalue", real, "measured largest eigenvalue of the centered sample covariance S"},
      {"overlap", real, "measured |u_hat^T u|^2 of the top eigenvector of S with the signal direction u"},
      {"ridge_accuracy", real, "fraction of test sequences classified right by ridge (model.md section 6)"},
      {"weights_deviation", real,
       "causal:tau only: mean over sequences of ||w_n - w(tau)||_1; NaN otherwise"},
      {"seconds", real, "wall-clock seconds the point took on its group [s]"},
      {"run", integer,
       "which invocation computed the point (0 = first run, 1 = first resume, ...); -1 pending"},
      {"status", integer, "0 pending, 1 done, 2 failed; written after the point's data"},
  };
  return columns;
}

}  // namespace rmtsweep::sweep::detail
