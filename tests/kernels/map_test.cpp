#include <gtest/gtest.h>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"

namespace {

template <class Exec>
class MapTest : public ::testing::Test {};
TYPED_TEST_SUITE(MapTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(MapTest, CopyPermuted) {
  auto a = strided::StridedArray<double>::from_fn_row_major(
      {3, 4}, [](const strided::MultiIndex& i) { return 10.0 * i[0] + i[1]; });
  auto b = strided::StridedArray<double>::row_major({4, 3});
  strided::copy_into(TypeParam(), b.view(), a.view().transpose());
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(b(i, j), a(j, i));
}

}  // namespace
