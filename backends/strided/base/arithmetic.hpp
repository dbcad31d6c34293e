#ifndef STRIDED_BASE_ARITHMETIC_HPP
#define STRIDED_BASE_ARITHMETIC_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// + and * as the kernels use them: integers wrap on overflow (two's complement, computed in
// the unsigned type, since signed overflow is undefined in C++); everything else is plain, except
// `rounded_mul`, the product of the built-ins that add products (dot, sum_squares, axpy, ...).

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "strided/base/element_ops.hpp"

namespace strided::detail {

template <class T>
inline constexpr bool wraps_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// The unsigned type T's arithmetic is done in (at least unsigned int: no promotion to int).
template <class T>
using wrap_t = std::common_type_t<unsigned int, std::make_unsigned_t<T>>;

/// a + b, wrapping for integers. Named apart from the public kernels `strided::add` and `mul`,
/// and called qualified: argument-dependent lookup must find neither for the other.
template <class A, class B>
KOKKOS_INLINE_FUNCTION auto wrapping_add(const A& a, const B& b) {
  if constexpr (wraps_v<A> && std::is_same_v<A, B>)
    return static_cast<A>(static_cast<wrap_t<A>>(a) + static_cast<wrap_t<A>>(b));
  else
    return a + b;
}

/// a * b, wrapping for integers.
template <class A, class B>
KOKKOS_INLINE_FUNCTION auto wrapping_mul(const A& a, const B& b) {
  if constexpr (wraps_v<A> && std::is_same_v<A, B>)
    return static_cast<A>(static_cast<wrap_t<A>>(a) * static_cast<wrap_t<A>>(b));
  else
    return a * b;
}

/// The register class of float and double on targets that have a constraint for it.
#if defined(__x86_64__)
#define STRIDED_FP_REGISTER "+x"
#elif defined(__aarch64__)
#define STRIDED_FP_REGISTER "+w"
#endif

/// Makes the compiler hold x as a value of its type: an empty asm statement that claims to change
/// x, so the multiplication that produced x cannot be fused with an addition that uses it.
/// Host code only (device code multiplies with the _rn intrinsics instead). In a register where
/// the target has a constraint for it (no memory traffic), through memory otherwise.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION void materialize([[maybe_unused]] R& x) {
#if defined(__GNUC__) || defined(__clang__)
#if defined(STRIDED_FP_REGISTER)
  if constexpr (std::is_same_v<R, float> || std::is_same_v<R, double>) {
    __asm__("" : STRIDED_FP_REGISTER(x));
    return;
  }
#endif
  __asm__("" : "+m"(x));
#endif
  // Other host compilers (MSVC) do not contract across statements by default.
}

/// The same for a whole block of values at once (host code): the block stays in memory across
/// the barrier, so the loops that fill it and that read it still vectorize. Products written to
/// v before and added after are rounded, never fused, at the cost of one store and one load per
/// element in L1 instead of a scalar loop.
template <class R, std::size_t K>
KOKKOS_FORCEINLINE_FUNCTION void materialize_block([[maybe_unused]] R (&v)[K]) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+m"(v));
#endif
}

/// a * b of one real floating type, rounded to that type before anything else sees it: never
/// contracted into a fused multiply-add, whatever the compiler and its flags (-ffp-contract=fast,
/// -march with FMA, nvcc's default --fmad=true, hipcc).
template <class R>
KOKKOS_FORCEINLINE_FUNCTION R rounded_real_mul(const R& a, const R& b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  // The _rn intrinsics are documented never to be merged into a multiply-add.
  if constexpr (std::is_same_v<R, double>)
    return __dmul_rn(a, b);
  else if constexpr (std::is_same_v<R, float>)
    return __fmul_rn(a, b);
  else
    return a * b;
#else
  R p = a * b;
  materialize(p);
  return p;
#endif
}

/// Whether every product of an A and a B is exact in the real floating type U, so that rounding
/// it changes nothing and no contraction can change a sum of such products: two floats in a
/// double (24 + 24 <= 53 significand bits, and every product, subnormals included, lies inside a
/// double's exponent range).
template <class U, class A, class B>
constexpr bool exact_product() {
  if constexpr (std::is_floating_point_v<U> && std::is_floating_point_v<A> &&
                std::is_floating_point_v<B>) {
    using LU = std::numeric_limits<U>;
    using LA = std::numeric_limits<A>;
    using LB = std::numeric_limits<B>;
    return LA::digits + LB::digits <= LU::digits &&
           (LA::min_exponent - LA::digits) + (LB::min_exponent - LB::digits) >=
               LU::min_exponent - LU::digits &&
           LA::max_exponent + LB::max_exponent <= LU::max_exponent;
  } else {
    return false;
  }
}
template <class U, class A, class B>
inline constexpr bool exact_product_v = exact_product<U, A, B>();

template <class C>
KOKKOS_FORCEINLINE_FUNCTION C rounded_complex_mul(const C& a, const C& b) {
  // The textbook product with each real product rounded (no Annex G recovery of infinities).
  return C(rounded_real_mul(a.real(), b.real()) - rounded_real_mul(a.imag(), b.imag()),
           rounded_real_mul(a.real(), b.imag()) + rounded_real_mul(a.imag(), b.real()));
}

/// The product of the built-ins that add products (dot, dot_axes, sum_squares, axpy): like
/// `wrapping_mul`, but a floating or complex product is rounded before it is added, so their bits
/// do not depend on contraction. Both operands are converted to the product type first.
template <class A, class B>
KOKKOS_INLINE_FUNCTION auto rounded_mul(const A& a, const B& b) {
  using P = decltype(detail::wrapping_mul(a, b));
  if constexpr (std::is_floating_point_v<P> && std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    return rounded_real_mul<P>(static_cast<P>(a), static_cast<P>(b));
  } else if constexpr (is_complex_v<P> && std::is_arithmetic_v<A>) {  // real * complex
    using R = decltype(b.real() * a);
    return P(rounded_real_mul<R>(a, b.real()), rounded_real_mul<R>(a, b.imag()));
  } else if constexpr (is_complex_v<P> && std::is_arithmetic_v<B>) {  // complex * real
    using R = decltype(a.real() * b);
    return P(rounded_real_mul<R>(a.real(), b), rounded_real_mul<R>(a.imag(), b));
  } else if constexpr (is_complex_v<P>) {
    return rounded_complex_mul<P>(static_cast<P>(a), static_cast<P>(b));
  } else {
    return detail::wrapping_mul(a, b);
  }
}

}  // namespace strided::detail

#endif
