#ifndef STRIDED_REDUCE_AXES_HPP
#define STRIDED_REDUCE_AXES_HPP

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <type_traits>

#include "strided/backends/common/axis_fold.hpp"
#include "strided/backends/device/run_teams.hpp"
#include "strided/backends/device/workspace.hpp"
#include "strided/backends/host/run_plan.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/reduce.hpp"
#include "strided/strided_array.hpp"

namespace strided {
namespace detail {

/// The source axes an axis reduction keeps and reduces, in source order.
struct AxisSplit {
  SmallVector<std::size_t, INLINE_RANK> kept, reduced;
};

inline AxisSplit split_axes(const char* function, std::size_t rank,
                            const IndexList<std::size_t>& axes) {
  SmallVector<unsigned char, INLINE_RANK> chosen(rank, 0);
  for (std::size_t a : axes) {
    if (a >= rank || chosen[a])
      throw_error(ErrorCode::InvalidAxis, function, "axis ", a,
                  a >= rank ? " is out of range for rank " : " is repeated; rank ", rank);
    chosen[a] = 1;
  }
  AxisSplit split;
  for (std::size_t k = 0; k < rank; ++k) (chosen[k] ? split.reduced : split.kept).push_back(k);
  return split;
}

template <class DV, class SV>
void check_reduced_shape(const char* function, const DV& dst, const SV& src,
                         const AxisSplit& split) {
  if (dst.rank() != split.kept.size())
    throw_error(ErrorCode::RankMismatch, function, "destination of rank ", dst.rank(),
                " for a source of rank ", src.rank(), " with ", split.reduced.size(),
                " reduced axes");
  for (std::size_t k = 0; k < dst.rank(); ++k)
    if (dst.extent(k) != src.extent(split.kept[k]))
      throw_error(ErrorCode::ShapeMismatch, function, "destination extent ", dst.extent(k),
                  " on axis ", k, " where the source's kept axis ", split.kept[k], " has ",
                  src.extent(split.kept[k]));
}

/// Plans over a subset of axes: operand k of the plan reads `views[k]`'s strides on `axes`.
template <int N>
Plan<N> plan_over(const SmallVector<std::size_t, INLINE_RANK>& axes,
                  const std::ptrdiff_t* const* strides, const std::size_t* sizes,
                  const std::size_t* extents, const PlannerOptions& options = planner_options()) {
  std::size_t sub_extents[MAX_PLAN_RANK * 2];
  std::ptrdiff_t sub_strides[N][MAX_PLAN_RANK * 2];
  const std::ptrdiff_t* rows[N];
  // Extent-1 axes are harmless here but take room: the planner drops them anyway.
  std::size_t r = 0;
  for (std::size_t a : axes) {
    if (extents[a] == 1) continue;
    sub_extents[r] = extents[a];
    for (int k = 0; k < N; ++k) sub_strides[k][r] = strides[k][a];
    ++r;
  }
  for (int k = 0; k < N; ++k) rows[k] = sub_strides[k];
  return make_plan<N>(r, sub_extents, rows, sizes, options);
}

template <class Exec, class DV, class U, class MapFn, class ReduceFn, class... SV>
void reduce_axes_checked(const char* function, const std::string& label, const Exec& exec,
                         const DV& dst, const IndexList<std::size_t>& axes, const MapFn& map_fn,
                         const ReduceFn& reduce_fn, const U& init, const SV&... srcs) {
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  check_accessible<Exec, DV>();
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  const auto& src = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape(function, src, srcs), ...);
  const AxisSplit split = split_axes(function, src.rank(), axes);
  check_reduced_shape(function, dst, src, split);
  check_output(function, dst);
  int index = 0;
  (check_no_overlap(function, dst, srcs, index++), ...);

  constexpr int S = static_cast<int>(sizeof...(SV));
  const std::ptrdiff_t* src_strides[S] = {srcs.strides().data()...};
  const std::size_t src_sizes[S] = {sizeof(typename SV::value_type)...};
  const Plan<S> sub = plan_over<S>(split.reduced, src_strides, src_sizes, src.extents().data());

  const auto fold = make_fold<U>(map_fn, reduce_fn, srcs...);
  using Fold = std::decay_t<decltype(fold)>;
  using Dst = DstRef<typename DV::value_type, typename DV::op_type>;
  const std::size_t outputs = dst.size();
  if (outputs == 0) return;

  // Outputs as operand 0 (the destination's strides) beside each source's kept strides.
  Strides dst_on_src(src.rank(), 0);
  for (std::size_t k = 0; k < split.kept.size(); ++k) dst_on_src[split.kept[k]] = dst.stride(k);
  const std::ptrdiff_t* out_strides[S + 1];
  std::size_t out_sizes[S + 1];
  out_strides[0] = dst_on_src.data();
  out_sizes[0] = sizeof(typename DV::value_type);
  for (int k = 0; k < S; ++k) {
    out_strides[k + 1] = src_strides[k];
    out_sizes[k + 1] = src_sizes[k];
  }

  // Unbuffered: parallel over outputs, each folding its sub-tensor in registers. Buffered: work
  // items are (output, sub-tile) pairs, so few outputs still use every thread. Same bits.
  const bool few_outputs = outputs < 8 * static_cast<std::size_t>(compat::concurrency(exec));
  // The device algorithm folds reduced runs of unit stride with 16 lanes per sub-tile (TeamFold,
  // reads coalesce along the run), and other layouts with one lane per output (TeamRows, reads
  // coalesce across outputs).
  const bool lanes_along_runs = uses_device_algorithm<Exec>() && sub.tile_count > 0 &&
                                !sub.gathered && magnitude(sub.strides[0][0]) == 1;
  const bool buffered =
      lanes_along_runs || sub.tile_count > INLINE_SUB_TILES ||
      (few_outputs && sub.tile_count > 1 && outputs * sub.count > INLINE_ELEMENTS);
  if (!buffered) {
    // Output tiles hold about max_tile_elements of work (outputs x reduced elements), so that
    // few long reductions still spread over threads, but at least one sweep of outputs; each
    // output's bits do not depend on it.
    using Body = AxisBody<Dst, S, Fold, U>;
    PlannerOptions by_work = planner_options();
    by_work.max_tile_elements = std::max<std::size_t>(
        Body::SWEEP, by_work.max_tile_elements / std::max<std::size_t>(1, sub.count));
    const Plan<S + 1> out =
        plan_over<S + 1>(split.kept, out_strides, out_sizes, src.extents().data(), by_work);
    if (uses_device_algorithm<Exec>()) {
      const Staged<Exec, Plan<S>, Plan<S + 1>> staged(exec, 0, sub, out);
      const Body body{Dst{dst.data()}, staged.template get<0>(), fold, init};
      run_rows_teams(exec, out, staged.template get<1>(), body, label);
    } else if constexpr (compat::is_host_space_v<Exec>) {
      const Body body{Dst{dst.data()}, &sub, fold, init};
      run_plan(exec, out, body, label, outputs * (sub.count > 0 ? sub.count : 1));
    }
    return;
  }
  OutputIndex<S + 1> index_of;
  index_of.rank = static_cast<int>(split.kept.size());
  for (int a = 0; a < index_of.rank; ++a) {
    index_of.extents[a] = dst.extent(static_cast<std::size_t>(a));
    for (int k = 0; k < S + 1; ++k) index_of.strides[k][a] = out_strides[k][split.kept[a]];
  }
  const std::size_t tiles = sub.tile_count;
  const Staged<Exec, OutputIndex<S + 1>, Plan<S>> staged(exec, outputs * tiles * sizeof(U),
                                                         index_of, sub);
  U* partials = staged.template extra<U>();
  if (tiles > 0 && uses_device_algorithm<Exec>()) {
    using Items = OutputTiles<S>;
    launch_teams(exec, outputs * tiles,
                 TeamFold<Exec, S, Fold, U, Items>{staged.template get<1>(), fold.spec(), partials,
                                                   Items{staged.template get<0>(), tiles},
                                                   outputs * tiles, 0},
                 label);
  } else if constexpr (compat::is_host_space_v<Exec>) {
    if (tiles > 0)
      Kokkos::parallel_for(label, compat::range_policy(exec, outputs * tiles),
                           SubTilePartials<S, Fold, U>{staged.template get<0>(),
                                                       staged.template get<1>(), fold, partials});
  }
  Kokkos::parallel_for(
      label, compat::range_policy(exec, outputs),
      CombineOutputs<S, Dst, std::decay_t<ReduceFn>, U>{staged.template get<0>(), tiles, partials,
                                                        Dst{dst.data()}, reduce_fn, init});
  compat::fence(exec, "strided::reduce_axes: release the partials");
}

}  // namespace detail

/// dst = reduce over `axes` of map_fn(op(src)): dst has src's shape without those axes (rank 0
/// when all are reduced). Axes may come in any order; an empty list applies map_fn only.
template <class Exec, class D, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
void reduce_axes(const Exec& exec, const D& dst, const S& src,
                 const detail::IndexList<std::size_t>& axes, const MapFn& map_fn,
                 const ReduceFn& reduce_fn, const U& init) {
  static const std::string label("strided::reduce_axes");
  detail::reduce_axes_checked("reduce_axes", label, exec, detail::as_view(dst), axes, map_fn,
                              reduce_fn, init, detail::as_view(src));
}
template <class D, class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<D> = 0>
void reduce_axes(const D& dst, const S& src, const detail::IndexList<std::size_t>& axes,
                 const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init) {
  reduce_axes(detail::default_host(), dst, src, axes, map_fn, reduce_fn, init);
}

/// Reduces one axis into a new column-major array whose element type is that of init, in the
/// memory space of `exec` (host memory for host spaces, device memory for a device).
template <class Exec, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
StridedArray<U, typename Exec::memory_space> reduce_axis(const Exec& exec, const S& src,
                                                         std::size_t axis, const MapFn& map_fn,
                                                         const ReduceFn& reduce_fn, const U& init) {
  static const std::string label("strided::reduce_axis");
  const auto& s = detail::as_view(src);
  if (axis >= s.rank())
    detail::throw_error(ErrorCode::InvalidAxis, "reduce_axis", "axis ", axis,
                        " is out of range for rank ", s.rank());
  detail::IndexList<std::size_t> kept;
  for (std::size_t k = 0; k < s.rank(); ++k)
    if (k != axis) kept.push_back(s.extent(k));
  auto result = StridedArray<U, typename Exec::memory_space>::col_major(kept);
  detail::reduce_axes_checked("reduce_axis", label, exec, result.view(), {axis}, map_fn, reduce_fn,
                              init, s);
  return result;
}
template <class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<S> = 0>
StridedArray<U> reduce_axis(const S& src, std::size_t axis, const MapFn& map_fn,
                            const ReduceFn& reduce_fn, const U& init) {
  return reduce_axis(detail::default_host(), src, axis, map_fn, reduce_fn, init);
}

namespace detail {
/// The built-in axis reductions share one shape: (dst, src, axes) with a fixed map/reduce/init.
template <class Exec, class D, class S, class MapFn, class ReduceFn, class T>
void builtin_axes(const char* function, const std::string& label, const Exec& exec, const D& dst,
                  const S& src, const IndexList<std::size_t>& axes, const MapFn& map_fn,
                  const ReduceFn& reduce_fn, const T& init) {
  reduce_axes_checked(function, label, exec, as_view(dst), axes, map_fn, reduce_fn, init,
                      as_view(src));
}
}  // namespace detail

#define STRIDED_BUILTIN_AXES(NAME, MAP, REDUCE, INIT, CHECK)                          \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>           \
  void NAME(const Exec& exec, const D& dst, const S& src,                             \
            const detail::IndexList<std::size_t>& axes) {                             \
    using T = detail::value_of<S>;                                                    \
    CHECK;                                                                            \
    static const std::string label("strided::" #NAME);                                \
    detail::builtin_axes(#NAME, label, exec, dst, src, axes, MAP, REDUCE, INIT);      \
  }                                                                                   \
  template <class D, class S, detail::enable_if_operand<D> = 0>                       \
  void NAME(const D& dst, const S& src, const detail::IndexList<std::size_t>& axes) { \
    NAME(detail::default_host(), dst, src, axes);                                     \
  }

STRIDED_BUILTIN_AXES(sum_axes, detail::Convert<T>{}, detail::Plus{}, T(0), (void)0)
STRIDED_BUILTIN_AXES(product_axes, detail::Convert<T>{}, detail::Times{}, T(1), (void)0)
STRIDED_BUILTIN_AXES(sum_squares_axes, detail::Square<T>{}, detail::Plus{}, T(0),
                     static_assert(!detail::is_complex_v<T>,
                                   "strided::sum_squares_axes: for real and integer types"))
STRIDED_BUILTIN_AXES(max_axes, detail::Convert<T>{}, detail::Max{}, detail::lowest_value<T>(),
                     static_assert(!detail::is_complex_v<T>,
                                   "strided::max_axes: complex numbers have no order"))
STRIDED_BUILTIN_AXES(min_axes, detail::Convert<T>{}, detail::Min{}, detail::highest_value<T>(),
                     static_assert(!detail::is_complex_v<T>,
                                   "strided::min_axes: complex numbers have no order"))
#undef STRIDED_BUILTIN_AXES

/// dst = sum over `axes` of op(a) * op(b) (no conjugation), in dst's element type.
template <class Exec, class D, class A, class B, detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const D& dst, const A& a, const B& b,
              const detail::IndexList<std::size_t>& axes) {
  using U = detail::value_of<D>;
  static const std::string label("strided::dot_axes");
  detail::reduce_axes_checked("dot_axes", label, exec, detail::as_view(dst), axes,
                              detail::Product<U>{}, detail::Plus{}, U(0), detail::as_view(a),
                              detail::as_view(b));
}
template <class D, class A, class B, detail::enable_if_operand<D> = 0>
void dot_axes(const D& dst, const A& a, const B& b, const detail::IndexList<std::size_t>& axes) {
  dot_axes(detail::default_host(), dst, a, b, axes);
}

}  // namespace strided

#endif
