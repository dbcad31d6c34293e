#ifndef STRIDED_BACKENDS_DISPATCH_RUN_AXES_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_AXES_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "strided/backends/common/axis_fold.hpp"
#include "strided/backends/device/run_teams.hpp"
#include "strided/backends/device/workspace.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/dispatch/run_map.hpp"
#include "strided/compat.hpp"
#include "strided/core/launch_shape.hpp"
#include "strided/core/planner.hpp"
#include "strided/core/small_vector.hpp"
#include "strided/options.hpp"

namespace strided::detail {

/// Plans over a subset of axes: operand k of the plan reads `strides[k]` on `axes`.
template <int N, class Axes>
Plan<N> plan_over(const Axes& axes, const std::ptrdiff_t* const* strides, const std::size_t* sizes,
                  const std::size_t* extents, const PlannerOptions& options) {
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

/// Everything an axis reduction of S sources runs from, besides the data pointers: the plan of
/// the reduced axes (operands: the sources), the plan of the kept axes (operand 0: the
/// destination, then the sources' kept strides) and the kept axes' index for the buffered
/// strategy. Made once per layout (a kept AxesPlan holds one).
template <int S>
struct AxesLayout {
  Plan<S> sub;
  Plan<S + 1> out;
  OutputIndex<S + 1> index;
  std::size_t outputs = 0;
};

/// `kept`/`reduced`: the source axes, in source order; `dst_strides[k]` is the destination's
/// stride on kept axis k. `host_threads`: the threads of the host space the plan will run on,
/// 0 for a device (it sizes the tiles of column sweeps only; no bit depends on it).
template <int S, class Axes>
void plan_axes(AxesLayout<S>& layout, const Axes& kept, const Axes& reduced,
               const std::size_t* extents, std::size_t src_rank, const std::ptrdiff_t* dst_strides,
               std::size_t dst_size, const std::ptrdiff_t* const* src_strides,
               const std::size_t* src_sizes, const PlannerOptions& options, int host_threads) {
  layout.sub = plan_over<S>(reduced, src_strides, src_sizes, extents, options);
  layout.outputs = 1;
  for (std::size_t a : kept) layout.outputs *= extents[a];
  // Outputs as operand 0 (the destination's strides) beside each source's kept strides.
  SmallVector<std::ptrdiff_t, 8> dst_on_src(src_rank, 0);
  std::size_t k = 0;
  for (std::size_t a : kept) dst_on_src[a] = dst_strides[k++];
  const std::ptrdiff_t* out_strides[S + 1];
  std::size_t out_sizes[S + 1];
  out_strides[0] = dst_on_src.data();
  out_sizes[0] = dst_size;
  for (int j = 0; j < S; ++j) {
    out_strides[j + 1] = src_strides[j];
    out_sizes[j + 1] = src_sizes[j];
  }
  // Output tiles hold about max_tile_elements of work (outputs x reduced elements), so that few
  // long reductions still spread over threads, but at least one sweep of outputs; each output's
  // bits do not depend on it.
  // A single reduced run per output is swept rows outer (AxisBody::sweep): tiles then hold a
  // whole band of outputs, as wide as the L2 allows while every thread gets one.
  PlannerOptions by_work = options;
  const std::size_t fewest =
      layout.sub.rank == 1 && layout.sub.tile_count == 1
          ? axis_sweep_tile(layout.outputs, host_threads, planner_l2_bytes(options))
          : AXIS_SWEEP;
  by_work.max_tile_elements = std::max<std::size_t>(
      fewest, by_work.max_tile_elements / std::max<std::size_t>(1, layout.sub.count));
  layout.out = plan_over<S + 1>(kept, out_strides, out_sizes, extents, by_work);
  // Extent-1 axes add nothing to an output's offsets (and leave at most 63 axes).
  layout.index.rank = 0;
  for (std::size_t a : kept) {
    if (extents[a] == 1) continue;
    const int r = layout.index.rank++;
    layout.index.extents[r] = extents[a];
    for (int j = 0; j < S + 1; ++j) layout.index.strides[j][r] = out_strides[j][a];
  }
}

/// An axis reduction on `exec`. Unbuffered: parallel over outputs, each folding its sub-tensor
/// in registers. Buffered: work items are (output, sub-tile) pairs, so few outputs still use
/// every thread. Same bits either way.
template <class Exec, int S, class Dst, class Fold, class U, class ReduceFn>
void run_axes(const Exec& exec, const AxesLayout<S>& layout, const Dst& dst, const Fold& fold,
              const ReduceFn& reduce_fn, const U& init, const Options& options,
              const std::string& label) {
  const Plan<S>& sub = layout.sub;
  const std::size_t outputs = layout.outputs;
  if (outputs == 0) return;
  const bool device = uses_device_algorithm<Exec>(options);
  const bool few_outputs = outputs < 8 * static_cast<std::size_t>(compat::concurrency(exec));
  const bool many_tiles =
      sub.tile_count > INLINE_SUB_TILES ||
      (few_outputs && sub.tile_count > 1 && outputs * sub.count > INLINE_ELEMENTS);
  // The device algorithm gives each output 16 lanes of its own: along unit-stride reduced runs
  // (TeamFold, reads coalesce along the run), or across adjacent outputs (column folds, reads
  // coalesce across outputs); one lane per output (TeamRows) only for short reductions.
  const DeviceKernel kernel = axis_kernel(sub);
  const bool buffered = device ? kernel != DeviceKernel::Rows : many_tiles;
  if (!buffered) {
    using Body = AxisBody<Dst, S, Fold, U>;
    if (device) {
      const Staged<Exec, Plan<S>, Plan<S + 1>> staged(exec, 0, sub, layout.out);
      const Body body{dst, staged.template get<0>(), fold, init};
      run_rows_teams(exec, layout.out, staged.template get<1>(), body, label);
    } else if constexpr (compat::is_host_space_v<Exec>) {
      const Body body{dst, &sub, fold, init,
                      axis_sweep_outputs(planner_l2_bytes(options.planner), sizeof(U))};
      run_host_tiles(exec, layout.out, body, options, label,
                     outputs * (sub.count > 0 ? sub.count : 1));
    }
    return;
  }
  const std::size_t tiles = sub.tile_count;
  const Staged<Exec, OutputIndex<S + 1>, Plan<S>> staged(exec, outputs * tiles * sizeof(U),
                                                         layout.index, sub);
  U* partials = staged.template extra<U>();
  if (tiles > 0 && device) {
    const auto fold_items = [&](auto items, auto across) {
      using Items = decltype(items);
      constexpr bool Across = decltype(across)::value;
      launch_teams(exec, outputs * tiles,
                   TeamFold<Exec, S, Fold, U, Items, Across>{staged.template get<1>(), fold.spec(),
                                                             partials, items, outputs * tiles, 0},
                   label);
    };
    if (kernel == DeviceKernel::Column)
      fold_items(OutputTiles<S, false>{staged.template get<0>(), tiles, outputs}, std::true_type{});
    else
      fold_items(OutputTiles<S>{staged.template get<0>(), tiles, outputs}, std::false_type{});
  } else if constexpr (compat::is_host_space_v<Exec>) {
    if (tiles > 0)
      Kokkos::parallel_for(label, compat::range_policy(exec, outputs * tiles),
                           SubTilePartials<S, Fold, U>{staged.template get<0>(),
                                                       staged.template get<1>(), fold, partials});
  }
  Kokkos::parallel_for(label, compat::range_policy(exec, outputs),
                       CombineOutputs<S, Dst, std::decay_t<ReduceFn>, U>{
                           staged.template get<0>(), tiles, partials, dst, reduce_fn, init});
  compat::fence(exec, "strided::reduce_axes: release the partials");
}

}  // namespace strided::detail

#endif
