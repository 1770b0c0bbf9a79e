// Durations as a person reads them: the ETA of progress lines and status, the plan's wall time.
#include <gtest/gtest.h>

#include <limits>

#include "rmtsweep/common/duration_text.hpp"

namespace {

using rmtsweep::duration_text;

TEST(DurationText, SecondsBelowAMinute) {
  EXPECT_EQ(duration_text(0.0), "0 s");
  EXPECT_EQ(duration_text(-3.0), "0 s");
  EXPECT_EQ(duration_text(0.4), "0 s");
  EXPECT_EQ(duration_text(45.2), "45 s");
}

TEST(DurationText, MinutesAndSecondsBelowAnHour) {
  EXPECT_EQ(duration_text(59.6), "1 min 0 s");
  EXPECT_EQ(duration_text(200.0), "3 min 20 s");
  EXPECT_EQ(duration_text(3599.4), "59 min 59 s");
}

TEST(DurationText, HoursAndMinutesBelowADay) {
  EXPECT_EQ(duration_text(3599.6), "1 h 0 min");
  EXPECT_EQ(duration_text(4320.0), "1 h 12 min");  // the example
  EXPECT_EQ(duration_text(28900.0), "8 h 2 min");  // phase_transitions_cluster.ini's 2.89e+04 s
}

TEST(DurationText, DaysAndHoursBeyond) {
  EXPECT_EQ(duration_text(86400.0), "1 d 0 h");
  EXPECT_EQ(duration_text(3.0 * 86400 + 5 * 3600 + 1200), "3 d 5 h");
}

TEST(DurationText, AValueThatIsNotFiniteIsUnknown) {
  EXPECT_EQ(duration_text(std::numeric_limits<double>::infinity()), "unknown");
  EXPECT_EQ(duration_text(std::numeric_limits<double>::quiet_NaN()), "unknown");
}

}  // namespace
