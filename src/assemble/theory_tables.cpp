#include "rmtsweep/assemble/theory_tables.hpp"

#include <algorithm>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/scalars.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/theory/bulk.hpp"
#include "rmtsweep/theory/prediction.hpp"
#include "rmtsweep/theory/spike.hpp"

namespace rmtsweep::assemble {

std::vector<double> fine_axis(const std::vector<double>& values, int count) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  if (values.empty()) return {};
  if (*low == *high || count < 2) return {*low};
  std::vector<double> fine(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) fine[static_cast<std::size_t>(k)] = *low + (*high - *low) * k / (count - 1);
  fine.back() = *high;
  return fine;
}

namespace {

model::PointParams point(const model::PointParams& base, const model::Weighting& w, double delta,
                         double gamma, double snr) {
  model::PointParams p = base;
  p.weighting = w;
  p.delta = delta;
  p.gamma = gamma;
  p.snr = snr;
  return p;
}

}  // namespace

TheoryTables theory_tables(const model::PointParams& base, const std::vector<model::Weighting>& weightings,
                           const Axes& axes, double margin, const CurveResolution& resolution) {
  const std::size_t W = axes.weighting.size(), D = axes.delta.size(), G = axes.gamma.size(),
                    S = axes.snr.size(), Nd = axes.d.size();
  TheoryTables t;
  t.snr_fine = fine_axis(axes.snr, resolution.snr);
  t.delta_fine = fine_axis(axes.delta, resolution.axis);
  t.gamma_fine = fine_axis(axes.gamma, resolution.axis);
  const std::size_t K = t.snr_fine.size(), Kd = t.delta_fine.size(), Kg = t.gamma_fine.size();
  const std::size_t Kx = static_cast<std::size_t>(resolution.density);
  const std::size_t lines = axes.lines(), size_lines = axes.size_lines();
  for (auto* v : {&t.alpha, &t.kappa, &t.g, &t.bulk_edge_left, &t.bulk_edge_right, &t.pop_threshold_snr,
                  &t.sample_threshold_snr, &t.effective_tokens}) {
    v->resize(lines);
  }
  for (auto* v : {&t.overlap, &t.top_eigenvalue, &t.detection_threshold}) v->resize(lines * S);
  t.detectable.resize(lines * S);
  t.overlap_fine.resize(size_lines * K);
  t.top_eigenvalue_fine.resize(size_lines * K);
  t.density_x.resize(size_lines * Kx);
  t.density.resize(size_lines * Kx);
  t.pop_threshold_vs_delta.resize(W * G * Kd);
  t.sample_threshold_vs_delta.resize(W * G * Kd);
  t.pop_threshold_vs_gamma.resize(W * D * Kg);
  t.sample_threshold_vs_gamma.resize(W * D * Kg);

  const auto R = model::correlation_matrix(base.correlation, base.T);
  for (std::size_t w = 0; w < W; ++w) {
    const auto scalars =
        model::pooling_scalars(model::pooling_weights(weightings[w], base.correlation, base.T), R);
    for (std::size_t i = 0; i < D; ++i) {
      for (std::size_t j = 0; j < G; ++j) {
        const double delta = axes.delta[i], gamma = axes.gamma[j];
        // The predictions are d -> infinity limits; each size's line records them with its own d,
        // whose detection threshold's Tracy-Widom margin c d^(-2/3) they set.
        for (std::size_t n = 0; n < Nd; ++n) {
          model::PointParams sized = base;
          sized.d = axes.d[n];
          const std::size_t line = axes.line(w, n, i, j);
          const auto first = theory::predict(point(sized, weightings[w], delta, gamma, axes.snr.front()));
          t.alpha[line] = first.alpha;
          t.kappa[line] = first.kappa;
          t.g[line] = scalars.g;
          t.effective_tokens[line] = first.effective_tokens;
          t.bulk_edge_left[line] = first.bulk_edge_left;
          t.bulk_edge_right[line] = first.bulk_edge_right;
          t.pop_threshold_snr[line] = first.pop_threshold_snr;
          t.sample_threshold_snr[line] = first.sample_threshold_snr;
          for (std::size_t s = 0; s < S; ++s) {
            const auto p = theory::predict(point(sized, weightings[w], delta, gamma, axes.snr[s]));
            const std::size_t cell = axes.cell(w, n, i, j, s);
            t.overlap[cell] = p.overlap;
            t.top_eigenvalue[cell] = p.top_eigenvalue;
            t.detectable[cell] = p.detectable ? 1 : 0;
            t.detection_threshold[cell] = detection_threshold(p.bulk_edge_right, sized.d, margin);
          }
        }
        const std::size_t size_line = axes.size_line(w, i, j);
        for (std::size_t k = 0; k < K; ++k) {
          const auto p = theory::predict(point(base, weightings[w], delta, gamma, t.snr_fine[k]));
          t.overlap_fine[size_line * K + k] = p.overlap;
          t.top_eigenvalue_fine[size_line * K + k] = p.top_eigenvalue;
        }
        const auto first = theory::predict(point(base, weightings[w], delta, gamma, axes.snr.front()));
        const auto curve = theory::bulk_density_grid(delta, gamma, first.kappa, resolution.density);
        for (std::size_t k = 0; k < Kx && k < curve.size(); ++k) {
          t.density_x[size_line * Kx + k] = curve[k][0];
          t.density[size_line * Kx + k] = curve[k][1];
        }
      }
    }
    // Threshold curves depend on the weighting only through g (model.md 5.2).
    for (std::size_t j = 0; j < G; ++j) {
      for (std::size_t k = 0; k < Kd; ++k) {
        const double delta = t.delta_fine[k];
        t.pop_threshold_vs_delta[(w * G + j) * Kd + k] =
            theory::population_threshold_snr(scalars.g, delta, base.table);
        t.sample_threshold_vs_delta[(w * G + j) * Kd + k] =
            theory::sample_threshold_snr(scalars.g, delta, axes.gamma[j], base.table);
      }
    }
    for (std::size_t i = 0; i < D; ++i) {
      for (std::size_t k = 0; k < Kg; ++k) {
        const double delta = axes.delta[i];
        t.pop_threshold_vs_gamma[(w * D + i) * Kg + k] =
            theory::population_threshold_snr(scalars.g, delta, base.table);
        t.sample_threshold_vs_gamma[(w * D + i) * Kg + k] =
            theory::sample_threshold_snr(scalars.g, delta, t.gamma_fine[k], base.table);
      }
    }
  }
  return t;
}

}  // namespace rmtsweep::assemble
