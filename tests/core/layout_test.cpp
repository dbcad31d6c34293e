#include <gtest/gtest.h>

#include "strided/core/layout.hpp"

namespace {

using strided::detail::fits_buffer;
using strided::detail::LayoutRef;

TEST(FitsBuffer, RowMajorExactBuffer) {
  const std::size_t extents[] = {2, 3};
  const std::ptrdiff_t strides[] = {3, 1};
  EXPECT_TRUE(fits_buffer(LayoutRef{2, extents, strides}, 6, 0));
  EXPECT_FALSE(fits_buffer(LayoutRef{2, extents, strides}, 5, 0));
}

}  // namespace
