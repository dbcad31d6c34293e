#ifndef STRIDED_CORE_SMALL_CALL_HPP
#define STRIDED_CORE_SMALL_CALL_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The tests that let a small call skip planning: one dense layout shared by every operand, and
// operands that are either the same elements or apart. O(rank), no allocation.

#include <cstddef>
#include <functional>

#include "strided/core/config.hpp"
#include "strided/core/planner.hpp"

namespace strided::detail {

/// one_dense_layout's loops over every axis, out of line: small calls are mostly of rank 1.
template <class First, class... Rest>
STRIDED_NOINLINE bool one_dense_layout_any_rank(const First& first, const Rest&... rest) {
  const std::size_t rank = first.rank();
  const std::ptrdiff_t* strides[] = {first.strides().data(), rest.strides().data()...};
  for (std::size_t k = 1; k < 1 + sizeof...(Rest); ++k)
    for (std::size_t i = 0; i < rank; ++i)
      if (first.extent(i) > 1 && strides[k][i] != strides[0][i]) return false;
  return is_dense(rank, first.extents().data(), strides[0]);
}

/// Every operand has `first`'s strides (shapes already match) and they are dense. Rank 1, the
/// usual small call, is one comparison per operand: the general loops cost more than a copy of
/// 16 elements.
template <class First, class... Rest>
bool one_dense_layout(const First& first, const Rest&... rest) {
  if (first.rank() != 1) return one_dense_layout_any_rank(first, rest...);
  return first.extent(0) <= 1 || ((first.stride(0) == 1) && ... && (rest.stride(0) == 1));
}

/// For two operands of one dense layout of `count` elements: the same origin, or byte ranges
/// that do not meet.
template <class A, class B>
bool disjoint_or_same(const A& a, const B& b, std::size_t count) {
  const auto* pa = reinterpret_cast<const char*>(a.data());
  const auto* pb = reinterpret_cast<const char*>(b.data());
  if (count == 0) return true;
  if (pa == pb) return sizeof(typename A::value_type) == sizeof(typename B::value_type);
  const std::size_t na = count * sizeof(typename A::value_type);
  const std::size_t nb = count * sizeof(typename B::value_type);
  return std::less<const char*>()(pa + na - 1, pb) || std::less<const char*>()(pb + nb - 1, pa);
}

}  // namespace strided::detail

#endif
