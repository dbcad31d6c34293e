#include <gtest/gtest.h>

#include <strided/strided.hpp>

namespace {

TEST(StridedArray, ColMajorFromFn) {
  auto a = strided::StridedArray<double>::from_fn_col_major(
      {2, 3, 4}, [](const strided::MultiIndex& i) { return 100.0 * i[0] + 10.0 * i[1] + i[2]; });
  EXPECT_EQ(a.stride(0), 1);
  EXPECT_EQ(a.stride(1), 2);
  EXPECT_EQ(a.stride(2), 6);
  EXPECT_EQ(a.view()(1, 2, 3), 123.0);
  EXPECT_EQ(a.view()(0, 0, 1), 1.0);
}

}  // namespace
