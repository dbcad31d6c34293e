#ifndef STRIDED_STRIDED_ARRAY_HPP
#define STRIDED_STRIDED_ARRAY_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_ARRAY
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <limits>
#include <string>

#include "strided/core/checked_arithmetic.hpp"
#include "strided/strided_view.hpp"

namespace strided {

/// The multi-index handed to `from_fn_*` callbacks: `index[k]`, `index.size()`.
using MultiIndex = detail::SmallVector<std::size_t, INLINE_RANK>;

/// An owning dense tensor, column- or row-major, stored in a Kokkos::View of `MemorySpace`.
template <class T, class MemorySpace = Kokkos::DefaultHostExecutionSpace::memory_space>
class StridedArray {
 public:
  using value_type = T;
  using memory_space = MemorySpace;

  static StridedArray row_major(const IndexList<std::size_t>& dims) {
    return StridedArray(dims, /*row_major=*/true);
  }
  static StridedArray col_major(const IndexList<std::size_t>& dims) {
    return StridedArray(dims, /*row_major=*/false);
  }
  /// `f(index)` gives the element at each multi-index (host memory spaces only).
  template <class F>
  static StridedArray from_fn_row_major(const IndexList<std::size_t>& dims, F&& f) {
    StridedArray a = row_major(dims);
    a.fill_from(f);
    return a;
  }
  template <class F>
  static StridedArray from_fn_col_major(const IndexList<std::size_t>& dims, F&& f) {
    StridedArray a = col_major(dims);
    a.fill_from(f);
    return a;
  }

  StridedView<T, Identity, MemorySpace> view() { return m_view; }
  StridedView<const T, Identity, MemorySpace> view() const { return m_view; }
  T* data() const noexcept { return m_storage.data(); }
  std::size_t size() const noexcept { return m_storage.extent(0); }
  std::size_t rank() const noexcept { return m_view.rank(); }
  std::size_t extent(std::size_t k) const noexcept { return m_view.extent(k); }
  std::ptrdiff_t stride(std::size_t k) const noexcept { return m_view.stride(k); }
  const Kokkos::View<T*, MemorySpace>& storage() const noexcept { return m_storage; }
  template <class... I>
  T& operator()(I... index) const {
    return m_view.at(index...);
  }

 private:
  StridedArray(const IndexList<std::size_t>& dims, bool row_major)
      : m_storage("strided::StridedArray", checked_size(dims)),
        m_view(m_storage.data(), m_storage.extent(0), dims, dense_strides(dims, row_major)) {}

  /// The element count, checked before allocating: its bytes must fit std::ptrdiff_t (a view
  /// holds at most PTRDIFF_MAX elements, and an allocation's bytes are counted in size_t).
  static std::size_t checked_size(const IndexList<std::size_t>& dims) {
    std::size_t n = 1;
    for (std::size_t e : dims)
      if (!detail::checked_mul(n, e, n))
        detail::throw_error(ErrorCode::OffsetOverflow, "StridedArray", "element count overflows");
    if (n > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(T))
      detail::throw_error(ErrorCode::OffsetOverflow, "StridedArray", "element count ", n,
                          " has more bytes than std::ptrdiff_t holds");
    return n;
  }
  static IndexList<std::ptrdiff_t> dense_strides(const IndexList<std::size_t>& dims,
                                                 bool row_major) {
    IndexList<std::ptrdiff_t> strides;
    strides.resize(dims.size());
    // checked_size() bounds the element count, but with an extent 0 the other extents may be
    // huge: the strides (products of the non-zero extents) are checked to fit std::ptrdiff_t.
    std::size_t s = 1;
    for (std::size_t j = 0; j < dims.size(); ++j) {
      const std::size_t k = row_major ? dims.size() - 1 - j : j;
      strides[k] = static_cast<std::ptrdiff_t>(s);
      if (j + 1 == dims.size()) break;
      if (!detail::checked_mul(s, dims[k] == 0 ? 1 : dims[k], s) ||
          s > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()))
        detail::throw_error(ErrorCode::OffsetOverflow, "StridedArray",
                            "strides of the extents overflow std::ptrdiff_t");
    }
    return strides;
  }
  template <class F>
  void fill_from(F& f) {
    const std::size_t r = rank();
    MultiIndex index(r, 0);
    if (size() == 0) return;
    for (std::size_t n = 0; n < size(); ++n) {
      std::ptrdiff_t offset = 0;
      for (std::size_t k = 0; k < r; ++k)
        offset += static_cast<std::ptrdiff_t>(index[k]) * stride(k);
      data()[offset] = static_cast<T>(f(static_cast<const MultiIndex&>(index)));
      for (std::size_t k = r; k-- > 0;) {  // row-major odometer; any order visits each once
        if (++index[k] < extent(k)) break;
        index[k] = 0;
      }
    }
  }

  Kokkos::View<T*, MemorySpace> m_storage;
  StridedView<T, Identity, MemorySpace> m_view;
};

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_ARRAY
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_ARRAY
#endif

#endif
