#ifndef STRIDED_KOKKOS_VIEW_HPP
#define STRIDED_KOKKOS_VIEW_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_KOKKOS_VIEW
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

#include "strided/strided_view.hpp"

namespace strided {

/// Wraps any Kokkos::View (LayoutLeft, LayoutRight, LayoutStride, subviews, const, any memory
/// space) as a StridedView with the view's own strides. Uses only public View API.
template <class DataType, class... Properties>
auto view(const Kokkos::View<DataType, Properties...>& kv) {
  using V = Kokkos::View<DataType, Properties...>;
  using T = typename V::value_type;  // keeps const
  constexpr std::size_t rank = V::rank;
  IndexList<std::size_t> extents;
  IndexList<std::ptrdiff_t> strides;
  extents.resize(rank);
  strides.resize(rank);
  for (std::size_t k = 0; k != rank; ++k) {  // != : no "unsigned < 0" warning at rank 0 (nvcc)
    extents[k] = kv.extent(k);
    strides[k] = static_cast<std::ptrdiff_t>(kv.stride(k));
  }
  return StridedView<T, Identity, typename V::memory_space>(kv.data(), kv.span(), extents, strides);
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_KOKKOS_VIEW
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_KOKKOS_VIEW
#endif

#endif
