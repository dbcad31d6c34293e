#include <gtest/gtest.h>

#include "strided/core/aliasing.hpp"

namespace {

using strided::detail::is_injective;
using strided::detail::LayoutRef;

TEST(Injectivity, InterleavedButInjectiveIsAccepted) {
  const std::size_t extents[] = {3, 1500};
  const std::ptrdiff_t strides[] = {2000, 3};
  EXPECT_TRUE(is_injective(LayoutRef{2, extents, strides}));
}

}  // namespace
