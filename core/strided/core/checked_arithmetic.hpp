#ifndef STRIDED_CORE_CHECKED_ARITHMETIC_HPP
#define STRIDED_CORE_CHECKED_ARITHMETIC_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <cstdint>
#include <limits>

#include "strided/core/magnitude.hpp"

namespace strided::detail {

/// Overflow-checked integer steps for layout arithmetic; each returns false on overflow.
// The builtins compile to a flag test; the portable fallback needs a division.
inline bool checked_mul(std::size_t a, std::size_t b, std::size_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return !__builtin_mul_overflow(a, b, &out);
#else
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a) return false;
  out = a * b;
  return true;
#endif
}

inline bool checked_add(std::ptrdiff_t a, std::ptrdiff_t b, std::ptrdiff_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return !__builtin_add_overflow(a, b, &out);
#endif
  constexpr std::ptrdiff_t hi = std::numeric_limits<std::ptrdiff_t>::max();
  constexpr std::ptrdiff_t lo = std::numeric_limits<std::ptrdiff_t>::min();
  if ((b > 0 && a > hi - b) || (b < 0 && a < lo - b)) return false;
  out = a + b;
  return true;
}

/// a * b and a + b clamped at SIZE_MAX: the planner's cost estimates (bytes, regions, weights)
/// only compare sizes, and a clamped size still compares as "too large".
inline std::size_t saturating_mul(std::size_t a, std::size_t b) noexcept {
  std::size_t out = 0;
  return checked_mul(a, b, out) ? out : std::numeric_limits<std::size_t>::max();
}
inline std::size_t saturating_add(std::size_t a, std::size_t b) noexcept {
  return a > std::numeric_limits<std::size_t>::max() - b ? std::numeric_limits<std::size_t>::max()
                                                         : a + b;
}

/// a * b for a signed stride and an unsigned count, false when it does not fit std::ptrdiff_t.
inline bool checked_stride_mul(std::ptrdiff_t stride, std::size_t count,
                               std::ptrdiff_t& out) noexcept {
  constexpr std::size_t hi = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  std::size_t product = 0;
  if (!checked_mul(magnitude(stride), count, product)) return false;
  if (stride >= 0) {
    if (product > hi) return false;
    out = static_cast<std::ptrdiff_t>(product);
  } else {
    if (product > hi + 1) return false;  // -2^63 is representable
    out = product == hi + 1 ? std::numeric_limits<std::ptrdiff_t>::min()
                            : -static_cast<std::ptrdiff_t>(product);
  }
  return true;
}

/// `(extent - 1) * stride` as a signed value, false when it does not fit.
inline bool checked_reach(std::size_t extent, std::ptrdiff_t stride, std::ptrdiff_t& out) noexcept {
  constexpr std::size_t hi = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  const std::size_t steps = extent - 1;
  if (steps > hi) return false;
  if (stride == std::numeric_limits<std::ptrdiff_t>::min())
    return steps == 0 ? (out = 0, true) : false;
  std::size_t product = 0;
  if (!checked_mul(steps, magnitude(stride), product) || product > hi) return false;
  out = stride < 0 ? -static_cast<std::ptrdiff_t>(product) : static_cast<std::ptrdiff_t>(product);
  return true;
}

}  // namespace strided::detail

#endif
