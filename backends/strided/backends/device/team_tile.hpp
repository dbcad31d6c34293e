#ifndef STRIDED_BACKENDS_DEVICE_TEAM_TILE_HPP
#define STRIDED_BACKENDS_DEVICE_TEAM_TILE_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/common/tile_walk.hpp"
#include "strided/compat.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// One tile as a team sees it: the tile's origin per operand, its extents, and its elements as
/// `rows` runs of n0 elements along axis 0. Row r stands for axis 1 index r % len[1], then the
/// outer axes in order, so rows can be handed to team threads in any order.
template <int N>
struct TeamTile {
  std::ptrdiff_t origin[N];
  // Zeroed beyond the rank: GCC 12 cannot see that only [0, rank) is read (-Wmaybe-uninitialized
  // under Kokkos 4.6's Serial team dispatch).
  std::size_t len[MAX_PLAN_RANK] = {};
  std::size_t n0 = 1;
  std::size_t rows = 1;

  KOKKOS_INLINE_FUNCTION TeamTile(const Plan<N>& p, std::size_t tile) {
    const TileCursor<N> cursor(p, tile);
    for (int k = 0; k < N; ++k) origin[k] = 0;
    for (int i = 0; i < p.rank; ++i) {
      const std::size_t start = cursor.coord[i] * p.blocks[i];
      len[i] = p.dims[i] - start < p.blocks[i] ? p.dims[i] - start : p.blocks[i];
      for (int k = 0; k < N; ++k) origin[k] += static_cast<std::ptrdiff_t>(start) * p.strides[k][i];
    }
    if (p.rank > 0) n0 = len[0];
    for (int i = 1; i < p.rank; ++i) rows *= len[i];
  }

  /// Offsets of the first element of row r. On a gathered plan axis 1 goes through its table.
  KOKKOS_INLINE_FUNCTION void row_offsets(const Plan<N>& p, std::size_t r,
                                          std::ptrdiff_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = origin[k];
    if (p.rank < 2) return;
    const std::size_t j = r % len[1];
    r /= len[1];
    for (int k = 0; k < N; ++k)
      off[k] += p.gathered ? p.table[1][k][j] : static_cast<std::ptrdiff_t>(j) * p.strides[k][1];
    for (int i = 2; i < p.rank; ++i) {
      const std::size_t at = r % len[i];
      r /= len[i];
      for (int k = 0; k < N; ++k) off[k] += static_cast<std::ptrdiff_t>(at) * p.strides[k][i];
    }
  }

  /// Offset of element i of a row, relative to the row's offsets, for operand k.
  KOKKOS_INLINE_FUNCTION static std::ptrdiff_t along(const Plan<N>& p, int k, std::size_t i) {
    return p.gathered ? p.table[0][k][i] : static_cast<std::ptrdiff_t>(i) * p.strides[k][0];
  }
};

/// Team sizes and vector lengths: a warp's worth of vector lanes along axis 0 on GPUs (adjacent
/// lanes touch adjacent elements), one lane on host spaces.
template <class Exec>
constexpr int team_vector_length() {
  return compat::is_host_space_v<Exec> ? 1 : 32;
}

}  // namespace strided::detail

#endif
