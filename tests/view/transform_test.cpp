#include <gtest/gtest.h>

#include <strided/strided.hpp>

namespace {

TEST(Transform, PermuteSwapsExtentsAndStrides) {
  double data[] = {1, 2, 3, 4, 5, 6};
  strided::StridedView<double> v(data, 6, {2, 3}, {3, 1});
  const auto p = v.permute({1, 0});
  EXPECT_EQ(p.extent(0), 3u);
  EXPECT_EQ(p.stride(0), 1);
  EXPECT_EQ(p(1, 0), 2);
  EXPECT_EQ(p(0, 1), 4);
}

}  // namespace
