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
