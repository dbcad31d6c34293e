#include <gtest/gtest.h>

#include "strided/core/planner.hpp"

namespace {

using strided::detail::stride_order;

TEST(StrideOrder, RanksByMagnitudeZeroFirst) {
  const std::ptrdiff_t strides[] = {4, 0, 2};
  int order[3];
  stride_order(3, strides, order);
  EXPECT_EQ(order[0], 2);
  EXPECT_EQ(order[1], 1);
  EXPECT_EQ(order[2], 1);
}

}  // namespace
