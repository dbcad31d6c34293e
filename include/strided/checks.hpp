#ifndef STRIDED_CHECKS_HPP
#define STRIDED_CHECKS_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CHECKS
#endif

// Argument checks shared by every kernel; all run on the host before anything is written.

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "strided/core/aliasing.hpp"
#include "strided/core/planner.hpp"
#include "strided/core/small_call.hpp"
#include "strided/error.hpp"
#include "strided/kokkos_view.hpp"
#include "strided/strided_view.hpp"

namespace strided::detail {

template <class V>
struct is_strided_view : std::false_type {};
template <class T, class Op, class M>
struct is_strided_view<StridedView<T, Op, M>> : std::true_type {};

template <class V>
inline constexpr bool is_operand_v =
    is_strided_view<std::decay_t<V>>::value || Kokkos::is_view<std::decay_t<V>>::value;

/// Kernels take StridedViews or Kokkos::Views; both become StridedViews here.
template <class V>
decltype(auto) as_view(const V& v) {
  if constexpr (is_strided_view<V>::value)
    return (v);
  else
    return strided::view(v);
}

template <class Exec, class View>
constexpr void check_accessible() {
  static_assert(Kokkos::SpaceAccessibility<Exec, typename View::memory_space>::accessible,
                "strided: the execution space cannot access an operand's memory space "
                "(copy it with strided::copy_into to an accessible space first)");
}

/// Out of line: the messages stay off the path of every call (small calls pay for its size).
template <class A, class B>
[[noreturn]] STRIDED_NOINLINE void shape_mismatch(const char* function, const A& a, const B& b) {
  if (a.rank() != b.rank())
    throw_error(ErrorCode::RankMismatch, function, "operand of rank ", b.rank(),
                " for a destination of rank ", a.rank());
  std::size_t k = 0;
  while (a.extent(k) == b.extent(k)) ++k;
  throw_error(ErrorCode::ShapeMismatch, function, "extent ", b.extent(k), " on axis ", k,
              " where the destination has ", a.extent(k));
}

/// (A loop, not the extents' operator==: a call of memcmp costs more than rank 1's comparison.)
template <class A, class B>
void check_same_shape(const char* function, const A& a, const B& b) {
  const std::size_t rank = a.rank();
  bool same = rank == b.rank();
  for (std::size_t k = 0; same && k < rank; ++k) same = a.extent(k) == b.extent(k);
  if (!same) shape_mismatch(function, a, b);
}

template <class V>
MemoryRef memory_of(const V& v) {
  return {static_cast<const void*>(v.data()), sizeof(typename V::value_type), v.layout()};
}

template <class D>
void check_output(const char* function, const D& dst) {
  const LayoutRef layout = dst.layout();
  if (is_dense(layout.rank, layout.extents, layout.strides)) return;  // the common case, O(rank)
  if (!is_injective(layout))
    throw_error(ErrorCode::NonInjectiveOutput, function,
                "the destination maps two indices to one element (a stride 0 with extent > 1, "
                "or interleaved strides)");
}

template <class D, class S>
void check_no_overlap(const char* function, const D& dst, const S& src, int index) {
  const MemoryRef d = memory_of(dst), s = memory_of(src);
  if (!same_layout(d, s) && shares_memory(d, s))  // same_layout first: it allocates nothing
    throw_error(ErrorCode::OverlappingInputOutput, function, "input ", index,
                " overlaps the destination without being the same element-for-element layout");
}

}  // namespace strided::detail

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CHECKS
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CHECKS
#endif

#endif
