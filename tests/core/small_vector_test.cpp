// Unit tests of SmallVector (core/strided/core/small_vector.hpp): inline storage up to N values,
// heap beyond, value semantics. No Kokkos.

#include <gtest/gtest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "strided/core/small_vector.hpp"

namespace {

using strided::detail::SmallVector;
using Vec = SmallVector<long, 4>;

// Note: (count, value) constructions below spell the count as std::size_t. With two ints,
// `Vec(3, 7)` selects the unconstrained iterator-pair template constructor (It = int) and fails
// to compile; see the helper report.

bool is_inline(const Vec& v) {
  // Inline storage lives inside the object itself.
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  const auto* self = reinterpret_cast<const unsigned char*>(&v);
  return p >= self && p < self + sizeof(Vec);
}

std::vector<long> contents(const Vec& v) {
  return std::vector<long>(v.begin(), v.end());
}

TEST(SmallVector, DefaultIsEmptyAndInline) {
  Vec v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.begin(), v.end());
  EXPECT_TRUE(is_inline(v));
}

TEST(SmallVector, CountValueConstructor) {
  const Vec a(std::size_t{3}, 7L);
  EXPECT_EQ(contents(a), (std::vector<long>{7, 7, 7}));
  EXPECT_TRUE(is_inline(a));
  const Vec b(std::size_t{6}, -1L);
  EXPECT_EQ(contents(b), (std::vector<long>(6, -1)));
  EXPECT_FALSE(is_inline(b));
  const Vec c(2);
  EXPECT_EQ(contents(c), (std::vector<long>{0, 0}));
}

TEST(SmallVector, IteratorConstructorConverts) {
  const std::vector<int> src = {1, -2, 3, -4, 5};
  const Vec v(src.begin(), src.end());
  EXPECT_EQ(contents(v), (std::vector<long>{1, -2, 3, -4, 5}));
  const Vec e(src.begin(), src.begin());
  EXPECT_TRUE(e.empty());
}

TEST(SmallVector, PushBackStaysInlineUpToNThenGrows) {
  Vec v;
  for (long k = 0; k < 4; ++k) {
    v.push_back(k * 10);
    EXPECT_TRUE(is_inline(v)) << k;
  }
  v.push_back(40);
  EXPECT_FALSE(is_inline(v));
  for (long k = 5; k < 100; ++k) v.push_back(k * 10);
  ASSERT_EQ(v.size(), 100u);
  for (std::size_t k = 0; k < v.size(); ++k) EXPECT_EQ(v[k], static_cast<long>(k) * 10);
  EXPECT_EQ(v.back(), 990);
  v.back() = -1;
  EXPECT_EQ(v[99], -1);
}

TEST(SmallVector, ResizeAndReserveKeepContents) {
  Vec v;
  v.push_back(1);
  v.push_back(2);
  v.reserve(3);  // within inline capacity: no move
  EXPECT_TRUE(is_inline(v));
  v.reserve(50);
  EXPECT_FALSE(is_inline(v));
  EXPECT_EQ(contents(v), (std::vector<long>{1, 2}));
  v.resize(1);
  EXPECT_EQ(contents(v), (std::vector<long>{1}));
  v.resize(3);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], 1);
}

TEST(SmallVector, Erase) {
  const std::vector<long> src = {1, 2, 3, 4, 5, 6};
  Vec w(src.begin(), src.end());
  w.erase(0);
  EXPECT_EQ(contents(w), (std::vector<long>{2, 3, 4, 5, 6}));
  w.erase(2);
  EXPECT_EQ(contents(w), (std::vector<long>{2, 3, 5, 6}));
  w.erase(3);
  EXPECT_EQ(contents(w), (std::vector<long>{2, 3, 5}));
}

TEST(SmallVector, CopyIsIndependentInlineAndHeap) {
  for (std::size_t n : {3u, 9u}) {
    Vec a;
    for (std::size_t k = 0; k < n; ++k) a.push_back(static_cast<long>(k));
    Vec b(a);
    EXPECT_EQ(a, b);
    EXPECT_NE(a.data(), b.data());
    b[0] = 100;
    EXPECT_EQ(a[0], 0) << n;
    EXPECT_NE(a, b);
    Vec c;
    c = a;
    EXPECT_EQ(c, a);
    c[1] = -5;
    EXPECT_EQ(a[1], 1);
    // Self-assignment keeps the contents.
    Vec& alias = c;
    c = alias;
    EXPECT_EQ(c[1], -5);
    EXPECT_EQ(c.size(), n);
  }
  // Copy-assigning a small vector into a grown one.
  Vec big(std::size_t{10}, 1L), small(std::size_t{2}, 2L);
  big = small;
  EXPECT_EQ(contents(big), (std::vector<long>{2, 2}));
}

TEST(SmallVector, MoveInlineAndHeap) {
  Vec inl(std::size_t{3}, 5L);
  Vec a(std::move(inl));
  EXPECT_EQ(contents(a), (std::vector<long>{5, 5, 5}));
  EXPECT_TRUE(is_inline(a));
  EXPECT_EQ(inl.size(), 0u);  // NOLINT(bugprone-use-after-move): documented moved-from state

  Vec heap(std::size_t{12}, 8L);
  const long* storage = heap.data();
  Vec b(std::move(heap));
  EXPECT_EQ(b.data(), storage) << "heap storage is stolen, not copied";
  EXPECT_EQ(b.size(), 12u);
  EXPECT_EQ(heap.size(), 0u);  // NOLINT(bugprone-use-after-move)
  // The moved-from vector is reusable, inline again.
  heap.push_back(1);
  heap.push_back(2);
  EXPECT_EQ(contents(heap), (std::vector<long>{1, 2}));
  EXPECT_TRUE(is_inline(heap));

  // Move-assigning an inline vector over a heap one drops the heap storage.
  Vec c(std::size_t{20}, 3L);
  Vec d(std::size_t{2}, 4L);
  c = std::move(d);
  EXPECT_EQ(contents(c), (std::vector<long>{4, 4}));
  EXPECT_TRUE(is_inline(c));
  for (long k = 0; k < 10; ++k) c.push_back(k);
  EXPECT_EQ(c.size(), 12u);
  EXPECT_EQ(c[2], 0);
  EXPECT_EQ(c[11], 9);

  // Self move-assignment is a no-op.
  Vec e(std::size_t{6}, 9L);
  Vec& alias = e;
  e = std::move(alias);
  EXPECT_EQ(contents(e), (std::vector<long>(6, 9)));
}

TEST(SmallVector, Equality) {
  const std::vector<long> x = {1, 2, 3}, y = {1, 2, 4};
  EXPECT_EQ(Vec(x.begin(), x.end()), Vec(x.begin(), x.end()));
  EXPECT_NE(Vec(x.begin(), x.end()), Vec(y.begin(), y.end()));
  EXPECT_NE(Vec(x.begin(), x.end()), Vec(x.begin(), x.begin() + 2));
  EXPECT_EQ(Vec(), Vec());
  // Equality does not depend on where the storage lives.
  Vec grown(std::size_t{10}, 1L);
  grown.resize(3);
  EXPECT_EQ(grown, Vec(std::size_t{3}, 1L));
}

}  // namespace
