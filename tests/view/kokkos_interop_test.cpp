#include <gtest/gtest.h>

#include <strided/strided.hpp>

namespace {

TEST(KokkosInterop, LayoutLeftStrides) {
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> a("a", 3, 4);
  const auto v = strided::view(a);
  EXPECT_EQ(v.stride(0), 1);
  EXPECT_EQ(v.stride(1), 3);
  EXPECT_EQ(v.data(), a.data());
}

}  // namespace
