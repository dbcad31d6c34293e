#ifndef STRIDED_BACKENDS_COMMON_SYMMETRIZE_IN_PLACE_HPP
#define STRIDED_BACKENDS_COMMON_SYMMETRIZE_IN_PLACE_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/element_ops.hpp"

namespace strided::detail {

/// In-place (A + op(A)^T) / 2 for a square matrix whose source and destination share a layout:
/// row i owns the pairs (i, j >= i), reading both elements of a pair before writing either.
/// `Hermitian` conjugates the transposed term.
template <class T, class DstOp, class SrcOp, bool Hermitian>
struct SymmetrizeInPlace {
  T* data;  ///< shared origin
  std::ptrdiff_t stride0, stride1;
  std::size_t n;

  KOKKOS_INLINE_FUNCTION static T mirror(const T& x) {
    if constexpr (Hermitian)
      return conj_value(x);
    else
      return x;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    const std::ptrdiff_t ii = static_cast<std::ptrdiff_t>(i);
    for (std::size_t j = i; j < n; ++j) {
      const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j);
      T* upper = data + ii * stride0 + jj * stride1;
      T* lower = data + jj * stride0 + ii * stride1;
      const T a = SrcOp::apply(*upper), b = SrcOp::apply(*lower);
      const T v = static_cast<T>((a + mirror(b)) / static_cast<T>(2));
      *upper = DstOp::apply(v);
      *lower = DstOp::apply(mirror(v));
    }
  }
};

}  // namespace strided::detail

#endif
