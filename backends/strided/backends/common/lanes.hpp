#ifndef STRIDED_BACKENDS_COMMON_LANES_HPP
#define STRIDED_BACKENDS_COMMON_LANES_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The fold rule of every reduction, defined once (FoldRule): the library's reproducibility
// promise. Host tiles (TileFold's Lanes), the host sweeps of axis reductions (AxisBody::sweep and
// ::rows), the device lanes (LaneFold, TeamFold) and every combine of tile partials follow it;
// tests compare their bits.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

#include "strided/core/combine.hpp"

namespace strided::detail {

/// Lanes of every in-tile fold.
inline constexpr int REDUCE_LANES = 16;

/// How a reduction folds, whatever loops carry it out:
/// - a tile's runs are folded in the plan's order, and element i of a run goes to lane
///   lane_of(i);
/// - a lane's first element seeds it (seed_or_fold); since every run starts at lane 0, the
///   seeded lanes are always [0, seeded), and a run of n elements alone seeds seeds(n) of them;
/// - the seeded lanes combine in the lane tree (widths doubling), and a tile's value is lane 0;
/// - tile partials combine in the tile tree (halves: combine_pairwise, core/combine.hpp).
/// The two trees have different shapes, and both are part of the contract (changing either
/// changes results): the lane tree pairs neighbouring lanes of a fixed 16, the tile tree halves
/// any count of tiles the same way on every backend (docs/determinism.md).
struct FoldRule {
  /// The lane of element i of a run.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int lane_of(std::size_t i) {
    return static_cast<int>(i % REDUCE_LANES);
  }

  /// The lanes a single run of n elements seeds.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::ptrdiff_t seeds(std::ptrdiff_t n) {
    return n < REDUCE_LANES ? n : REDUCE_LANES;
  }

  /// A lane's next element v: its seed when the lane has none yet, else folded into it.
  template <class U, class ReduceFn>
  KOKKOS_FORCEINLINE_FUNCTION static U seed_or_fold(bool seeded, const U& lane, const U& v,
                                                    const ReduceFn& reduce_fn) {
    return seeded ? reduce_fn(lane, v) : v;
  }

  /// The lane tree over lanes [0, seeded) in place, widths doubling: lane(0) ends with the
  /// tile's value. `lane(l)` returns lane l's accumulator by reference, wherever the lanes live
  /// (registers, team scratch, one column of a sweep).
  template <class ReduceFn, class LaneRef>
  KOKKOS_FORCEINLINE_FUNCTION static void lane_tree(int seeded, const ReduceFn& reduce_fn,
                                                    const LaneRef& lane) {
    for (int width = 1; width < seeded; width *= 2)
      for (int l = 0; l + width < seeded; l += 2 * width)
        lane(l) = reduce_fn(lane(l), lane(l + width));
  }

  /// lane_tree over all REDUCE_LANES lanes, unrolled: the same folds in the same order. (A
  /// constant-count call of lane_tree is merged with the general one and stays a loop through
  /// memory, each level loading what the level before had just stored.)
  template <class ReduceFn, class LaneRef>
  KOKKOS_FORCEINLINE_FUNCTION static void full_lane_tree(const ReduceFn& reduce_fn,
                                                         const LaneRef& lane) {
    tree_level<1>(reduce_fn, lane, std::make_integer_sequence<int, REDUCE_LANES / 2>{});
    tree_level<2>(reduce_fn, lane, std::make_integer_sequence<int, REDUCE_LANES / 4>{});
    tree_level<4>(reduce_fn, lane, std::make_integer_sequence<int, REDUCE_LANES / 8>{});
    tree_level<8>(reduce_fn, lane, std::make_integer_sequence<int, REDUCE_LANES / 16>{});
    static_assert(REDUCE_LANES == 16, "full_lane_tree unrolls four levels");
  }

  /// The tile tree over partials[first, last), in place (last > first).
  template <class U, class ReduceFn>
  KOKKOS_FORCEINLINE_FUNCTION static U tile_tree(U* partials, std::size_t first, std::size_t last,
                                                 const ReduceFn& reduce_fn) {
    return combine_pairwise(partials, first, last, reduce_fn);
  }

 private:
  /// One level of the lane tree: lane(2 W p) folds in lane(2 W p + W), for each pair p.
  template <int W, class ReduceFn, class LaneRef, int... P>
  KOKKOS_FORCEINLINE_FUNCTION static void tree_level(const ReduceFn& reduce_fn, const LaneRef& lane,
                                                     std::integer_sequence<int, P...>) {
    ((lane(2 * W * P) = reduce_fn(lane(2 * W * P), lane(2 * W * P + W))), ...);
  }
};

/// The 16 accumulators of one tile, fed run by run by FoldRule.
template <class U, class ReduceFn>
struct Lanes {
  U lane[REDUCE_LANES];
  int seeded = 0;

  /// Folds one run of n elements; x(i) is the mapped element i. Forced inline: the 16-lane body
  /// must land in the caller's loop nest to vectorize.
  template <class X>
  KOKKOS_FORCEINLINE_FUNCTION void run(std::size_t n0, const X& x, const ReduceFn& reduce_fn) {
    run(
        n0, x,
        [&](std::ptrdiff_t i, U* v) {
          for (int l = 0; l < REDUCE_LANES; ++l) v[l] = x(i + l);
        },
        reduce_fn);
  }

  /// The same, with block(i, v) setting v[l] = x(i + l) for the 16 elements of each full step
  /// of the main loop (a fold may compute them together, see TileFold).
  template <class X, class Block>
  KOKKOS_FORCEINLINE_FUNCTION void run(std::size_t n0, const X& x, const Block& block,
                                       const ReduceFn& reduce_fn) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(n0);
    std::ptrdiff_t i = 0;
    if (seeded == 0 && n >= REDUCE_LANES) {
      // Seeded by a whole first step (the common case: every GPU-scale tile starts so).
      U v[REDUCE_LANES];
      block(0, v);
      for (int l = 0; l < REDUCE_LANES; ++l) lane[l] = v[l];
      seeded = REDUCE_LANES;
      i = REDUCE_LANES;
    } else if (seeded < REDUCE_LANES) {
      for (; i < n && i < REDUCE_LANES; ++i) {
        lane[i] = FoldRule::seed_or_fold(i < seeded, lane[i], x(i), reduce_fn);
      }
      if (i > seeded) seeded = static_cast<int>(i);
    }
    if (i + REDUCE_LANES <= n) {
      // The lanes in locals for the main loop: a member array may stay in memory (its address
      // escapes to the caller), one store-to-load round trip per element.
      U acc[REDUCE_LANES];
      for (int l = 0; l < REDUCE_LANES; ++l) acc[l] = lane[l];
      for (; i + REDUCE_LANES <= n; i += REDUCE_LANES) {
        U v[REDUCE_LANES];
        block(i, v);
        for (int l = 0; l < REDUCE_LANES; ++l) acc[l] = reduce_fn(acc[l], v[l]);
      }
      for (int l = 0; l < REDUCE_LANES; ++l) lane[l] = acc[l];
    }
    for (; i < n; ++i) {
      const int l = FoldRule::lane_of(static_cast<std::size_t>(i));
      lane[l] = reduce_fn(lane[l], x(i));
    }
  }

  /// The tile's partial. All 16 lanes seeded (the common case) take the unrolled tree.
  KOKKOS_INLINE_FUNCTION U result(const ReduceFn& reduce_fn) {
    const auto at = [this](int l) -> U& { return lane[l]; };
    if (seeded == REDUCE_LANES)
      FoldRule::full_lane_tree(reduce_fn, at);
    else
      FoldRule::lane_tree(seeded, reduce_fn, at);
    return lane[0];
  }
};

}  // namespace strided::detail

#endif
