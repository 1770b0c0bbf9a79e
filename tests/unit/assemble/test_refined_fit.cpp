// assemble's refined threshold of a line whose trials have exact thresholds (their lines' secular forms): the
// median of those thresholds with its bootstrap error; the brackets' estimate where a trial lacks its form.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rmtsweep/assemble/finite_size.hpp"
#include "rmtsweep/assemble/refined_fit.hpp"
#include "rmtsweep/spectral/rank_one.hpp"

using namespace rmtsweep;
using namespace rmtsweep::assemble;

namespace {

constexpr double level = 3.0;  ///< the rule's level on lambda_1
constexpr int grid_trials = 4, all_trials = 10;

/// Trial t's line: poles 1 and 2, the signal's weight growing with t, so that each trial crosses the level at
/// its own snr.
spectral::RankOneLine trial_line(int t) {
  spectral::RankOneLine line;
  line.poles = {1.0, 2.0};
  line.signal = {0.3, 0.5 + 0.05 * t};
  line.offset = {0.1, 0.2};
  line.rho = 1.0;
  return line;
}

struct Line {
  Axes axes;
  std::vector<PointRecord> grid;
  std::vector<RefinedRecord> refined;
  TrialSecular grid_forms, refined_forms;
  RuleTable table;
};

/// One line, grid trials 0-3 at snr 0, 1, 2, 4 and refined trials 4-9 at the same snr (whole lines), every
/// point's top eigenvalues from its trial's form.
Line make_line() {
  Line l;
  l.axes.weighting = {"mean"};
  l.axes.d = {100};
  l.axes.delta = {0.5};
  l.axes.gamma = {0.5};
  l.axes.snr = {0.0, 1.0, 2.0, 4.0};
  for (int t = 0; t < all_trials; ++t) {
    (t < grid_trials ? l.grid_forms : l.refined_forms)[{0, t}] = trial_line(t);
    for (std::size_t s = 0; s < l.axes.snr.size(); ++s) {
      const auto top = spectral::solve(trial_line(t), std::sqrt(l.axes.snr[s]), 2).top;
      if (t < grid_trials) {
        PointRecord p;
        p.snr = s;
        p.trial = t;
        p.top_eigenvalue = top[0];
        p.top_eigenvalues = top;
        l.grid.push_back(p);
      } else {
        l.refined.push_back({0, l.axes.snr[s], t, top});
      }
    }
  }
  l.table.rule = Rule::edge;
  l.table.threshold = {level};
  return l;
}

}  // namespace

TEST(RefinedFit, WhereEveryTrialHasItsFormTheThresholdIsTheMedianOfTheExactThresholds) {
  const Line l = make_line();
  const ExactForms exact{&l.grid_forms, &l.refined_forms, [](std::size_t, int) { return level; }};
  const RefinedTable r = refined_table(l.axes, l.grid, l.refined, l.table, &exact);
  std::vector<double> values;
  for (int t = 0; t < all_trials; ++t) {
    const spectral::LevelCrossing crossing = spectral::level_crossing(trial_line(t), level);
    values.push_back(crossing.r_from * crossing.r_from);
  }
  ASSERT_GT(values.front(), values.back()) << "the trials cross at different snr";
  const MedianEstimate median = bootstrap_median(values, 0);
  EXPECT_EQ(r.exact[0], 1);
  EXPECT_EQ(r.threshold[0], median.median);
  EXPECT_EQ(r.threshold_err[0], median.median_err);
  EXPECT_EQ(r.resolution_err[0], 0.0) << "no grid resolution in an exact median";
  EXPECT_EQ(r.spread_err[0], median.median_err);
  EXPECT_EQ(r.trials[0], all_trials);
  EXPECT_EQ(r.refined_points[0], (all_trials - grid_trials) * 4);
}

TEST(RefinedFit, ATrialWithoutItsFormOrARuleWithoutALevelLeavesTheBracketsEstimate) {
  Line l = make_line();
  const RefinedTable brackets = refined_table(l.axes, l.grid, l.refined, l.table);
  EXPECT_EQ(brackets.exact[0], 0);
  ASSERT_TRUE(std::isfinite(brackets.threshold[0])) << "every trial bracketed by the grid";
  ExactForms none{&l.grid_forms, &l.refined_forms, [](std::size_t, int) { return std::nan(""); }};
  const RefinedTable eigengap = refined_table(l.axes, l.grid, l.refined, l.table, &none);
  EXPECT_EQ(eigengap.exact[0], 0);
  EXPECT_EQ(eigengap.threshold[0], brackets.threshold[0]);
  l.refined_forms.erase(
      {0, all_trials - 1});  // a refined trial whose form is missing (its basis did not converge)
  const ExactForms partial{&l.grid_forms, &l.refined_forms, [](std::size_t, int) { return level; }};
  const RefinedTable missing = refined_table(l.axes, l.grid, l.refined, l.table, &partial);
  EXPECT_EQ(missing.exact[0], 0);
  EXPECT_EQ(missing.threshold[0], brackets.threshold[0]);
  EXPECT_EQ(missing.threshold_err[0], brackets.threshold_err[0]);
}
