// Indices as a message names them (common/index_list.hpp).
#include <gtest/gtest.h>

#include <numeric>

#include "rmtsweep/common/index_list.hpp"

using rmtsweep::index_list;

TEST(IndexList, NamesEveryIndexUpToTwenty) {
  EXPECT_EQ(index_list({}), "");
  EXPECT_EQ(index_list({5}), "5");
  EXPECT_EQ(index_list({5, 9, 17}), "5 9 17");
  std::vector<std::int64_t> twenty(20);
  std::iota(twenty.begin(), twenty.end(), 0);
  EXPECT_EQ(index_list(twenty), "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19");
}

TEST(IndexList, BeyondTwentyNamesTheFirstTwentyAndHowManyInAll) {
  std::vector<std::int64_t> many(25);
  std::iota(many.begin(), many.end(), 100);
  EXPECT_EQ(
      index_list(many),
      "100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 ... (25 in all)");
}
