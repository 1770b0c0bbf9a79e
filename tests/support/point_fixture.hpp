#pragma once
// Helpers shared by the simulate tests: building a point's parameters from text.
#include <string>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"

namespace rmtsweep::test {

/// A point with T = 10 from the options' texts, as the command line would give it.
inline model::PointParams make_point(int d, double delta, double gamma, double snr,
                                     const std::string& weighting, const std::string& correlation,
                                     const std::string& table, int trial = 0) {
  model::PointParams p;
  p.d = d;
  p.T = 10;
  p.delta = delta;
  p.gamma = gamma;
  p.snr = snr;
  p.weighting = model::parse_weighting(weighting, p.T);
  p.correlation = model::parse_correlation(correlation, p.T);
  p.table = model::parse_table(table);
  p.seed = 20260605;
  p.trial = trial;
  model::validate(p);
  return p;
}

}  // namespace rmtsweep::test
