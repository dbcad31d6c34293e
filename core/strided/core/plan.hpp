#ifndef STRIDED_CORE_PLAN_HPP
#define STRIDED_CORE_PLAN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>

#include "strided/core/config.hpp"

namespace strided::detail {

/// After extent-1 axes are dropped every axis has extent >= 2, so a non-empty tensor whose
/// element count fits std::size_t has at most 63 axes: plans are fixed-size plain values that
/// can be copied to any execution space, at any logical rank.
inline constexpr int MAX_PLAN_RANK = 64;

/// Most elements of one gathered axis (the length of its offset tables).
inline constexpr int GATHER_MAX = 256;

enum class Strategy {
  Empty,      ///< some extent is 0: nothing to do
  Flat,       ///< one fused axis, unit stride for every operand
  Tiled,      ///< blocked loop nest, inner axis shared by the operands' smallest strides
  Transpose,  ///< tiles whose destination and source unit-stride axes differ (buffered 2-d tiles)
  Gather      ///< short axes gathered into two table-driven axes (high-rank permutations)
};

inline const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::Empty:
      return "empty";
    case Strategy::Flat:
      return "flat";
    case Strategy::Tiled:
      return "tiled";
    case Strategy::Transpose:
      return "transpose";
    case Strategy::Gather:
      return "gather";
  }
  return "?";
}

/// A plan's axes, tiles and strategy: everything but the gather tables (see Plan). The planner's
/// scratch copies are of this part only: a Plan<2> is 11 KiB, 8 of them tables, and copying
/// whole plans cost small rank-4 calls half their planning time.
template <int N>
struct PlanAxes {
  static constexpr int operands = N;
  int rank = 0;                       ///< fused rank
  std::size_t count = 0;              ///< elements visited
  std::size_t dims[MAX_PLAN_RANK];    ///< fused extents
  std::size_t blocks[MAX_PLAN_RANK];  ///< tile extents
  std::size_t tiles[MAX_PLAN_RANK];   ///< tiles along each axis: ceil(dims / blocks)
  std::size_t tile_count = 0;         ///< product of tiles[]
  std::ptrdiff_t strides[N][MAX_PLAN_RANK];
  short first_axis[MAX_PLAN_RANK];  ///< original axis that leads each fused axis (explain)
  /// How many original axes each fused axis holds; 0 for the outer part of an axis a gathered
  /// group took a divisor of (it holds the rest of an axis counted before it).
  short fused_axes[MAX_PLAN_RANK];
  Strategy strategy = Strategy::Empty;
  int transpose_axis = -1;  ///< for Transpose: the axis where a source has unit stride
  /// For Gather: axes 0 and 1 stand for groups of short original axes; the offset of element e
  /// of axis a for operand k is table[a][k][e] (instead of e * strides[k][a]).
  bool gathered = false;
  /// Element-wise plans: the output is large enough that its lines are written with
  /// non-temporal stores (PlannerOptions::stream_bytes).
  bool stream_stores = false;
  /// Streamed transposes onto rows of whole lines: host threads run each tile by bands of
  /// destination rows (column bands of the sources) and fetch the next tile's source rows
  /// while it runs (column_band_tiles).
  bool column_bands = false;
  /// Column-band plans whose tiles' source rows lie within block_bytes: the next tile's
  /// source rows are fetched a few lines per block while this tile runs, rather than all
  /// before it (column_band_tiles).
  bool paced_fetch = false;
  /// The order tiles are walked in (fastest first) when `custom_walk`; axis order otherwise.
  /// Streamed transposes walk along the source's lines, so that consecutive tiles continue the
  /// same source rows (long read streams) while every destination line is stored whole anyway.
  /// Inside a tile the outer axes are walked in that order too.
  bool custom_walk = false;
  short walk[MAX_PLAN_RANK];
};

/// `to` = `from` over from's fused axes, whose entries past its rank are never read. Assigning a
/// whole PlanAxes<2> copies 3 KiB (MAX_PLAN_RANK entries per array), through glibc's `rep movsb`:
/// the planner's five such copies were a third of a 4-d permutation of 256 doubles (200 of
/// 610 ns on an AMD EPYC guest).
template <int N>
void assign_axes(PlanAxes<N>& to, const PlanAxes<N>& from) {
  // Every field by name: a field added to PlanAxes stops this compiling until it is copied here.
  const auto& [rank, count, dims, blocks, tiles, tile_count, strides, first_axis, fused_axes,
               strategy, transpose_axis, gathered, stream_stores, column_bands, paced_fetch,
               custom_walk, walk] = from;
  to.rank = rank;
  to.count = count;
  to.tile_count = tile_count;
  to.strategy = strategy;
  to.transpose_axis = transpose_axis;
  to.gathered = gathered;
  to.stream_stores = stream_stores;
  to.column_bands = column_bands;
  to.paced_fetch = paced_fetch;
  to.custom_walk = custom_walk;
  for (int i = 0; i < rank; ++i) {
    to.dims[i] = dims[i];
    to.blocks[i] = blocks[i];
    to.tiles[i] = tiles[i];
    for (int k = 0; k < N; ++k) to.strides[k][i] = strides[k][i];
    to.first_axis[i] = first_axis[i];
    to.fused_axes[i] = fused_axes[i];
    if (custom_walk) to.walk[i] = walk[i];  // (set only then)
  }
}

/// How one call runs: fused axes (axis 0 innermost), per-operand element strides, the tile
/// extents chosen for the 32 KiB L1 budget, and the tile grid. Operand 0 is the output for maps
/// (counted twice when ordering) and the first input for reductions. Depends only on shapes,
/// strides and element sizes, never on the execution space or thread count.
template <int N>
struct Plan : PlanAxes<N> {
  /// For Gather: the offset of element e of axis a (0 or 1) for operand k.
  std::ptrdiff_t table[2][N][GATHER_MAX];
};

/// Whether element-wise kernels move this plan's tiles through square blocks (the destination's
/// unit axis is not a source's): the one place the kernels and explain() read it from.
template <int N>
STRIDED_HOST_DEVICE constexpr bool moves_by_blocks(const Plan<N>& p) {
  return p.strategy == Strategy::Transpose || (p.strategy == Strategy::Gather && N > 1);
}

}  // namespace strided::detail

#endif
