#include <gtest/gtest.h>

#include <strided/strided.hpp>

namespace {

TEST(StridedView, RowMajorAccess) {
  double data[] = {1, 2, 3, 4, 5, 6};
  strided::StridedView<double> v(data, 6, {2, 3}, {3, 1});
  EXPECT_EQ(v(0, 1), 2);
  EXPECT_EQ(v(1, 0), 4);
  EXPECT_EQ(v(1, 2), 6);
  EXPECT_EQ(v.rank(), 2u);
  EXPECT_EQ(v.size(), 6u);
}

}  // namespace
