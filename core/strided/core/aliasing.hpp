#ifndef STRIDED_CORE_ALIASING_HPP
#define STRIDED_CORE_ALIASING_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "strided/core/layout.hpp"
#include "strided/core/small_vector.hpp"

namespace strided::detail {

/// Above this many elements of an interleaved block, exact checks give up and reject (never a
/// false accept). Separated axes (stride beyond the span of all smaller ones) cost nothing.
inline constexpr std::size_t EXACT_CHECK_BUDGET = std::size_t(1) << 24;

struct Axis {
  std::size_t extent;
  std::ptrdiff_t stride;
};
using AxisList = SmallVector<Axis, 16>;

/// Axes of extent > 1 sorted by |stride|.
inline AxisList significant_axes(const LayoutRef& layout) {
  AxisList axes;
  for (std::size_t k = 0; k < layout.rank; ++k)
    if (layout.extents[k] > 1) axes.push_back({layout.extents[k], layout.strides[k]});
  std::sort(axes.begin(), axes.end(),
            [](const Axis& a, const Axis& b) { return magnitude(a.stride) < magnitude(b.stride); });
  return axes;
}

/// Calls `visit(offset)` for every offset of the first `count` axes (no early exit).
template <class Visit>
void for_each_offset(const AxisList& axes, std::size_t count, Visit&& visit) {
  SmallVector<std::size_t, 16> index(count, 0);
  std::ptrdiff_t offset = 0;
  while (true) {
    visit(offset);
    std::size_t k = 0;
    // Every offset visited is a reachable one (no step past an axis' last index), so none
    // overflows: each is a sum of the layout's reaches.
    for (; k < count; ++k) {
      if (++index[k] < axes[k].extent) {
        offset += axes[k].stride;
        break;
      }
      offset -= static_cast<std::ptrdiff_t>(axes[k].extent - 1) * axes[k].stride;
      index[k] = 0;
    }
    if (k == count) return;
  }
}

/// Exact: does the layout map two different indices to one element? Only an interleaved block
/// (axes whose stride does not clear the span of the smaller ones) is enumerated; beyond
/// EXACT_CHECK_BUDGET elements it conservatively answers "not injective".
inline bool is_injective(const LayoutRef& layout) {
  if (layout.has_zero_extent()) return true;
  const AxisList axes = significant_axes(layout);
  std::size_t interleaved = 0;  // axes[0, interleaved) must be checked element by element
  std::ptrdiff_t span = 0;      // max - min offset reached by the axes seen so far
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const std::size_t m = magnitude(axes[k].stride);
    if (m == 0 || m > static_cast<std::size_t>(PTRDIFF_MAX)) return false;
    const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(m);
    if (step <= span) interleaved = k + 1;
    std::ptrdiff_t reach = 0;
    if (!checked_reach(axes[k].extent, step, reach) || !checked_add(span, reach, span))
      return false;
  }
  if (interleaved == 0) return true;
  std::size_t count = 1;
  for (std::size_t k = 0; k < interleaved; ++k)
    if (!checked_mul(count, axes[k].extent, count)) return false;
  if (count > EXACT_CHECK_BUDGET) return false;
  std::vector<std::ptrdiff_t> offsets;
  offsets.reserve(count);
  for_each_offset(axes, interleaved, [&](std::ptrdiff_t o) { offsets.push_back(o); });
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end();
}

/// One operand as raw memory: origin address, element size, layout.
struct MemoryRef {
  const void* origin;
  std::size_t element_size;
  LayoutRef layout;
};

inline bool same_layout(const MemoryRef& a, const MemoryRef& b) {
  if (a.origin != b.origin || a.element_size != b.element_size || a.layout.rank != b.layout.rank)
    return false;
  for (std::size_t k = 0; k < a.layout.rank; ++k) {
    if (a.layout.extents[k] != b.layout.extents[k]) return false;
    if (a.layout.extents[k] > 1 && a.layout.strides[k] != b.layout.strides[k]) return false;
  }
  return true;
}

/// Do `a` and `b` share at least one byte? Exact for disjoint address ranges, for interleavings
/// that a common stride divisor separates (even/odd elements) and for small same-type operands;
/// otherwise it conservatively answers yes.
inline bool shares_memory(const MemoryRef& a, const MemoryRef& b) {
  if (a.layout.has_zero_extent() || b.layout.has_zero_extent()) return false;
  std::ptrdiff_t alo = 0, ahi = 0, blo = 0, bhi = 0;
  if (!offset_bounds(a.layout, alo, ahi) || !offset_bounds(b.layout, blo, bhi)) return true;
  const auto base_a = reinterpret_cast<std::uintptr_t>(a.origin);
  const auto base_b = reinterpret_cast<std::uintptr_t>(b.origin);
  const auto ea = static_cast<std::ptrdiff_t>(a.element_size);
  const auto eb = static_cast<std::ptrdiff_t>(b.element_size);
  // Byte ranges [first, last) relative to a's origin, in checked signed arithmetic: a range
  // that does not fit (only a buffer claimed larger than memory) conservatively overlaps.
  const std::ptrdiff_t delta = static_cast<std::ptrdiff_t>(base_b - base_a);
  std::ptrdiff_t a_first = 0, a_last = 0, b_first = 0, b_last = 0;
  const auto bytes = [](std::ptrdiff_t element, std::ptrdiff_t size, std::ptrdiff_t base,
                        std::ptrdiff_t extra, std::ptrdiff_t& out) {
    std::ptrdiff_t scaled = 0;
    return checked_stride_mul(element, static_cast<std::size_t>(size), scaled) &&
           checked_add(base, scaled, out) && checked_add(out, extra, out);
  };
  if (!bytes(alo, ea, 0, 0, a_first) || !bytes(ahi, ea, 0, ea, a_last) ||
      !bytes(blo, eb, delta, 0, b_first) || !bytes(bhi, eb, delta, eb, b_last))
    return true;
  if (a_last <= b_first || b_last <= a_first) return false;
  if (ea != eb || delta % ea != 0) return true;
  // Same element size, element-aligned: elements coincide or are disjoint. Offsets of both
  // operands are multiples of g = gcd(all strides); a shift that is not one cannot meet.
  const std::ptrdiff_t shift = delta / ea;
  std::ptrdiff_t g = 0;
  for (const LayoutRef* l : {&a.layout, &b.layout})
    for (std::size_t k = 0; k < l->rank; ++k)
      if (l->extents[k] > 1) g = std::gcd(g, static_cast<std::ptrdiff_t>(magnitude(l->strides[k])));
  if (g > 1 && shift % g != 0) return false;
  std::size_t na = 0, nb = 0;
  if (!element_count(a.layout, na) || !element_count(b.layout, nb)) return true;
  if (na > EXACT_CHECK_BUDGET || nb > EXACT_CHECK_BUDGET) return true;
  const AxisList axes_a = significant_axes(a.layout), axes_b = significant_axes(b.layout);
  std::vector<std::ptrdiff_t> offsets;
  offsets.reserve(na);
  for_each_offset(axes_a, axes_a.size(), [&](std::ptrdiff_t o) { offsets.push_back(o); });
  std::sort(offsets.begin(), offsets.end());
  bool shared = false;
  for_each_offset(axes_b, axes_b.size(), [&](std::ptrdiff_t o) {
    shared = shared || std::binary_search(offsets.begin(), offsets.end(), o + shift);
  });
  return shared;
}

}  // namespace strided::detail

#endif
