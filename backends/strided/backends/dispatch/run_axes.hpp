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

#include "strided/backends/bodies/axis_fold.hpp"
#include "strided/backends/common/kept_plan.hpp"
#include "strided/backends/common/workspace.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/dispatch/run_map.hpp"
#include "strided/backends/team/run_teams.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"
#include "strided/core/axes_plan.hpp"
#include "strided/core/launch_shape.hpp"
#include "strided/core/planner.hpp"
#include "strided/core/small_vector.hpp"

namespace strided::detail {

/// The buffered strategy's partials on a host space: column folds whose outputs lie side by
/// side in the source sweep bands of them (each line read once); anything else folds even runs
/// of the (output, sub-tile) pairs. No bit depends on which.
template <class Exec, int S, class Fold, class U>
void fold_sub_tiles_host(const Exec& exec, const AxesLayout<S>& layout, const Fold& fold,
                         U* partials, const Options& options, const std::string& label) {
  const Plan<S>& sub = layout.sub;
  const OutputIndex<S + 1>& index = layout.index;
  const std::size_t tiles = sub.tile_count;
  const std::size_t threads = static_cast<std::size_t>(compat::concurrency(exec));
  if constexpr (S == 1) {
    int axis = -1;
    std::size_t below = 1;
    if (sub.rank == 1 && !sub.gathered && magnitude(sub.strides[0][0]) != 1)
      for (int a = 0; a < index.rank && axis < 0; ++a) {
        if (index.strides[1][a] == 1)
          axis = a;
        else
          below *= index.extents[a];
      }
    if (axis >= 0) {
      const std::size_t extent = index.extents[axis], lines = layout.outputs / extent;
      // As wide as the L2 allows, but narrower (16 at least) while threads would go idle.
      std::size_t width =
          std::min(extent, axis_sweep_outputs(planner_l2_bytes(options.planner), sizeof(U)));
      const auto bands = [&] { return (extent + width - 1) / width; };
      while (width > AXIS_SWEEP && tiles * lines * bands() < threads)
        width = std::max(AXIS_SWEEP, (width / 2 + 15) / 16 * 16);
      Kokkos::parallel_for(label, compat::range_policy(exec, tiles * lines * bands()),
                           ColumnBandPartials<Fold, U>{&index, &sub, fold, partials, axis, below,
                                                       width, bands(), lines});
      return;
    }
  }
  const std::size_t chunks = std::min(tiles * layout.outputs, 8 * threads);
  Kokkos::parallel_for(
      label, compat::range_policy(exec, chunks),
      SubTileChunks<S, Fold, U>{&index, &sub, fold, partials, layout.outputs, chunks});
}

/// An axis reduction on `exec`. Unbuffered: parallel over outputs, each folding its sub-tensor
/// in registers. Buffered: work items are (output, sub-tile) pairs, so few outputs still use
/// every thread. Same bits either way. `kept`: the copies of a kept plan's layout.
template <class Exec, int S, class Dst, class Fold, class U, class ReduceFn>
void run_axes(const Exec& exec, const AxesLayout<S>& layout, const Dst& dst, const Fold& fold,
              const ReduceFn& reduce_fn, const U& init, const Options& options,
              const std::string& label, KeptCopies* kept = nullptr) {
  const Plan<S>& sub = layout.sub;
  const std::size_t outputs = layout.outputs;
  if (outputs == 0) return;
  // Host routes are taken per strategy below (the buffered strategy always spreads its items).
  const bool device = route(exec, options, CallFacts{}) == Route::Team;
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
      const AxesLayout<S>* on = kept_on(exec, kept, layout);
      const Staged<Exec, Plan<S>, Plan<S + 1>> staged(
          exec, 0,
          std::make_tuple(member_of_copy(on, layout, sub), member_of_copy(on, layout, layout.out)),
          sub, layout.out);
      const Body body{dst, staged.template get<0>(), fold, init};
      run_rows_teams(exec, layout.out, staged.template get<1>(), body, label);
    } else if constexpr (compat::is_host_space_v<Exec>) {
      const Body body{dst, &sub, fold, init,
                      axis_sweep_outputs(planner_l2_bytes(options.planner), sizeof(U))};
      CallFacts call{outputs * (sub.count > 0 ? sub.count : 1), layout.out.tile_count,
                     layout.out.rank};
      call.grid = true;
      run_host_tiles(exec, layout.out, body, route(exec, options, call), label);
    }
    return;
  }
  const std::size_t tiles = sub.tile_count;
  const AxesLayout<S>* on = device ? kept_on(exec, kept, layout) : nullptr;
  const Staged<Exec, OutputIndex<S + 1>, Plan<S>> staged(
      exec, outputs * tiles * sizeof(U),
      std::make_tuple(member_of_copy(on, layout, layout.index), member_of_copy(on, layout, sub)),
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
    if (tiles > 0) fold_sub_tiles_host(exec, layout, fold, partials, options, label);
  }
  Kokkos::parallel_for(label, compat::range_policy(exec, outputs),
                       CombineOutputs<S, Dst, std::decay_t<ReduceFn>, U>{
                           staged.template get<0>(), tiles, partials, dst, reduce_fn, init});
  compat::fence(exec, "strided::reduce_axes: release the partials");
}

}  // namespace strided::detail

#endif
