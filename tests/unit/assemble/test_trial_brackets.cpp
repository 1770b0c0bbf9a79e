// A line's threshold from its trials' brackets (assemble/trial_brackets.hpp), on brackets whose medians are
// known by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rmtsweep/assemble/trial_brackets.hpp"

using namespace rmtsweep::assemble;

TEST(TrialBrackets, BracketOfATrialIsItsHighestMissBelowItsLowestDetection) {
  const std::vector<Detection> seen{
      {0.5, 0, false}, {1.0, 0, true}, {1.5, 0, false}, {2.0, 0, true}, {0.2, 0, false}};
  const auto b = trial_brackets(seen, 1);
  EXPECT_EQ(b[0].lo, 0.5);  // the miss at 1.5, above the first detection, is noise and ignored
  EXPECT_EQ(b[0].hi, 1.0);
}

TEST(TrialBrackets, EstimateIsTheMiddleOfTheMedianBracketsAndItsErrorCombinesBothParts) {
  // Four trials with brackets [0, 1], [1, 2], [2, 3], [3, 4]: medians of lo and hi 1.5 and 2.5.
  std::vector<TrialBracket> b{{0, 0, 1}, {1, 1, 2}, {2, 2, 3}, {3, 3, 4}};
  const LineEstimate e = estimate_line(b);
  EXPECT_DOUBLE_EQ(e.threshold, 2.0);
  EXPECT_DOUBLE_EQ(e.resolution_err, 1.0 / std::sqrt(12.0));
  const double sd = std::sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3.0);  // midpoints 0.5 .. 3.5
  EXPECT_NEAR(e.spread_err, 1.2533141373155003 * sd / 2.0, 1e-12);
  EXPECT_NEAR(e.err, std::hypot(e.resolution_err, e.spread_err), 1e-15);
}

TEST(TrialBrackets, AnOpenBracketMakesTheEstimateUndefined) {
  std::vector<TrialBracket> b{{0, 0, 1}, {1, 1, NAN}};
  EXPECT_TRUE(std::isnan(estimate_line(b).threshold));
}
