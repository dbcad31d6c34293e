#ifndef STRIDED_BASE_ELEMENT_OPS_HPP
#define STRIDED_BASE_ELEMENT_OPS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <complex>
#include <type_traits>

namespace strided {
namespace detail {

template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
template <class R>
struct is_complex<Kokkos::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<std::remove_cv_t<T>>::value;

template <class T>
KOKKOS_INLINE_FUNCTION T conj_value(const T& x) {
  return x;
}
template <class R>
KOKKOS_INLINE_FUNCTION Kokkos::complex<R> conj_value(const Kokkos::complex<R>& x) {
  return Kokkos::complex<R>(x.real(), -x.imag());
}
template <class R>
KOKKOS_INLINE_FUNCTION std::complex<R> conj_value(const std::complex<R>& x) {
  return std::complex<R>(x.real(), -x.imag());
}

/// The four element ops form the Klein four-group: an op is a pair (conjugate, transpose) of bits
/// and composition is their exclusive or.
template <bool Conjugate, bool Transposed>
struct ElementOp {
  static constexpr bool conjugates = Conjugate;
  static constexpr bool transposes = Transposed;
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(const T& x) {
    if constexpr (Conjugate) {
      return conj_value(x);
    } else {
      return x;
    }
  }
};

/// Whether op Op leaves every value of T unchanged (all four ops do on non-complex types).
template <class Op, class T>
inline constexpr bool acts_as_identity_v = !Op::conjugates || !is_complex<T>::value;

}  // namespace detail

/// Element operations applied when an operand's element is read. On real and integer types all
/// four are the identity; on complex types `Conj` and `Adjoint` conjugate. `Transpose` exists for
/// composition (views of matrices transpose the indices, scalars are unchanged).
struct Identity : detail::ElementOp<false, false> {};
struct Conj : detail::ElementOp<true, false> {};
struct Transpose : detail::ElementOp<false, true> {};
struct Adjoint : detail::ElementOp<true, true> {};

template <class Op>
inline constexpr bool is_element_op_v =
    std::is_same_v<Op, Identity> || std::is_same_v<Op, Conj> || std::is_same_v<Op, Transpose> ||
    std::is_same_v<Op, Adjoint>;

namespace detail {
template <bool C, bool T>
struct OpFromBits;
template <>
struct OpFromBits<false, false> {
  using type = Identity;
};
template <>
struct OpFromBits<true, false> {
  using type = Conj;
};
template <>
struct OpFromBits<false, true> {
  using type = Transpose;
};
template <>
struct OpFromBits<true, true> {
  using type = Adjoint;
};
}  // namespace detail

/// `Compose<A, B>::type` is "apply A, then B" (the group is abelian, so the order does not matter).
template <class A, class B>
struct Compose {
  static_assert(is_element_op_v<A> && is_element_op_v<B>,
                "strided::Compose: both arguments must be element ops "
                "(Identity, Conj, Transpose or Adjoint)");
  using type = typename detail::OpFromBits<(A::conjugates != B::conjugates),
                                           (A::transposes != B::transposes)>::type;
};
template <class A, class B>
using compose_t = typename Compose<A, B>::type;

}  // namespace strided

#endif
