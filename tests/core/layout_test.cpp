// Unit tests of the layout descriptor helpers (core/strided/core/layout.hpp) and the
// overflow-checked arithmetic under them (checked_arithmetic.hpp). No Kokkos.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "strided/core/checked_arithmetic.hpp"
#include "strided/core/layout.hpp"

namespace {

using strided::detail::checked_add;
using strided::detail::checked_mul;
using strided::detail::checked_reach;
using strided::detail::element_count;
using strided::detail::fits_buffer;
using strided::detail::LayoutRef;
using strided::detail::offset_bounds;

constexpr std::ptrdiff_t kMax = std::numeric_limits<std::ptrdiff_t>::max();
constexpr std::ptrdiff_t kMin = std::numeric_limits<std::ptrdiff_t>::min();
constexpr std::size_t kSizeMax = std::numeric_limits<std::size_t>::max();

/// Owns the arrays a LayoutRef points to.
struct Layout {
  std::vector<std::size_t> extents;
  std::vector<std::ptrdiff_t> strides;
  LayoutRef ref() const { return LayoutRef{extents.size(), extents.data(), strides.data()}; }
};

bool fits(const Layout& l, std::size_t len, std::ptrdiff_t offset = 0) {
  return fits_buffer(l.ref(), len, offset);
}

// ---------------------------------------------------------------------------------------------
// checked arithmetic
// ---------------------------------------------------------------------------------------------

TEST(CheckedArithmetic, Mul) {
  std::size_t out = 99;
  EXPECT_TRUE(checked_mul(6, 7, out));
  EXPECT_EQ(out, 42u);
  EXPECT_TRUE(checked_mul(0, kSizeMax, out));
  EXPECT_EQ(out, 0u);
  EXPECT_TRUE(checked_mul(kSizeMax, 0, out));
  EXPECT_EQ(out, 0u);
  EXPECT_TRUE(checked_mul(kSizeMax, 1, out));
  EXPECT_EQ(out, kSizeMax);
  EXPECT_TRUE(checked_mul(std::size_t(1) << 32, (std::size_t(1) << 32) - 1, out));
  EXPECT_EQ(out, (std::size_t(1) << 32) * ((std::size_t(1) << 32) - 1));
  EXPECT_FALSE(checked_mul(std::size_t(1) << 32, std::size_t(1) << 32, out));
  EXPECT_FALSE(checked_mul(2, kSizeMax / 2 + 1, out));
  EXPECT_TRUE(checked_mul(2, kSizeMax / 2, out));
}

TEST(CheckedArithmetic, Add) {
  std::ptrdiff_t out = 0;
  EXPECT_TRUE(checked_add(-5, 3, out));
  EXPECT_EQ(out, -2);
  EXPECT_TRUE(checked_add(kMax, 0, out));
  EXPECT_EQ(out, kMax);
  EXPECT_TRUE(checked_add(kMax, kMin, out));
  EXPECT_EQ(out, -1);
  EXPECT_TRUE(checked_add(kMax - 1, 1, out));
  EXPECT_EQ(out, kMax);
  EXPECT_FALSE(checked_add(kMax, 1, out));
  EXPECT_FALSE(checked_add(1, kMax, out));
  EXPECT_TRUE(checked_add(kMin + 1, -1, out));
  EXPECT_EQ(out, kMin);
  EXPECT_FALSE(checked_add(kMin, -1, out));
  EXPECT_FALSE(checked_add(-1, kMin, out));
}

TEST(CheckedArithmetic, Reach) {
  std::ptrdiff_t out = 123;
  EXPECT_TRUE(checked_reach(1, 1000, out));
  EXPECT_EQ(out, 0);
  EXPECT_TRUE(checked_reach(4, -3, out));
  EXPECT_EQ(out, -9);
  EXPECT_TRUE(checked_reach(10, 0, out));
  EXPECT_EQ(out, 0);
  EXPECT_TRUE(checked_reach(2, kMax, out));
  EXPECT_EQ(out, kMax);
  EXPECT_TRUE(checked_reach(2, -kMax, out));
  EXPECT_EQ(out, -kMax);
  EXPECT_FALSE(checked_reach(3, kMax / 2 + 1, out));
  EXPECT_TRUE(checked_reach(3, kMax / 2, out));
  EXPECT_EQ(out, kMax / 2 * 2);
  // The most negative stride has no magnitude: fine with one step of nothing, else overflow.
  EXPECT_TRUE(checked_reach(1, kMin, out));
  EXPECT_EQ(out, 0);
  EXPECT_FALSE(checked_reach(2, kMin, out));
  // Steps beyond ptrdiff_t: extent - 1 > PTRDIFF_MAX, even at stride 1.
  EXPECT_FALSE(checked_reach(kSizeMax, 1, out));
  EXPECT_TRUE(checked_reach(static_cast<std::size_t>(kMax) + 1, 1, out));
  EXPECT_EQ(out, kMax);
  EXPECT_FALSE(checked_reach(static_cast<std::size_t>(kMax) + 2, 1, out));
  // Zero stride with huge extent: 0, representable (broadcast).
  EXPECT_TRUE(checked_reach(kSizeMax / 2, 0, out));
  EXPECT_EQ(out, 0);
}

// ---------------------------------------------------------------------------------------------
// element_count / offset_bounds
// ---------------------------------------------------------------------------------------------

TEST(ElementCount, ProductOfExtents) {
  std::size_t n = 0;
  EXPECT_TRUE(element_count(Layout{{}, {}}.ref(), n));
  EXPECT_EQ(n, 1u) << "rank 0 holds one element";
  EXPECT_TRUE(element_count(Layout{{2, 3, 4}, {0, 0, 0}}.ref(), n));
  EXPECT_EQ(n, 24u);
  EXPECT_TRUE(element_count(Layout{{5, 0, 7}, {1, 1, 1}}.ref(), n));
  EXPECT_EQ(n, 0u);
  EXPECT_TRUE(element_count(Layout{{0, kSizeMax}, {1, 1}}.ref(), n));
  EXPECT_EQ(n, 0u);
  EXPECT_TRUE(element_count(Layout{{kSizeMax, 1}, {1, 1}}.ref(), n));
  EXPECT_EQ(n, kSizeMax);
  EXPECT_FALSE(
      element_count(Layout{{std::size_t(1) << 32, std::size_t(1) << 32}, {0, 0}}.ref(), n));
  EXPECT_FALSE(element_count(
      Layout{std::vector<std::size_t>(64, 2), std::vector<std::ptrdiff_t>(64, 0)}.ref(), n));
  EXPECT_TRUE(element_count(
      Layout{std::vector<std::size_t>(63, 2), std::vector<std::ptrdiff_t>(63, 0)}.ref(), n));
  EXPECT_EQ(n, std::size_t(1) << 63);
}

TEST(OffsetBounds, LowestAndHighest) {
  std::ptrdiff_t lo = 1, hi = -1;
  EXPECT_TRUE(offset_bounds(Layout{{}, {}}.ref(), lo, hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 0);
  EXPECT_TRUE(offset_bounds(Layout{{2, 3}, {3, 1}}.ref(), lo, hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 5);
  EXPECT_TRUE(offset_bounds(Layout{{2, 3}, {-3, 1}}.ref(), lo, hi));
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 2);
  EXPECT_TRUE(offset_bounds(Layout{{4, 5, 2}, {-1, -4, 100}}.ref(), lo, hi));
  EXPECT_EQ(lo, -19);
  EXPECT_EQ(hi, 100);
  EXPECT_TRUE(offset_bounds(Layout{{1000, 1}, {0, -kMax}}.ref(), lo, hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 0);
  EXPECT_TRUE(offset_bounds(Layout{{2, 2}, {kMax, -kMax}}.ref(), lo, hi));
  EXPECT_EQ(lo, -kMax);
  EXPECT_EQ(hi, kMax);
  // Overflow: one reach, or the sum of two reaches on the same side.
  EXPECT_FALSE(offset_bounds(Layout{{3}, {kMax}}.ref(), lo, hi));
  EXPECT_FALSE(offset_bounds(Layout{{2, 2}, {kMax, 1}}.ref(), lo, hi));
  EXPECT_FALSE(offset_bounds(Layout{{2, 2}, {-kMax, -2}}.ref(), lo, hi));
  EXPECT_FALSE(offset_bounds(Layout{{2}, {kMin}}.ref(), lo, hi));
}

// ---------------------------------------------------------------------------------------------
// fits_buffer (strided-rs.md §4.2 item 13 and more)
// ---------------------------------------------------------------------------------------------

TEST(FitsBuffer, RowMajorExactBuffer) {
  const std::size_t extents[] = {2, 3};
  const std::ptrdiff_t strides[] = {3, 1};
  EXPECT_TRUE(fits_buffer(LayoutRef{2, extents, strides}, 6, 0));
  EXPECT_FALSE(fits_buffer(LayoutRef{2, extents, strides}, 5, 0));
}

TEST(FitsBuffer, ReferenceCases) {
  EXPECT_TRUE(fits(Layout{{2, 3}, {3, 1}}, 6, 0));
  EXPECT_TRUE(fits(Layout{{2, 3}, {1, 2}}, 6, 0));
  EXPECT_FALSE(fits(Layout{{2, 3}, {3, 1}}, 5, 0));
  EXPECT_TRUE(fits(Layout{{0, 3}, {3, 1}}, 0, 0));
  EXPECT_TRUE(fits(Layout{{2, 3}, {3, 1}}, 7, 1));
  EXPECT_FALSE(fits(Layout{{2, 3}, {3, 1}}, 6, 1));
}

TEST(FitsBuffer, NegativeStrides) {
  // Reversed 1-d: origin at the last element.
  EXPECT_TRUE(fits(Layout{{3}, {-1}}, 3, 2));
  EXPECT_FALSE(fits(Layout{{3}, {-1}}, 3, 1));  // would reach -1
  EXPECT_FALSE(fits(Layout{{3}, {-1}}, 2, 2));  // origin itself out of range
  // Row-major 2x3 with rows reversed: origin at row 1.
  EXPECT_TRUE(fits(Layout{{2, 3}, {-3, 1}}, 6, 3));
  EXPECT_FALSE(fits(Layout{{2, 3}, {-3, 1}}, 6, 2));
  EXPECT_FALSE(fits(Layout{{2, 3}, {-3, 1}}, 5, 3));
  // Both reversed: origin at 5, reaches 0.
  EXPECT_TRUE(fits(Layout{{2, 3}, {-3, -1}}, 6, 5));
  EXPECT_FALSE(fits(Layout{{2, 3}, {-3, -1}}, 6, 4));
  // A negative offset never fits, even when nothing is reached below it.
  EXPECT_FALSE(fits(Layout{{3}, {1}}, 10, -1));
  EXPECT_FALSE(fits(Layout{{}, {}}, 10, -1));
}

TEST(FitsBuffer, RankZeroAndBroadcast) {
  EXPECT_TRUE(fits(Layout{{}, {}}, 1, 0));
  EXPECT_FALSE(fits(Layout{{}, {}}, 0, 0));
  EXPECT_TRUE(fits(Layout{{}, {}}, 5, 4));
  EXPECT_FALSE(fits(Layout{{}, {}}, 5, 5));
  // Stride 0 reaches only the origin, at any extent.
  EXPECT_TRUE(fits(Layout{{1000000, 3}, {0, 1}}, 3, 0));
  EXPECT_FALSE(fits(Layout{{1000000, 3}, {0, 1}}, 2, 0));
  // Extent-1 axes reach nothing, whatever their strides.
  EXPECT_TRUE(fits(Layout{{1, 4, 1}, {kMax, 1, kMin}}, 4, 0));
}

TEST(FitsBuffer, ZeroExtentIsAlwaysValid) {
  EXPECT_TRUE(fits(Layout{{0}, {1}}, 0, 0));
  EXPECT_TRUE(fits(Layout{{0, 5}, {kMax, kMin}}, 0, 0));
  EXPECT_TRUE(fits(Layout{{kSizeMax, 0}, {kMax, kMax}}, 0, 0));
  EXPECT_TRUE(fits(Layout{{3, 0, 2}, {-7, 1, 100}}, 0, 1000));
  EXPECT_TRUE(fits(Layout{{0}, {-1}}, 0, -5)) << "extent 0: any offset, nothing is reached";
}

TEST(FitsBuffer, OverflowIsRejected) {
  // Reach beyond ptrdiff_t.
  EXPECT_FALSE(fits(Layout{{3}, {kMax}}, kSizeMax, 0));
  EXPECT_FALSE(fits(Layout{{2, 2}, {kMax, 1}}, kSizeMax, 0));
  EXPECT_FALSE(fits(Layout{{2}, {kMin}}, kSizeMax, 0));
  // Offset + reach overflows.
  EXPECT_FALSE(fits(Layout{{2}, {kMax}}, kSizeMax, 1));
  // Most negative reach: from offset PTRDIFF_MAX down to exactly 0 fits, one less does not.
  EXPECT_TRUE(fits(Layout{{2}, {-kMax}}, kSizeMax, kMax));
  EXPECT_FALSE(fits(Layout{{2}, {-kMax}}, kSizeMax, kMax - 1));
  // Element count overflows even though stride 0 keeps every offset at 0.
  EXPECT_FALSE(fits(Layout{{std::size_t(1) << 32, std::size_t(1) << 32}, {0, 0}}, 1, 0));
  // Extent beyond ptrdiff_t at stride 1.
  EXPECT_FALSE(fits(Layout{{kSizeMax}, {1}}, kSizeMax, 0));
  // Just representable: reach PTRDIFF_MAX - 1 from offset 1 ends at PTRDIFF_MAX.
  EXPECT_TRUE(fits(Layout{{2}, {kMax - 1}}, static_cast<std::size_t>(kMax) + 1, 1));
  EXPECT_FALSE(fits(Layout{{2}, {kMax - 1}}, static_cast<std::size_t>(kMax), 1));
}

TEST(FitsBuffer, RandomLayoutsMatchEnumeration) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> rank_dist(0, 4), ext(0, 4), stride(-5, 5), len(0, 40),
      off(-3, 30);
  for (int rep = 0; rep < 3000; ++rep) {
    Layout l;
    const int rank = rank_dist(rng);
    for (int k = 0; k < rank; ++k) {
      l.extents.push_back(static_cast<std::size_t>(ext(rng)));
      l.strides.push_back(stride(rng));
    }
    const auto buffer = static_cast<std::size_t>(len(rng));
    const std::ptrdiff_t offset = off(rng);
    // Exact answer: every reachable element lies in [0, buffer), and offset >= 0 unless the
    // layout is empty.
    bool empty = false;
    for (std::size_t e : l.extents) empty = empty || e == 0;
    bool want = empty || offset >= 0;
    if (!empty) {
      std::vector<std::size_t> idx(l.extents.size(), 0);
      while (want) {
        std::ptrdiff_t o = offset;
        for (std::size_t k = 0; k < idx.size(); ++k)
          o += static_cast<std::ptrdiff_t>(idx[k]) * l.strides[k];
        want = o >= 0 && static_cast<std::size_t>(o) < buffer;
        std::size_t k = 0;
        for (; k < idx.size(); ++k) {
          if (++idx[k] < l.extents[k]) break;
          idx[k] = 0;
        }
        if (k == idx.size()) break;
      }
    }
    ASSERT_EQ(fits(l, buffer, offset), want) << "rep " << rep;
  }
}

}  // namespace

namespace {

std::vector<std::ptrdiff_t> dense_like(const std::vector<std::size_t>& extents,
                                       const std::vector<std::ptrdiff_t>& strides) {
  std::vector<std::ptrdiff_t> dense(extents.size(), -99);
  strided::detail::dense_strides_like({extents.size(), extents.data(), strides.data()},
                                      dense.data());
  return dense;
}

TEST(DenseStridesLike, FollowsTheMemoryOrderOfTheLayout) {
  using S = std::vector<std::ptrdiff_t>;
  EXPECT_EQ(dense_like({}, {}), S{});
  EXPECT_EQ(dense_like({5}, {-3}), S{1});
  EXPECT_EQ(dense_like({4, 3}, {3, 1}), (S{3, 1}));             // row major stays row major
  EXPECT_EQ(dense_like({4, 3}, {1, 40}), (S{1, 4}));            // gapped column major packs
  EXPECT_EQ(dense_like({2, 3, 4}, {-1, 60, 6}), (S{1, 8, 2}));  // permuted and reversed
  // Stride 0 (broadcast) goes first, ties keep axis order, extents 0 and 1 count as 1.
  EXPECT_EQ(dense_like({3, 2, 5}, {0, 7, 0}), (S{1, 15, 3}));
  EXPECT_EQ(dense_like({2, 0, 3}, {1, 2, 2}), (S{1, 2, 2}));
}

TEST(DenseStridesLike, IsAlwaysAPermutationOfADenseLayout) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t rank = rng() % 9;
    std::vector<std::size_t> extents(rank);
    std::vector<std::ptrdiff_t> strides(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      extents[k] = 1 + rng() % 4;
      strides[k] = static_cast<std::ptrdiff_t>(rng() % 7) - 3;
    }
    const auto dense = dense_like(extents, strides);
    // Walking the axes by increasing |stride| (ties by axis), each dense stride is the product
    // of the extents before it.
    std::vector<std::size_t> order(rank);
    for (std::size_t k = 0; k < rank; ++k) order[k] = k;
    // std::sort with the axis as tie-break (std::stable_sort trips GCC 12's -Warray-bounds in
    // C++20 mode).
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const auto sa = std::abs(strides[a]), sb = std::abs(strides[b]);
      return sa < sb || (sa == sb && a < b);
    });
    std::ptrdiff_t step = 1;
    for (std::size_t k : order) {
      EXPECT_EQ(dense[k], step) << "trial " << trial << " axis " << k;
      step *= static_cast<std::ptrdiff_t>(extents[k]);
    }
  }
}

}  // namespace
