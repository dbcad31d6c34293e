#ifndef STRIDED_BACKENDS_COMMON_EXACT_TERMS_HPP
#define STRIDED_BACKENDS_COMMON_EXACT_TERMS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// What the exact tier adds for each element: the element's components (sum), or the parts of
// its exact product (dot, sum_squares). A product of doubles is p + e exactly (p rounded, e its
// error, by a fused multiply-add); where that is not exact (products near underflow or overflow,
// infinities, NaNs) the product goes to the integer digit by digit instead.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <type_traits>

#include "strided/backends/common/exact_sum.hpp"
#include "strided/base/arithmetic.hpp"
#include "strided/base/element_ops.hpp"

namespace strided::detail {

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<Kokkos::complex<T>> {
  using type = T;
};
template <class T>
using real_of_t = typename RealOf<std::remove_cv_t<T>>::type;

template <class T>
KOKKOS_FORCEINLINE_FUNCTION double real_part(const T& x) {
  if constexpr (is_complex_v<T>)
    return static_cast<double>(x.real());
  else
    return static_cast<double>(x);
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION double imag_part(const T& x) {
  if constexpr (is_complex_v<T>)
    return static_cast<double>(x.imag());
  else
    return 0.0;
}

/// p = fl(a * b) and e = a * b - p, exact when |p| is in [2^-968, 2^995) (or a * b is 0).
KOKKOS_FORCEINLINE_FUNCTION void two_product(double a, double b, double& p, double& e) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  p = __dmul_rn(a, b);
  e = __fma_rn(a, b, -p);
#else
  // Without a fused multiply-add in hardware (none to contract into) this is Dekker's product.
  p = rounded_real_mul(a, b);
  e = product_error(a, b, p);
#endif
}

/// The accumulator of one real product family: exact products of floats fit the narrow integer.
template <class A, class B>
using product_integer_t =
    std::conditional_t<std::is_same_v<real_of_t<A>, float> && std::is_same_v<real_of_t<B>, float>,
                       NarrowInteger, WideInteger>;

/// Adds a * b (one real product, negated or not) as terms at out[0..parts) of sum s.
template <bool Split, class Int>
KOKKOS_FORCEINLINE_FUNCTION void product_terms(ExactSum<Int>& s, double* out, double a, double b,
                                               bool negate) {
  if (negate) a = -a;
  if constexpr (!Split) {  // floats: the product is exact in double
    out[0] = a * b;
  } else {
    double p, e;
    two_product(a, b, p, e);
    s.total.note_term(bits_of(p));
    if (product_splits(a, b, p)) {
      out[0] = p;
      out[1] = e;
    } else {
      out[0] = 0;
      out[1] = 0;
      if (a - a == 0 && b - b == 0)  // both finite
        s.total.add_product(a, b);
      else
        s.total.add(a * b);  // an infinity or a NaN, by IEEE rules
    }
  }
}

/// Sum: one term per component, the element itself.
template <class T>
struct SumTerms {
  using Int = NarrowInteger;
  static constexpr int components = is_complex_v<T> ? 2 : 1;
  static constexpr int per_element = 1;
  static constexpr bool terms_are_values = true;
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static void produce(ExactSum<Int>*, double** out, const V& x) {
    out[0][0] = real_part(x);
    if constexpr (components == 2) out[1][0] = imag_part(x);
  }
};

/// Dot: the exact products a * b (real), or the four of a complex product.
template <class A, class B>
struct DotTerms {
  using Int = product_integer_t<A, B>;
  static constexpr bool split = std::is_same_v<Int, WideInteger>;
  static constexpr bool complex_a = is_complex_v<A>, complex_b = is_complex_v<B>;
  static constexpr int components = complex_a || complex_b ? 2 : 1;
  static constexpr int products = complex_a && complex_b ? 2 : 1;  ///< per component
  static constexpr int per_element = products * (split ? 2 : 1);
  /// Products of floats are the terms; the parts of a split product are not.
  static constexpr bool terms_are_values = !split;
  template <class VA, class VB>
  KOKKOS_FORCEINLINE_FUNCTION static void produce(ExactSum<Int>* s, double** out, const VA& a,
                                                  const VB& b) {
    constexpr int parts = split ? 2 : 1;
    const double ar = real_part(a), ai = imag_part(a), br = real_part(b), bi = imag_part(b);
    if constexpr (complex_a && complex_b) {  // (ar br - ai bi) + i (ar bi + ai br)
      product_terms<split>(s[0], out[0], ar, br, false);
      product_terms<split>(s[0], out[0] + parts, ai, bi, true);
      product_terms<split>(s[1], out[1], ar, bi, false);
      product_terms<split>(s[1], out[1] + parts, ai, br, false);
    } else if constexpr (complex_a) {
      product_terms<split>(s[0], out[0], ar, br, false);
      product_terms<split>(s[1], out[1], ai, br, false);
    } else if constexpr (complex_b) {
      product_terms<split>(s[0], out[0], ar, br, false);
      product_terms<split>(s[1], out[1], ar, bi, false);
    } else {
      product_terms<split>(s[0], out[0], ar, br, false);
    }
  }
};

/// Sum of squares: the dot of a real source with itself.
template <class T>
struct SquareTerms {
  using Dot = DotTerms<T, T>;
  using Int = typename Dot::Int;
  static constexpr int components = 1;
  static constexpr int per_element = Dot::per_element;
  static constexpr bool terms_are_values = Dot::terms_are_values;
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static void produce(ExactSum<Int>* s, double** out, const V& x) {
    Dot::produce(s, out, x, x);
  }
};

/// The result in R (real or complex) of the components' integers, each rounded once.
template <class R, class Int>
KOKKOS_INLINE_FUNCTION R exact_value(const Int* ints) {
  if constexpr (is_complex_v<R>) {
    using Real = typename R::value_type;
    return R(ints[0].template round<Real>(), ints[1].template round<Real>());
  } else {
    return ints[0].template round<R>();
  }
}

}  // namespace strided::detail

#endif
