#ifndef STRIDED_CORE_SMALL_CALL_HPP
#define STRIDED_CORE_SMALL_CALL_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The tests that let a small call skip planning: one dense layout shared by every operand, and
// operands that are either the same elements or apart. O(rank), no allocation.

#include <cstddef>
#include <functional>

#include "strided/core/planner.hpp"

namespace strided::detail {

/// Every operand has `first`'s strides (shapes already match) and they are dense.
template <class First, class... Rest>
bool one_dense_layout(const First& first, const Rest&... rest) {
  const std::size_t rank = first.rank();
  const std::ptrdiff_t* strides[] = {first.strides().data(), rest.strides().data()...};
  for (std::size_t k = 1; k < 1 + sizeof...(Rest); ++k)
    for (std::size_t i = 0; i < rank; ++i)
      if (first.extent(i) > 1 && strides[k][i] != strides[0][i]) return false;
  return is_dense(rank, first.extents().data(), strides[0]);
}

/// For two operands of one dense layout: the same origin, or byte ranges that do not meet.
template <class A, class B>
bool disjoint_or_same(const A& a, const B& b) {
  const auto* pa = reinterpret_cast<const char*>(a.data());
  const auto* pb = reinterpret_cast<const char*>(b.data());
  if (a.size() == 0) return true;
  if (pa == pb) return sizeof(typename A::value_type) == sizeof(typename B::value_type);
  const std::size_t na = a.size() * sizeof(typename A::value_type);
  const std::size_t nb = b.size() * sizeof(typename B::value_type);
  return std::less<const char*>()(pa + na - 1, pb) || std::less<const char*>()(pb + nb - 1, pa);
}

}  // namespace strided::detail

#endif
