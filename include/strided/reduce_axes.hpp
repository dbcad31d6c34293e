#ifndef STRIDED_REDUCE_AXES_HPP
#define STRIDED_REDUCE_AXES_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE_AXES
#endif

// Axis reductions: reduce_axes, reduce_axis and the built-ins over axes (sum_axes, product_axes,
// sum_squares_axes, max_axes, min_axes, dot_axes). Each output has the bits of the full
// reduction of its sub-tensor (same fold order).
//
// Every kernel has four forms, e.g. sum_axes:
//   sum_axes(exec, dst, src, axes, [options])
//   sum_axes(dst, src, axes, [options])       on the default DefaultHostExecutionSpace instance
//   sum_axes(exec, plan, dst, src)            a kept plan (make_axes_plan(dst, src, axes))
//   sum_axes(plan, dst, src)
// Errors (strided::Error, before anything is written): InvalidAxis (out of range or repeated),
// RankMismatch and ShapeMismatch (dst is not src's shape without the reduced axes, or sources of
// different shapes), NonInjectiveOutput, OverlappingInputOutput, PlanMismatch.
// Complexity: O(elements) work; planning O(rank^2) unless a plan is given.

#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <type_traits>

#include "strided/backends/dispatch/run_axes.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/core/labels.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"
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

/// The compile-time checks of every axis reduction: a writable destination, and operands that
/// `Exec` can reach.
template <class Exec, class DV, class... SV>
void check_axes_operands() {
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  check_accessible<Exec, DV>();
  (check_accessible<Exec, SV>(), ...);
}

template <class DV, class... SV>
AxesLayout<static_cast<int>(sizeof...(SV))> axes_layout(const AxisSplit& split,
                                                        const PlannerOptions& options,
                                                        int host_threads, const DV& dst,
                                                        const SV&... srcs) {
  constexpr int S = static_cast<int>(sizeof...(SV));
  const auto& src = std::get<0>(std::forward_as_tuple(srcs...));
  const std::ptrdiff_t* src_strides[S] = {srcs.strides().data()...};
  const std::size_t src_sizes[S] = {sizeof(typename SV::value_type)...};
  AxesLayout<S> layout;
  plan_axes<S>(layout, split.kept, split.reduced, src.extents().data(), src.rank(),
               dst.strides().data(), sizeof(typename DV::value_type), src_strides, src_sizes,
               options, host_threads);
  return layout;
}

/// Checks of every axis reduction: shapes, axes, an injective destination, no overlap.
template <class DV, class... SV>
AxisSplit check_axes(const char* function, const DV& dst, const IndexList<std::size_t>& axes,
                     const SV&... srcs) {
  const auto& src = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape(function, src, srcs), ...);
  AxisSplit split = split_axes(function, src.rank(), axes);
  check_reduced_shape(function, dst, src, split);
  check_output(function, dst);
  int index = 0;
  (check_no_overlap(function, dst, srcs, index++), ...);
  return split;
}

template <class Exec, class DV, class U, class MapFn, class ReduceFn, class... SV>
void reduce_axes_checked(const char* function, const std::string& label, const Exec& exec,
                         const Options& options, const DV& dst, const IndexList<std::size_t>& axes,
                         const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init,
                         const SV&... srcs) {
  check_axes_operands<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  const AxisSplit split = check_axes(function, dst, axes, srcs...);
  if (dst.size() == 0) return;
  const auto layout =
      axes_layout(split, options.planner, host_threads(exec, options), dst, srcs...);
  run_axes(exec, layout, DstRef<typename DV::value_type, typename DV::op_type>{dst.data()},
           make_fold<U>(map_fn, reduce_fn, srcs...), reduce_fn, init, options, label);
}

/// Checks of an axis reduction with a kept plan: the operands have the plan's layouts and no
/// source overlaps the destination. Returns whether there is anything to compute.
template <int S, class DV, class... SV>
bool check_axes_plan(const char* function, const AxesPlan<S>& p, const DV& dst, const SV&... srcs) {
  const auto& state = p.state();
  if (!same_layouts(state.dst_key, dst) || !same_layouts(state.src_key, srcs...))
    throw_error(ErrorCode::PlanMismatch, function,
                "the operands' extents, strides or element sizes differ from the plan's");
  int index = 0;
  (check_no_overlap(function, dst, srcs, index++), ...);
  return dst.size() != 0;
}

template <class Exec, int S, class DV, class U, class MapFn, class ReduceFn, class... SV>
void reduce_axes_planned(const char* function, const std::string& label, const Exec& exec,
                         const AxesPlan<S>& p, const DV& dst, const MapFn& map_fn,
                         const ReduceFn& reduce_fn, const U& init, const SV&... srcs) {
  static_assert(sizeof...(SV) == S, "strided: the plan was made for another number of sources");
  check_axes_operands<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  if (!check_axes_plan(function, p, dst, srcs...)) return;
  const auto& state = p.state();
  run_axes(exec, state.layout, DstRef<typename DV::value_type, typename DV::op_type>{dst.data()},
           make_fold<U>(map_fn, reduce_fn, srcs...), reduce_fn, init, state.options, label,
           state.copies.get());
}

/// A built-in reduction (SumReduction, ...) of src over axes, checked against `options` or run
/// by a kept plan.
template <class Reduction, class Exec, class DV, class SV>
void builtin_reduce_axes(const char* function, const std::string& label, const Exec& exec,
                         const Options& options, const DV& dst, const SV& src,
                         const IndexList<std::size_t>& axes) {
  const auto fold = Reduction::template of<typename SV::value_type>();
  reduce_axes_checked(function, label, exec, options, dst, axes, fold.map_fn, fold.reduce_fn,
                      fold.init, src);
}
template <class Reduction, class Exec, class DV, class SV>
void builtin_reduce_axes(const char* function, const std::string& label, const Exec& exec,
                         const AxesPlan<1>& plan, const DV& dst, const SV& src) {
  const auto fold = Reduction::template of<typename SV::value_type>();
  reduce_axes_planned(function, label, exec, plan, dst, fold.map_fn, fold.reduce_fn, fold.init,
                      src);
}

template <class DV, class... SV>
auto make_axes_plan_of(const Options& options, const DV& dst, const IndexList<std::size_t>& axes,
                       const SV&... srcs) {
  constexpr int S = static_cast<int>(sizeof...(SV));
  const auto& src = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape("make_axes_plan", src, srcs), ...);
  const AxisSplit split = split_axes("make_axes_plan", src.rank(), axes);
  check_reduced_shape("make_axes_plan", dst, src, split);
  check_output("make_axes_plan", dst);
  auto state = std::make_shared<typename AxesPlan<S>::State>();
  // Made without an instance: sized for the default space's threads.
  state->layout = axes_layout(split, options.planner,
                              host_threads(Kokkos::DefaultExecutionSpace(), options), dst, srcs...);
  state->options = options;
  state->axes = axes;
  state->dst_key = layout_key(dst);
  state->src_key = layout_key(srcs...);
  return AxesPlan<S>(std::move(state));
}

}  // namespace detail

/// A plan to keep for an axis reduction: `make_axes_plan(dst, src, axes, [options])`, or
/// `make_axes_plan(dst, a, b, axes, [options])` for dot_axes. Execute it with the kernel's
/// overload that takes a plan, e.g. `sum_axes(exec, p, dst, src)` (the axes are the plan's).
/// Errors: as the kernels', checked once here. Complexity: one planning; O(rank) per execution.
template <class D, class S>
auto make_axes_plan(const D& dst, const S& src, const AxisList& axes,
                    const Options& options = default_options()) {
  return detail::make_axes_plan_of(options, detail::as_view(dst), axes, detail::as_view(src));
}
template <class D, class A, class B, std::enable_if_t<detail::is_operand_v<B>, int> = 0>
auto make_axes_plan(const D& dst, const A& a, const B& b, const AxisList& axes,
                    const Options& options = default_options()) {
  return detail::make_axes_plan_of(options, detail::as_view(dst), axes, detail::as_view(a),
                                   detail::as_view(b));
}

namespace detail {
/// The reduced and kept plans of an axis reduction, as text.
template <int S>
std::string describe_axes(const AxesPlan<S>& p) {
  return "reduced axes: " + describe(p.reduced_plan()) + "\nkept axes: " + describe(p.kept_plan());
}
/// The device algorithm's launch of an axis reduction on `device` (launch_shape.hpp).
template <int S>
std::string describe_axes_launch(const AxesPlan<S>& p, const DeviceModel& device) {
  const auto& layout = p.state().layout;
  const auto& sub = layout.sub;
  if (layout.outputs == 0 || sub.count == 0) return {};
  const DeviceKernel kernel = axis_kernel(sub);
  const std::size_t bytes = layout.outputs * sub.count * p.state().src_key.element_bytes();
  return describe_launch(
      kernel == DeviceKernel::Rows
          ? launch_shape(kernel, p.kept_plan().tile_count, bytes, device, layout.outputs)
          : launch_shape(kernel, layout.outputs * sub.tile_count, bytes, device),
      device);
}
}  // namespace detail

/// Human-readable plans of an axis reduction: the reduced axes, then the kept axes, and its
/// launch on `device` under the device algorithm (without `device`: an H200, and only when the
/// plan runs under the device algorithm, as explain(KernelPlan)).
template <int S>
std::string explain(const AxesPlan<S>& p, const DeviceModel& device) {
  return detail::describe_axes(p) + detail::describe_axes_launch(p, device);
}
template <int S>
std::string explain(const AxesPlan<S>& p) {
  if (!detail::runs_on_device(p.options())) return detail::describe_axes(p);
  return explain(p, DeviceModel{});
}

/// dst = reduce over `axes` of map_fn(op(src)): dst has src's shape without those axes (rank 0
/// when all are reduced). Axes may come in any order; an empty list applies map_fn only.
template <class Exec, class D, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
void reduce_axes(const Exec& exec, const D& dst, const S& src, const AxisList& axes,
                 const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init,
                 const Options& options = default_options()) {
  const std::string& label = detail::labels::reduce_axes;
  detail::reduce_axes_checked("reduce_axes", label, exec, options, detail::as_view(dst), axes,
                              map_fn, reduce_fn, init, detail::as_view(src));
}
template <class Exec, class D, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
void reduce_axes(const Exec& exec, const AxesPlan<1>& plan, const D& dst, const S& src,
                 const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init) {
  const std::string& label = detail::labels::reduce_axes;
  detail::reduce_axes_planned("reduce_axes", label, exec, plan, detail::as_view(dst), map_fn,
                              reduce_fn, init, detail::as_view(src));
}
template <class D, class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<D> = 0>
void reduce_axes(const D& dst, const S& src, const AxisList& axes, const MapFn& map_fn,
                 const ReduceFn& reduce_fn, const U& init,
                 const Options& options = default_options()) {
  reduce_axes(detail::default_host(), dst, src, axes, map_fn, reduce_fn, init, options);
}
template <class D, class S, class MapFn, class ReduceFn, class U>
void reduce_axes(const AxesPlan<1>& plan, const D& dst, const S& src, const MapFn& map_fn,
                 const ReduceFn& reduce_fn, const U& init) {
  reduce_axes(detail::default_host(), plan, dst, src, map_fn, reduce_fn, init);
}

/// Reduces one axis into a new column-major array whose element type is that of init, in the
/// memory space of `exec` (host memory for host spaces, device memory for a device).
template <class Exec, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
StridedArray<U, typename Exec::memory_space> reduce_axis(
    const Exec& exec, const S& src, std::size_t axis, const MapFn& map_fn,
    const ReduceFn& reduce_fn, const U& init, const Options& options = default_options()) {
  const std::string& label = detail::labels::reduce_axis;
  const auto& s = detail::as_view(src);
  if (axis >= s.rank())
    detail::throw_error(ErrorCode::InvalidAxis, "reduce_axis", "axis ", axis,
                        " is out of range for rank ", s.rank());
  detail::IndexList<std::size_t> kept;
  for (std::size_t k = 0; k < s.rank(); ++k)
    if (k != axis) kept.push_back(s.extent(k));
  auto result = StridedArray<U, typename Exec::memory_space>::col_major(kept);
  detail::reduce_axes_checked("reduce_axis", label, exec, options, result.view(), {axis}, map_fn,
                              reduce_fn, init, s);
  return result;
}
template <class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<S> = 0>
StridedArray<U> reduce_axis(const S& src, std::size_t axis, const MapFn& map_fn,
                            const ReduceFn& reduce_fn, const U& init,
                            const Options& options = default_options()) {
  return reduce_axis(detail::default_host(), src, axis, map_fn, reduce_fn, init, options);
}

// The four forms of a built-in axis reduction NAME, written once: on `exec` with axes and options
// or a kept plan, and the same on the default host instance.
#define STRIDED_IMPL_BUILTIN_AXES_REDUCTION(NAME, REDUCTION)                                  \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>                   \
  void NAME(const Exec& exec, const D& dst, const S& src, const AxisList& axes,               \
            const Options& options = default_options()) {                                     \
    detail::builtin_reduce_axes<REDUCTION>(#NAME, detail::labels::NAME, exec, options,        \
                                           detail::as_view(dst), detail::as_view(src), axes); \
  }                                                                                           \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>                   \
  void NAME(const Exec& exec, const AxesPlan<1>& plan, const D& dst, const S& src) {          \
    detail::builtin_reduce_axes<REDUCTION>(#NAME, detail::labels::NAME, exec, plan,           \
                                           detail::as_view(dst), detail::as_view(src));       \
  }                                                                                           \
  template <class D, class S, detail::enable_if_operand<D> = 0>                               \
  void NAME(const D& dst, const S& src, const AxisList& axes,                                 \
            const Options& options = default_options()) {                                     \
    NAME(detail::default_host(), dst, src, axes, options);                                    \
  }                                                                                           \
  template <class D, class S>                                                                 \
  void NAME(const AxesPlan<1>& plan, const D& dst, const S& src) {                            \
    NAME(detail::default_host(), plan, dst, src);                                             \
  }

/// The built-in reductions over axes: dst = sum (product, sum of squares, max, min) over `axes`
/// of op(src), in the element type, with the empty results and NaN rules of the full ones.
STRIDED_IMPL_BUILTIN_AXES_REDUCTION(sum_axes, detail::SumReduction)
STRIDED_IMPL_BUILTIN_AXES_REDUCTION(product_axes, detail::ProductReduction)
STRIDED_IMPL_BUILTIN_AXES_REDUCTION(sum_squares_axes, detail::SumSquaresReduction)
STRIDED_IMPL_BUILTIN_AXES_REDUCTION(max_axes, detail::MaxReduction)
STRIDED_IMPL_BUILTIN_AXES_REDUCTION(min_axes, detail::MinReduction)

/// dst = sum over `axes` of op(a) * op(b) (no conjugation), in dst's element type; each product
/// is rounded before it is added.
template <class Exec, class D, class A, class B, detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const D& dst, const A& a, const B& b, const AxisList& axes,
              const Options& options = default_options()) {
  using U = detail::value_of<D>;
  const std::string& label = detail::labels::dot_axes;
  detail::reduce_axes_checked("dot_axes", label, exec, options, detail::as_view(dst), axes,
                              detail::Product<U>{}, detail::Plus{}, U(0), detail::as_view(a),
                              detail::as_view(b));
}
template <class Exec, class D, class A, class B, detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const AxesPlan<2>& plan, const D& dst, const A& a, const B& b) {
  using U = detail::value_of<D>;
  const std::string& label = detail::labels::dot_axes;
  detail::reduce_axes_planned("dot_axes", label, exec, plan, detail::as_view(dst),
                              detail::Product<U>{}, detail::Plus{}, U(0), detail::as_view(a),
                              detail::as_view(b));
}
template <class D, class A, class B, detail::enable_if_operand<D> = 0>
void dot_axes(const D& dst, const A& a, const B& b, const AxisList& axes,
              const Options& options = default_options()) {
  dot_axes(detail::default_host(), dst, a, b, axes, options);
}
template <class D, class A, class B>
void dot_axes(const AxesPlan<2>& plan, const D& dst, const A& a, const B& b) {
  dot_axes(detail::default_host(), plan, dst, a, b);
}

}  // namespace strided

#undef STRIDED_IMPL_BUILTIN_AXES_REDUCTION

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE_AXES
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE_AXES
#endif

#endif
