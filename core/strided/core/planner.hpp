#ifndef STRIDED_CORE_PLANNER_HPP
#define STRIDED_CORE_PLANNER_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>

#include "strided/core/checked_arithmetic.hpp"
#include "strided/core/machine.hpp"
#include "strided/core/magnitude.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

inline constexpr std::ptrdiff_t kMaxStride = std::numeric_limits<std::ptrdiff_t>::max();

/// Tuning constants of the planner (Strided.jl's values).
struct PlannerOptions {
  std::size_t block_bytes = 32768;  ///< L1 budget for one tile's working set
  std::size_t cache_line = 64;
  /// Upper bound on a tile, the parallel grain (smaller from 2^22 elements on: tile_grain).
  std::size_t max_tile_elements = 1 << 16;
  bool weight_first_operand = true;       ///< operand 0 is the output: counted twice in ordering
  std::size_t transpose_row_bytes = 512;  ///< transposes: tile rows of this many output bytes
  std::size_t stream_bytes = std::size_t(16) << 20;  ///< larger outputs use streaming stores
  bool gather = true;  ///< gather short axes of high-rank layouts into table-driven axes
  const std::size_t* block_override = nullptr;  ///< expert: tile extents per fused axis
  /// L2 size that sizes the transposed tiles of element-wise plans; 0: the host's (machine()).
  std::size_t l2_bytes = 0;
};

/// The L2 that sizes `opt`'s tiles: its own, or the host's.
inline std::size_t planner_l2_bytes(const PlannerOptions& opt) {
  return opt.l2_bytes > 0 ? opt.l2_bytes : machine().l2_bytes;
}

/// 1 + the number of non-zero |strides| strictly smaller than |strides[i]|; 0 stride -> 1.
inline void stride_order(int rank, const std::ptrdiff_t* strides, int* order) {
  for (int i = 0; i < rank; ++i) {
    const std::size_t si = magnitude(strides[i]);
    int k = 1;
    if (si != 0)
      for (int j = 0; j < rank; ++j)
        if (strides[j] != 0 && magnitude(strides[j]) < si) ++k;
    order[i] = k;
  }
}

/// Orders axes by importance, most important (innermost) first. The key of an axis is the vector
/// of (weighted) operand counts that rank it 1st, 2nd, ... by |stride|, compared
/// lexicographically: the weighted-sum of the prior art without its integer overflow at rank 22+.
template <int N>
void order_axes(int rank, const std::ptrdiff_t (*strides)[MAX_PLAN_RANK], bool weight_first,
                int* perm) {
  unsigned char key[MAX_PLAN_RANK][MAX_PLAN_RANK];
  for (int i = 0; i < rank; ++i) std::memset(key[i], 0, static_cast<std::size_t>(rank));
  int order[MAX_PLAN_RANK];
  for (int k = 0; k < N; ++k) {
    stride_order(rank, strides[k], order);
    const unsigned char w = (k == 0 && weight_first) ? 2 : 1;
    for (int i = 0; i < rank; ++i) key[i][order[i] - 1] += w;
  }
  // Stable insertion sort, most important first (std::stable_sort may allocate).
  for (int i = 0; i < rank; ++i) {
    int j = i;
    for (; j > 0 && std::memcmp(key[perm[j - 1]], key[i], static_cast<std::size_t>(rank)) < 0; --j)
      perm[j] = perm[j - 1];
    perm[j] = i;
  }
}

/// Bytes of cache lines one tile touches (Strided.jl's total memory region): per operand, strides
/// below a cache line add contiguous span, larger ones multiply the count of separate runs.
/// Saturating: any block and option values give a size that still compares as too large.
template <int N>
std::size_t memory_region(int rank, const std::size_t* blocks,
                          const std::ptrdiff_t (*byte_strides)[MAX_PLAN_RANK], std::size_t line) {
  line = std::max<std::size_t>(line, 1);  // a cache_line of 0 counts as 1 byte
  std::size_t region = 0;
  for (int k = 0; k < N; ++k) {
    std::size_t span = 0, runs = 1;
    for (int i = 0; i < rank; ++i) {
      const std::size_t s = magnitude(byte_strides[k][i]);
      if (s < line)
        span = saturating_add(span, saturating_mul(blocks[i] - 1, s));
      else
        runs = saturating_mul(runs, blocks[i]);
    }
    const std::size_t lines = saturating_add(span / line, 1);
    region = saturating_add(region, saturating_mul(saturating_mul(line, lines), runs));
  }
  return region;
}

/// Last index of the largest (blocks[i] - 1) * costs[i], or -1 when no block can shrink.
inline int last_argmax_weighted(int rank, const std::size_t* blocks, const std::size_t* costs) {
  int best = -1;
  std::size_t best_value = 0;
  for (int i = 0; i < rank; ++i) {
    if (blocks[i] <= 1) continue;
    const std::size_t v = saturating_mul(blocks[i] - 1, costs[i]);
    if (best < 0 || v >= best_value) {
      best = i;
      best_value = v;
    }
  }
  return best;
}

/// L1 blocking (port of Strided.jl's _computeblocks) on axes [first, rank).
template <int N>
void compute_blocks(int first, int rank, const std::size_t* dims,
                    const std::ptrdiff_t (*byte_strides)[MAX_PLAN_RANK], const std::size_t* costs,
                    const PlannerOptions& opt, std::size_t* blocks) {
  const int n = rank - first;
  if (n <= 0) return;
  std::ptrdiff_t sub[N][MAX_PLAN_RANK];
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < n; ++i) sub[k][i] = byte_strides[k][first + i];
  std::size_t* b = blocks + first;
  std::copy(dims + first, dims + rank, b);
  if (memory_region<N>(n, b, sub, opt.cache_line) <= opt.block_bytes) return;
  // Every operand has its smallest stride on the first axis: keep it whole, block the rest.
  int order[MAX_PLAN_RANK];
  bool first_is_smallest = true;
  std::size_t smallest = ~std::size_t(0);
  for (int k = 0; k < N; ++k) {
    stride_order(n, sub[k], order);
    int lowest = order[0];
    for (int i = 1; i < n; ++i) lowest = std::min(lowest, order[i]);
    first_is_smallest = first_is_smallest && order[0] == lowest;
    for (int i = 0; i < n; ++i) smallest = std::min(smallest, magnitude(sub[k][i]));
  }
  if (first_is_smallest) {
    compute_blocks<N>(first + 1, rank, dims, byte_strides, costs, opt, blocks);
    return;
  }
  if (smallest > opt.block_bytes) {
    std::fill(b, b + n, std::size_t(1));
    return;
  }
  const std::size_t* c = costs + first;
  while (memory_region<N>(n, b, sub, opt.cache_line) >= saturating_mul(2, opt.block_bytes)) {
    const int i = last_argmax_weighted(n, b, c);
    if (i < 0) break;
    b[i] = (b[i] + 1) / 2;
  }
  while (memory_region<N>(n, b, sub, opt.cache_line) > opt.block_bytes) {
    const int i = last_argmax_weighted(n, b, c);
    if (i < 0) break;
    bool footprint = false;
    for (int k = 0; k < N; ++k) footprint = footprint || sub[k][i] != 0;
    if (footprint) {
      b[i] -= 1;
      continue;
    }
    // The region does not depend on a block whose strides are all 0 (a broadcast input), so
    // one-by-one steps would take up to its extent (2^62 for a broadcast view) to move on. Jump
    // to where they stop: the largest block at which axis i is no longer the one chosen (the
    // choice is monotone in b[i]), found by bisection. Same blocks as the steps.
    std::size_t chosen = b[i], unchosen = 1;
    while (chosen - unchosen > 1) {
      b[i] = unchosen + (chosen - unchosen) / 2;
      (last_argmax_weighted(n, b, c) == i ? chosen : unchosen) = b[i];
    }
    b[i] = unchosen;
  }
}

/// True when strides are dense row-major or dense column-major over the axes of extent > 1.
/// Any extents: an empty layout may have a product of extents past 64 bits, and then so does the
/// dense stride it would need, so an overflow ends the match.
inline bool is_dense(std::size_t rank, const std::size_t* extents, const std::ptrdiff_t* strides) {
  std::size_t row = 1, col = 1;
  bool row_major = true, col_major = true;
  for (std::size_t j = 0; j < rank; ++j) {
    const std::size_t r = rank - 1 - j;
    if (extents[r] > 1) {
      row_major = row_major && magnitude(strides[r]) == row && strides[r] > 0;
      row_major = row_major && checked_mul(row, extents[r], row);
    }
    if (extents[j] > 1) {
      col_major = col_major && magnitude(strides[j]) == col && strides[j] > 0;
      col_major = col_major && checked_mul(col, extents[j], col);
    }
  }
  return row_major || col_major;
}

/// Every operand has operand 0's strides, and they are dense: the plan is one flat axis.
template <int N>
bool same_dense_layout(std::size_t rank, const std::size_t* extents,
                       const std::ptrdiff_t* const* strides) {
  for (int k = 1; k < N; ++k)
    for (std::size_t i = 0; i < rank; ++i)
      if (extents[i] > 1 && strides[k][i] != strides[0][i]) return false;
  return is_dense(rank, extents, strides[0]);
}

/// Elements from which a plan is cut for GPU-scale parallelism (tile_grain).
inline constexpr std::size_t GPU_SCALE_COUNT = std::size_t(1) << 22;
/// Tiles a GPU-scale plan is cut into at least: 2^13 tiles of 16 lanes, 2^17 lane chains.
inline constexpr std::size_t GPU_SCALE_TILES = std::size_t(1) << 13;
/// Most elements of a GPU-scale tile: lane chains of at most 256 elements (and at least 32:
/// count / GPU_SCALE_TILES >= 512 from GPU_SCALE_COUNT on).
inline constexpr std::size_t LONGEST_GRAIN = 4096;

/// The most elements of a flat or blocked tile of a plan of `count` elements. Tiles are the fold
/// order of full reductions (16 lane chains each), so this is part of the determinism contract
/// and depends on the count and options alone. Below GPU_SCALE_COUNT: max_tile_elements. From
/// there on: count / GPU_SCALE_TILES, at most LONGEST_GRAIN and max_tile_elements, so that a
/// plan has at least 2^17 independent chains (a GPU keeps ~270,000 threads resident), each at
/// most 256 elements long.
inline std::size_t tile_grain(std::size_t count, const PlannerOptions& opt) {
  if (count < GPU_SCALE_COUNT) return opt.max_tile_elements;
  return std::min({count / GPU_SCALE_TILES, LONGEST_GRAIN, opt.max_tile_elements});
}

/// Halves tile extents, outer axes first, until a tile holds at most `most` elements: large
/// problems then have enough tiles to share between threads.
template <int N>
void cap_tile(PlanAxes<N>& p, std::size_t most) {
  std::size_t tile = 1;
  for (int i = 0; i < p.rank; ++i) tile *= p.blocks[i];
  for (int i = p.rank - 1; i >= 0 && tile > most; --i) {
    while (p.blocks[i] > 1 && tile > most) {
      tile /= p.blocks[i];
      p.blocks[i] = (p.blocks[i] + 1) / 2;
      tile *= p.blocks[i];
    }
  }
}

/// A block of about `block` elements that cuts an axis of `n` into even pieces: as many pieces
/// as whole blocks fit, each rounded up to `multiple` (a line of elements), where that leaves a
/// last piece of at least half a block (72 with blocks of 64: one piece of 72, not 64 and 8);
/// otherwise `block`. Tiles are uniform, so a thin last piece cannot always be avoided, but
/// never thinner or more often than with `block` itself.
inline std::size_t even_block(std::size_t n, std::size_t block, std::size_t multiple) {
  if (block == 0 || n <= block) return std::max<std::size_t>(1, std::min(n, block));
  multiple = std::max<std::size_t>(1, multiple);
  const std::size_t pieces = n / block, piece = (n + pieces - 1) / pieces;
  const std::size_t even = std::min(n, (piece + multiple - 1) / multiple * multiple);
  const std::size_t last = n % even;
  return last == 0 || 2 * last >= even ? even : block;
}

/// Splits `p.dims[0..rank)` into tiles of `p.blocks` and counts them.
template <int N>
void count_tiles(PlanAxes<N>& p) {
  p.tile_count = 1;
  for (int i = 0; i < p.rank; ++i) {
    p.tiles[i] = (p.dims[i] + p.blocks[i] - 1) / p.blocks[i];
    p.tile_count *= p.tiles[i];
  }
}

/// Splits axis a into an inner axis of extent d (its strides) and, right after it, an outer
/// axis of extent dims[a] / d (its strides times d). d divides dims[a]; rank < MAX_PLAN_RANK.
template <int N>
void split_axis(PlanAxes<N>& p, int a, std::size_t d) {
  for (int i = p.rank; i > a + 1; --i) {
    p.dims[i] = p.dims[i - 1];
    p.blocks[i] = p.blocks[i - 1];
    p.first_axis[i] = p.first_axis[i - 1];
    p.fused_axes[i] = p.fused_axes[i - 1];
    for (int k = 0; k < N; ++k) p.strides[k][i] = p.strides[k][i - 1];
  }
  p.dims[a + 1] = p.dims[a] / d;
  p.blocks[a + 1] = 1;
  p.first_axis[a + 1] = p.first_axis[a];
  p.fused_axes[a + 1] = 0;  // no original axis of its own: the rest of axis a
  for (int k = 0; k < N; ++k)
    p.strides[k][a + 1] = p.strides[k][a] * static_cast<std::ptrdiff_t>(d);
  p.dims[a] = d;
  p.blocks[a] = std::min(p.blocks[a], d);
  ++p.rank;
  count_tiles(p);
}

/// The shortest run a gathered group takes from a first axis it cannot take whole.
inline constexpr std::size_t GATHER_MIN_RUN = 16;

/// The largest divisor of n in [2, most], or 0 when there is none.
inline std::size_t largest_divisor_within(std::size_t n, std::size_t most) {
  for (std::size_t d = std::min(n - 1, most); d >= 2; --d)
    if (n % d == 0) return d;
  return 0;
}

/// Whether some operand of `p` has an axis along which it reads lines (|stride| below a line)
/// but none among the two groups: each element it reads in a gathered block is then a line.
template <int N>
bool groups_leave_lines_out(const PlanAxes<N>& p, const int* group0, int g0, const int* group1,
                            int g1, const std::size_t* element_size, std::size_t line) {
  const auto along_lines = [&](int k, int axis) {
    return p.dims[axis] > 1 &&
           saturating_mul(magnitude(p.strides[k][axis]), element_size[k]) < line;
  };
  for (int k = 0; k < N; ++k) {
    bool anywhere = false, grouped = false;
    for (int i = 0; i < p.rank; ++i) anywhere = anywhere || along_lines(k, i);
    for (int m = 0; m < g0; ++m) grouped = grouped || along_lines(k, group0[m]);
    for (int m = 0; m < g1; ++m) grouped = grouped || along_lines(k, group1[m]);
    if (anywhere && !grouped) return true;
  }
  return false;
}

/// High-rank permutations leave short axes (often of extent 2) at every level, so inner runs
/// are a few elements long. Gather them into two table-driven axes: axis 0 from the leading
/// (output-fastest) axes, axis 1 from the axes where a source is fastest (a transpose's first
/// source that reads across), each of at most GATHER_MAX elements; a tile is one such 2-d block.
/// Both sides then touch whole lines.
/// For a transpose, a group whose next axis does not fit whole takes a divisor of it, the rest
/// of that axis staying a tile axis (HPTT's blocking over two axes per side): 30^5 reversed
/// gathers groups of 30 x 6 where whole axes give 30, one axis per side.
/// A transpose's source group is capped like its tiles' source rows (transpose_row_bytes): a
/// block of 256 destination rows by source runs of 512 bytes, as the blocked transposes take
/// (docs/performance.md, CPU pass 8: 256 x 256 blocks of a rank-6 reversal ran at 39% of copy
/// on an AMD EPYC guest, 256 x 64 at 55-62%).
template <int N>
void gather_short_axes(Plan<N>& p, const std::size_t* element_size, const PlannerOptions& opt) {
  // Groups of about sqrt(count) elements each at most: a small tensor splits evenly.
  std::size_t balanced = 1;  // (stops at GATHER_MAX, below any overflow)
  while (balanced < GATHER_MAX && balanced * balanced < p.count) balanced *= 2;
  const std::size_t most =
      std::min<std::size_t>(std::min<std::size_t>(GATHER_MAX, balanced), opt.max_tile_elements);
  const bool may_split = p.strategy == Strategy::Transpose;  // maps only: reductions keep tiles
  PlanAxes<N> s;  // p itself changes only when the groups are taken (axes only: no tables)
  assign_axes(s, p);
  // Picks, among the axes not taken yet, those where `operand` is fastest (smallest |stride|)
  // while the group stays within `limit` elements. Returns -1 after splitting s's next axis
  // (the caller picks again), else the group's size.
  bool taken[MAX_PLAN_RANK] = {};
  const auto pick = [&](int operand, std::size_t limit, int* group, std::size_t& count) {
    int order[MAX_PLAN_RANK], n = 0;
    for (int i = 0; i < s.rank; ++i) {  // stable insertion sort by |stride|
      if (taken[i]) continue;
      int j = n++;
      for (;
           j > 0 && magnitude(s.strides[operand][order[j - 1]]) > magnitude(s.strides[operand][i]);
           --j)
        order[j] = order[j - 1];
      order[j] = i;
    }
    int g = 0;
    count = 1;
    std::size_t grown = 0;
    for (int j = 0; j < n && checked_mul(count, s.dims[order[j]], grown) && grown <= limit; ++j) {
      count = grown;
      taken[order[j]] = true;
      group[g++] = order[j];
    }
    if (may_split && g < n && s.rank < MAX_PLAN_RANK) {
      // A first axis too long for the group (a source's unit axis of 352) gives a run of at
      // least GATHER_MIN_RUN elements, or nothing.
      const std::size_t d = largest_divisor_within(s.dims[order[g]], limit / count);
      if (d != 0 && (g >= 1 || d >= GATHER_MIN_RUN)) {
        split_axis(s, order[g], d);
        return -1;
      }
    }
    return g;
  };
  int group0[MAX_PLAN_RANK], group1[MAX_PLAN_RANK];
  std::size_t n0 = 1, n1 = 1;
  // The first source's line-forming axes (|stride| below a line) stay out of the destination's
  // group unless they form its lines too: the source then reads whole lines along its group
  // (W2: its unit axis is the destination's 7th fastest, and taking it for the destination left
  // the source's group at stride 2, a scalar gather of every element).
  // A transpose's axis-1 group is that of the first source that reads across the destination's
  // fastest axis: with the first source read along the destination's lines, a zip of A and a
  // permuted A gathered that one element by element (32^4 f64: 7.4-8.8 ms, now 2.6-3.0 ms).
  // Reductions keep the first source: their tiles are their fold order.
  int src = N > 1 ? 1 : 0;
  for (int k = N - 1; k >= 1 && may_split; --k)
    if (p.strides[k][0] != p.strides[0][0]) src = k;
  const std::size_t src_line = std::max<std::size_t>(1, opt.cache_line / element_size[src]);
  const std::size_t dst_line = std::max<std::size_t>(1, opt.cache_line / element_size[0]);
  // A transpose's source group takes rows of transpose_row_bytes when whole axes and a divisor
  // of the next reach that length exactly; otherwise (odd extents: 44 of 352) its whole-axes
  // group as before (HPTT's 5-d reversal of 352 x 4 x 28 x 28 x 48 ran at 38% of copy in runs
  // of 44, 60% in runs of 176).
  const std::size_t row =
      may_split && opt.transpose_row_bytes > 0
          ? std::max(GATHER_MIN_RUN, opt.transpose_row_bytes / element_size[src])
          : 0;
  int g0 = -1, g1 = -1;
  for (int attempt = row > 0 ? 0 : 1; attempt < 2; ++attempt) {
    assign_axes(s, p);
    g0 = g1 = -1;
    while (g0 < 0 || g1 < 0) {  // each split adds an axis: at most MAX_PLAN_RANK rounds
      bool reserved[MAX_PLAN_RANK] = {};
      for (int i = 0; i < s.rank; ++i) {
        taken[i] = false;
        reserved[i] = src != 0 && magnitude(s.strides[src][i]) < src_line &&
                      magnitude(s.strides[0][i]) >= dst_line;
        taken[i] = reserved[i];
      }
      g0 = pick(0, most, group0, n0);
      if (g0 < 0) continue;
      for (int i = 0; i < s.rank; ++i)
        if (reserved[i]) taken[i] = false;
      const std::size_t most1 = std::min(most, opt.max_tile_elements / n0);
      g1 = pick(src, attempt == 0 ? std::min(most1, row) : most1, group1, n1);
    }
    if (attempt == 0 && n1 == row) break;
  }
  // Nothing short to gather; a transpose may keep a long destination axis whole when its
  // source's rows gather (a source axis of 32 after a destination axis of 112).
  if (g1 < 1 || g0 < (may_split ? 1 : 2) || g0 + g1 < 3) return;
  // A transpose whose groups leave out an operand's lines (zips of sources each permuted its own
  // way) reads that operand one element per line over a whole block, more lines than stay cached
  // until the next tile uses them again: with a destination axis that is not short, the tiles
  // without gathering keep them (A + three permutations of A, 32^4 f64, ran 2x faster in their
  // blocks of 32 x 32).
  if (may_split && p.dims[0] >= 16 &&
      groups_leave_lines_out(s, group0, g0, group1, g1, element_size, opt.cache_line))
    return;
  assign_axes<N>(p, s);
  // Offset tables: group axes enumerated first axis fastest.
  const int* groups[2] = {group0, group1};
  const int sizes[2] = {g0, g1};
  // The offsets follow an odometer over the group's axes: O(1) per entry (a dot product of
  // the index per entry stalled on reading back the index just stored). Every running offset
  // is an entry's, so none overflows where the views' offsets do not.
  for (int a = 0; a < 2; ++a) {
    std::size_t index[MAX_PLAN_RANK] = {};
    std::ptrdiff_t offset[N] = {};
    const std::size_t count = a == 0 ? n0 : n1;
    for (std::size_t e = 0; e < count; ++e) {
      for (int k = 0; k < N; ++k) p.table[a][k][e] = offset[k];
      for (int m = 0; m < sizes[a]; ++m) {
        const int axis = groups[a][m];
        if (++index[m] < p.dims[axis]) {
          for (int k = 0; k < N; ++k) offset[k] += p.strides[k][axis];
          break;
        }
        for (int k = 0; k < N; ++k)
          offset[k] -= p.strides[k][axis] * static_cast<std::ptrdiff_t>(p.dims[axis] - 1);
        index[m] = 0;
      }
    }
  }
  // New axis list: the two gathered axes, then the untouched ones in plan order, one element
  // deep (a tile is one gathered block).
  PlanAxes<N> q;
  assign_axes<N>(q, p);
  q.rank = 2;
  q.dims[0] = n0;
  q.dims[1] = n1;
  for (int a = 0; a < 2; ++a) {
    const int lead = groups[a][0];
    q.first_axis[a] = p.first_axis[lead];
    q.fused_axes[a] = 0;
    for (int m = 0; m < sizes[a]; ++m) q.fused_axes[a] += p.fused_axes[groups[a][m]];
    for (int k = 0; k < N; ++k) q.strides[k][a] = p.strides[k][lead];
  }
  q.blocks[0] = n0;
  q.blocks[1] = n1;
  for (int i = 0; i < p.rank; ++i) {
    if (taken[i]) continue;
    const int r = q.rank++;
    q.dims[r] = p.dims[i];
    q.blocks[r] = 1;
    q.first_axis[r] = p.first_axis[i];
    q.fused_axes[r] = p.fused_axes[i];
    for (int k = 0; k < N; ++k) q.strides[k][r] = p.strides[k][i];
  }
  q.gathered = true;
  q.strategy = Strategy::Gather;
  q.transpose_axis = -1;
  count_tiles(q);
  assign_axes<N>(p, q);  // the tables filled above stay
}

/// The fused axes, tiles and strategy of make_plan.
template <int N>
Plan<N> plan_layout(std::size_t rank, const std::size_t* extents,
                    const std::ptrdiff_t* const* strides, const std::size_t* element_size,
                    const PlannerOptions& opt) {
  Plan<N> p;
  p.count = 1;
  for (std::size_t i = 0; i < rank; ++i) p.count *= extents[i];
  if (p.count == 0) {
    p.strategy = Strategy::Empty;
    p.tile_count = 0;
    return p;
  }
  // Same dense layout everywhere (the common case, and every small call): skip the planner; this
  // is exactly the plan the steps below produce for it.
  if (!opt.block_override && p.count > 1 && same_dense_layout<N>(rank, extents, strides)) {
    p.rank = 1;
    p.dims[0] = p.count;
    p.blocks[0] = p.count;
    cap_tile(p, tile_grain(p.count, opt));
    p.first_axis[0] = 0;
    p.fused_axes[0] = 0;
    for (std::size_t i = 0; i < rank; ++i) p.fused_axes[0] += extents[i] > 1 ? 1 : 0;
    for (std::size_t i = rank; i-- > 0;)
      if (extents[i] > 1 && (strides[0][i] == 1)) p.first_axis[0] = static_cast<short>(i);
    for (int k = 0; k < N; ++k) p.strides[k][0] = 1;
    p.strategy = Strategy::Flat;
    count_tiles(p);
    return p;
  }
  // 1. Drop extent-1 axes (at most 63 axes remain, see MAX_PLAN_RANK).
  int r = 0;
  short axis_of[MAX_PLAN_RANK];
  std::size_t dims[MAX_PLAN_RANK];
  std::ptrdiff_t s[N][MAX_PLAN_RANK];
  for (std::size_t i = 0; i < rank; ++i) {
    if (extents[i] == 1) continue;
    dims[r] = extents[i];
    axis_of[r] = static_cast<short>(i);
    for (int k = 0; k < N; ++k) s[k][r] = strides[k][i];
    ++r;
  }
  // 2. Order by importance, then 3. fuse neighbours contiguous for every operand.
  int perm[MAX_PLAN_RANK];
  order_axes<N>(r, s, opt.weight_first_operand, perm);
  int fused = 0;
  for (int j = 0; j < r; ++j) {
    const int i = perm[j];
    bool joins = fused > 0;
    for (int k = 0; k < N && joins; ++k) {  // an extent x stride past 64 bits joins nothing
      std::ptrdiff_t next = 0;
      joins =
          checked_stride_mul(p.strides[k][fused - 1], p.dims[fused - 1], next) && s[k][i] == next;
    }
    if (joins) {
      p.dims[fused - 1] *= dims[i];
      ++p.fused_axes[fused - 1];
      continue;
    }
    p.dims[fused] = dims[i];
    for (int k = 0; k < N; ++k) p.strides[k][fused] = s[k][i];
    p.first_axis[fused] = axis_of[i];
    p.fused_axes[fused] = 1;
    ++fused;
  }
  p.rank = fused;
  // 4. Block for L1, then cap the tile size.
  if (opt.block_override) {
    for (int i = 0; i < p.rank; ++i)
      p.blocks[i] = std::max<std::size_t>(1, std::min(opt.block_override[i], p.dims[i]));
  } else {
    std::ptrdiff_t bytes[N][MAX_PLAN_RANK];
    std::size_t costs[MAX_PLAN_RANK] =
        {};  // (initialized: GCC 12 sees a false maybe-uninitialized)
    for (int i = 0; i < p.rank; ++i) {
      std::size_t m = ~std::size_t(0);
      for (int k = 0; k < N; ++k) {
        // Clamped: a stride of more than PTRDIFF_MAX bytes only needs to compare as huge.
        if (!checked_stride_mul(p.strides[k][i], element_size[k], bytes[k][i]))
          bytes[k][i] = p.strides[k][i] < 0 ? -kMaxStride : kMaxStride;
        m = std::min(m, magnitude(p.strides[k][i]));
      }
      costs[i] = m == 0 ? 1 : saturating_mul(2, m);
    }
    compute_blocks<N>(0, p.rank, p.dims, bytes, costs, opt, p.blocks);
    cap_tile(p, tile_grain(p.count, opt));
  }
  count_tiles(p);
  // 5. Strategy: flat when everything fused into one unit-stride axis; transpose when the
  // output's unit axis (innermost) is not a source's, but a blocked second axis is.
  bool unit = p.rank <= 1;
  for (int k = 0; k < N && unit; ++k) unit = p.rank == 0 || p.strides[k][0] == 1;
  p.strategy = unit ? Strategy::Flat : Strategy::Tiled;
  if (!unit && p.rank >= 2 && opt.weight_first_operand && p.strides[0][0] == 1) {
    for (int k = 1; k < N; ++k)
      if (magnitude(p.strides[k][0]) != 1 && magnitude(p.strides[k][1]) == 1) {
        p.strategy = Strategy::Transpose;
        p.transpose_axis = 1;
      }
    // Tiles over the two streaming axes, one element deep elsewhere: source rows of
    // transpose_row_bytes, as many of them as half the L2 holds with their destination rows
    // (transpose_tile_rows). The blocks inside consume whole lines, so a tile is sized for the
    // L2 and the TLB rather than the L1. Short source rows and many of them: a band of blocks
    // then writes few destination rows at once, each in long runs (docs/performance.md, CPU
    // pass 7: 8192^2 at 1 thread, 128 x 128 f64 tiles 48% of copy, 256 x 64 69%). Streamed
    // ones whose sources all read along axis 1 run in column bands instead (make_plan,
    // column_band_tiles).
    // Only maps have this strategy: reduction tiles never depend on the machine.
    // When a source streams along axis 0 with the destination (A + B^T), the source that reads
    // across is staged tile by tile (the backends' staged_tile) and the others read the tile's
    // rows: its rows are four times as long (2 KiB), read in runs the prefetchers follow
    // further (docs/performance.md, CPU passes 6 and 7).
    if (p.strategy == Strategy::Transpose && !opt.block_override && opt.transpose_row_bytes > 0) {
      bool mixed = false;
      for (int k = 1; k < N; ++k) mixed = mixed || magnitude(p.strides[k][0]) == 1;
      const std::size_t source_row_bytes =
          mixed ? saturating_mul(4, opt.transpose_row_bytes) : opt.transpose_row_bytes;
      const std::size_t side = std::max<std::size_t>(16, source_row_bytes / element_size[0]);
      const std::size_t l2 = planner_l2_bytes(opt);
      const std::size_t row_bytes = saturating_mul(side, element_size[0]);
      p.blocks[0] = std::min(p.dims[0], transpose_tile_rows(l2, row_bytes));
      p.blocks[1] = std::min(p.dims[1], side);
      if (mixed) {
        // Each source's tile fits the backends' stage, or it is not staged at all (a 2 MiB L2
        // gives 256 rows): rows halve first, then columns (a byte into complex<double>).
        const std::size_t widest = *std::max_element(element_size + 1, element_size + N);
        while (p.blocks[0] * p.blocks[1] * widest > MAP_STAGE_BYTES &&
               (p.blocks[0] > 16 || p.blocks[1] > 16))
          (p.blocks[0] > 16 ? p.blocks[0] : p.blocks[1]) /= 2;
      } else {
        const std::size_t line = std::max<std::size_t>(1, opt.cache_line / element_size[0]);
        p.blocks[0] = even_block(p.dims[0], p.blocks[0], line);
        p.blocks[1] = even_block(p.dims[1], p.blocks[1], line);
      }
      for (int i = 2; i < p.rank; ++i) p.blocks[i] = 1;
      cap_tile(p, opt.max_tile_elements);
      count_tiles(p);
    }
  }
  // Short inner axes make short tile rows: gather them, always below 16 elements, and below 64
  // for transposes (whose blocks want whole rows of 1 KiB: rank 6+ permutations measured 2-3x
  // faster gathered).
  const bool transpose = p.strategy == Strategy::Transpose;
  // Source rows shorter than transpose_row_bytes under a long destination axis (HPTT's 6-d
  // reversal of 32 x 5 x 15 x 15 x 15 x 112: source runs of 32 elements). One longer than a
  // group gives it a divisor (5-d, 48 x 4 x 28 x 28 x 352: groups of 176 x 192 ran at 40-45% of
  // a scale-copy against 28-31% for tiles of 352 x 48; docs/performance.md, CPU pass 13).
  const bool short_source_rows =
      transpose && saturating_mul(p.dims[1], element_size[1]) < opt.transpose_row_bytes;
  if (!opt.block_override && opt.gather && p.rank >= 3 &&
      (p.dims[0] < 16 || (transpose && (p.dims[0] < 64 || short_source_rows))))
    gather_short_axes(p, element_size, opt);
  return p;
}

/// Axes [first, rank) of `p` in a stable order of operand k's |stride|, smallest first, into
/// order[first, rank); order[0, first) keeps the plan's axes.
template <int N>
void order_by_stride(const PlanAxes<N>& p, int k, int first, int* order) {
  for (int i = 0; i < p.rank; ++i) {  // stable insertion sort
    int j = i;
    for (; j > first && magnitude(p.strides[k][order[j - 1]]) > magnitude(p.strides[k][i]); --j)
      order[j] = order[j - 1];
    order[j] = i;
  }
}

/// A streamed transpose's tile walk: tile axes by the |stride| of the source that reads across
/// (unit |stride| on axis 1, as the transpose strategy itself tests), smallest first. Consecutive
/// tiles then continue that source's rows, which the hardware prefetchers follow, while each
/// destination line is stored whole by one non-temporal store whatever the order. Walking in the
/// destination's order instead starts H new source rows of one tile width per tile (measured on W3
/// at 1 thread: 1.5x slower).
/// A gathered block (one tile) reads its source group along axis 1: its tiles walk the other axes
/// by the first source's |stride| the same way, so that the next tile continues its rows (rank-6
/// to rank-24 reversals on an AMD EPYC guest at 1 thread: 47% to 57% of copy with the capped
/// source group).
/// A tiled transpose whose destination tile rows end mid-line (17^6 reversed: rows of 136 bytes)
/// keeps the destination's order: a line it leaves partly written is completed by the next tile
/// while still in cache, where walking along the source came back to it only after a sweep of
/// the source (72 ms against 50 ms at 1 thread on an AMD EPYC guest; docs/performance.md, CPU
/// pass 19).
template <int N>
void walk_along_source(Plan<N>& p, const std::size_t* element_size, const PlannerOptions& opt) {
  if (opt.block_override || N < 2) return;
  if (!p.gathered && opt.cache_line > 0 &&
      saturating_mul(p.blocks[0], element_size[0]) % opt.cache_line != 0)
    return;
  int source = -1;
  bool mixed = false;  // some source streams along axis 0 with the destination (A + B^T)
  for (int k = 1; k < N; ++k) {
    if (magnitude(p.strides[k][1]) == 1 && magnitude(p.strides[k][0]) != 1) source = k;
    mixed = mixed || magnitude(p.strides[k][0]) == 1;
  }
  if (p.gathered) source = 1, mixed = false;  // (the groups were taken for source 1)
  if (source < 0 || mixed) return;
  int order[MAX_PLAN_RANK] = {};
  order_by_stride(p, source, p.gathered ? 2 : 0, order);
  for (int i = 0; i < p.rank; ++i) p.walk[i] = static_cast<short>(order[i]);
  p.custom_walk = true;
}

/// Source rows of a streamed transpose's tile in column bands (see column_band_tiles): a band
/// reads one line from each, and rows 4 KiB or more apart lie in as many pages, so a band's
/// pages (and its destination rows') stay within an L1 TLB of 64 entries.
inline constexpr std::size_t TRANSPOSE_BAND_ROWS = 32;

/// A streamed transpose whose sources all read along axis 1 with unit stride, onto destination
/// rows of whole lines (every row starting a line: make_plan's `on_lines`, and every outer
/// stride whole lines): its tiles run as column bands (the host backend's column_bands), each
/// band writing a few destination rows in order while it reads one line from each of the
/// tile's source rows, which the backend fetched into L2 while the tile before ran. Tiles of
/// TRANSPOSE_BAND_ROWS source rows of transpose_row_bytes, walked in the plan's order, so that
/// the next tile continues the same destination rows (an 8192^2 transpose at 1 thread on an AMD
/// EPYC guest: 62 ms in tiles of 256 x 64 walked along the source, 53 ms in tiles of 32 x 64;
/// docs/performance.md, CPU pass 23). Rows that start mid-line keep the planner's tiles: tiles
/// this narrow would leave a partial line at both ends of every row (HPTT's 7264^2 from a
/// std::vector, 16 bytes past a line: 146 ms, against 45 in the planner's tiles).
/// The next tile's source rows are fetched between the blocks of this one, a row at a time
/// (`paced_fetch`), when each source's tile rows lie within block_bytes (the L1 budget: rows
/// packed together, W1.perm1032's 32 rows 512 bytes apart), and all before this tile otherwise.
/// Paced, W1.perm1032 ran at 66-79% of the copy limit against 52-62% (1 and 2 threads, an AMD
/// EPYC guest); tiles whose rows span 1 MiB gained or lost within noise, and a 64^4 reversal
/// (rows 2 MiB apart) ran 1.1-1.6x slower (docs/performance.md, CPU pass 26). False (the plan
/// unchanged) for other plans.
template <int N>
bool column_band_tiles(Plan<N>& p, const std::size_t* element_size, const PlannerOptions& opt) {
  if (opt.block_override || N < 2 || p.gathered || p.strategy != Strategy::Transpose ||
      p.rank < 2 || opt.transpose_row_bytes == 0 || opt.cache_line == 0)
    return false;
  const std::size_t line = std::max<std::size_t>(1, opt.cache_line / element_size[0]);
  if (p.strides[0][0] != 1 || p.dims[0] < line || p.dims[1] < line) return false;
  for (int i = 1; i < p.rank; ++i)  // every tile row starts a line (when element 0 does)
    if (saturating_mul(magnitude(p.strides[0][i]), element_size[0]) % opt.cache_line != 0)
      return false;
  for (int k = 1; k < N; ++k)
    if (p.strides[k][1] != 1 || magnitude(p.strides[k][0]) <= 1) return false;
  const std::size_t side = std::max<std::size_t>(16, opt.transpose_row_bytes / element_size[0]);
  p.blocks[0] = even_block(p.dims[0], std::max(line, TRANSPOSE_BAND_ROWS), line);
  p.blocks[1] = even_block(p.dims[1], side, line);
  for (int i = 2; i < p.rank; ++i) p.blocks[i] = 1;
  cap_tile(p, opt.max_tile_elements);
  count_tiles(p);
  p.custom_walk = false;
  p.column_bands = true;
  p.paced_fetch = true;
  for (int k = 1; k < N; ++k)
    p.paced_fetch =
        p.paced_fetch && saturating_mul(saturating_mul(magnitude(p.strides[k][0]), p.blocks[0]),
                                        element_size[k]) <= opt.block_bytes;
  return true;
}

/// Bytes of the destination runs that a tile of long_source_rows writes at least.
inline constexpr std::size_t DESTINATION_RUN_BYTES = 2048;
/// Tiles that long_source_rows leaves a plan of many elements at least: a GPU runs one team per
/// map tile and needs 4 on each of an H200's 132 SMs, twice over (tiles of 4096 elements and
/// up, whatever the count).
inline constexpr std::size_t LONG_ROWS_MIN_TILES = 1024;

/// A streamed copy whose operands share a unit axis 0 but differ beyond it (W1.perm0213, HPTT's
/// permutations that keep their first axis) is a transpose of runs. A tile takes whole runs of
/// axis 0, enough of the destination's next axes by |stride| for destination runs of
/// DESTINATION_RUN_BYTES, then the source's next axes by its |stride|, whole while half the L2
/// holds the tile and the plan keeps LONG_ROWS_MIN_TILES tiles: a few long source rows, which
/// the hardware prefetchers follow, written as long destination runs. Tiles walk in the plan's
/// order. Measured on an AMD EPYC guest at 1 thread (docs/performance.md, CPU pass 25): HPTT's 32
/// x 8 x 28 x 28 x 298 permuted (0 4 2 1 3), runs of 256 bytes, at 35-37% of a scale-copy read in
/// the source's order (a tile was one run by the source's next axis), 82-87% in these tiles;
/// W1.perm0213 89-90% to 97-103% of the copy limit. Only maps stream: no fold order depends on it.
template <int N>
void long_source_rows(Plan<N>& p, const std::size_t* element_size, const PlannerOptions& opt) {
  if (N != 2 || opt.block_override || p.strategy != Strategy::Tiled || p.gathered || p.rank < 2)
    return;
  if (p.strides[0][0] != 1 || p.strides[1][0] != 1) return;
  const std::size_t run = saturating_mul(p.dims[0], element_size[0]);
  if (run < opt.cache_line) return;
  const std::size_t l2_half = planner_l2_bytes(opt) / 2 / element_size[0];
  const std::size_t enough_tiles = std::max<std::size_t>(4096, p.count / LONG_ROWS_MIN_TILES);
  const std::size_t most =
      std::max<std::size_t>(1, std::min({opt.max_tile_elements, l2_half, enough_tiles}));
  for (int i = 0; i < p.rank; ++i) p.blocks[i] = 1;
  p.blocks[0] = p.dims[0];
  std::size_t tile = p.dims[0];
  // The destination's runs: its next axes by |stride| (the plan's order weighs the source
  // too), until DESTINATION_RUN_BYTES.
  int order[MAX_PLAN_RANK] = {};
  order_by_stride(p, 0, 1, order);
  const std::size_t run_elements = DESTINATION_RUN_BYTES / element_size[0];
  for (int j = 1; j < p.rank && tile < run_elements; ++j) {
    const int a = order[j];
    p.blocks[a] = std::min(p.dims[a], (run_elements + tile - 1) / tile);
    tile = saturating_mul(tile, p.blocks[a]);
  }
  // The source's rows: its next axes by |stride|, whole while the tile may grow, then part of
  // the first that does not fit.
  order_by_stride(p, 1, 1, order);
  for (int j = 1; j < p.rank; ++j) {
    const int a = order[j];
    if (p.blocks[a] == p.dims[a]) continue;
    const std::size_t others = tile / p.blocks[a];
    p.blocks[a] = std::max(p.blocks[a], std::min(p.dims[a], most / others));
    tile = saturating_mul(others, p.blocks[a]);
    if (p.blocks[a] < p.dims[a]) break;
  }
  cap_tile(p, opt.max_tile_elements);
  count_tiles(p);
  p.custom_walk = false;
}

/// Builds the plan for operands that share `extents` (logical rank `rank`, any size), with
/// `strides[k]` and `element_size[k]` for operand k. `on_lines`: the destination's element
/// (0, ..., 0) starts a cache line (only column-band tiles depend on it).
template <int N>
Plan<N> make_plan(std::size_t rank, const std::size_t* extents,
                  const std::ptrdiff_t* const* strides, const std::size_t* element_size,
                  const PlannerOptions& opt = {}, bool on_lines = true) {
  Plan<N> p = plan_layout<N>(rank, extents, strides, element_size, opt);
  // Streaming stores pay only when the output cannot stay in cache.
  p.stream_stores =
      opt.weight_first_operand && saturating_mul(p.count, element_size[0]) >= opt.stream_bytes;
  if (p.stream_stores && (p.strategy == Strategy::Transpose || p.gathered) &&
      !(on_lines && column_band_tiles(p, element_size, opt)))
    walk_along_source(p, element_size, opt);
  if (p.stream_stores) long_source_rows(p, element_size, opt);
  return p;
}

}  // namespace strided::detail

#endif
