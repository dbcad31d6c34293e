#ifndef STRIDED_BACKENDS_HOST_VECTOR_WIDTH_HPP
#define STRIDED_BACKENDS_HOST_VECTOR_WIDTH_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The host's vector register width as the compiler targets it, for loops that keep a block of
// accumulators in registers: one register per accumulator row fits every ISA's register file
// (16 rows: 16 of AVX-512's 32 zmm, all 16 of AVX's ymm with memory operands), where a fixed
// 64-byte row spills half of them on AVX2 (W4.colsum at 0.68x a plain loop).

#include <cstddef>

namespace strided::detail {

#if defined(__AVX512F__)
inline constexpr std::size_t HOST_VECTOR_BYTES = 64;
#elif defined(__AVX__)
inline constexpr std::size_t HOST_VECTOR_BYTES = 32;
#else
inline constexpr std::size_t HOST_VECTOR_BYTES = 16;
#endif

/// Elements of U per host vector register, rounded down to a power of two in [1, 16] (so that
/// it divides the 16-output sweeps of its callers).
template <class U>
constexpr std::size_t host_vector_count() {
  std::size_t v = 1;
  while (v < 16 && 2 * v * sizeof(U) <= HOST_VECTOR_BYTES) v *= 2;
  return v;
}
template <class U>
inline constexpr std::size_t host_vector_elements = host_vector_count<U>();

}  // namespace strided::detail

#endif
