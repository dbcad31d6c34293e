// Unit tests of the output-injectivity and input/output overlap checks
// (core/strided/core/aliasing.hpp). Randomized cases compare with brute-force enumeration of the
// reachable offsets (or bytes). No Kokkos.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "strided/core/aliasing.hpp"

namespace {

using strided::detail::EXACT_CHECK_BUDGET;
using strided::detail::for_each_offset;
using strided::detail::is_injective;
using strided::detail::LayoutRef;
using strided::detail::MemoryRef;
using strided::detail::same_layout;
using strided::detail::shares_memory;
using strided::detail::significant_axes;

constexpr std::ptrdiff_t kMax = std::numeric_limits<std::ptrdiff_t>::max();

/// Owns the arrays a LayoutRef points to.
struct Layout {
  std::vector<std::size_t> extents;
  std::vector<std::ptrdiff_t> strides;
  LayoutRef ref() const { return LayoutRef{extents.size(), extents.data(), strides.data()}; }
};

bool injective(const Layout& l) {
  return is_injective(l.ref());
}

/// Every reachable offset, with repetitions.
std::vector<std::ptrdiff_t> all_offsets(const Layout& l) {
  std::vector<std::ptrdiff_t> out;
  for (std::size_t e : l.extents)
    if (e == 0) return out;
  std::vector<std::size_t> idx(l.extents.size(), 0);
  while (true) {
    std::ptrdiff_t o = 0;
    for (std::size_t k = 0; k < idx.size(); ++k)
      o += static_cast<std::ptrdiff_t>(idx[k]) * l.strides[k];
    out.push_back(o);
    std::size_t k = 0;
    for (; k < idx.size(); ++k) {
      if (++idx[k] < l.extents[k]) break;
      idx[k] = 0;
    }
    if (k == idx.size()) return out;
  }
}

bool brute_injective(const Layout& l) {
  std::vector<std::ptrdiff_t> o = all_offsets(l);
  std::sort(o.begin(), o.end());
  return std::adjacent_find(o.begin(), o.end()) == o.end();
}

Layout random_layout(std::mt19937& rng, int max_rank, int max_extent, int max_stride) {
  std::uniform_int_distribution<int> rank_dist(0, max_rank), ext(0, max_extent),
      stride(-max_stride, max_stride);
  Layout l;
  const int rank = rank_dist(rng);
  for (int k = 0; k < rank; ++k) {
    // Extent 0 rarely, so most layouts have something to check.
    int e = ext(rng);
    if (e == 0 && ext(rng) != 0) e = 1;
    l.extents.push_back(static_cast<std::size_t>(e));
    l.strides.push_back(stride(rng));
  }
  return l;
}

// ---------------------------------------------------------------------------------------------
// significant_axes / for_each_offset
// ---------------------------------------------------------------------------------------------

TEST(SignificantAxes, DropsExtentOneAndSortsByMagnitude) {
  const Layout l{{3, 1, 4, 2, 1}, {-10, 0, 2, -5, 99}};
  const auto axes = significant_axes(l.ref());
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0].extent, 4u);
  EXPECT_EQ(axes[0].stride, 2);
  EXPECT_EQ(axes[1].extent, 2u);
  EXPECT_EQ(axes[1].stride, -5);
  EXPECT_EQ(axes[2].extent, 3u);
  EXPECT_EQ(axes[2].stride, -10);
}

TEST(ForEachOffset, VisitsTheSubGridOfTheFirstAxes) {
  const Layout l{{2, 3, 2}, {1, -10, 100}};
  const auto axes = significant_axes(l.ref());
  std::vector<std::ptrdiff_t> seen;
  for_each_offset(axes, 2, [&](std::ptrdiff_t o) { seen.push_back(o); });
  EXPECT_EQ(seen, (std::vector<std::ptrdiff_t>{0, 1, -10, -9, -20, -19}));
  seen.clear();
  for_each_offset(axes, 0, [&](std::ptrdiff_t o) { seen.push_back(o); });
  EXPECT_EQ(seen, (std::vector<std::ptrdiff_t>{0}));
  seen.clear();
  for_each_offset(axes, 3, [&](std::ptrdiff_t o) { seen.push_back(o); });
  std::vector<std::ptrdiff_t> want = all_offsets(l);
  std::sort(seen.begin(), seen.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(seen, want);
}

// ---------------------------------------------------------------------------------------------
// is_injective
// ---------------------------------------------------------------------------------------------

TEST(Injectivity, InterleavedButInjectiveIsAccepted) {
  const std::size_t extents[] = {3, 1500};
  const std::ptrdiff_t strides[] = {2000, 3};
  EXPECT_TRUE(is_injective(LayoutRef{2, extents, strides}));
}

TEST(Injectivity, ApiRules) {
  // Stride 0 with extent > 1: two indices on one element.
  EXPECT_FALSE(injective(Layout{{2}, {0}}));
  EXPECT_FALSE(injective(Layout{{4, 3}, {1, 0}}));
  EXPECT_FALSE(injective(Layout{{1000000, 1000000}, {0, 1}}));
  // Stride 0 on an extent-1 axis is fine.
  EXPECT_TRUE(injective(Layout{{1, 5}, {0, 1}}));
  EXPECT_TRUE(injective(Layout{{1, 1, 1}, {0, 0, 0}}));
  // Empty layouts and rank 0 are trivially injective.
  EXPECT_TRUE(injective(Layout{{}, {}}));
  EXPECT_TRUE(injective(Layout{{0, 5}, {0, 0}}));
  EXPECT_TRUE(injective(Layout{{3, 0}, {0, 0}}));
  // Interleavings: [2,3] strides [2,1] collides at (1,0) == (0,2).
  EXPECT_FALSE(injective(Layout{{2, 3}, {2, 1}}));
  EXPECT_FALSE(brute_injective(Layout{{2, 3}, {2, 1}}));
  EXPECT_TRUE(injective(Layout{{2, 2}, {2, 1}}));  // exactly 0..3
  EXPECT_TRUE(injective(Layout{{3, 1500}, {-2000, 3}}));
  EXPECT_FALSE(injective(Layout{{3, 1500}, {2001, 3}}));  // 2001 = 3 * 667
  // Negative strides: -1 and 2 collide at (2,1) == (0,0).
  EXPECT_FALSE(injective(Layout{{3, 3}, {-1, 2}}));
  EXPECT_TRUE(injective(Layout{{3, 2}, {-1, 3}}));
  // Separated axes (each stride beyond the span of the smaller ones).
  EXPECT_TRUE(injective(Layout{{2, 3, 4}, {12, 4, 1}}));
  EXPECT_TRUE(injective(Layout{{2, 3, 4}, {-100, 30, -7}}));
  // Equal strides on two axes of extent > 1 always collide.
  EXPECT_FALSE(injective(Layout{{2, 2}, {5, 5}}));
  EXPECT_FALSE(injective(Layout{{2, 2}, {5, -5}}));  // (1,1) == (0,0)
}

TEST(Injectivity, SeparatedAxesCostNothingAtAnySize) {
  // 2^40 elements, no interleaving: accepted without enumeration.
  EXPECT_TRUE(injective(
      Layout{{std::size_t(1) << 20, std::size_t(1) << 20}, {1, std::ptrdiff_t(1) << 20}}));
  EXPECT_TRUE(injective(Layout{std::vector<std::size_t>(40, 2), [] {
                                 std::vector<std::ptrdiff_t> s(40);
                                 for (std::size_t k = 0; k < 40; ++k) s[k] = std::ptrdiff_t(1) << k;
                                 return s;
                               }()}));
}

TEST(Injectivity, LargeNonInjectiveIsRejected) {
  // An interleaved block above the budget (3 * 2^23 elements) that does collide: rejected.
  EXPECT_FALSE(injective(Layout{{std::size_t(1) << 23, 3}, {3, 2001}}));
  // Unrepresentable span: rejected.
  EXPECT_FALSE(injective(Layout{{3}, {kMax}}));
  EXPECT_FALSE(injective(Layout{{2, 2}, {kMax, kMax}}));
}

TEST(Injectivity, InterleavedWithinBudgetIsExact) {
  // 3 * 100000 elements interleaved, injective: enumerated and accepted.
  EXPECT_TRUE(injective(Layout{{3, 100000}, {200000, 3}}));
  // Same with a colliding middle stride: 199998 = 3 * 66666.
  EXPECT_FALSE(injective(Layout{{3, 100000}, {199998, 3}}));
  // Interleaved block below separated outer axes.
  EXPECT_TRUE(injective(Layout{{3, 1500, 4}, {2000, 3, 10000}}));
  EXPECT_FALSE(injective(Layout{{3, 1500, 4}, {2000, 3, 4497}}));
  EXPECT_EQ(EXACT_CHECK_BUDGET, std::size_t(1) << 24);
}

TEST(Injectivity, RandomSmallLayoutsMatchBruteForce) {
  std::mt19937 rng(256);
  int accepted = 0, rejected = 0;
  for (int rep = 0; rep < 20000; ++rep) {
    const Layout l = random_layout(rng, 4, 4, 7);
    const bool want = brute_injective(l);
    // Never accepts a non-injective layout; every one here is within budget, so it is exact.
    ASSERT_EQ(injective(l), want) << "rep " << rep;
    (want ? accepted : rejected) += 1;
  }
  EXPECT_GT(accepted, 1000);  // both answers are well represented
  EXPECT_GT(rejected, 1000);
}

TEST(Injectivity, RandomInterleavedDenseLayouts) {
  // Gapped dense layouts with one stride perturbed: more injective-but-interleaved cases.
  std::mt19937 rng(257);
  std::uniform_int_distribution<int> ext(2, 5), delta(-3, 3), rank_dist(2, 4);
  for (int rep = 0; rep < 5000; ++rep) {
    Layout l;
    const int rank = rank_dist(rng);
    std::ptrdiff_t stride = 1;
    for (int k = 0; k < rank; ++k) {
      l.extents.push_back(static_cast<std::size_t>(ext(rng)));
      l.strides.push_back(stride);
      stride *= static_cast<std::ptrdiff_t>(l.extents.back());
    }
    const auto victim = static_cast<std::size_t>(rng() % l.strides.size());
    l.strides[victim] += delta(rng);
    std::shuffle(l.strides.begin(), l.strides.end(), rng);
    ASSERT_EQ(injective(l), brute_injective(l)) << "rep " << rep;
  }
}

// The interleaved block's element count overflows (2^66): the answer must come at once, and be
// "not injective" ((1,0) and (0,1) share offset 1), not an enumeration that wraps.
TEST(Injectivity, OverflowingInterleavedCountIsRejected) {
  EXPECT_FALSE(injective(Layout{{std::size_t(1) << 33, std::size_t(1) << 33}, {1, 1}}));
}

// ---------------------------------------------------------------------------------------------
// same_layout
// ---------------------------------------------------------------------------------------------

TEST(SameLayout, ComparesOriginSizeExtentsAndSignificantStrides) {
  double buf[64] = {};
  const Layout a{{4, 1, 8}, {8, 3, 1}};
  const Layout b{{4, 1, 8}, {8, -99, 1}};  // differs only on the extent-1 axis
  const Layout c{{4, 1, 8}, {1, 3, 4}};    // transposed
  const Layout d{{4, 8}, {8, 1}};          // extent-1 axis gone: another rank
  const Layout e{{4, 1, 7}, {8, 3, 1}};
  EXPECT_TRUE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 8, a.ref()}));
  EXPECT_TRUE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 8, b.ref()}));
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 8, c.ref()}));
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 8, d.ref()}));
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 8, e.ref()}));
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf + 1, 8, a.ref()}));
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, a.ref()}, MemoryRef{buf, 4, a.ref()}));
  // A stride difference on an extent-2 axis counts.
  const Layout f{{2, 4}, {4, 1}}, g{{2, 4}, {8, 1}};
  EXPECT_FALSE(same_layout(MemoryRef{buf, 8, f.ref()}, MemoryRef{buf, 8, g.ref()}));
  EXPECT_TRUE(same_layout(MemoryRef{buf, 8, g.ref()}, MemoryRef{buf, 8, g.ref()}));
}

// ---------------------------------------------------------------------------------------------
// shares_memory
// ---------------------------------------------------------------------------------------------

TEST(SharesMemory, DisjointRangesOfOneBuffer) {
  double buf[100] = {};
  const Layout row{{5, 10}, {10, 1}};  // 50 elements
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, row.ref()}, MemoryRef{buf + 50, 8, row.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf + 50, 8, row.ref()}, MemoryRef{buf, 8, row.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, row.ref()}, MemoryRef{buf + 49, 8, row.ref()}));
  // Two halves described with negative strides (origin at the last element).
  const Layout rev{{50}, {-1}};
  EXPECT_FALSE(shares_memory(MemoryRef{buf + 49, 8, rev.ref()}, MemoryRef{buf + 99, 8, rev.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf + 50, 8, rev.ref()}, MemoryRef{buf + 99, 8, rev.ref()}));
}

TEST(SharesMemory, EvenOddInterleavedViewsAreDisjoint) {
  double buf[200] = {};
  const Layout every_other{{100}, {2}};
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, every_other.ref()},
                             MemoryRef{buf + 1, 8, every_other.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, every_other.ref()},
                            MemoryRef{buf + 2, 8, every_other.ref()}));
  // Columns 0 and 1 of a row-major 10x10 (stride 10): disjoint; column 0 and row 0 share (0,0).
  const Layout col{{10}, {10}}, row{{10}, {1}};
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, col.ref()}, MemoryRef{buf + 1, 8, col.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, col.ref()}, MemoryRef{buf, 8, row.ref()}));
  // Row 1 (elements 10..19) and column 0 share element 10; the inner block of 8x8 (offset 11,
  // stride [10,1]) and column 0 do not meet (exact for small same-type operands).
  const Layout inner{{8, 8}, {10, 1}};
  EXPECT_TRUE(shares_memory(MemoryRef{buf + 10, 8, row.ref()}, MemoryRef{buf, 8, col.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf + 11, 8, inner.ref()}, MemoryRef{buf, 8, col.ref()}));
  // Real and imaginary parts of interleaved complex data viewed as doubles.
  const Layout cplx{{3, 4}, {8, 2}};
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, cplx.ref()}, MemoryRef{buf + 1, 8, cplx.ref()}));
}

TEST(SharesMemory, IdenticalAndPartiallyOverlapping) {
  double buf[100] = {};
  const Layout m{{4, 5}, {5, 1}};
  const Layout t{{4, 5}, {1, 4}};  // the same 20 elements, another order
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, m.ref()}, MemoryRef{buf, 8, m.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, m.ref()}, MemoryRef{buf, 8, t.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, m.ref()}, MemoryRef{buf + 19, 8, m.ref()}));
  const Layout one{{}, {}};
  EXPECT_TRUE(shares_memory(MemoryRef{buf + 7, 8, one.ref()}, MemoryRef{buf, 8, m.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf + 20, 8, one.ref()}, MemoryRef{buf, 8, m.ref()}));
  // A broadcast input over one element of the output.
  const Layout bcast{{4, 5}, {0, 0}};
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, m.ref()}, MemoryRef{buf + 3, 8, bcast.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, m.ref()}, MemoryRef{buf + 30, 8, bcast.ref()}));
}

TEST(SharesMemory, EmptyOperandsShareNothing) {
  double buf[10] = {};
  const Layout empty{{0, 3}, {1, 1}}, full{{10}, {1}};
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, empty.ref()}, MemoryRef{buf, 8, full.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, full.ref()}, MemoryRef{buf, 8, empty.ref()}));
}

TEST(SharesMemory, ElementSizeDifferences) {
  alignas(8) unsigned char buf[256] = {};
  const Layout four{{4}, {1}};
  // 4 doubles = bytes [0, 32); floats from byte 32 on: disjoint; from byte 28: shared.
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, four.ref()}, MemoryRef{buf + 32, 4, four.ref()}));
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, four.ref()}, MemoryRef{buf + 28, 4, four.ref()}));
  // The last byte of a double is still that double.
  const Layout one{{}, {}};
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, one.ref()}, MemoryRef{buf + 7, 1, one.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, one.ref()}, MemoryRef{buf + 8, 1, one.ref()}));
  // Same size but misaligned by half an element: overlapping ranges share bytes.
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, four.ref()}, MemoryRef{buf + 4, 8, four.ref()}));
  EXPECT_FALSE(shares_memory(MemoryRef{buf, 8, four.ref()}, MemoryRef{buf + 32, 8, four.ref()}));
}

/// Bytes touched by an operand, relative to `buffer`.
std::set<std::ptrdiff_t> bytes_of(const unsigned char* buffer, const unsigned char* origin,
                                  std::size_t element_size, const Layout& l) {
  std::set<std::ptrdiff_t> bytes;
  const std::ptrdiff_t base = origin - buffer;
  const auto es = static_cast<std::ptrdiff_t>(element_size);
  for (std::ptrdiff_t o : all_offsets(l))
    for (std::ptrdiff_t b = 0; b < es; ++b) bytes.insert(base + o * es + b);
  return bytes;
}

TEST(SharesMemory, RandomLayoutsInOneBufferMatchBruteForce) {
  std::mt19937 rng(4096);
  alignas(16) static unsigned char buf[4096];
  std::uniform_int_distribution<int> size_pick(0, 3), coin(0, 3);
  int exact = 0, shared = 0, not_shared = 0;
  for (int rep = 0; rep < 6000; ++rep) {
    const Layout la = random_layout(rng, 3, 4, 6), lb = random_layout(rng, 3, 4, 6);
    // Element sizes: mostly equal so the exact path is exercised; sometimes 1..8 bytes.
    const std::size_t ea = std::size_t(1) << size_pick(rng);
    const std::size_t eb = coin(rng) == 0 ? std::size_t(1) << size_pick(rng) : ea;
    // Origins placed so every reachable byte is inside buf: the lowest offset lands at or
    // after byte 0, anywhere in the first 200 bytes (so the two operands often meet).
    auto place = [&](const Layout& l, std::size_t es) {
      std::ptrdiff_t lo = 0;
      for (std::size_t k = 0; k < l.extents.size(); ++k)
        if (l.extents[k] > 0 && l.strides[k] < 0)
          lo += static_cast<std::ptrdiff_t>(l.extents[k] - 1) * l.strides[k];
      const std::ptrdiff_t slack = static_cast<std::ptrdiff_t>(rng() % 200);
      // Aligned to the element size most of the time.
      const std::ptrdiff_t shift = coin(rng) == 0 ? slack
                                                  : slack / static_cast<std::ptrdiff_t>(es) *
                                                        static_cast<std::ptrdiff_t>(es);
      return buf + (-lo * static_cast<std::ptrdiff_t>(es) + shift);
    };
    const unsigned char* pa = place(la, ea);
    const unsigned char* pb = place(lb, eb);
    const std::set<std::ptrdiff_t> ba = bytes_of(buf, pa, ea, la), bb = bytes_of(buf, pb, eb, lb);
    bool want = false;
    for (std::ptrdiff_t b : bb) want = want || ba.count(b) != 0;
    const bool got = shares_memory(MemoryRef{pa, ea, la.ref()}, MemoryRef{pb, eb, lb.ref()});
    const bool swapped = shares_memory(MemoryRef{pb, eb, lb.ref()}, MemoryRef{pa, ea, la.ref()});
    SCOPED_TRACE(testing::Message() << "rep " << rep << ", sizes " << ea << "/" << eb
                                    << ", origins " << (pa - buf) << "/" << (pb - buf));
    // Never a false "not shared".
    if (want) {
      ASSERT_TRUE(got);
      ASSERT_TRUE(swapped);
    }
    // Exact when the address ranges are disjoint ...
    const bool ranges_disjoint =
        ba.empty() || bb.empty() || *ba.rbegin() < *bb.begin() || *bb.rbegin() < *ba.begin();
    if (ranges_disjoint) {
      ASSERT_FALSE(got);
    }
    // ... and for small operands of one element size whose origins are element-aligned.
    const auto delta = pb - pa;
    if (ea == eb && delta % static_cast<std::ptrdiff_t>(ea) == 0) {
      ASSERT_EQ(got, want);
      ASSERT_EQ(swapped, want);
      ++exact;
    }
    (want ? shared : not_shared) += 1;
  }
  EXPECT_GT(exact, 2000);
  EXPECT_GT(shared, 500);
  EXPECT_GT(not_shared, 1000);
}

// Robustness bug (see the helper report): shares_memory ignores element_count's overflow flag.
// For extents [2^20, 2^50] strides [1, 1] the count overflows: the conservative answer for an
// operand against itself is "shared", without enumerating anything.
TEST(SharesMemory, OverflowingElementCountIsConservative) {
  double buf[1] = {};
  const Layout huge{{std::size_t(1) << 20, std::size_t(1) << 50}, {1, 1}};
  EXPECT_TRUE(shares_memory(MemoryRef{buf, 8, huge.ref()}, MemoryRef{buf, 8, huge.ref()}));
}

}  // namespace
