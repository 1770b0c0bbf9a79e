#include "rmtsweep/assemble/finite_t_edges.hpp"

#include <algorithm>
#include <limits>

#include "rmtsweep/theory/finite_t_bulk.hpp"

namespace rmtsweep::assemble {

std::vector<double> finite_t_edges(const model::PointParams& base, const std::vector<model::Weighting>& weightings,
                                   const Axes& axes) {
  std::vector<double> edges(axes.lines(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t w = 0; w < axes.weighting.size(); ++w) {
    for (std::size_t n = 0; n < axes.d.size(); ++n) {
      for (std::size_t i = 0; i < axes.delta.size(); ++i) {
        for (std::size_t j = 0; j < axes.gamma.size(); ++j) {
          model::PointParams p = base;
          p.weighting = weightings[w];
          p.d = axes.d[n];
          p.delta = axes.delta[i];
          p.gamma = axes.gamma[j];
          p.snr = 0.0;
          p.trial = 0;
          if (std::min(p.vocabulary(), p.sequences()) > max_finite_t_gram) continue;
          edges[axes.line(w, n, i, j)] = theory::finite_t_edge(theory::token_gram_spectrum(p), p.d);
        }
      }
    }
  }
  return edges;
}

}  // namespace rmtsweep::assemble
