#ifndef STRIDED_INDEX_LIST_HPP
#define STRIDED_INDEX_LIST_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_INDEX_LIST
#endif

#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "strided/core/small_vector.hpp"
#include "strided/error.hpp"

namespace strided {

/// Metadata of views up to this rank lives inline: building, transforming and running a kernel
/// on such a view allocates nothing.
inline constexpr std::size_t INLINE_RANK = 8;

namespace detail {

/// An argument type for extents, strides, permutations and axes that accepts braced lists,
/// std::vector, std::array and C arrays of any integer type, without allocating up to
/// INLINE_RANK entries.
template <class T>
class IndexList : public SmallVector<T, INLINE_RANK> {
  using Base = SmallVector<T, INLINE_RANK>;

 public:
  IndexList() = default;
  IndexList(std::initializer_list<T> values) : Base(values.begin(), values.end()) {}
  /// Braced lists of variables of another integer type ({m, n} with int m, n), which would be
  /// narrowing conversions into std::initializer_list<T>.
  template <class U, class = std::enable_if_t<std::is_integral_v<U> && !std::is_same_v<U, T>>>
  IndexList(std::initializer_list<U> values) : Base(values.begin(), values.end()) {
    check_signs(values.begin(), values.end());
  }
  template <class U, class = std::enable_if_t<std::is_integral_v<U>>>
  IndexList(const std::vector<U>& values) : Base(values.begin(), values.end()) {
    check_signs(values.begin(), values.end());
  }
  template <class U, std::size_t N, class = std::enable_if_t<std::is_integral_v<U>>>
  IndexList(const std::array<U, N>& values) : Base(values.begin(), values.end()) {
    check_signs(values.begin(), values.end());
  }
  template <class U, std::size_t N, class = std::enable_if_t<std::is_integral_v<U>>>
  IndexList(const U (&values)[N]) : Base(values, values + N) {
    check_signs(values, values + N);
  }
  IndexList(const Base& values) : Base(values) {}

 private:
  template <class It>
  static void check_signs(It first, It last) {
    using U = std::decay_t<decltype(*first)>;
    if constexpr (std::is_unsigned_v<T> && std::is_signed_v<U>) {
      for (; first != last; ++first)
        if (*first < 0)
          throw_error(ErrorCode::InvalidArgument, "IndexList", "negative value ", *first,
                      " where an extent or axis is expected");
    }
  }
};

using Extents = SmallVector<std::size_t, INLINE_RANK>;
using Strides = SmallVector<std::ptrdiff_t, INLINE_RANK>;

}  // namespace detail

/// The argument type for extents, strides and permutations: braced lists, std::vector,
/// std::array and C arrays of any integer type, held without allocating up to INLINE_RANK
/// entries (negative values where an extent or axis is expected: ErrorCode::InvalidArgument).
template <class T>
using IndexList = detail::IndexList<T>;
/// The axes an axis reduction reduces (`sum_axes(dst, src, {0, 2})`) or a kept axis plan holds.
using AxisList = IndexList<std::size_t>;
}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_INDEX_LIST
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_INDEX_LIST
#endif

#endif
