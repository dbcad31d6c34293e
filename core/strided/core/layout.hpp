#ifndef STRIDED_CORE_LAYOUT_HPP
#define STRIDED_CORE_LAYOUT_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <limits>

#include "strided/core/checked_arithmetic.hpp"

namespace strided::detail {

/// A non-owning description of one operand's index space: extents and signed element strides.
struct LayoutRef {
  std::size_t rank = 0;
  const std::size_t* extents = nullptr;
  const std::ptrdiff_t* strides = nullptr;

  bool has_zero_extent() const noexcept {
    for (std::size_t k = 0; k < rank; ++k)
      if (extents[k] == 0) return true;
    return false;
  }
};

/// Product of the extents; false when it overflows.
inline bool element_count(const LayoutRef& layout, std::size_t& count) noexcept {
  count = 1;
  for (std::size_t k = 0; k < layout.rank; ++k)
    if (!checked_mul(count, layout.extents[k], count)) return false;
  return true;
}

/// Smallest and largest reachable offsets relative to the origin; false on overflow. Only
/// meaningful for a layout without zero extents.
inline bool offset_bounds(const LayoutRef& layout, std::ptrdiff_t& lowest,
                          std::ptrdiff_t& highest) noexcept {
  lowest = 0;
  highest = 0;
  for (std::size_t k = 0; k < layout.rank; ++k) {
    std::ptrdiff_t reach = 0;
    if (!checked_reach(layout.extents[k], layout.strides[k], reach)) return false;
    if (!checked_add(reach < 0 ? lowest : highest, reach, reach < 0 ? lowest : highest))
      return false;
  }
  return true;
}

/// True when the element count of a non-empty layout fits std::ptrdiff_t: kernels index
/// elements with signed integers, so every index and every product of extents is representable.
inline bool representable_count(const LayoutRef& layout) noexcept {
  if (layout.has_zero_extent()) return true;
  std::size_t count = 0;
  return element_count(layout, count) &&
         count <= static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
}

/// True when every element `offset + sum(i_k * stride_k)` lies in [0, buffer_len) and the
/// arithmetic is representable (representable_count). A layout with an extent 0 reaches nothing
/// and is always valid.
inline bool fits_buffer(const LayoutRef& layout, std::size_t buffer_len,
                        std::ptrdiff_t offset) noexcept {
  if (layout.has_zero_extent()) return true;
  if (!representable_count(layout)) return false;
  std::ptrdiff_t lowest = 0, highest = 0;
  if (offset < 0 || !offset_bounds(layout, lowest, highest)) return false;
  std::ptrdiff_t first = 0, last = 0;
  if (!checked_add(offset, lowest, first) || !checked_add(offset, highest, last)) return false;
  return first >= 0 && static_cast<std::size_t>(last) < buffer_len;
}

/// Dense strides (no gaps, all positive) that store the axes in the memory order of `layout`:
/// by increasing |stride|, ties (and stride-0 axes) in axis order. A copy between a layout and
/// its dense twin walks both in the same order: a contiguous stream, no permutation.
inline void dense_strides_like(const LayoutRef& layout, std::ptrdiff_t* dense) noexcept {
  std::ptrdiff_t step = 1;
  std::size_t placed = 0;
  // Selection by (|stride|, axis): O(rank^2), no allocation.
  std::size_t last_axis = 0;
  std::size_t last_mag = 0;
  while (placed < layout.rank) {
    std::size_t best = layout.rank, best_mag = 0;
    for (std::size_t k = 0; k < layout.rank; ++k) {
      const std::ptrdiff_t s = layout.strides[k];
      const std::size_t mag = magnitude(s);
      const bool after = placed == 0 || mag > last_mag || (mag == last_mag && k > last_axis);
      if (after && (best == layout.rank || mag < best_mag)) {
        best = k;
        best_mag = mag;
      }
    }
    dense[best] = step;
    // The steps are partial products of the extents, so they fit when the element count does;
    // an empty layout's extents may pass 64 bits, and its strides are never used: they stop.
    std::ptrdiff_t next = 0;
    if (checked_stride_mul(step, layout.extents[best] > 0 ? layout.extents[best] : 1, next))
      step = next;
    last_axis = best;
    last_mag = best_mag;
    ++placed;
  }
}

}  // namespace strided::detail

#endif
