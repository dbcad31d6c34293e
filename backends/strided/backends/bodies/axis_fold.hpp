#ifndef STRIDED_BACKENDS_BODIES_AXIS_FOLD_HPP
#define STRIDED_BACKENDS_BODIES_AXIS_FOLD_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/bodies/reduce_body.hpp"
#include "strided/backends/common/lanes.hpp"
#include "strided/backends/common/team_tile.hpp"
#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/host/thread_stage.hpp"
#include "strided/backends/host/vector_width.hpp"
#include "strided/core/axes_plan.hpp"
#include "strided/core/machine.hpp"

namespace strided::detail {

/// Rows per lane that AxisBody::sweep adds before storing a lane line back: four rows side by
/// side kept column sums at a plain read's speed, one at a time did not (docs/performance.md,
/// CPU pass 5).
inline constexpr std::ptrdiff_t AXIS_SWEEP_ROWS = 4;

/// Outputs per pass of AxisBody::rows over short runs: one unit-stride run (a row) each, side by
/// side, so that the seeds and lane trees of several rows overlap.
inline constexpr std::size_t AXIS_ROWS = 4;
/// Runs from this length on fold one at a time, their lanes in registers: four long runs side by
/// side cost up to 1.7x as long (docs/performance.md, CPU pass 12), shorter ones half as long.
inline constexpr std::size_t AXIS_LONG_RUN = 32;

/// Folds the sub-tensor at `base` (per-source offsets); sub.tile_count in [1, INLINE_SUB_TILES].
template <int S, class Fold>
KOKKOS_INLINE_FUNCTION auto fold_sub_tensor(const Plan<S>& sub, const Fold& fold,
                                            const std::ptrdiff_t* base) {
  using U = decltype(Fold(fold).result());
  U partials[INLINE_SUB_TILES] = {};  // (initialized: GCC 12 sees a false maybe-uninitialized)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  // Row by row: the same runs in the same order, without walk_tile's per-axis arrays.
  for (std::size_t t = 0; t < sub.tile_count; ++t) {
    Fold local = fold;
    walk_tile_rows(sub, t, local, base);
    partials[t] = local.result();
  }
#else
  for_each_tile(sub, 0, sub.tile_count, [&](std::size_t t, const TileCursor<S>& tile) {
    Fold local = fold;
    walk_tile(sub, tile, local, base);
    partials[t] = local.result();
  });
#endif
  return FoldRule::tile_tree(partials, 0, sub.tile_count, fold.reduce_fn);
}

/// One tile of a column sweep (host only): rows at `row0`, row0 + step, ... (n of them) of
/// `width` adjacent outputs (unit stride in the source) fold into `lanes` (lane l of output o at
/// lanes[l * width + o]); lanes[o] ends as the tile's result for output o. Each output's lanes
/// take the tile by the FoldRule (element r to lane lane_of(r), the first seeds(n) seed them,
/// then the lane tree): the bits of the plain fold of that tile.
template <class Fold, class U>
void sweep_tile(const Fold& fold, U* lanes, std::ptrdiff_t row0, std::ptrdiff_t n,
                std::ptrdiff_t step, std::size_t width) {
  constexpr int L = REDUCE_LANES;
  const auto& src = get<0>(fold.srcs);
  using Src = std::remove_cv_t<std::remove_reference_t<decltype(src)>>;
  auto lane = [&](std::ptrdiff_t l) { return lanes + static_cast<std::size_t>(l) * width; };
  const auto element = [&](std::ptrdiff_t row, std::size_t o) {
    return fold.map_fn(src.read(row + static_cast<std::ptrdiff_t>(o)));
  };
  const std::ptrdiff_t seed = FoldRule::seeds(n);
  for (std::ptrdiff_t r = 0; r < seed; ++r)
    for (std::size_t o = 0; o < width; ++o) lane(r)[o] = element(row0 + r * step, o);
  // Groups of AXIS_SWEEP_ROWS rows per lane: lane l takes rows l, l+16, l+32, ... of the
  // group (its own order), V outputs at a time in registers, so each lane line is loaded and
  // stored once per group; a few rows are read side by side, each whole.
  constexpr std::size_t V = host_vector_elements<U>;
  constexpr std::ptrdiff_t G = AXIS_SWEEP_ROWS;
  const std::size_t vectors = width / V * V;
  std::ptrdiff_t r = seed;
  if (seed == L)
    for (; r + G * L <= n; r += G * L)
      for (std::ptrdiff_t l = 0; l < L; ++l) {
        U* const out = lane(l);
        const std::ptrdiff_t row_l = row0 + (r + l) * step;
        for (std::size_t o0 = 0; o0 < vectors; o0 += V) {
          U acc[V];
          for (std::size_t v = 0; v < V; ++v) acc[v] = out[o0 + v];
          for (std::ptrdiff_t g = 0; g < G; ++g) {
            // The V elements from a local base: indexed through element(), GCC -O2 -march=native
            // gathered them one by one (W4.colsum 2.6x slower, behind a plain loop).
            const Src at{src.ptr + (row_l + g * L * step + static_cast<std::ptrdiff_t>(o0))};
            for (std::size_t v = 0; v < V; ++v)
              acc[v] = fold.reduce_fn(acc[v], fold.map_fn(at.read(static_cast<std::ptrdiff_t>(v))));
          }
          for (std::size_t v = 0; v < V; ++v) out[o0 + v] = acc[v];
        }
        // Outputs past the last full vector (bands narrower than a multiple of V).
        for (std::size_t o = vectors; o < width; ++o)
          for (std::ptrdiff_t g = 0; g < G; ++g)
            out[o] = fold.reduce_fn(out[o], element(row_l + g * L * step, o));
      }
  for (; r < n; ++r) {
    U* const out = lane(FoldRule::lane_of(static_cast<std::size_t>(r)));
    const std::ptrdiff_t row = row0 + r * step;
    for (std::size_t o = 0; o < width; ++o) out[o] = fold.reduce_fn(out[o], element(row, o));
  }
  for (std::size_t o = 0; o < width; ++o)
    FoldRule::lane_tree(static_cast<int>(seed), fold.reduce_fn,
                        [&](int l) -> U& { return lane(l)[o]; });
}

/// Body over the outputs (operand 0 = destination, operands 1..S = the sources' kept strides):
/// each output gets reduce_fn(init, fold of its sub-tensor), or init when that is empty.
template <class Dst, int S, class Fold, class U>
struct AxisBody {
  Dst dst;
  const Plan<S>* plan;  ///< the sub-plan, in the space's memory: the body stays small
  Fold fold;
  U init;

  /// Outputs per host sweep (axis_sweep_outputs for U and the host's L2; a multiple of 16).
  std::size_t band = AXIS_SWEEP;

  static constexpr std::size_t SWEEP = AXIS_SWEEP;

  KOKKOS_INLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                         const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) const {
    const Plan<S>& sub = *plan;
    for (std::size_t j = 0; j < n1; ++j) {
      const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j);
      std::size_t i = 0;
      // Neighbouring outputs that are neighbours in the source, each folding one reduced axis
      // (in up to INLINE_SUB_TILES tiles): sweep SWEEP outputs at once along the reduced axis
      // (vectorizes across outputs). A host-side optimization: on GPUs its accumulators would
      // spill to local memory.
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      if constexpr (S == 1) {
        const bool one_axis =
            sub.rank == 1 && sub.tile_count >= 1 && sub.tile_count <= INLINE_SUB_TILES;
        if (one_axis && s0[1] == 1)
          while (i + SWEEP <= n0) {
            const std::size_t rest = (n0 - i) / SWEEP * SWEEP;
            const std::size_t width = rest < band ? rest : band;
            sweep(off, static_cast<std::ptrdiff_t>(i), width, jj, s0, s1);
            i += width;
          }
        // Outputs that each fold one unit-stride run (row sums): short runs AXIS_ROWS at a time.
        if (one_axis && sub.strides[0][0] == 1) {
          if (sub.dims[0] < AXIS_LONG_RUN)
            for (; i + AXIS_ROWS <= n0; i += AXIS_ROWS)
              rows<AXIS_ROWS>(off, static_cast<std::ptrdiff_t>(i), jj, s0, s1);
          else
            for (; i < n0; ++i) rows<1>(off, static_cast<std::ptrdiff_t>(i), jj, s0, s1);
        }
      }
#endif
      for (; i < n0; ++i) {
        const std::ptrdiff_t ii = static_cast<std::ptrdiff_t>(i);
        std::ptrdiff_t base[S];
        for (int k = 0; k < S; ++k) base[k] = off[k + 1] + ii * s0[k + 1] + jj * s1[k + 1];
        store(off[0] + ii * s0[0] + jj * s1[0],
              sub.tile_count == 0 ? init : fold.reduce_fn(init, fold_sub_tensor(sub, fold, base)));
      }
    }
  }

  /// Outputs of a gathered output plan (see MapBody::gather).
  KOKKOS_INLINE_FUNCTION void gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                     const std::ptrdiff_t (*t0)[GATHER_MAX],
                                     const std::ptrdiff_t (*t1)[GATHER_MAX]) const {
    const Plan<S>& sub = *plan;
    for (std::size_t j = 0; j < n1; ++j)
      for (std::size_t i = 0; i < n0; ++i) {
        std::ptrdiff_t base[S];
        for (int k = 0; k < S; ++k) base[k] = off[k + 1] + t1[k + 1][j] + t0[k + 1][i];
        store(off[0] + t1[0][j] + t0[0][i],
              sub.tile_count == 0 ? init : fold.reduce_fn(init, fold_sub_tensor(sub, fold, base)));
      }
  }
  KOKKOS_INLINE_FUNCTION void done() const {}

 private:
  KOKKOS_FORCEINLINE_FUNCTION void store(std::ptrdiff_t at, const U& v) const {
    dst.store(at, v);
  }

  /// Outputs i0 .. i0+width-1 (width <= band), rows outer: each row of the band is read once,
  /// in order. Each output's lanes take each tile of its reduced axis by the FoldRule (element r
  /// of the tile to lane lane_of(r), the first seeds(n) seed them, then the lane tree), and the
  /// tiles' partials combine by the tile tree: the bits of the plain fold. The lanes sit in a
  /// per-thread stage in the L2, lane-major so that the loops over outputs vectorize; a band is
  /// as wide as the L2 allows (axis_sweep_outputs), so rows are read whole.
  KOKKOS_INLINE_FUNCTION void sweep(const std::ptrdiff_t* off, std::ptrdiff_t i0, std::size_t width,
                                    std::ptrdiff_t jj, const std::ptrdiff_t* s0,
                                    const std::ptrdiff_t* s1) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    const Plan<S>& sub = *plan;
    const std::size_t tiles = sub.tile_count;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(sub.dims[0]), step = sub.strides[0][0];
    const std::ptrdiff_t block = static_cast<std::ptrdiff_t>(sub.blocks[0]);
    const std::ptrdiff_t base = off[1] + i0 + jj * s1[1];
    U* const lanes = thread_stage<U, REDUCE_LANES * axis_sweep_most(sizeof(U)), 1>();
    // Tile partials, output-major (o * tiles + t), for the tile tree; only with several tiles.
    U* const partials =
        tiles > 1 ? thread_stage<U, INLINE_SUB_TILES * axis_sweep_most(sizeof(U)), 2>() : nullptr;
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::ptrdiff_t first = static_cast<std::ptrdiff_t>(t) * block;
      sweep_tile(fold, lanes, base + first * step, (n - first < block ? n - first : block), step,
                 width);
      if (tiles > 1)
        for (std::size_t o = 0; o < width; ++o) partials[o * tiles + t] = lanes[o];
    }
    for (std::size_t o = 0; o < width; ++o) {
      const U v = tiles == 1 ? lanes[o]
                             : FoldRule::tile_tree(partials + o * tiles, 0, tiles, fold.reduce_fn);
      store(off[0] + (i0 + static_cast<std::ptrdiff_t>(o)) * s0[0] + jj * s1[0],
            fold.reduce_fn(init, v));
    }
#else
    (void)off, (void)i0, (void)width, (void)jj, (void)s0, (void)s1;
#endif
  }

  /// Outputs i0 .. i0+R-1, each folding its own unit-stride run of the sub-plan, run after
  /// run within each tile. Each output's lanes take each tile of its run by the FoldRule, as
  /// Lanes::run does (the first seeds(n) elements seed them, element r of the tile goes to lane
  /// lane_of(r), then the lane tree), and the tiles' partials combine by the tile tree: the bits
  /// of the plain fold.
  template <std::size_t R>
  KOKKOS_INLINE_FUNCTION void rows(const std::ptrdiff_t* off, std::ptrdiff_t i0, std::ptrdiff_t jj,
                                   const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) const {
    const Plan<S>& sub = *plan;
    const std::size_t tiles = sub.tile_count;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(sub.dims[0]);
    const std::ptrdiff_t block = static_cast<std::ptrdiff_t>(sub.blocks[0]);
    using Src = std::remove_cv_t<std::remove_reference_t<decltype(get<0>(fold.srcs))>>;
    // Each run rebased to the tile's start: plain pointer indexing that vectorizes along it.
    const auto runs_from = [&](std::ptrdiff_t first, Src(&run)[R]) {
      for (std::size_t k = 0; k < R; ++k)
        run[k] = Src{get<0>(fold.srcs).ptr + off[1] +
                     (i0 + static_cast<std::ptrdiff_t>(k)) * s0[1] + jj * s1[1] + first};
    };
    const auto store_result = [&](std::size_t k, const U& v) {
      store(off[0] + (i0 + static_cast<std::ptrdiff_t>(k)) * s0[0] + jj * s1[0],
            fold.reduce_fn(init, v));
    };
    Src run[R];
    U acc[R][REDUCE_LANES];
    if (tiles == 1) {
      runs_from(0, run);
      rows_tile(run, n, acc);
      for (std::size_t k = 0; k < R; ++k) store_result(k, acc[k][0]);
      return;
    }
    U partials[R][INLINE_SUB_TILES] = {};  // (initialized: GCC 12 sees a false maybe-uninitialized)
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::ptrdiff_t first = static_cast<std::ptrdiff_t>(t) * block;
      runs_from(first, run);
      rows_tile(run, n - first < block ? n - first : block, acc);
      for (std::size_t k = 0; k < R; ++k) partials[k][t] = acc[k][0];
    }
    for (std::size_t k = 0; k < R; ++k)
      store_result(k, FoldRule::tile_tree(partials[k], 0, tiles, fold.reduce_fn));
  }

  /// One tile of rows: R runs of n elements fold into their lanes; acc[k][0] ends as
  /// run k's result.
  template <std::size_t R, class Src>
  KOKKOS_INLINE_FUNCTION void rows_tile(const Src* run, std::ptrdiff_t n,
                                        U (&acc)[R][REDUCE_LANES]) const {
    constexpr int L = REDUCE_LANES;
    const std::ptrdiff_t seed = FoldRule::seeds(n);
    for (std::size_t k = 0; k < R; ++k)
      for (std::ptrdiff_t r = 0; r < seed; ++r) acc[k][r] = fold.map_fn(run[k].read(r));
    std::ptrdiff_t r = seed;
    // Each run in turn, its 16 lanes in locals meanwhile (GCC vectorizes along the run then;
    // with the runs interleaved element by element it gathered across them).
    if (seed == L && r + L <= n) {
      const std::ptrdiff_t end = r + (n - r) / L * L;
      for (std::size_t k = 0; k < R; ++k) {
        U a[L];
        for (int l = 0; l < L; ++l) a[l] = acc[k][l];
        for (std::ptrdiff_t q = r; q < end; q += L) {
          U v[L];
          for (int l = 0; l < L; ++l) v[l] = fold.map_fn(run[k].read(q + l));
          for (int l = 0; l < L; ++l) a[l] = fold.reduce_fn(a[l], v[l]);
        }
        for (int l = 0; l < L; ++l) acc[k][l] = a[l];
      }
      r = end;
    }
    for (; r < n; ++r)
      for (std::size_t k = 0; k < R; ++k) {
        U& lane = acc[k][FoldRule::lane_of(static_cast<std::size_t>(r))];
        lane = fold.reduce_fn(lane, fold.map_fn(run[k].read(r)));
      }
    for (std::size_t k = 0; k < R; ++k)
      FoldRule::lane_tree(static_cast<int>(seed), fold.reduce_fn,
                          [&](int l) -> U& { return acc[k][l]; });
  }
};

/// The work items of the buffered strategy as TeamFold sees them. Outputs outer (OutputsOuter):
/// item q = o * tiles + t is sub-tile t of output o's sub-tensor, and its partial goes to slot
/// q. Tiles outer (column folds): item q = t * outputs + o, so adjacent items are adjacent
/// outputs, and its partial still goes to slot o * tiles + t.
template <int S, bool OutputsOuter = true>
struct OutputTiles {
  const OutputIndex<S + 1>* outputs;  ///< in the space's memory
  std::size_t tiles;
  std::size_t count;  ///< outputs
  template <int N>
  KOKKOS_INLINE_FUNCTION std::size_t tile(std::size_t q) const {
    return OutputsOuter ? q % tiles : q / count;
  }
  template <int N>
  KOKKOS_INLINE_FUNCTION void base(std::size_t q, std::ptrdiff_t* off) const {
    std::ptrdiff_t all[S + 1];
    outputs->offsets(OutputsOuter ? q / tiles : q % count, all);
    for (int k = 0; k < S; ++k) off[k] = all[k + 1];
  }
  KOKKOS_INLINE_FUNCTION std::size_t slot(std::size_t q) const {
    return OutputsOuter ? q : (q % count) * tiles + q / count;
  }
};

/// Buffered strategy on a host, step 1: partial (output o, sub-tile t) at partials[o * T + t].
/// Work item c is the c-th of `chunks` even runs of the pairs q = o * T + t: each output's part
/// of a run folds as fold_tiles folds a full reduction's tiles, so a tile costs no dispatch or
/// offsets of its own (one item per pair cost ~130 ns each). Holds pointers to host values.
template <int S, class Fold, class U>
struct SubTileChunks {
  const OutputIndex<S + 1>* outputs;
  const Plan<S>* plan;
  Fold fold;
  U* partials;
  std::size_t count;  ///< outputs
  std::size_t chunks;
  void operator()(std::size_t c) const {
    const std::size_t tiles = plan->tile_count, pairs = count * tiles;
    const std::size_t last = (c + 1) * pairs / chunks;
    for (std::size_t q = c * pairs / chunks; q < last;) {
      const std::size_t o = q / tiles, t = q % tiles;
      const std::size_t end = last - q < tiles - t ? last - q : tiles - t;
      std::ptrdiff_t off[S + 1];
      outputs->offsets(o, off);
      fold_tiles(*plan, t, t + end, fold, partials + o * tiles, off + 1);
      q += end;
    }
  }
};

/// Buffered strategy on a host for column folds (one reduced axis, one source) whose outputs
/// lie side by side in the source along index axis `axis` (unit stride): item q sweeps band
/// q % bands of line (q / bands) % lines along sub-tile q / (bands * lines) (sweep_tile), so each
/// line of memory is read once for the outputs in it, not once per output. The same partials,
/// with the same bits, as SubTileChunks.
template <class Fold, class U>
struct ColumnBandPartials {
  const OutputIndex<2>* outputs;
  const Plan<1>* plan;
  Fold fold;
  U* partials;
  int axis;
  std::size_t below;  ///< outputs per step along `axis` (the extents of the index axes before it)
  std::size_t width;  ///< outputs per band (at most axis_sweep_most(sizeof(U)))
  std::size_t bands, lines;
  void operator()(std::size_t q) const {
    const Plan<1>& sub = *plan;
    const std::size_t extent = outputs->extents[axis], tiles = sub.tile_count;
    const std::size_t b = q % bands, g = q / bands % lines, t = q / (bands * lines);
    const std::size_t first = b * width, w = extent - first < width ? extent - first : width;
    const std::size_t o0 = g % below + first * below + g / below * below * extent;
    std::ptrdiff_t off[2];
    outputs->offsets(o0, off);
    const std::ptrdiff_t step = sub.strides[0][0],
                         block = static_cast<std::ptrdiff_t>(sub.blocks[0]);
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(t) * block;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(sub.dims[0]) - row;
    U* const lanes = thread_stage<U, REDUCE_LANES * axis_sweep_most(sizeof(U)), 1>();
    sweep_tile(fold, lanes, off[1] + row * step, n < block ? n : block, step, w);
    for (std::size_t k = 0; k < w; ++k) partials[(o0 + k * below) * tiles + t] = lanes[k];
  }
};

/// Buffered strategy, step 2: each output combines its partials in the fixed pairwise order.
template <int S, class Dst, class ReduceFn, class U>
struct CombineOutputs {
  const OutputIndex<S + 1>* outputs;
  std::size_t tiles;
  U* partials;  ///< combined in place
  Dst dst;
  ReduceFn reduce_fn;
  U init;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t o) const {
    std::ptrdiff_t off[S + 1];
    outputs->offsets(o, off);
    const U v =
        tiles == 0
            ? init
            : reduce_fn(init, FoldRule::tile_tree(partials + o * tiles, 0, tiles, reduce_fn));
    dst.store(off[0], v);
  }
};

}  // namespace strided::detail

#endif
