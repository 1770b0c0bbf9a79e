#include "prediction_json.hpp"

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/weighting.hpp"

namespace rmtsweep::app {

nlohmann::json point_params_json(const model::PointParams& params) {
  nlohmann::json out;
  out["d"] = params.d;
  out["T"] = params.T;
  out["delta"] = params.delta;
  out["gamma"] = params.gamma;
  out["snr"] = params.snr;
  out["weighting"] = model::to_string(params.weighting);
  out["correlation"] = model::to_string(params.correlation);
  out["table"] = model::to_string(params.table);
  out["seed"] = params.seed;
  out["trial"] = params.trial;
  out["V"] = params.vocabulary();
  out["N"] = params.sequences();
  return out;
}

nlohmann::json theory_json(const theory::Prediction& p) {
  nlohmann::json out;
  out["alpha"] = p.alpha;
  out["kappa"] = p.kappa;
  out["theta"] = p.theta;
  out["bulk_edge_left"] = p.bulk_edge_left;
  out["bulk_edge_right"] = p.bulk_edge_right;
  out["pop_threshold_snr"] = p.pop_threshold_snr;
  out["sample_threshold_snr"] = p.sample_threshold_snr;
  out["pop_outlier"] = p.pop_outlier ? nlohmann::json(*p.pop_outlier) : nlohmann::json(nullptr);
  out["pop_overlap"] = p.pop_overlap;
  out["top_eigenvalue"] = p.top_eigenvalue;
  out["overlap"] = p.overlap;
  out["detectable"] = p.detectable;
  out["effective_tokens"] = p.effective_tokens;
  out["finite_t_bulk_edge_right"] =
      p.finite_t_bulk_edge_right ? nlohmann::json(*p.finite_t_bulk_edge_right) : nlohmann::json(nullptr);
  return out;
}

nlohmann::json finite_t_json(const std::optional<theory::FiniteTPrediction>& p) {
  if (!p) return nullptr;
  return {{"top_eigenvalue", p->top_eigenvalue},
          {"overlap", p->overlap},
          {"threshold_snr", p->threshold_snr},
          {"bulk_edge_right", p->bulk_edge_right},
          {"detectable", p->detectable}};
}

nlohmann::json finite_t_levels_json(const std::optional<theory::TopLevelPrediction>& p) {
  if (!p) return nullptr;
  return {{"top_eigenvalue", p->top_eigenvalue},
          {"overlap", p->overlap},
          {"overlap_error", p->overlap_error},
          {"k", p->k},
          {"draws", p->draws}};
}

nlohmann::json spectral_measures_json(const theory::FiniteTOutlier& outlier) {
  return {{"bulk", {{"nodes", outlier.bulk().nodes}, {"multiplicities", outlier.bulk().weights}}},
          {"signal", {{"nodes", outlier.signal().nodes}, {"weights", outlier.signal().weights}}}};
}

}  // namespace rmtsweep::app
