#ifndef STRIDED_BACKENDS_BODIES_REDUCE_BODY_HPP
#define STRIDED_BACKENDS_BODIES_REDUCE_BODY_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "strided/backends/bodies/map_body.hpp"
#include "strided/backends/common/lanes.hpp"
#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/base/arithmetic.hpp"

namespace strided::detail {

/// Whether F is a built-in whose products of Ts... are rounded, and can be rounded a block at a
/// time (Square, Product; not when the products are exact).
template <class F, class List, class = void>
struct RoundsProducts : std::false_type {};
template <class F, class... Ts>
struct RoundsProducts<F, std::tuple<Ts...>,
                      std::void_t<decltype(F::template rounds_products_of<Ts...>)>>
    : std::bool_constant<F::template rounds_products_of<Ts...>> {};
template <class F, class... Ts>
inline constexpr bool rounds_products_v = RoundsProducts<F, std::tuple<Ts...>>::value;

/// What a fold reads and computes, without its lanes: the sources and the two functions. Device
/// kernels hold this (their lanes live in registers and scratch), so their functors stay small.
template <class MapFn, class ReduceFn, class... Srcs>
struct FoldSpec {
  Tuple<Srcs...> srcs;
  MapFn map_fn;
  ReduceFn reduce_fn;
};

/// Folds one tile: map_fn over the sources, reduce_fn into the 16 Lanes (init is not folded
/// here: it enters once per result, on the host).
template <class U, class MapFn, class ReduceFn, class... Srcs>
struct TileFold {
  using Spec = FoldSpec<MapFn, ReduceFn, Srcs...>;
  Tuple<Srcs...> srcs;
  MapFn map_fn;
  ReduceFn reduce_fn;
  Lanes<U, ReduceFn> lanes;

  /// The sources and functions alone.
  Spec spec() const { return Spec{srcs, map_fn, reduce_fn}; }

  // Forced inline: the 16-lane loop must land in the caller's loop nest to vectorize.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0,
                                              std::size_t n1, const std::ptrdiff_t* s0,
                                              const std::ptrdiff_t* s1) {
    run(off, n0, n1, s0, s1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

  /// A gathered block (see MapBody::gather): each j is one run along the table of axis 0.
  KOKKOS_INLINE_FUNCTION void gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                     const std::ptrdiff_t (*t0)[GATHER_MAX],
                                     const std::ptrdiff_t (*t1)[GATHER_MAX]) {
    gather_impl(off, n0, n1, t0, t1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

  /// A tile of a flat plan: one unit-stride run of n elements at per-source offsets `off`, part
  /// of `whole` contiguous elements (the plan's), whose length chooses the products' rounding
  /// form (see unit_run): the bits of operator() on the same run.
  KOKKOS_FORCEINLINE_FUNCTION void run_flat(const std::ptrdiff_t* off, std::size_t n,
                                            std::size_t whole) {
    unit_run(off, n, whole, std::make_index_sequence<sizeof...(Srcs)>{});
  }

  /// The tile's partial: lanes combined in a fixed pairwise tree.
  KOKKOS_INLINE_FUNCTION U result() { return lanes.result(reduce_fn); }

 private:
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION U element(const std::ptrdiff_t* base, const std::ptrdiff_t* s0,
                                        std::ptrdiff_t i, std::index_sequence<I...>) const {
    return map_fn(get<I>(srcs).read(base[I] + i * s0[I])...);
  }
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                       const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                       std::index_sequence<I...> seq) {
    constexpr int S = static_cast<int>(sizeof...(Srcs));
    bool unit = true;
    for (int k = 0; k < S; ++k) unit = unit && s0[k] == 1;
    for (std::size_t j = 0; j < n1; ++j) {
      std::ptrdiff_t base[S > 0 ? S : 1];
      for (int k = 0; k < S; ++k) base[k] = off[k] + static_cast<std::ptrdiff_t>(j) * s1[k];
      if (unit) {
        unit_run(base, n0, n0, seq);
      } else {
        lanes.run(
            n0, [&](std::ptrdiff_t i) { return element(base, s0, i, seq); }, reduce_fn);
      }
    }
  }

 private:
  /// n0 elements of a unit-stride run at `base`, part of `whole` contiguous elements (a tile's
  /// run, or a whole flat plan), whose length chooses the products' rounding form: the same
  /// products either way.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void unit_run(const std::ptrdiff_t* base, std::size_t n0,
                                            std::size_t whole, std::index_sequence<I...>) {
    // Operands rebased to the run's start: plain pointer indexing, which GCC vectorizes
    // across all 16 lanes (through base[k] + i it left two lanes scalar).
    const Tuple<Srcs...> at(Srcs{get<I>(srcs).ptr + base[I]}...);
    const auto x = [&](std::ptrdiff_t i) { return map_fn(get<I>(at).read(i)...); };
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (rounds_products_v<MapFn, typename Srcs::value_type...>) {
      if (whole >= BLOCK_ROUNDED_RUN) {
        lanes.run(
            n0, x,
            [&](std::ptrdiff_t i, U* v) {
              for (int l = 0; l < REDUCE_LANES; ++l)
                v[l] = map_fn.unrounded(get<I>(at).read(i + l)...);
              materialize_block(*reinterpret_cast<U(*)[REDUCE_LANES]>(v));
            },
            reduce_fn);
        return;
      }
    }
#else
    (void)whole;
#endif
    lanes.run(n0, x, reduce_fn);
  }

  /// A built-in that rounds its products (dot, sum_squares) on a real floating type, on a unit
  /// run long enough to come from memory, computes each step's 16 products unrounded, vectorized,
  /// and rounds them together (materialize_block) instead of one by one through a scalar barrier:
  /// the same products, so the same bits. From memory that is faster; on short runs, usually in
  /// cache, the store and reload of each block cost more than the scalar products, so those keep
  /// the scalar form (docs/performance.md, "Cost of rounding every product"). Device code keeps the
  /// per-product _rn intrinsics. This is the shortest run that takes the block form (128 KiB of f64
  /// per operand).
  static constexpr std::size_t BLOCK_ROUNDED_RUN = 16384;

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void gather_impl(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                          const std::ptrdiff_t (*t0)[GATHER_MAX],
                                          const std::ptrdiff_t (*t1)[GATHER_MAX],
                                          std::index_sequence<I...>) {
    for_each_gathered_row<sizeof...(I)>(off, n1, t1, [&](const std::ptrdiff_t* row) {
      lanes.run(
          n0, [&](std::ptrdiff_t i) { return map_fn(get<I>(srcs).read(row[I] + t0[I][i])...); },
          reduce_fn);
    });
  }
};

/// The fold of map_fn over the views `srcs` (their origins and ops), lanes empty. The functions
/// are held decayed: a function is held as its pointer.
template <class U, class MapFn, class ReduceFn, class... SV>
TileFold<U, std::decay_t<MapFn>, std::decay_t<ReduceFn>,
         OperandRef<typename SV::element_type, typename SV::op_type>...>
make_fold(const MapFn& map_fn, const ReduceFn& reduce_fn, const SV&... srcs) {
  using Refs = Tuple<OperandRef<typename SV::element_type, typename SV::op_type>...>;
  return {Refs(OperandRef<typename SV::element_type, typename SV::op_type>{srcs.data()}...),
          map_fn,
          reduce_fn,
          {}};
}

/// Tiles [first, last) of a flat plan (rank 1, unit strides: each tile one run) at per-operand
/// offsets `base` (none: 0), one after the other: a single stream per thread. (Four tiles side by
/// side, 256 elements of each in turn, cost two to three times as long on a Zen 5 host: the
/// lanes of four folds go through memory at every switch; docs/performance.md, CPU pass 12.)
template <int N, class Fold, class U>
KOKKOS_INLINE_FUNCTION void fold_flat_tiles(const Plan<N>& plan, std::size_t first,
                                            std::size_t last, const Fold& fold, U* partials,
                                            const std::ptrdiff_t* base = nullptr) {
  const std::size_t block = plan.blocks[0], dims = plan.dims[0];
  for (std::size_t t = first; t < last; ++t) {
    const std::size_t start = t * block;
    std::ptrdiff_t off[N];
    for (int s = 0; s < N; ++s) off[s] = (base ? base[s] : 0) + static_cast<std::ptrdiff_t>(start);
    Fold local = fold;
    // The plan's length chooses the products' rounding form: GPU-scale tiles come from memory.
    local.run_flat(off, dims - start < block ? dims - start : block, dims);
    partials[t] = local.result();
  }
}

template <class Fold, class = void>
struct folds_flat_runs : std::false_type {};
template <class Fold>
struct folds_flat_runs<Fold, std::void_t<decltype(std::declval<Fold&>().run_flat(
                                 nullptr, std::size_t{}, std::size_t{}))>> : std::true_type {};

/// Folds tiles [first, last) of `plan` at per-operand offsets `base` (none: 0), writing the
/// partial of tile t to partials[t].
template <int N, class Fold, class U>
KOKKOS_INLINE_FUNCTION void fold_tiles(const Plan<N>& plan, std::size_t first, std::size_t last,
                                       const Fold& fold, U* partials,
                                       const std::ptrdiff_t* base = nullptr) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  if constexpr (folds_flat_runs<Fold>::value) {
    bool flat = plan.rank == 1 && !plan.gathered;
    for (int k = 0; k < N && flat; ++k) flat = plan.strides[k][0] == 1;
    if (flat) {
      fold_flat_tiles(plan, first, last, fold, partials, base);
      return;
    }
  }
#endif
  for_each_tile(plan, first, last, [&](std::size_t t, const TileCursor<N>& tile) {
    Fold local = fold;
    walk_tile(plan, tile, local, base);
    partials[t] = local.result();
  });
}

/// Chunk c of the tiles, as in TileChunks, folded to per-tile partials (any memory space).
template <int N, class Fold, class U>
struct TilePartials {
  const Plan<N>* plan;  ///< host kernels return when done: the caller keeps the plan
  Fold fold;
  U* partials;
  std::size_t chunks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t c) const {
    const std::size_t tiles = plan->tile_count;
    fold_tiles(*plan, c * tiles / chunks, (c + 1) * tiles / chunks, fold, partials);
  }
};

}  // namespace strided::detail

#endif
