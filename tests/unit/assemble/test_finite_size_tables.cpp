// The rules along d: residuals, consistency, flags and the default rule
// (include/rmtsweep/assemble/finite_size_tables.hpp), on small synthetic tables.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rmtsweep/assemble/finite_size_tables.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"

using namespace rmtsweep::assemble;

namespace {

constexpr double missing = std::numeric_limits<double>::quiet_NaN();
constexpr int trials = 8;

/// One weighting, four sizes, one (delta, gamma), the given snr axis.
Axes axes_with(std::vector<double> snr) {
  Axes a;
  a.weighting = {"harmonic"};
  a.d = {400, 800, 1600, 3200};
  a.delta = {1.0};
  a.gamma = {0.5};
  a.snr = std::move(snr);
  return a;
}

/// Every cell with `done` trials.
PhaseTable table_with(const Axes& a, std::int64_t done) {
  PhaseTable t;
  t.trials_done.assign(a.cells(), done);
  return t;
}

/// A rule with a level on every line, half-crossing thresholds 1.0 +- 0.05, detected fractions 0 and no exact
/// thresholds.
RuleTable rule_with(Rule rule, const Axes& a) {
  RuleTable t;
  t.rule = rule;
  t.detected_fraction.assign(a.cells(), 0.0);
  t.empirical_threshold_snr.assign(a.lines(), 1.0);
  t.empirical_threshold_bracket.assign(a.lines(), bracket_found);
  t.false_detection_rate.assign(a.lines(), a.snr.front() == 0.0 ? 0.0 : missing);
  // The null rule has a level only with snr = 0 cells (detection_tables).
  t.threshold.assign(a.lines(), rule == Rule::null && a.snr.front() != 0.0 ? missing : 2.0);
  t.empirical_threshold_snr_err.assign(a.lines(), 0.05);
  t.trial_threshold_snr.assign(a.lines() * trials, missing);
  t.empirical_threshold_exact.assign(a.lines(), 0);
  t.extrapolation.assign(a.size_lines(), Extrapolation{});
  return t;
}

std::vector<RuleTable> rules_with(const Axes& a) {
  std::vector<RuleTable> rules;
  for (const Rule rule : all_rules) rules.push_back(rule_with(rule, a));
  return rules;
}

RuleTable& rule_of(std::vector<RuleTable>& rules, Rule rule) {
  for (auto& t : rules) {
    if (t.rule == rule) return t;
  }
  throw std::logic_error("no such rule");
}

std::int64_t position_of(Rule rule) {
  for (std::size_t r = 0; r < std::size(all_rules); ++r) {
    if (all_rules[r] == rule) return static_cast<std::int64_t>(r);
  }
  return -1;
}

/// No finite-T thresholds anywhere.
FiniteTTable no_finite_t(const Axes& a) {
  FiniteTTable f;
  f.threshold_snr.assign(a.lines(), missing);
  f.threshold_snr_std.assign(a.lines(), missing);
  return f;
}

}  // namespace

TEST(FiniteTTrialThresholds, TakesEachTrialsFirstValueOnItsLine) {
  const Axes a = axes_with({0.0, 1.0});
  std::vector<PointRecord> points(3);
  points[0].d = 1, points[0].trial = 2, points[0].finite_t_threshold_snr = missing;
  points[1].d = 1, points[1].trial = 2, points[1].snr = 1, points[1].finite_t_threshold_snr = 0.83;
  points[2].d = 3, points[2].trial = 0, points[2].finite_t_threshold_snr = 0.86;
  const auto values = finite_t_trial_thresholds(a, points, trials);
  ASSERT_EQ(values.size(), a.lines() * trials);
  EXPECT_EQ(values[a.line(0, 1, 0, 0) * trials + 2], 0.83);
  EXPECT_EQ(values[a.line(0, 3, 0, 0) * trials + 0], 0.86);
  EXPECT_TRUE(std::isnan(values[a.line(0, 0, 0, 0) * trials + 0]));
}

TEST(FiniteSizeTables, TheResidualOfExactThresholdsIsTheMedianOfPairedDifferences) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  RuleTable& edge = rule_of(rules, Rule::edge);
  std::vector<double> finite_t_trials(a.lines() * trials, missing);
  const std::size_t line = a.line(0, 2, 0, 0);
  edge.empirical_threshold_exact[line] = 1;
  for (int t = 0; t < trials; ++t) {
    edge.trial_threshold_snr[line * trials + t] = 0.9 + 0.05 * t;
    finite_t_trials[line * trials + t] = 0.8 + 0.01 * t;  // differences 0.1 + 0.04 t: median 0.24
  }
  FiniteTTable finite_t = no_finite_t(a);
  finite_t.threshold_snr[line] = 0.835;
  finite_size_tables(a, table_with(a, trials), finite_t_trials, finite_t, rules, trials);
  EXPECT_NEAR(edge.residual_snr[line], 0.24, 1e-12);
  std::vector<double> differences;
  for (int t = 0; t < trials; ++t) differences.push_back((0.9 + 0.05 * t) - (0.8 + 0.01 * t));
  EXPECT_EQ(edge.residual_snr_err[line], bootstrap_median(differences, line).median_err);
  // A line without finite-T thresholds has no residual.
  EXPECT_TRUE(std::isnan(edge.residual_snr[a.line(0, 0, 0, 0)]));
}

TEST(FiniteSizeTables, TheResidualOfAHalfCrossingIsTheThresholdLessTheTrialMeanWithTheThresholdsError) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  FiniteTTable finite_t = no_finite_t(a);
  for (std::size_t n = 0; n < a.d.size(); ++n)
    finite_t.threshold_snr[a.line(0, n, 0, 0)] = 0.8 + 0.01 * static_cast<double>(n);
  const auto along = finite_size_tables(
      a, table_with(a, trials), std::vector<double>(a.lines() * trials, missing), finite_t, rules, trials);
  const RuleTable& eigengap = rule_of(rules, Rule::eigengap);
  for (std::size_t n = 0; n < a.d.size(); ++n) {
    EXPECT_NEAR(eigengap.residual_snr[a.line(0, n, 0, 0)], 1.0 - (0.8 + 0.01 * static_cast<double>(n)),
                1e-15);
    EXPECT_EQ(eigengap.residual_snr_err[a.line(0, n, 0, 0)], 0.05);
  }
  // Four sizes with errors: the residual is extrapolated as a threshold is.
  const std::vector<double> d(a.d.begin(), a.d.end());
  std::vector<double> residual, error(4, 0.05);
  for (std::size_t n = 0; n < 4; ++n) residual.push_back(eigengap.residual_snr[a.line(0, n, 0, 0)]);
  EXPECT_EQ(eigengap.residual_extrapolation[0].thr_inf, extrapolate_threshold(d, residual, error).thr_inf);
  EXPECT_EQ(along.target[0].converges, target_unknown);  // no trial carries a finite-T threshold
}

TEST(FiniteSizeTables, ARuleWhoseFalseDetectionsGrowWithDIsInconsistentFlaggedAndNotTheDefault) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  RuleTable& edge = rule_of(rules, Rule::edge);
  const double rate[] = {0.0, 2.0 / 16, 3.0 / 16, 7.0 / 16};  // at snr 0, of 16 trials per size
  for (std::size_t n = 0; n < 4; ++n) edge.false_detection_rate[a.line(0, n, 0, 0)] = rate[n];
  rule_of(rules, Rule::finite_t_edge).false_detection_rate.assign(a.lines(), 1.0 / 16);
  const auto along = finite_size_tables(
      a, table_with(a, 16), std::vector<double>(a.lines() * trials, missing), no_finite_t(a), rules, trials);
  EXPECT_EQ(edge.consistent[0], rule_inconsistent);
  EXPECT_LT(edge.consistency_p_value[0], detection_trend_level);
  for (std::size_t n = 0; n < 4; ++n)
    EXPECT_NE(edge.threshold_flags[a.line(0, n, 0, 0)] & threshold_flag::inconsistent_rule, 0);
  EXPECT_EQ(rule_of(rules, Rule::finite_t_edge).consistent[0], rule_consistent);
  // 16 snr = 0 trials: too few for the null rule, whose lines are flagged; finite_t_edge is the default.
  EXPECT_EQ(along.default_rule[0], position_of(Rule::finite_t_edge));
  EXPECT_NE(rule_of(rules, Rule::null).threshold_flags[0] & threshold_flag::few_null_trials, 0);
}

TEST(FiniteSizeTables, FiniteTEdgeIsTheDefaultEvenWhereEverySizeHasNineteenNullTrials) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  const auto along =
      finite_size_tables(a, table_with(a, min_null_trials), std::vector<double>(a.lines() * trials, missing),
                         no_finite_t(a), rules, trials);
  EXPECT_EQ(along.default_rule[0], position_of(Rule::finite_t_edge));
  EXPECT_EQ(rule_of(rules, Rule::null).threshold_flags[0] & threshold_flag::few_null_trials, 0);
}

TEST(FiniteSizeTables,
     TheNullRuleIsTheDefaultWhereFiniteTEdgeHasNoThresholdAndEverySizeHasNineteenNullTrials) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  rule_of(rules, Rule::finite_t_edge).threshold.assign(a.lines(), missing);
  const auto along =
      finite_size_tables(a, table_with(a, min_null_trials), std::vector<double>(a.lines() * trials, missing),
                         no_finite_t(a), rules, trials);
  EXPECT_EQ(along.default_rule[0], position_of(Rule::null));
}

TEST(FiniteSizeTables, TheEdgeRuleIsTheDefaultWhereNeitherNullNorFiniteTEdgeHasAThreshold) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  rule_of(rules, Rule::finite_t_edge).threshold.assign(a.lines(), missing);
  const auto along = finite_size_tables(a, table_with(a, 8), std::vector<double>(a.lines() * trials, missing),
                                        no_finite_t(a), rules, trials);
  EXPECT_EQ(along.default_rule[0], position_of(Rule::edge));
}

TEST(FiniteSizeTables, WithoutSnrZeroExactThresholdsOfZeroCountAndLowMediansAreFlagged) {
  // The grid starts at snr 0.6 (as the studies' grids); every line's thresholds are exact. Three of eight
  // trials at threshold 0 and a median of 0.3 at the largest size only: many zeros, below the grid, and a
  // trend in d.
  const Axes a = axes_with({0.6, 0.7, 0.8});
  auto rules = rules_with(a);
  RuleTable& edge = rule_of(rules, Rule::edge);
  for (std::size_t n = 0; n < 4; ++n) {
    const std::size_t line = a.line(0, n, 0, 0);
    edge.empirical_threshold_exact[line] = 1;
    for (int t = 0; t < trials; ++t) edge.trial_threshold_snr[line * trials + t] = 0.7 + 0.05 * t;
  }
  const std::size_t last = a.line(0, 3, 0, 0);
  const double low[] = {0.0, 0.0, 0.0, 0.2, 0.4, 0.9, 1.0, 1.1};
  for (int t = 0; t < trials; ++t) edge.trial_threshold_snr[last * trials + t] = low[t];
  edge.empirical_threshold_snr[last] = 0.3;
  finite_size_tables(a, table_with(a, trials), std::vector<double>(a.lines() * trials, missing),
                     no_finite_t(a), rules, trials);
  EXPECT_EQ(edge.threshold_flags[last] & threshold_flag::below_grid, threshold_flag::below_grid);
  EXPECT_EQ(edge.threshold_flags[last] & threshold_flag::many_zero_thresholds,
            threshold_flag::many_zero_thresholds);
  EXPECT_EQ(edge.threshold_flags[a.line(0, 0, 0, 0)] &
                (threshold_flag::below_grid | threshold_flag::many_zero_thresholds),
            0);
  // 0, 0, 0, 3 of 8 at threshold 0: P = C(8, 3) / C(32, 3) = 56/4960 < 5 %.
  EXPECT_EQ(edge.consistent[0], rule_inconsistent);
  EXPECT_NEAR(edge.consistency_p_value[0], 56.0 / 4960.0, 1e-12);
  // Without snr 0 the null rule has no level and no consistency to judge.
  EXPECT_EQ(rule_of(rules, Rule::null).consistent[0], rule_consistency_unknown);
}

TEST(FiniteSizeTables, WithoutExactThresholdsALineDetectingMoreThanAQuarterAtSnrZeroIsFlagged) {
  const Axes a = axes_with({0.0, 0.5, 1.0});
  auto rules = rules_with(a);
  RuleTable& edge = rule_of(rules, Rule::edge);
  edge.false_detection_rate[a.line(0, 1, 0, 0)] = 5.0 / 16;
  edge.false_detection_rate[a.line(0, 2, 0, 0)] = 4.0 / 16;  // a quarter exactly: not more
  finite_size_tables(a, table_with(a, 16), std::vector<double>(a.lines() * trials, missing), no_finite_t(a),
                     rules, trials);
  EXPECT_NE(edge.threshold_flags[a.line(0, 1, 0, 0)] & threshold_flag::many_zero_thresholds, 0);
  EXPECT_EQ(edge.threshold_flags[a.line(0, 2, 0, 0)] & threshold_flag::many_zero_thresholds, 0);
}

TEST(FiniteSizeTables, WithoutSnrZeroOrExactThresholdsTheShareDetectedAtTheFirstSnrCounts) {
  const Axes a = axes_with({0.6, 0.7, 0.8});
  auto rules = rules_with(a);
  RuleTable& edge = rule_of(rules, Rule::edge);
  const double share[] = {0.0, 0.125, 0.25, 0.5};
  for (std::size_t n = 0; n < 4; ++n) edge.detected_fraction[a.cell(0, n, 0, 0, 0)] = share[n];
  finite_size_tables(a, table_with(a, 16), std::vector<double>(a.lines() * trials, missing), no_finite_t(a),
                     rules, trials);
  EXPECT_EQ(edge.consistent[0], rule_inconsistent);
  EXPECT_EQ(rule_of(rules, Rule::finite_t_edge).consistent[0], rule_consistent);
}

TEST(FiniteSizeTables, TheTargetMovesWhereTheTrialsFiniteTThresholdsClimbWithD) {
  const Axes a = axes_with({0.0, 1.0});
  auto rules = rules_with(a);
  std::vector<double> finite_t_trials(a.lines() * trials, missing);
  for (std::size_t n = 0; n < 4; ++n) {
    for (int t = 0; t < trials; ++t)
      finite_t_trials[a.line(0, n, 0, 0) * trials + t] =
          1.7 + 0.1 * static_cast<double>(n) + 0.02 * (t % 4);  // sd 0.02, climbing 0.1
  }
  const auto along =
      finite_size_tables(a, table_with(a, trials), finite_t_trials, no_finite_t(a), rules, trials);
  EXPECT_EQ(along.target[0].converges, target_moves);
}

TEST(DefaultRuleTable, CarriesEachSizeLinesDefaultRuleAndWithholdsTheExtrapolationOfAnInconsistentOne) {
  Axes a = axes_with({0.0, 1.0});
  a.weighting = {"mean", "harmonic"};
  auto rules = rules_with(a);
  for (std::size_t r = 0; r < rules.size(); ++r) {
    rules[r].empirical_threshold_snr.assign(a.lines(), static_cast<double>(r));
    rules[r].detected_fraction.assign(a.cells(), 0.1 * static_cast<double>(r));
    rules[r].residual_snr.assign(a.lines(), 0.0);
    rules[r].residual_snr_err.assign(a.lines(), 0.0);
    rules[r].threshold_flags.assign(a.lines(), 0);
    rules[r].residual_extrapolation.assign(a.size_lines(), Extrapolation{});
    rules[r].consistent.assign(a.size_lines(), rule_consistent);
    rules[r].consistency_p_value.assign(a.size_lines(), 0.5);
    for (auto& e : rules[r].extrapolation) {
      e.terms = 1;
      e.thr_inf = 10.0 + static_cast<double>(r);
    }
  }
  const std::int64_t edge = position_of(Rule::edge), finite_t = position_of(Rule::finite_t_edge);
  rules[static_cast<std::size_t>(edge)].consistent[a.size_line(1, 0, 0)] = rule_inconsistent;
  const std::vector<std::int64_t> chosen{finite_t,
                                         edge};  // mean: finite_t_edge; harmonic: edge, inconsistent
  const RuleTable top = default_rule_table(a, rules, chosen);
  EXPECT_EQ(top.empirical_threshold_snr[a.line(0, 2, 0, 0)], static_cast<double>(finite_t));
  EXPECT_EQ(top.empirical_threshold_snr[a.line(1, 2, 0, 0)], static_cast<double>(edge));
  EXPECT_EQ(top.detected_fraction[a.cell(1, 3, 0, 0, 1)], 0.1 * static_cast<double>(edge));
  EXPECT_EQ(top.extrapolation[a.size_line(0, 0, 0)].thr_inf, 10.0 + static_cast<double>(finite_t));
  EXPECT_EQ(top.extrapolation[a.size_line(1, 0, 0)].terms, 0);
  EXPECT_EQ(top.consistent[a.size_line(1, 0, 0)], rule_inconsistent);
  // -1: no rule, no values.
  const RuleTable none = default_rule_table(a, rules, {-1, -1});
  EXPECT_TRUE(std::isnan(none.empirical_threshold_snr[0]));
  EXPECT_EQ(none.empirical_threshold_bracket[0], bracket_no_data);
}
