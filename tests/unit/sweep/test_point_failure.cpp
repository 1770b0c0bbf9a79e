// What a sweep records for a point that failed: an out-of-memory error gets the point and the
// memory S needs per rank; any other error keeps its own message.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/sweep/runner.hpp"

namespace sweep = rmtsweep::sweep;
namespace config = rmtsweep::config;

namespace {

rmtsweep::model::PointParams large_point() {
  const config::Grid grid(config::parse_sweep_config({{"d", "200000"}, {"snr", "3"}, {"delta", "0.5"}}));
  return grid.params(0);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PointFailure, AnOutOfMemoryErrorNamesThePointAndTheMemorySNeedsPerRank) {
  const std::string text = sweep::point_failure_text(std::bad_alloc(), large_point(), 1);
  EXPECT_TRUE(contains(text, "out of memory (std::bad_alloc)")) << text;
  EXPECT_TRUE(contains(text, "d=200000")) << text;
  EXPECT_TRUE(contains(text, "snr=3")) << text;
  EXPECT_TRUE(contains(text, "delta=0.5")) << text;
  EXPECT_TRUE(contains(text, "298 GiB per rank")) << text;  // 200000^2 x 8 bytes = 3.2e11 bytes
  EXPECT_TRUE(contains(text, "ranks_per_point")) << text;
}

TEST(PointFailure, MoreRanksPerPointShrinkTheMemoryPerRankItQuotes) {
  const std::string text = sweep::point_failure_text(std::bad_alloc(), large_point(), 8);
  EXPECT_TRUE(contains(text, "37.3 GiB per rank")) << text;
  EXPECT_TRUE(contains(text, "8 ranks_per_point")) << text;
}

TEST(PointFailure, AnyOtherErrorKeepsItsOwnMessage) {
  EXPECT_EQ(sweep::point_failure_text(std::runtime_error("pdsyevr failed with info = 3"), large_point(), 1),
            "pdsyevr failed with info = 3");
  EXPECT_EQ(sweep::point_failure_text(std::runtime_error(""), large_point(), 1), "unknown error");
}

}  // namespace
