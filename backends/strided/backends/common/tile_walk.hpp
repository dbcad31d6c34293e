#ifndef STRIDED_BACKENDS_COMMON_TILE_WALK_HPP
#define STRIDED_BACKENDS_COMMON_TILE_WALK_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/core/plan.hpp"

namespace strided::detail {

/// Coordinates of a tile in the tile grid (axis 0 fastest): decomposed once from a tile index,
/// then stepped like an odometer, so consecutive tiles cost no division.
template <int N>
struct TileCursor {
  std::size_t coord[MAX_PLAN_RANK];

  TileCursor() = default;
  KOKKOS_INLINE_FUNCTION TileCursor(const Plan<N>& p, std::size_t tile) {
    for (int w = 0; w < p.rank; ++w) {
      const int i = p.custom_walk ? p.walk[w] : w;
      coord[i] = p.tiles[i] == 1 ? 0 : tile % p.tiles[i];
      tile = p.tiles[i] == 1 ? tile : tile / p.tiles[i];
    }
  }
  KOKKOS_INLINE_FUNCTION void next(const Plan<N>& p) {
    for (int w = 0; w < p.rank; ++w) {
      const int i = p.custom_walk ? p.walk[w] : w;
      if (++coord[i] < p.tiles[i]) return;
      coord[i] = 0;
    }
  }
};

/// The rows of a gathered block in the plan's order (j outer): f(row) with row[k] = off[k] +
/// t1[k][j], operand k's element i of that row lying t0[k][i] further on. The folds walk
/// gathered blocks this way, so their order is the plan's.
template <int S, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_each_gathered_row(const std::ptrdiff_t* off, std::size_t n1,
                                                       const std::ptrdiff_t (*t1)[GATHER_MAX],
                                                       const F& f) {
  for (std::size_t j = 0; j < n1; ++j) {
    std::ptrdiff_t row[S];
    for (int k = 0; k < S; ++k) row[k] = off[k] + t1[k][j];
    f(row);
  }
}

/// Where `tile` starts and how far it reaches: adds operand k's offset of the tile's first
/// element to off[k], and gives its extent on each axis (the plan's blocks, shorter in the last
/// tile of an axis) in len.
template <int N>
KOKKOS_INLINE_FUNCTION void tile_origin(const Plan<N>& p, const TileCursor<N>& tile,
                                        std::ptrdiff_t* off, std::size_t* len) {
  for (int i = 0; i < p.rank; ++i) {
    const std::size_t start = tile.coord[i] * p.blocks[i];
    len[i] = p.dims[i] - start < p.blocks[i] ? p.dims[i] - start : p.blocks[i];
    for (int k = 0; k < N; ++k) off[k] += static_cast<std::ptrdiff_t>(start) * p.strides[k][i];
  }
}

/// The element offsets of one tile, ready for a body: the body handles the two innermost axes
/// (n0 x n1 elements, strides s0/s1 per operand) and this walks the rest with an odometer
/// that adds and subtracts strides (no per-element index arithmetic, any rank).
/// `base` (optional) shifts every operand's offsets, e.g. to one output of an axis reduction.
/// `Gathered` is the plan's `gathered`, as a template argument: one body path per instance keeps
/// the body inlined in the hot loop.
template <bool Gathered, int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_tile_as(const Plan<N>& p, const TileCursor<N>& tile, Body& body,
                                         const std::ptrdiff_t* base) {
  std::ptrdiff_t off[N];
  std::size_t len[MAX_PLAN_RANK];
  for (int k = 0; k < N; ++k) off[k] = base ? base[k] : 0;
  tile_origin(p, tile, off, len);
  std::ptrdiff_t s0[N], s1[N];
  for (int k = 0; k < N; ++k) {
    s0[k] = p.rank > 0 ? p.strides[k][0] : 0;
    s1[k] = p.rank > 1 ? p.strides[k][1] : 0;
  }
  const std::size_t n0 = p.rank > 0 ? len[0] : 1;
  const std::size_t n1 = p.rank > 1 ? len[1] : 1;
  // Gathered plans hand the body offset tables for the two inner axes instead of strides.
  const auto inner = [&] {
    if constexpr (Gathered)
      body.gather(off, n0, n1, p.table[0], p.table[1]);
    else
      body(off, n0, n1, s0, s1);
  };
  std::size_t index[MAX_PLAN_RANK];
  for (int i = 2; i < p.rank; ++i) index[i] = 0;
  while (true) {  // one call site per body path keeps the bodies inlined
    inner();
    // The outer axes, fastest first: plan order, or the plan's walk order.
    int w = 0;
    for (; w < p.rank; ++w) {
      const int i = p.custom_walk ? p.walk[w] : w;
      if (i < 2) continue;
      for (int k = 0; k < N; ++k) off[k] += p.strides[k][i];
      if (++index[i] < len[i]) break;
      for (int k = 0; k < N; ++k) off[k] -= static_cast<std::ptrdiff_t>(len[i]) * p.strides[k][i];
      index[i] = 0;
    }
    if (w >= p.rank) return;  // also ends ranks 0-2 after their single call
  }
}

template <int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_tile(const Plan<N>& p, const TileCursor<N>& tile, Body& body,
                                      const std::ptrdiff_t* base = nullptr) {
  if (p.gathered)
    walk_tile_as<true>(p, tile, body, base);
  else
    walk_tile_as<false>(p, tile, body, base);
}

/// Runs `body` over tiles [first, last), one fresh copy of `prototype` per call of `each`:
/// `each(tile_index, cursor)` decides what a tile does (maps share one body, folds do not).
template <int N, class Each>
KOKKOS_INLINE_FUNCTION void for_each_tile(const Plan<N>& p, std::size_t first, std::size_t last,
                                          Each&& each) {
  if (first >= last) return;
  TileCursor<N> cursor(p, first);
  for (std::size_t t = first; t < last; ++t) {
    each(t, cursor);
    cursor.next(p);
  }
}

/// `count` elements of one dense layout shared by the N operands of `body`, as one unit-stride
/// run from their origins: the whole walk of a one-tile flat plan.
template <int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_one_run(Body& body, std::size_t count) {
  std::ptrdiff_t zeros[N] = {}, ones[N];
  for (int k = 0; k < N; ++k) ones[k] = 1;
  body(zeros, count, 1, ones, zeros);
}

}  // namespace strided::detail

#endif
