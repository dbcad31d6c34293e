#ifndef STRIDED_COPY_HPP
#define STRIDED_COPY_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COPY
#endif

// copy_into, within one memory space or across two that no one execution space reaches both of
// (host <-> GPU), with any layouts on either side: Kokkos::deep_copy refuses non-contiguous or
// permuted pairs across spaces.

#include <Kokkos_Core.hpp>
#include <mutex>
#include <string>
#include <type_traits>

#include "strided/backends/dispatch/route_copy_across.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/core/labels.hpp"
#include "strided/core/layout.hpp"
#include "strided/map.hpp"
#include "strided/options.hpp"

namespace strided {

namespace detail {

/// A dense view over a packed buffer with `shape`'s extents, in `order`'s memory order.
template <class T, class Memory, class Shape, class Order>
StridedView<T, Identity, Memory> packed_view(T* data, std::size_t size, const Shape& shape,
                                             const Order& order) {
  Strides dense(shape.rank(), 0);
  dense_strides_like(order.layout(), dense.data());
  return StridedView<T, Identity, Memory>(data, size, shape.extents(), dense);
}

template <class Exec, class V>
constexpr bool reaches_v = Kokkos::SpaceAccessibility<Exec, typename V::memory_space>::accessible;

/// `exec` when it reaches V's memory, else the default instance of that memory's own space.
template <class V, class Exec>
decltype(auto) exec_for(const Exec& exec) {
  if constexpr (reaches_v<Exec, V>)
    return (exec);
  else
    return compat::default_instance<typename V::memory_space::execution_space>();
}

}  // namespace detail

/// dst = op(src) where `dst_exec` reaches dst's memory and `src_exec` reaches src's: packs src
/// into a contiguous buffer on its side, transfers it with one Kokkos::deep_copy, and unpacks it
/// into dst on the other side. Every check (shape, an injective destination) runs before
/// anything is written; the staging buffers are the library's (2 x dst.size() elements, kept
/// between calls and grown when needed, pinned on the host side of a host <-> device copy).
/// `options.staging` says which side reorders; `copy_across(..., staging)` sets only that.
/// Errors: RankMismatch, ShapeMismatch, NonInjectiveOutput. Fences both instances.
template <class DstExec, class D, class SrcExec, class S>
void copy_across(const DstExec& dst_exec, const D& dst, const SrcExec& src_exec, const S& src,
                 const Options& options) {
  const std::string& label = detail::labels::copy_across;
  const auto& d = detail::as_view(dst);
  const auto& s = detail::as_view(src);
  using DV = std::decay_t<decltype(d)>;
  using SV = std::decay_t<decltype(s)>;
  using T = typename DV::value_type;
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  detail::check_accessible<DstExec, DV>();
  detail::check_accessible<SrcExec, SV>();
  compat::ScopedRegion region(label);
  detail::check_same_shape("copy_across", d, s);
  detail::check_output("copy_across", d);
  if (d.size() == 0) return;

  const Staging staging = detail::staging_side<DstExec, SrcExec>(options.staging);
  const std::size_t n = d.size();
  // The packed buffer holds the elements in the order of the side that does not reorder.
  const auto packed_as = [&](auto* data, auto memory) {
    using Memory = decltype(memory);
    if (staging == Staging::OnSource) return detail::packed_view<T, Memory>(data, n, d, d);
    return detail::packed_view<T, Memory>(data, n, d, s);
  };
  detail::route_copy_across<T, typename SV::memory_space, typename DV::memory_space>(
      dst_exec, src_exec, n,
      [&](T* packed, auto memory) {
        detail::zip_map_checked("copy_across", label, src_exec, options, packed_as(packed, memory),
                                detail::CopyFn{}, s);
      },
      [&](T* arrived, auto memory) {
        detail::zip_map_checked("copy_across", label, dst_exec, options, d, detail::CopyFn{},
                                packed_as(arrived, memory));
      });
}
template <class DstExec, class D, class SrcExec, class S>
void copy_across(const DstExec& dst_exec, const D& dst, const SrcExec& src_exec, const S& src,
                 Staging staging = Staging::Auto) {
  Options options = default_options();
  options.staging = staging;
  copy_across(dst_exec, dst, src_exec, src, options);
}

/// dst = op(src). When `exec` cannot reach one of the operands (a host view and a GPU view), or
/// when `options.stage_copies` is set, the copy goes through copy_across, run by `exec` on the
/// side it reaches and by that memory space's default execution space on the other.
/// Errors: as every element-wise kernel (map.hpp). A kept plan (make_plan(dst, src)) is for
/// operands that one execution space reaches.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void copy_into(const Exec& exec, const D& dst, const S& src,
               const Options& options = default_options()) {
  const std::string& label = detail::labels::copy_into;
  using DV = std::decay_t<decltype(detail::as_view(dst))>;
  using SV = std::decay_t<decltype(detail::as_view(src))>;
  if constexpr (detail::reaches_v<Exec, DV> && detail::reaches_v<Exec, SV>) {
    if (!options.stage_copies) {
      detail::elementwise<false>("copy_into", label, exec, options, dst, src, detail::CopyFn{});
      return;
    }
    // Staging would make an overlapping copy well defined, but which inputs are accepted must
    // not depend on the options: the unstaged path's check runs here too.
    const auto& d = detail::as_view(dst);
    const auto& s = detail::as_view(src);
    detail::check_same_shape("copy_into", d, s);
    detail::check_no_overlap("copy_into", d, s, 0);
  }
  copy_across(detail::exec_for<DV>(exec), dst, detail::exec_for<SV>(exec), src, options);
}
template <class Exec, int N, class D, class S, detail::enable_if_exec<Exec> = 0>
void copy_into(const Exec& exec, const KernelPlan<N>& plan, const D& dst, const S& src) {
  const std::string& label = detail::labels::copy_into;
  detail::elementwise<false>("copy_into", label, exec, plan, dst, src, detail::CopyFn{});
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void copy_into(const D& dst, const S& src, const Options& options = default_options()) {
  copy_into(detail::default_host(), dst, src, options);
}
template <int N, class D, class S>
void copy_into(const KernelPlan<N>& plan, const D& dst, const S& src) {
  copy_into(detail::default_host(), plan, dst, src);
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COPY
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COPY
#endif

#endif
