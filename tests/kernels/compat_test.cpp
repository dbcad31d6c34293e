// The Kokkos-version shim's replacements for Kokkos calls that allocate in Kokkos 4: they must
// give what Kokkos itself gives (the thread count, RangePolicy's automatic chunk size), on every
// space and at every thread count the test runs at.
#include <gtest/gtest.h>

#include <cstddef>
#include <strided/compat.hpp>

#include "../exec_spaces.hpp"

namespace {

template <class Exec>
class CompatTest : public ::testing::Test {};
TYPED_TEST_SUITE(CompatTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(CompatTest, ConcurrencyIsKokkos) {
  const TypeParam exec;
  EXPECT_EQ(strided::compat::concurrency(exec), static_cast<int>(exec.concurrency()));
}

TYPED_TEST(CompatTest, RangePolicyHasKokkosAutomaticChunkSize) {
  const TypeParam exec;
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(1000),
        std::size_t(40000), std::size_t(1) << 20, std::size_t(1) << 30}) {
    const auto ours = strided::compat::range_policy(exec, n);
    const Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::size_t>> kokkos(exec, 0, n);
    EXPECT_EQ(ours.begin(), 0u);
    EXPECT_EQ(ours.end(), n);
    EXPECT_EQ(ours.chunk_size(), kokkos.chunk_size()) << n << " items";
  }
}

}  // namespace
