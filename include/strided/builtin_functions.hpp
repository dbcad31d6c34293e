#ifndef STRIDED_BUILTIN_FUNCTIONS_HPP
#define STRIDED_BUILTIN_FUNCTIONS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The element functions of the built-in kernels (copy, add, axpy, sum, dot, max, ...). Products
// go through rounded_mul, so no compiler contracts them into a fused multiply-add.

#include <Kokkos_Core.hpp>
#include <limits>
#include <type_traits>

#include "strided/arithmetic.hpp"

namespace strided::detail {

// `repeatable`: a built-in element function that may run twice on an element (the same value
// written twice), which lets blocks at ragged edges overlap their neighbours.

struct CopyFn {
  static constexpr bool is_plain_copy = true;  // lets unit-stride runs of one type use memcpy
  static constexpr bool repeatable = true;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return x;
  }
};
struct ConjFn {
  static constexpr bool repeatable = true;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return conj_value(x);
  }
};
struct AddFn {
  static constexpr bool repeatable = true;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return detail::wrapping_add(a, b);
  }
};
struct MulFn {
  static constexpr bool repeatable = true;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return detail::wrapping_mul(a, b);
  }
};
template <class Alpha>
struct AxpyFn {
  Alpha alpha;
  static constexpr bool repeatable = true;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return detail::wrapping_add(a, detail::rounded_mul(alpha, b));
  }
};
template <class Alpha>
struct ScaleFn {
  Alpha alpha;
  static constexpr bool repeatable = true;
  template <class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const B& b) const {
    return detail::wrapping_mul(alpha, b);
  }
};

/// The element functions of the kernels that take one argument after their source.
template <class A>
AxpyFn<A> axpy_fn(const A& alpha) {
  return {alpha};
}
template <class A>
ScaleFn<A> scale_fn(const A& alpha) {
  return {alpha};
}
template <class F>
const F& user_fn(const F& f) {  // map_into's: the caller's own
  return f;
}

template <class U>
struct Convert {
  template <class T>
  KOKKOS_INLINE_FUNCTION U operator()(const T& x) const {
    return static_cast<U>(x);
  }
};
/// Square and Product of a real floating U can also be computed unrounded, for folds that round
/// a whole block of them at once (materialize_block): the same values, vectorized. Products that
/// are exact in U (two floats in a double) need no rounding at all: rounds_products_of is false
/// for them, and the plain product vectorizes with nothing in its way.
template <class U>
struct Square {
  template <class T>
  static constexpr bool rounds_products_of =
      std::is_floating_point_v<U> && !exact_product_v<U, T, T>;
  template <class T>
  KOKKOS_INLINE_FUNCTION U operator()(const T& x) const {
    const U v = static_cast<U>(x);
    if constexpr (exact_product_v<U, T, T>)
      return v * v;
    else
      return detail::rounded_mul(v, v);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION U unrounded(const T& x) const {
    const U v = static_cast<U>(x);
    return v * v;
  }
};
template <class U>
struct Product {
  template <class A, class B>
  static constexpr bool rounds_products_of =
      std::is_floating_point_v<U> && !exact_product_v<U, A, B>;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION U operator()(const A& a, const B& b) const {
    if constexpr (exact_product_v<U, A, B>)
      return static_cast<U>(a) * static_cast<U>(b);
    else
      return detail::rounded_mul(static_cast<U>(a), static_cast<U>(b));
  }
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION U unrounded(const A& a, const B& b) const {
    return static_cast<U>(a) * static_cast<U>(b);
  }
};
struct Plus {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return detail::wrapping_add(a, b);
  }
};
struct Times {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return detail::wrapping_mul(a, b);
  }
};
/// NaN from either side propagates (x != x only for NaN).
struct Max {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return (a != a || a > b) ? a : b;
  }
};
struct Min {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return (a != a || a < b) ? a : b;
  }
};

template <class T>
constexpr T lowest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}
template <class T>
constexpr T highest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}

/// The built-in reductions of one source (sum, product, sum_squares, max, min and their _axes
/// forms): of(), for the source's element type T, gives the map, the fold and its identity.
template <class MapFn, class ReduceFn, class T>
struct BuiltinFold {
  MapFn map_fn;
  ReduceFn reduce_fn;
  T init;
};
struct SumReduction {
  template <class T>
  static BuiltinFold<Convert<T>, Plus, T> of() {
    return {{}, {}, T(0)};
  }
};
struct ProductReduction {
  template <class T>
  static BuiltinFold<Convert<T>, Times, T> of() {
    return {{}, {}, T(1)};
  }
};
struct SumSquaresReduction {
  template <class T>
  static BuiltinFold<Square<T>, Plus, T> of() {
    static_assert(!is_complex_v<T>,
                  "strided::sum_squares: for real and integer types (use dot(a.conj(), a))");
    return {{}, {}, T(0)};
  }
};
struct MaxReduction {
  template <class T>
  static BuiltinFold<Convert<T>, Max, T> of() {
    static_assert(!is_complex_v<T>, "strided::max: complex numbers have no order");
    return {{}, {}, lowest_value<T>()};
  }
};
struct MinReduction {
  template <class T>
  static BuiltinFold<Convert<T>, Min, T> of() {
    static_assert(!is_complex_v<T>, "strided::min: complex numbers have no order");
    return {{}, {}, highest_value<T>()};
  }
};

}  // namespace strided::detail

#endif
