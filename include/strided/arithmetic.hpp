#ifndef STRIDED_ARITHMETIC_HPP
#define STRIDED_ARITHMETIC_HPP

// + and * as the kernels use them: integers wrap on overflow (two's complement, computed in
// the unsigned type, since signed overflow is undefined in C++); everything else is plain.

#include <Kokkos_Core.hpp>
#include <type_traits>

namespace strided::detail {

template <class T>
inline constexpr bool wraps_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// The unsigned type T's arithmetic is done in (at least unsigned int: no promotion to int).
template <class T>
using wrap_t = std::common_type_t<unsigned int, std::make_unsigned_t<T>>;

template <class A, class B>
KOKKOS_INLINE_FUNCTION auto add(const A& a, const B& b) {
  if constexpr (wraps_v<A> && std::is_same_v<A, B>)
    return static_cast<A>(static_cast<wrap_t<A>>(a) + static_cast<wrap_t<A>>(b));
  else
    return a + b;
}

template <class A, class B>
KOKKOS_INLINE_FUNCTION auto mul(const A& a, const B& b) {
  if constexpr (wraps_v<A> && std::is_same_v<A, B>)
    return static_cast<A>(static_cast<wrap_t<A>>(a) * static_cast<wrap_t<A>>(b));
  else
    return a * b;
}

}  // namespace strided::detail

#endif
