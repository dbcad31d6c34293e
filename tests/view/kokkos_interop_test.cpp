// strided::view(kokkos_view): every layout, subviews, const, unmanaged, rank 0 and rank 8. The
// wrapped view must have the Kokkos view's extents, strides and data pointer, and read the same
// element as kv(i, ...) at every multi-index.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <strided/strided.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using strided::StridedView;

template <class KV>
void fill_distinct(const KV& kv) {
  // Distinct values by memory offset, so that a wrong stride reads a wrong value.
  auto* p = kv.data();
  for (std::size_t n = 0; n < kv.span(); ++n) p[n] = static_cast<typename KV::value_type>(n + 1);
}

/// Checks metadata and every element of a rank-R wrap against the Kokkos view.
template <class KV, class SV, std::size_t... K>
void expect_same_view(const KV& kv, const SV& sv, std::index_sequence<K...>) {
  constexpr std::size_t R = sizeof...(K);
  ASSERT_EQ(sv.rank(), R);
  EXPECT_EQ(static_cast<const void*>(sv.data()), static_cast<const void*>(kv.data()));
  std::size_t size = 1;
  for (std::size_t k = 0; k < R; ++k) {
    EXPECT_EQ(sv.extent(k), kv.extent(k)) << "axis " << k;
    EXPECT_EQ(sv.stride(k), static_cast<std::ptrdiff_t>(kv.stride(k))) << "axis " << k;
    size *= kv.extent(k);
  }
  EXPECT_EQ(sv.size(), size);
  if (size == 0) return;
  std::array<std::size_t, R> idx{};
  std::size_t visited = 0;
  while (true) {
    EXPECT_EQ(sv(idx[K]...), kv(idx[K]...));
    ++visited;
    std::size_t k = R;
    while (k-- > 0) {
      if (++idx[k] < kv.extent(k)) break;
      idx[k] = 0;
    }
    if (k == std::size_t(-1)) break;
  }
  EXPECT_EQ(visited, size);
}
template <class KV, class SV>
void expect_same_view(const KV& kv, const SV& sv) {
  expect_same_view(kv, sv, std::make_index_sequence<KV::rank>{});
}

TEST(KokkosInterop, LayoutLeft) {
  Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> a("a", 3, 4, 5);
  fill_distinct(a);
  const auto v = strided::view(a);
  static_assert(std::is_same_v<std::decay_t<decltype(v)>, StridedView<double>>);
  EXPECT_EQ(v.stride(0), 1);
  EXPECT_EQ(v.stride(1), 3);
  EXPECT_EQ(v.stride(2), 12);
  expect_same_view(a, v);
}

TEST(KokkosInterop, LayoutRight) {
  Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", 3, 4, 5);
  fill_distinct(a);
  const auto v = strided::view(a);
  static_assert(std::is_same_v<std::decay_t<decltype(v)>, StridedView<int>>);
  EXPECT_EQ(v.stride(0), 20);
  EXPECT_EQ(v.stride(1), 5);
  EXPECT_EQ(v.stride(2), 1);
  expect_same_view(a, v);
  // Writes through the wrap are visible in the Kokkos view.
  v.at(2, 3, 4) = -7;
  EXPECT_EQ(a(2, 3, 4), -7);
}

TEST(KokkosInterop, LayoutStrideWithExplicitStrides) {
  // Extents (3, 4) with strides (5, 1) padded rows, then (1, 6): column-major with a gap.
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> a(
      "a", Kokkos::LayoutStride(3, 5, 4, 1));
  fill_distinct(a);
  const auto v = strided::view(a);
  EXPECT_EQ(v.stride(0), 5);
  EXPECT_EQ(v.stride(1), 1);
  expect_same_view(a, v);
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> b(
      "b", Kokkos::LayoutStride(3, 1, 4, 6));
  fill_distinct(b);
  const auto w = strided::view(b);
  EXPECT_EQ(w.stride(0), 1);
  EXPECT_EQ(w.stride(1), 6);
  expect_same_view(b, w);
  // Transforms on the wrap match transforms of the indices.
  const auto t = w.transpose();
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(t(j, i), b(i, j));
}

TEST(KokkosInterop, StridedSubviews) {
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", 4, 5, 6);
  fill_distinct(a);
  // Ranges on two axes and a rank-reducing index on the middle one.
  const auto s = Kokkos::subview(a, Kokkos::pair<int, int>(1, 3), 2, Kokkos::pair<int, int>(1, 5));
  static_assert(decltype(s)::rank == 2);
  const auto v = strided::view(s);
  EXPECT_EQ(v.extent(0), 2u);
  EXPECT_EQ(v.extent(1), 4u);
  EXPECT_EQ(v.stride(0), 30);
  EXPECT_EQ(v.stride(1), 1);
  EXPECT_EQ(v.data(), &a(1, 2, 1));
  expect_same_view(s, v);
  EXPECT_EQ(v(1, 3), a(2, 2, 4));
  // A column of a LayoutLeft matrix and a strided row of it.
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> m("m", 5, 7);
  fill_distinct(m);
  const auto col = Kokkos::subview(m, Kokkos::ALL, 3);
  expect_same_view(col, strided::view(col));
  EXPECT_EQ(strided::view(col).data(), &m(0, 3));
  const auto row = Kokkos::subview(m, 2, Kokkos::pair<int, int>(1, 6));
  const auto vr = strided::view(row);
  EXPECT_EQ(vr.stride(0), 5);
  expect_same_view(row, vr);
  // A subview of a subview.
  const auto block = Kokkos::subview(m, Kokkos::pair<int, int>(1, 4), Kokkos::pair<int, int>(2, 6));
  const auto inner = Kokkos::subview(block, Kokkos::ALL, Kokkos::pair<int, int>(1, 3));
  expect_same_view(inner, strided::view(inner));
}

TEST(KokkosInterop, ConstViews) {
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", 3, 4);
  fill_distinct(a);
  const Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace> c = a;
  const auto v = strided::view(c);
  static_assert(std::is_same_v<std::decay_t<decltype(v)>, StridedView<const double>>);
  static_assert(std::is_same_v<decltype(v.data()), const double*>);
  expect_same_view(c, v);
  // A const subview.
  const auto cs = Kokkos::subview(c, Kokkos::pair<int, int>(1, 3), Kokkos::ALL);
  const auto vs = strided::view(cs);
  static_assert(std::is_same_v<std::decay_t<decltype(vs)>, StridedView<const double>>);
  expect_same_view(cs, vs);
}

TEST(KokkosInterop, UnmanagedAndEmptyViews) {
  std::vector<double> buffer(12);
  for (std::size_t n = 0; n < 12; ++n) buffer[n] = static_cast<double>(n);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      u(buffer.data(), 3, 4);
  const auto v = strided::view(u);
  EXPECT_EQ(v.data(), buffer.data());
  EXPECT_EQ(v(2, 3), 11.0);
  expect_same_view(u, v);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> e("e", 0, 4);
  const auto ve = strided::view(e);
  EXPECT_EQ(ve.rank(), 2u);
  EXPECT_EQ(ve.extent(0), 0u);
  EXPECT_EQ(ve.extent(1), 4u);
  EXPECT_TRUE(ve.empty());
}

TEST(KokkosInterop, RankZero) {
  Kokkos::View<double, Kokkos::HostSpace> s("s");
  s() = 3.5;
  const auto v = strided::view(s);
  EXPECT_EQ(v.rank(), 0u);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v.data(), s.data());
  EXPECT_EQ(v(), 3.5);
  v.at() = 4.5;
  EXPECT_EQ(s(), 4.5);
  // A rank-reducing subview down to one element.
  Kokkos::View<double**, Kokkos::HostSpace> m("m", 2, 3);
  m(1, 2) = 9.0;
  const auto one = Kokkos::subview(m, 1, 2);
  const auto vo = strided::view(one);
  EXPECT_EQ(vo.rank(), 0u);
  EXPECT_EQ(vo(), 9.0);
  EXPECT_EQ(vo.data(), &m(1, 2));
}

template <class Layout>
void check_rank8() {
  Kokkos::View<double********, Layout, Kokkos::HostSpace> a("a", 2, 1, 3, 1, 2, 2, 1, 3);
  fill_distinct(a);
  const auto v = strided::view(a);
  ASSERT_EQ(v.rank(), 8u);
  expect_same_view(a, v);
  // Transforms on the rank-8 wrap.
  const auto p = v.permute({7, 6, 5, 4, 3, 2, 1, 0});
  EXPECT_EQ(p(2, 0, 1, 1, 0, 2, 0, 1), a(1, 0, 2, 0, 1, 1, 0, 2));
  const auto r = v.reverse(2);
  EXPECT_EQ(r(1, 0, 0, 0, 1, 1, 0, 2), a(1, 0, 2, 0, 1, 1, 0, 2));
  // A rank-8 subview with ranges (LayoutStride).
  const auto s = Kokkos::subview(a, Kokkos::ALL, Kokkos::ALL, Kokkos::pair<int, int>(1, 3),
                                 Kokkos::ALL, Kokkos::ALL, Kokkos::pair<int, int>(1, 2),
                                 Kokkos::ALL, Kokkos::pair<int, int>(0, 2));
  static_assert(decltype(s)::rank == 8);
  expect_same_view(s, strided::view(s));
}

TEST(KokkosInterop, RankEightLayoutRight) {
  check_rank8<Kokkos::LayoutRight>();
}
TEST(KokkosInterop, RankEightLayoutLeft) {
  check_rank8<Kokkos::LayoutLeft>();
}

TEST(KokkosInterop, RankEightLayoutStride) {
  // Explicit strides: a column-major layout with each axis padded by one element.
  Kokkos::View<int********, Kokkos::LayoutStride, Kokkos::HostSpace> a(
      "a", Kokkos::LayoutStride(2, 1, 2, 3, 1, 7, 2, 8, 1, 17, 2, 18, 1, 37, 2, 38));
  fill_distinct(a);
  const auto v = strided::view(a);
  const std::ptrdiff_t expected[] = {1, 3, 7, 8, 17, 18, 37, 38};
  for (std::size_t k = 0; k < 8; ++k) EXPECT_EQ(v.stride(k), expected[k]);
  expect_same_view(a, v);
}

TEST(KokkosInterop, WrapIsUsableByKernels) {
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> a("a", 3, 4);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> b("b", 4, 3);
  fill_distinct(a);
  // b = aᵀ through a transposed wrap; Kokkos views are accepted directly as destinations.
  strided::copy_into(b, strided::view(a).transpose());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b(j, i), a(i, j));
}

}  // namespace
