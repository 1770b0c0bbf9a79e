// The allocator of the large per-point arrays: blocks of 2 MiB or more are 2 MiB-aligned (so the
// kernel can back them with transparent huge pages), smaller ones come from operator new, and
// both hold what is written into them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "rmtsweep/common/huge_page_allocator.hpp"

using rmtsweep::HugePageAllocator;

namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST(HugePageAllocator, AlignsBlocksOfAHugePageOrMoreToHugePages) {
  HugePageAllocator<double> allocator;
  constexpr std::size_t huge = HugePageAllocator<double>::huge_page;
  for (const std::size_t n : {huge / sizeof(double), 3 * huge / sizeof(double) + 5}) {
    double* p = allocator.allocate(n);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(address(p) % huge, 0u) << n << " doubles";
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<double>(i);
    EXPECT_EQ(p[n - 1], static_cast<double>(n - 1));
    allocator.deallocate(p, n);
  }
}

TEST(HugePageAllocator, ServesSmallBlocksWithTheirTypesAlignment) {
  HugePageAllocator<double> allocator;
  for (const std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{1000}}) {
    double* p = allocator.allocate(n);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(address(p) % alignof(double), 0u);
    p[n - 1] = 2.5;
    EXPECT_EQ(p[n - 1], 2.5);
    allocator.deallocate(p, n);
  }
}

TEST(HugePageAllocator, BacksAVectorThatKeepsTheValuesItIsGiven) {
  const std::size_t n = 600000;  // 4.8 MB: the huge-page path
  std::vector<double, HugePageAllocator<double>> v(n, 1.5);
  EXPECT_EQ(v.front(), 1.5);
  EXPECT_EQ(v.back(), 1.5);
  v.assign(n, 0.0);
  for (const double x : v) ASSERT_EQ(x, 0.0);
  const std::vector<double, HugePageAllocator<double>> copy = v;
  EXPECT_EQ(copy, v);
  EXPECT_TRUE(HugePageAllocator<double>() == HugePageAllocator<int>());
}
