#ifndef STRIDED_REDUCE_HPP
#define STRIDED_REDUCE_HPP

#include <Kokkos_Core.hpp>
#include <limits>
#include <string>
#include <type_traits>

#include "strided/arithmetic.hpp"
#include "strided/backends/common/reduce_body.hpp"
#include "strided/backends/host/reduce_tiles.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/map.hpp"
#include "strided/plan.hpp"

namespace strided {
namespace detail {

/// Full reduction of one or more same-shape sources: init enters once, after the fixed-order
/// combine of the tile partials.
template <class Exec, class U, class MapFn, class ReduceFn, class... SV>
U reduce_checked(const char* function, const std::string& label, const Exec& exec,
                 const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init, const SV&... srcs) {
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  const auto& first = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape(function, first, srcs), ...);
  const auto fold = make_fold<U>(map_fn, reduce_fn, srcs...);
  using Fold = std::decay_t<decltype(fold)>;
  if constexpr (compat::is_host_space_v<Exec>) {
    // Small dense inputs are one tile of the general plan: fold it here, with the same bits.
    const std::size_t count = first.size();
    if (count > 0 && count <= INLINE_ELEMENTS && count <= planner_options().max_tile_elements &&
        may_run_inline<Exec>() && one_dense_layout(srcs...)) {
      constexpr int N = static_cast<int>(sizeof...(SV));
      std::ptrdiff_t zeros[N] = {}, ones[N];
      for (int k = 0; k < N; ++k) ones[k] = 1;
      Fold local = fold;
      local(zeros, count, 1, ones, zeros);
      return reduce_fn(init, local.result());
    }
  }
  U total{};
  const auto plan = plan_for(srcs...);
  bool any = false;
  if (uses_device_algorithm<Exec>())
    any = reduce_tiles_teams(exec, plan, fold, reduce_fn, total, label);
  else if constexpr (compat::is_host_space_v<Exec>)
    any = reduce_tiles(exec, plan, fold, reduce_fn, total, label);
  if (!any) return init;
  return reduce_fn(init, total);
}

template <class U>
struct Convert {
  template <class T>
  KOKKOS_INLINE_FUNCTION U operator()(const T& x) const {
    return static_cast<U>(x);
  }
};
template <class U>
struct Square {
  template <class T>
  KOKKOS_INLINE_FUNCTION U operator()(const T& x) const {
    const U v = static_cast<U>(x);
    return rounded_mul(v, v);
  }
};
template <class U>
struct Product {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION U operator()(const A& a, const B& b) const {
    return rounded_mul(static_cast<U>(a), static_cast<U>(b));
  }
};
struct Plus {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return add(a, b);
  }
};
struct Times {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return mul(a, b);
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

template <class V>
using value_of = typename std::decay_t<decltype(as_view(std::declval<const V&>()))>::value_type;

inline const Kokkos::DefaultHostExecutionSpace& default_host() {
  return compat::default_instance<Kokkos::DefaultHostExecutionSpace>();
}

}  // namespace detail

/// reduce_fn over map_fn(op(src[i])), in the caller's accumulator type U (the type of init).
/// reduce_fn must be associative and commutative and init its identity.
template <class Exec, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U reduce(const Exec& exec, const S& src, const MapFn& map_fn, const ReduceFn& reduce_fn,
         const U& init) {
  static const std::string label("strided::reduce");
  return detail::reduce_checked("reduce", label, exec, map_fn, reduce_fn, init,
                                detail::as_view(src));
}
template <class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<S> = 0>
U reduce(const S& src, const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init) {
  return reduce(detail::default_host(), src, map_fn, reduce_fn, init);
}

/// reduce_fn over map_fn(op(a[i]), op(b[i])).
template <class Exec, class A, class B, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U zip_reduce(const Exec& exec, const A& a, const B& b, const MapFn& map_fn,
             const ReduceFn& reduce_fn, const U& init) {
  static const std::string label("strided::zip_reduce");
  return detail::reduce_checked("zip_reduce", label, exec, map_fn, reduce_fn, init,
                                detail::as_view(a), detail::as_view(b));
}
template <class A, class B, class MapFn, class ReduceFn, class U, detail::enable_if_operand<A> = 0>
U zip_reduce(const A& a, const B& b, const MapFn& map_fn, const ReduceFn& reduce_fn,
             const U& init) {
  return zip_reduce(detail::default_host(), a, b, map_fn, reduce_fn, init);
}

template <class Exec, class S, detail::enable_if_exec<Exec> = 0>
auto sum(const Exec& exec, const S& src) {
  using T = detail::value_of<S>;
  static const std::string label("strided::sum");
  return detail::reduce_checked("sum", label, exec, detail::Convert<T>{}, detail::Plus{}, T(0),
                                detail::as_view(src));
}
template <class S, detail::enable_if_operand<S> = 0>
auto sum(const S& src) {
  return sum(detail::default_host(), src);
}

template <class Exec, class S, detail::enable_if_exec<Exec> = 0>
auto product(const Exec& exec, const S& src) {
  using T = detail::value_of<S>;
  static const std::string label("strided::product");
  return detail::reduce_checked("product", label, exec, detail::Convert<T>{}, detail::Times{}, T(1),
                                detail::as_view(src));
}
template <class S, detail::enable_if_operand<S> = 0>
auto product(const S& src) {
  return product(detail::default_host(), src);
}

/// Sum of squares of a real or integer tensor; each square is rounded before it is added.
template <class Exec, class S, detail::enable_if_exec<Exec> = 0>
auto sum_squares(const Exec& exec, const S& src) {
  using T = detail::value_of<S>;
  static_assert(!detail::is_complex_v<T>,
                "strided::sum_squares: for real and integer types (use dot(a.conj(), a))");
  static const std::string label("strided::sum_squares");
  return detail::reduce_checked("sum_squares", label, exec, detail::Square<T>{}, detail::Plus{},
                                T(0), detail::as_view(src));
}
template <class S, detail::enable_if_operand<S> = 0>
auto sum_squares(const S& src) {
  return sum_squares(detail::default_host(), src);
}

/// Largest element; NaN propagates; an empty tensor gives -inf (lowest for integers).
template <class Exec, class S, detail::enable_if_exec<Exec> = 0>
auto max(const Exec& exec, const S& src) {
  using T = detail::value_of<S>;
  static_assert(!detail::is_complex_v<T>, "strided::max: complex numbers have no order");
  static const std::string label("strided::max");
  return detail::reduce_checked("max", label, exec, detail::Convert<T>{}, detail::Max{},
                                detail::lowest_value<T>(), detail::as_view(src));
}
template <class S, detail::enable_if_operand<S> = 0>
auto max(const S& src) {
  return max(detail::default_host(), src);
}

/// Smallest element; NaN propagates; an empty tensor gives +inf (highest for integers).
template <class Exec, class S, detail::enable_if_exec<Exec> = 0>
auto min(const Exec& exec, const S& src) {
  using T = detail::value_of<S>;
  static_assert(!detail::is_complex_v<T>, "strided::min: complex numbers have no order");
  static const std::string label("strided::min");
  return detail::reduce_checked("min", label, exec, detail::Convert<T>{}, detail::Min{},
                                detail::highest_value<T>(), detail::as_view(src));
}
template <class S, detail::enable_if_operand<S> = 0>
auto min(const S& src) {
  return min(detail::default_host(), src);
}

/// sum(op(a[i]) * op(b[i])) without conjugation (write dot(a.conj(), b) for the Hermitian
/// form), accumulated in `Acc` (default: the product type), e.g. an f32 dot in f64.
template <class Acc = void, class Exec, class A, class B, detail::enable_if_exec<Exec> = 0>
auto dot(const Exec& exec, const A& a, const B& b) {
  using P = decltype(std::declval<detail::value_of<A>>() * std::declval<detail::value_of<B>>());
  using U = std::conditional_t<std::is_void_v<Acc>, P, Acc>;
  static const std::string label("strided::dot");
  return detail::reduce_checked("dot", label, exec, detail::Product<U>{}, detail::Plus{}, U(0),
                                detail::as_view(a), detail::as_view(b));
}
template <class Acc = void, class A, class B, detail::enable_if_operand<A> = 0>
auto dot(const A& a, const B& b) {
  return dot<Acc>(detail::default_host(), a, b);
}

}  // namespace strided

#endif
