#include <gtest/gtest.h>

#include <strided/strided.hpp>

namespace {

TEST(NoAllocation, Placeholder) { EXPECT_TRUE(true); }

}  // namespace
