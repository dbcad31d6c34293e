#ifndef STRIDED_BACKENDS_COMMON_TEAM_TILE_HPP
#define STRIDED_BACKENDS_COMMON_TEAM_TILE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/common/tile_walk.hpp"
#include "strided/base/compat.hpp"
#include "strided/core/launch_shape.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// One tile as a team sees it: the tile's origin per operand and its elements as `rows` runs of
/// n0 elements along axis 0. Row r stands for axis 1 index r % n1, then the outer axes in order,
/// so rows can be handed to team threads in any order. No per-axis arrays (a device thread's
/// stack stays small): the outer axes' extents in the tile are recomputed from the tile index.
template <int N>
struct TeamTile {
  std::ptrdiff_t origin[N];
  std::size_t tile;  ///< index in the plan's tile grid
  std::size_t n0 = 1;
  std::size_t n1 = 1;
  std::size_t rows = 1;

  /// Tile `t` of `p`; `base` (optional) shifts every operand's origin.
  KOKKOS_INLINE_FUNCTION TeamTile(const Plan<N>& p, std::size_t t,
                                  const std::ptrdiff_t* base = nullptr)
      : tile(t) {
    for (int k = 0; k < N; ++k) origin[k] = base ? base[k] : 0;
    for (int i = 0; i < p.rank; ++i) {
      const std::size_t start = (p.tiles[i] == 1 ? 0 : t % p.tiles[i]) * p.blocks[i];
      t = p.tiles[i] == 1 ? t : t / p.tiles[i];
      const std::size_t len = p.dims[i] - start < p.blocks[i] ? p.dims[i] - start : p.blocks[i];
      for (int k = 0; k < N; ++k) origin[k] += static_cast<std::ptrdiff_t>(start) * p.strides[k][i];
      if (i == 0) n0 = len;
      if (i == 1) n1 = len;
      if (i >= 1) rows *= len;
    }
  }

  /// Offsets of the first element of row r. On a gathered plan axis 1 goes through its table.
  KOKKOS_INLINE_FUNCTION void row_offsets(const Plan<N>& p, std::size_t r,
                                          std::ptrdiff_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = origin[k];
    if (p.rank < 2) return;
    const std::size_t j = r % n1;
    r /= n1;
    for (int k = 0; k < N; ++k)
      off[k] += p.gathered ? p.table[1][k][j] : static_cast<std::ptrdiff_t>(j) * p.strides[k][1];
    if (p.rank < 3) return;
    // The tile's coordinate and extent along each outer axis, from the tile index.
    std::size_t t = tile;
    for (int i = 0; i < p.rank; ++i) {
      const std::size_t start = (p.tiles[i] == 1 ? 0 : t % p.tiles[i]) * p.blocks[i];
      t = p.tiles[i] == 1 ? t : t / p.tiles[i];
      if (i < 2) continue;
      const std::size_t len = p.dims[i] - start < p.blocks[i] ? p.dims[i] - start : p.blocks[i];
      const std::size_t at = r % len;
      r /= len;
      for (int k = 0; k < N; ++k) off[k] += static_cast<std::ptrdiff_t>(at) * p.strides[k][i];
    }
  }

  /// Offset of element i of a row, relative to the row's offsets, for operand k.
  KOKKOS_INLINE_FUNCTION static std::ptrdiff_t along(const Plan<N>& p, int k, std::size_t i) {
    return p.gathered ? p.table[0][k][i] : static_cast<std::ptrdiff_t>(i) * p.strides[k][0];
  }
};

/// Hands each row of tile `t` of `p` to `body` as an n0 x 1 block, rows in TileFold's order
/// (axis 1 fastest, then the outer axes): the device form of walk_tile, with no per-axis index
/// arrays on the stack. `base` (optional) shifts every operand's offsets.
template <int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_tile_rows(const Plan<N>& p, std::size_t t, Body& body,
                                           const std::ptrdiff_t* base = nullptr) {
  const TeamTile<N> tile(p, t, base);
  std::ptrdiff_t s0[N], s1[N];
  for (int k = 0; k < N; ++k) {
    s0[k] = p.rank > 0 ? p.strides[k][0] : 0;
    s1[k] = 0;
  }
  for (std::size_t r = 0; r < tile.rows; ++r) {
    std::ptrdiff_t off[N];
    tile.row_offsets(p, r, off);
    // A gathered row already holds its axis-1 table entry, and every table starts at 0.
    if (p.gathered)
      body.gather(off, tile.n0, 1, p.table[0], p.table[1]);
    else
      body(off, tile.n0, 1, s0, s1);
  }
}

/// Team threads of a map or rows team: DEVICE_TEAM_THREADS on GPUs (launch_shape.hpp), the
/// host's choice (0) on host spaces.
template <class Exec>
constexpr int team_threads_of() {
  return compat::is_host_space_v<Exec> ? 0 : DEVICE_TEAM_THREADS / DEVICE_VECTOR_LENGTH;
}

/// Team sizes and vector lengths: a warp's worth of vector lanes along axis 0 on GPUs (adjacent
/// lanes touch adjacent elements), one lane on host spaces.
template <class Exec>
constexpr int team_vector_length() {
  return compat::is_host_space_v<Exec> ? 1 : DEVICE_VECTOR_LENGTH;
}

}  // namespace strided::detail

#endif
