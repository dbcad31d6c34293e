// Unit tests of the small-call tests (core/strided/core/small_call.hpp): one dense layout shared
// by every operand, and operands that are the same elements or apart. A wrong "yes" sends a call
// down the one-run path that ignores strides. No Kokkos.

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "strided/core/small_call.hpp"

namespace {

using strided::detail::disjoint_or_same;
using strided::detail::one_dense_layout;

/// The part of a view the tests read.
template <class T>
struct FakeView {
  using value_type = T;
  T* ptr = nullptr;
  std::vector<std::size_t> dims;
  std::vector<std::ptrdiff_t> steps;
  std::size_t rank() const { return dims.size(); }
  std::size_t extent(std::size_t k) const { return dims[k]; }
  std::ptrdiff_t stride(std::size_t k) const { return steps[k]; }
  const std::vector<std::size_t>& extents() const { return dims; }
  const std::vector<std::ptrdiff_t>& strides() const { return steps; }
  T* data() const { return ptr; }
};

TEST(SmallCall, RankOneIsDenseOnlyWithUnitStrideEverywhere) {
  double a[8] = {}, b[8] = {};
  const FakeView<double> unit{a, {8}, {1}};
  EXPECT_TRUE(one_dense_layout(unit, FakeView<double>{b, {8}, {1}}));
  EXPECT_FALSE(one_dense_layout(unit, FakeView<double>{b + 7, {8}, {-1}}));  // reversed
  EXPECT_FALSE(one_dense_layout(unit, FakeView<double>{b, {8}, {2}}));       // gapped
  EXPECT_FALSE(one_dense_layout(unit, FakeView<double>{b, {8}, {0}}));       // broadcast
  EXPECT_FALSE(one_dense_layout(FakeView<double>{a + 7, {8}, {-1}}));
  // One element (or none) is dense whatever its stride.
  EXPECT_TRUE(one_dense_layout(FakeView<double>{a, {1}, {5}}, FakeView<double>{b, {1}, {-3}}));
  EXPECT_TRUE(one_dense_layout(FakeView<double>{a, {0}, {7}}));
}

TEST(SmallCall, HigherRanksNeedOneDenseLayout) {
  double a[12] = {}, b[12] = {};
  const FakeView<double> row{a, {3, 4}, {4, 1}};
  EXPECT_TRUE(one_dense_layout(row, FakeView<double>{b, {3, 4}, {4, 1}}));
  EXPECT_TRUE(one_dense_layout(FakeView<double>{a, {3, 4}, {1, 3}}));        // column-major
  EXPECT_FALSE(one_dense_layout(row, FakeView<double>{b, {3, 4}, {1, 3}}));  // transposed
  EXPECT_FALSE(one_dense_layout(FakeView<double>{a, {3, 4}, {8, 1}}));       // gapped rows
  EXPECT_TRUE(one_dense_layout(row, FakeView<double>{b, {3, 4}, {4, 1}}, row));
}

TEST(SmallCall, DisjointOrSameComparesTheCountsBytes) {
  double buf[16] = {};
  float fbuf[16] = {};
  const FakeView<double> first{buf, {8}, {1}};
  EXPECT_TRUE(disjoint_or_same(first, FakeView<double>{buf + 8, {8}, {1}}, 8));
  EXPECT_FALSE(disjoint_or_same(first, FakeView<double>{buf + 7, {8}, {1}}, 8));
  EXPECT_FALSE(disjoint_or_same(FakeView<double>{buf + 7, {8}, {1}}, first, 8));
  EXPECT_TRUE(disjoint_or_same(first, FakeView<double>{buf, {8}, {1}}, 8));  // the same elements
  EXPECT_TRUE(disjoint_or_same(first, FakeView<double>{buf + 1, {0}, {1}}, 0));  // empty
  // The same origin with another element size overlaps without being the same elements.
  EXPECT_FALSE(
      disjoint_or_same(FakeView<float>{reinterpret_cast<float*>(buf), {8}, {1}}, first, 8));
  EXPECT_TRUE(disjoint_or_same(FakeView<float>{fbuf, {8}, {1}}, first, 8));
}

}  // namespace
