#include <gtest/gtest.h>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"

namespace {

template <class Exec>
class ReduceTest : public ::testing::Test {};
TYPED_TEST_SUITE(ReduceTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(ReduceTest, SumOfIntegers) {
  auto a = strided::StridedArray<double>::from_fn_row_major(
      {30, 40}, [](const strided::MultiIndex& i) { return double(i[0] * 40 + i[1]); });
  EXPECT_EQ(strided::sum(TypeParam(), a.view()), 1199.0 * 1200.0 / 2);
}

}  // namespace
