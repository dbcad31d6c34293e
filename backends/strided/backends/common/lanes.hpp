#ifndef STRIDED_BACKENDS_COMMON_LANES_HPP
#define STRIDED_BACKENDS_COMMON_LANES_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The fold order of every reduction, defined once: the library's reproducibility promise. Host
// tiles (TileFold), the host column sweep of axis reductions (AxisBody::sweep) and the device
// lanes (LaneFold, TeamFold) all follow it, and tests compare their bits.

#include <Kokkos_Core.hpp>
#include <cstddef>

namespace strided::detail {

/// Lanes of every in-tile fold.
inline constexpr int REDUCE_LANES = 16;

/// 16 accumulators of one tile. Runs are folded in the plan's order; element i of a run goes to
/// lane i % 16; a lane's first element seeds it (lanes are seeded in order, so the seeded ones
/// are always [0, seeded)); at the end the seeded lanes combine in a fixed pairwise tree.
template <class U, class ReduceFn>
struct Lanes {
  U lane[REDUCE_LANES];
  int seeded = 0;

  /// Element i of the current run: the lane it goes to.
  KOKKOS_FORCEINLINE_FUNCTION static int of(std::size_t i) {
    return static_cast<int>(i % REDUCE_LANES);
  }

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
        const U v = x(i);
        lane[i] = i < seeded ? reduce_fn(lane[i], v) : v;
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
      const int l = of(static_cast<std::size_t>(i));
      lane[l] = reduce_fn(lane[l], x(i));
    }
  }

  /// The tile's partial. All 16 lanes seeded (the common case) pass the tree a constant count,
  /// which the compiler unrolls.
  KOKKOS_INLINE_FUNCTION U result(const ReduceFn& reduce_fn) {
    const auto at = [this](int l) -> U& { return lane[l]; };
    if (seeded == REDUCE_LANES)
      combine(REDUCE_LANES, reduce_fn, at);
    else
      combine(seeded, reduce_fn, at);
    return lane[0];
  }

  /// The lane tree over lanes [0, seeded) in place, widths doubling (docs/determinism.md; the
  /// tile partials use the other tree, combine_pairwise): lane(0) ends with the result. `lane(l)`
  /// returns lane l's accumulator by reference, wherever the lanes live (registers, team
  /// scratch, one column of a sweep).
  template <class LaneRef>
  KOKKOS_FORCEINLINE_FUNCTION static void combine(int seeded, const ReduceFn& reduce_fn,
                                                  const LaneRef& lane) {
    for (int width = 1; width < seeded; width *= 2)
      for (int l = 0; l + width < seeded; l += 2 * width)
        lane(l) = reduce_fn(lane(l), lane(l + width));
  }
};

}  // namespace strided::detail

#endif
