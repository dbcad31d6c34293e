#ifndef STRIDED_CORE_AXES_PLAN_HPP
#define STRIDED_CORE_AXES_PLAN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The plans of an axis reduction: the reduced axes' sub-plan, the kept axes' plan and their
// index. Backend-free: the backends run them (dispatch/run_axes.hpp), kept AxesPlans hold them.

#include <algorithm>
#include <cstddef>

#include "strided/core/config.hpp"
#include "strided/core/machine.hpp"
#include "strided/core/plan.hpp"
#include "strided/core/planner.hpp"
#include "strided/core/small_vector.hpp"

namespace strided::detail {

/// Fewest outputs per sweep of AxisBody.
inline constexpr std::size_t AXIS_SWEEP = 16;

/// An output of an axis reduction folds its reduced sub-tensor with the sub-plan's tiles, lanes
/// and pairwise combine. Outputs whose sub-plan has at most this many tiles fold in registers
/// (or in a host sweep's stage); larger ones go through a buffer.
inline constexpr std::size_t INLINE_SUB_TILES = 16;

/// Kept-axis geometry of an axis reduction in the buffered strategy: output o (in dst's axis
/// order, first axis fastest) at per-operand offsets computed by decomposition.
template <int N>
struct OutputIndex {
  int rank;
  std::size_t extents[MAX_PLAN_RANK];
  std::ptrdiff_t strides[N][MAX_PLAN_RANK];  ///< operand 0 = destination

  STRIDED_HOST_DEVICE void offsets(std::size_t o, std::ptrdiff_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int a = 0; a < rank; ++a) {
      const std::size_t i = o % extents[a];
      o /= extents[a];
      for (int k = 0; k < N; ++k) off[k] += static_cast<std::ptrdiff_t>(i) * strides[k][a];
    }
  }
};

/// The most elements of a sub-plan tile of an axis reduction of `outputs` results of
/// `per_output` elements each: the grain of a full reduction of all of them (tile_grain), so that
/// from 2^22 elements in all a GPU has 2^17 independent lane chains however the elements are
/// shared between outputs (4096 row sums of 4096: two tiles of 2048 each). Part of the fold
/// order: it depends on the shape and options alone.
inline std::size_t axis_tile_grain(std::size_t outputs, std::size_t per_output,
                                   const PlannerOptions& options) {
  // The elements of a valid view fit a size_t; saturate all the same.
  const std::size_t most = static_cast<std::size_t>(-1);
  const std::size_t all =
      per_output != 0 && outputs > most / per_output ? most : outputs * per_output;
  return tile_grain(all, options);
}

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
  layout.outputs = 1;
  for (std::size_t a : kept) layout.outputs *= extents[a];
  std::size_t per_output = 1;
  for (std::size_t a : reduced) per_output *= extents[a];
  PlannerOptions by_grain = options;
  by_grain.max_tile_elements = axis_tile_grain(layout.outputs, per_output, options);
  layout.sub = plan_over<S>(reduced, src_strides, src_sizes, extents, by_grain);
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
  // A single reduced axis per output (in up to INLINE_SUB_TILES tiles) is swept rows outer
  // (AxisBody::sweep): tiles then hold a whole band of outputs, as wide as the L2 allows while
  // every thread gets one.
  PlannerOptions by_work = options;
  const std::size_t fewest =
      layout.sub.rank == 1 && layout.sub.tile_count >= 1 &&
              layout.sub.tile_count <= INLINE_SUB_TILES
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

}  // namespace strided::detail

#endif
