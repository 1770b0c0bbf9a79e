// The small grids the library's tests share: the sweep the tests of the sweep file write, and the grid the
// tests of the grid's order and of the schedule walk.
#pragma once

#include <map>
#include <string>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/config/grid.hpp"

namespace rmtsweep::test {

/// The sweep file's tests' sweep: 8 points at d = 16 (4 snr x 2 trials, delta = gamma = 0.5, mean pooling),
/// created and filled in milliseconds on any number of ranks, with the keys of `extra` added or replaced
/// (e.g. {{"store_spectra", "false"}}).
inline config::Grid small_grid(const std::map<std::string, std::string>& extra = {}) {
  std::map<std::string, std::string> values{{"d", "16"},        {"delta", "0.5"},      {"gamma", "0.5"},
                                            {"snr", "0:1.5:4"}, {"weighting", "mean"}, {"trials", "2"}};
  for (const auto& [key, value] : extra) values[key] = value;
  return config::Grid(config::parse_sweep_config(values));
}

/// 72 points at d = 100 (3 delta x 2 gamma x 2 snr x 2 weightings x 3 trials): every axis but d has several
/// values, so that the grid's order and the schedule's can be told apart along each.
inline config::Grid ordering_grid() {
  return config::Grid(config::parse_sweep_config({{"d", "100"},
                                                  {"delta", "0.5,1,2"},
                                                  {"gamma", "0.25,1"},
                                                  {"snr", "0,1"},
                                                  {"weighting", "mean,optimal"},
                                                  {"trials", "3"}}));
}

/// 48 points at three sizes given out of order, d = 100, 400, 200 (2 delta x 2 snr x 2 weightings x 2 trials
/// each).
inline config::Grid sizes_grid() {
  return config::Grid(config::parse_sweep_config({{"d", "100,400,200"},
                                                  {"delta", "0.5,1"},
                                                  {"snr", "0,1"},
                                                  {"weighting", "mean,optimal"},
                                                  {"trials", "2"}}));
}

}  // namespace rmtsweep::test
