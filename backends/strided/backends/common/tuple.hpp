#ifndef STRIDED_BACKENDS_COMMON_TUPLE_HPP
#define STRIDED_BACKENDS_COMMON_TUPLE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

namespace strided::detail {

/// A minimal aggregate tuple usable in device code (std::tuple is not, on every Kokkos backend).
template <std::size_t I, class T>
struct TupleLeaf {
  T value;
};

template <class Indices, class... Ts>
struct TupleImpl;
template <std::size_t... Is, class... Ts>
struct TupleImpl<std::index_sequence<Is...>, Ts...> : TupleLeaf<Is, Ts>... {
  KOKKOS_INLINE_FUNCTION explicit TupleImpl(const Ts&... values) : TupleLeaf<Is, Ts>{values}... {}
};

template <class... Ts>
struct Tuple : TupleImpl<std::index_sequence_for<Ts...>, Ts...> {
  using Base = TupleImpl<std::index_sequence_for<Ts...>, Ts...>;
  static constexpr std::size_t size = sizeof...(Ts);
  KOKKOS_INLINE_FUNCTION explicit Tuple(const Ts&... values) : Base(values...) {}
};

template <std::size_t I, class T>
KOKKOS_FORCEINLINE_FUNCTION const T& get(const TupleLeaf<I, T>& leaf) {
  return leaf.value;
}

}  // namespace strided::detail

#endif
