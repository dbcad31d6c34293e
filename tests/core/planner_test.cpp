// Unit tests of the backend-free planner (core/strided/core/planner.hpp), the plan printer
// (explain.hpp) and the host-side combine tree (combine.hpp). No Kokkos.
//
// Reference values come from /work/shared/reference/strided-rs.md, section 4.2 (items 14-23) and
// the worked blocking examples of section 3.4. Every randomized test uses a fixed-seed
// std::mt19937, so failures reproduce.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "strided/core/combine.hpp"
#include "strided/core/explain.hpp"
#include "strided/core/planner.hpp"

namespace {

using strided::detail::combine_pairwise;
using strided::detail::compute_blocks;
using strided::detail::describe;
using strided::detail::last_argmax_weighted;
using strided::detail::make_plan;
using strided::detail::MAX_PLAN_RANK;
using strided::detail::memory_region;
using strided::detail::order_axes;
using strided::detail::Plan;
using strided::detail::PlannerOptions;
using strided::detail::Strategy;
using strided::detail::stride_order;

using Extents = std::vector<std::size_t>;
using Strides = std::vector<std::ptrdiff_t>;
using StrideSet = std::vector<Strides>;  // one stride list per operand

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

std::vector<int> stride_order_of(const Strides& s) {
  std::vector<int> order(s.size());
  stride_order(static_cast<int>(s.size()), s.data(), order.data());
  return order;
}

/// Runs order_axes<N> on per-operand stride lists of equal length.
template <int N>
std::vector<int> order_of(const StrideSet& strides, bool weight_first = true) {
  const int rank = static_cast<int>(strides[0].size());
  std::ptrdiff_t s[N][MAX_PLAN_RANK] = {};
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < rank; ++i) s[k][i] = strides[static_cast<std::size_t>(k)][i];
  int perm[MAX_PLAN_RANK];
  order_axes<N>(rank, s, weight_first, perm);
  return std::vector<int>(perm, perm + rank);
}

/// memory_region<N> over per-operand byte-stride lists.
template <int N>
std::size_t region_of(const Extents& blocks, const StrideSet& byte_strides, std::size_t line = 64) {
  std::ptrdiff_t s[N][MAX_PLAN_RANK] = {};
  for (int k = 0; k < N; ++k)
    for (std::size_t i = 0; i < blocks.size(); ++i)
      s[k][i] = byte_strides[static_cast<std::size_t>(k)][i];
  return memory_region<N>(static_cast<int>(blocks.size()), blocks.data(), s, line);
}

/// compute_blocks<N> on axes [first, rank) of the given problem; blocks before `first` are
/// pre-filled with a sentinel so the test can check they are left alone.
constexpr std::size_t kSentinel = 777777;

template <int N>
Extents blocks_of(const Extents& dims, const StrideSet& byte_strides, const Extents& costs,
                  int first = 0, const PlannerOptions& opt = {}) {
  std::ptrdiff_t s[N][MAX_PLAN_RANK] = {};
  for (int k = 0; k < N; ++k)
    for (std::size_t i = 0; i < dims.size(); ++i)
      s[k][i] = byte_strides[static_cast<std::size_t>(k)][i];
  Extents blocks(dims.size(), kSentinel);
  compute_blocks<N>(first, static_cast<int>(dims.size()), dims.data(), s, costs.data(), opt,
                    blocks.data());
  return blocks;
}

/// make_plan<N> over vectors: extents shared by all operands, one stride list per operand.
template <int N>
Plan<N> plan_of(const Extents& extents, const StrideSet& strides, const Extents& element_size,
                const PlannerOptions& opt = {}) {
  const std::ptrdiff_t* ptrs[N];
  for (int k = 0; k < N; ++k) ptrs[k] = strides[static_cast<std::size_t>(k)].data();
  return make_plan<N>(extents.size(), extents.data(), ptrs, element_size.data(), opt);
}

template <int N>
Plan<N> plan_of(const Extents& extents, const StrideSet& strides, std::size_t element_size = 8,
                const PlannerOptions& opt = {}) {
  return plan_of<N>(extents, strides, Extents(N, element_size), opt);
}

template <int N>
Extents dims_of(const Plan<N>& p) {
  return Extents(p.dims, p.dims + p.rank);
}
template <int N>
Extents blocks_of_plan(const Plan<N>& p) {
  return Extents(p.blocks, p.blocks + p.rank);
}
template <int N>
Strides plan_strides(const Plan<N>& p, int k) {
  return Strides(p.strides[k], p.strides[k] + p.rank);
}

template <int N>
using Tuple = std::array<std::ptrdiff_t, N>;

/// Host-side model of the plan semantics: plan axis 0 is innermost; tile t decomposes
/// mixed-radix over tiles[] with axis 0 fastest; tile (t_0, t_1, ...) covers
/// [t_i * blocks[i], min(dims[i], (t_i + 1) * blocks[i])) on each axis. Returns, for every
/// visited element, the offset of each operand (from the plan's strides), in visit order.
/// `tile_extents`, when given, receives each tile's extents (rank entries per tile).
template <int N>
std::vector<Tuple<N>> walk_plan(const Plan<N>& p, std::vector<Extents>* tile_extents = nullptr) {
  std::vector<Tuple<N>> visited;
  if (p.strategy == Strategy::Empty) return visited;
  const auto rank = static_cast<std::size_t>(p.rank);
  Extents lo(rank), hi(rank), idx(rank);
  for (std::size_t t = 0; t < p.tile_count; ++t) {
    std::size_t rest = t;
    for (std::size_t i = 0; i < rank; ++i) {
      const std::size_t ti = rest % p.tiles[i];
      rest /= p.tiles[i];
      lo[i] = ti * p.blocks[i];
      hi[i] = std::min(p.dims[i], lo[i] + p.blocks[i]);
    }
    EXPECT_EQ(rest, 0u) << "tile index " << t << " beyond the tile grid";
    if (tile_extents) {
      Extents ext(rank);
      for (std::size_t i = 0; i < rank; ++i) ext[i] = hi[i] - lo[i];
      tile_extents->push_back(ext);
    }
    idx = lo;
    while (true) {
      Tuple<N> offsets{};
      for (int k = 0; k < N; ++k)
        for (std::size_t i = 0; i < rank; ++i)
          offsets[static_cast<std::size_t>(k)] +=
              p.gathered && i < 2 ? p.table[i][k][idx[i]]  // gathered axes: offset tables
                                  : static_cast<std::ptrdiff_t>(idx[i]) * p.strides[k][i];
      visited.push_back(offsets);
      std::size_t i = 0;
      for (; i < rank; ++i) {
        if (++idx[i] < hi[i]) break;
        idx[i] = lo[i];
      }
      if (i == rank) break;
    }
  }
  return visited;
}

/// Brute force over the original index space: the offsets of every operand for every
/// multi-index.
template <int N>
std::vector<Tuple<N>> enumerate_layouts(const Extents& extents, const StrideSet& strides) {
  std::vector<Tuple<N>> all;
  for (std::size_t e : extents)
    if (e == 0) return all;
  Extents idx(extents.size(), 0);
  while (true) {
    Tuple<N> offsets{};
    for (std::size_t k = 0; k < static_cast<std::size_t>(N); ++k)
      for (std::size_t i = 0; i < extents.size(); ++i)
        offsets[k] += static_cast<std::ptrdiff_t>(idx[i]) * strides[k][i];
    all.push_back(offsets);
    std::size_t i = 0;
    for (; i < extents.size(); ++i) {
      if (++idx[i] < extents[i]) break;
      idx[i] = 0;
    }
    if (i == extents.size()) break;
  }
  return all;
}

std::size_t product(const Extents& e) {
  return std::accumulate(e.begin(), e.end(), std::size_t(1),
                         [](std::size_t a, std::size_t b) { return a * b; });
}

/// Extents 1..5, a third of them 1.
Extents random_extents_for_fast_path(std::mt19937& rng, std::size_t rank) {
  Extents e(rank);
  for (auto& v : e) v = rng() % 3 == 0 ? 1 : 2 + rng() % 4;
  return e;
}

/// Structural invariants every plan satisfies.
template <int N>
void expect_plan_invariants(const Plan<N>& p, const Extents& extents) {
  EXPECT_EQ(p.count, product(extents));
  if (p.count == 0) {
    EXPECT_EQ(p.strategy, Strategy::Empty);
    EXPECT_EQ(p.tile_count, 0u);
    return;
  }
  if (p.count == 1) {
    // A single element: either the rank-0 plan (every axis dropped) or, from make_plan's dense
    // fast path, one axis of extent 1. Either way one tile holding one element.
    ASSERT_LE(p.rank, 1);
    if (p.rank == 1) {
      EXPECT_EQ(p.dims[0], 1u);
      EXPECT_EQ(p.blocks[0], 1u);
      EXPECT_EQ(p.tiles[0], 1u);
    }
    EXPECT_EQ(p.tile_count, 1u);
    EXPECT_EQ(p.strategy, Strategy::Flat);
    return;
  }
  std::size_t non_unit = 0;
  for (std::size_t e : extents) non_unit += e > 1 ? 1 : 0;
  ASSERT_LE(p.rank, static_cast<int>(non_unit));
  std::size_t fused_total = 0, dims_product = 1, tiles_product = 1;
  for (int i = 0; i < p.rank; ++i) {
    EXPECT_GE(p.dims[i], 2u) << "axis " << i << ": extent-1 axes must be dropped";
    EXPECT_GE(p.blocks[i], 1u);
    EXPECT_LE(p.blocks[i], p.dims[i]);
    EXPECT_EQ(p.tiles[i], (p.dims[i] + p.blocks[i] - 1) / p.blocks[i]);
    EXPECT_GE(p.fused_axes[i], p.gathered ? 0 : 1);  // 0: the rest of a split axis
    EXPECT_GE(p.first_axis[i], 0);
    EXPECT_LT(static_cast<std::size_t>(p.first_axis[i]), extents.size());
    fused_total += static_cast<std::size_t>(p.fused_axes[i]);
    dims_product *= p.dims[i];
    tiles_product *= p.tiles[i];
  }
  EXPECT_EQ(fused_total, non_unit) << "every axis of extent > 1 belongs to one fused axis";
  EXPECT_EQ(dims_product, p.count);
  EXPECT_EQ(p.tile_count, tiles_product);
  if (p.strategy == Strategy::Flat) {
    EXPECT_LE(p.rank, 1);
    for (int k = 0; k < N && p.rank == 1; ++k) EXPECT_EQ(p.strides[k][0], 1);
  }
  if (p.strategy == Strategy::Transpose) {
    EXPECT_EQ(p.transpose_axis, 1);
    EXPECT_EQ(p.strides[0][0], 1);
  }
}

/// The L1 contract of compute_blocks, as checked here. compute_blocks keeps an axis whole when
/// it is the smallest-|stride| axis of every operand among the axes not yet decided (the
/// "streaming" prefix; it recurses on the rest), then shrinks the remaining blocks until their
/// memory_region fits block_bytes or every one of them is 1. The max_tile_elements cap only
/// shrinks blocks further, and memory_region never grows when blocks shrink or when leading axes
/// are left out. So for every tile: with k = the longest prefix of plan axes each of which is
/// such a streaming axis among the axes from itself on, the memory_region of the tile's extents
/// on axes [k, rank) is <= block_bytes, or all those extents are 1.
template <int N>
void expect_tile_fits(const Plan<N>& p, const Extents& element_size, const PlannerOptions& opt,
                      const Extents& tile) {
  auto streaming = [&](int i) {
    for (int k = 0; k < N; ++k) {
      const std::ptrdiff_t si = p.strides[k][i] < 0 ? -p.strides[k][i] : p.strides[k][i];
      if (si == 0) continue;
      for (int j = i; j < p.rank; ++j) {
        const std::ptrdiff_t sj = p.strides[k][j] < 0 ? -p.strides[k][j] : p.strides[k][j];
        if (sj != 0 && sj < si) return false;
      }
    }
    return true;
  };
  int first = 0;
  while (first < p.rank && streaming(first)) ++first;
  std::ptrdiff_t bytes[N][MAX_PLAN_RANK] = {};
  bool all_one = true;
  for (int i = first; i < p.rank; ++i) {
    all_one = all_one && tile[static_cast<std::size_t>(i)] == 1;
    for (int k = 0; k < N; ++k)
      bytes[k][i - first] =
          p.strides[k][i] * static_cast<std::ptrdiff_t>(element_size[static_cast<std::size_t>(k)]);
  }
  const std::size_t region =
      memory_region<N>(p.rank - first, tile.data() + first, bytes, opt.cache_line);
  EXPECT_TRUE(all_one || region <= opt.block_bytes)
      << "tile working set " << region << " B over axes [" << first << ", " << p.rank
      << ") exceeds " << opt.block_bytes << " B\n"
      << describe(p);
}

/// Walks the plan and compares it with the brute-force enumeration of the original layouts:
/// the multisets of per-operand offset tuples must be equal (every element visited once, with
/// the right partner offsets), and operand 0 (an injective output) hits each offset exactly
/// once.
template <int N>
void expect_visits_match(const Plan<N>& p, const Extents& extents, const StrideSet& strides,
                         std::vector<Extents>* tiles = nullptr) {
  std::vector<Tuple<N>> got = walk_plan(p, tiles);
  std::vector<Tuple<N>> want = enumerate_layouts<N>(extents, strides);
  ASSERT_EQ(got.size(), want.size());
  std::vector<std::ptrdiff_t> out;
  out.reserve(got.size());
  for (const auto& t : got) out.push_back(t[0]);
  std::sort(out.begin(), out.end());
  EXPECT_TRUE(std::adjacent_find(out.begin(), out.end()) == out.end())
      << "operand 0 offset visited twice";
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_TRUE(got == want) << "visited offsets differ from the layouts'\n" << describe(p);
}

// ---------------------------------------------------------------------------------------------
// stride_order (item 14)
// ---------------------------------------------------------------------------------------------

// The issue that asked for the fuzzer: an empty layout may carry extents whose product passes
// 64 bits, and is_dense multiplied them as signed integers (undefined behaviour; UBSan in CI).
TEST(IsDense, TakesAnyExtentsWithoutOverflow) {
  using strided::detail::is_dense;
  const std::size_t big = std::size_t(1) << 62;
  const std::size_t empty[] = {0, big, big, big};
  const std::ptrdiff_t empty_strides[] = {1, 1, std::ptrdiff_t(big), 1};
  EXPECT_FALSE(is_dense(4, empty, empty_strides));
  const std::size_t e[] = {3, 1, 4};
  const std::ptrdiff_t row[] = {4, 99, 1}, col[] = {1, -7, 3}, gap[] = {8, 0, 2},
                       neg[] = {-4, 0, 1};
  EXPECT_TRUE(is_dense(3, e, row));
  EXPECT_TRUE(is_dense(3, e, col));
  EXPECT_FALSE(is_dense(3, e, gap));
  EXPECT_FALSE(is_dense(3, e, neg));
}

TEST(StrideOrder, RanksByMagnitudeZeroFirst) {
  const std::ptrdiff_t strides[] = {4, 0, 2};
  int order[3];
  stride_order(3, strides, order);
  EXPECT_EQ(order[0], 2);
  EXPECT_EQ(order[1], 1);
  EXPECT_EQ(order[2], 1);
}

TEST(StrideOrder, ReferenceCases) {
  EXPECT_EQ(stride_order_of({4, 1, 2}), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(stride_order_of({4, 0, 2}), (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(stride_order_of({-4, 1, -2}), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(stride_order_of({2, 2, 1}), (std::vector<int>{2, 2, 1}));
  EXPECT_EQ(stride_order_of({3, 3, 3}), (std::vector<int>{1, 1, 1}));
}

TEST(StrideOrder, MoreEdgeCases) {
  EXPECT_EQ(stride_order_of({}), (std::vector<int>{}));
  EXPECT_EQ(stride_order_of({7}), (std::vector<int>{1}));
  EXPECT_EQ(stride_order_of({0, 0}), (std::vector<int>{1, 1}));
  // Zero strides do not count as "smaller": the smallest non-zero is 1 as well.
  EXPECT_EQ(stride_order_of({0, 5, 0, 3}), (std::vector<int>{1, 2, 1, 1}));
  // Ties share the rank; the next distinct magnitude skips past them.
  EXPECT_EQ(stride_order_of({-6, 6, 2, -2, 9}), (std::vector<int>{3, 3, 1, 1, 5}));
  const std::ptrdiff_t big = PTRDIFF_MAX;
  EXPECT_EQ(stride_order_of({big, 1, -big}), (std::vector<int>{2, 1, 2}));
}

// ---------------------------------------------------------------------------------------------
// order_axes (item 18 and high-rank cases)
// ---------------------------------------------------------------------------------------------

TEST(OrderAxes, ReferenceCases) {
  EXPECT_EQ(order_of<1>({{1, 4}}), (std::vector<int>{0, 1}));
  EXPECT_EQ(order_of<1>({{5, 1}}), (std::vector<int>{1, 0}));
  // Output [1,4] counted twice beats the input [5,1].
  EXPECT_EQ(order_of<2>({{1, 4}, {5, 1}}), (std::vector<int>{0, 1}));
  EXPECT_EQ(order_of<1>({{20, 5, 1}})[0], 2);
  EXPECT_EQ(order_of<1>({{20, 5, 1}}), (std::vector<int>{2, 1, 0}));
  // Item 18's dims [4,1,5], strides [1,4,4] -> "last = 1" relies on the prior art zeroing the
  // importance of extent-1 axes. order_axes never sees extents (make_plan drops extent-1 axes
  // first, see MakePlan.ExtentOneAxisIsDroppedBeforeOrdering); on the strides it is given, the
  // tie between axes 1 and 2 keeps their order.
  EXPECT_EQ(order_of<1>({{1, 4, 4}}), (std::vector<int>{0, 1, 2}));
  const std::vector<int> four = order_of<2>({{60, 20, 5, 1}, {1, 2, 6, 24}});
  EXPECT_EQ(four[0], 3);
  // Full order, matching the prior art's importance values [66, 24, 36, 129].
  EXPECT_EQ(four, (std::vector<int>{3, 0, 2, 1}));
  // The §3.2 example: 32^4, dest col-major, src reversed -> importance [129, 36, 24, 66].
  EXPECT_EQ(order_of<2>({{1, 32, 1024, 32768}, {32768, 1024, 32, 1}}),
            (std::vector<int>{0, 3, 1, 2}));
}

TEST(OrderAxes, OutputWeightBreaksTies) {
  // Operand 0 prefers axis 0, operands 1 and 2 prefer axis 1.
  const StrideSet s = {{1, 4}, {5, 1}, {5, 1}};
  EXPECT_EQ(order_of<3>(s, true), (std::vector<int>{0, 1}));   // 2 + 0 + 0 vs 0 + 1 + 1: tie
  EXPECT_EQ(order_of<3>(s, false), (std::vector<int>{1, 0}));  // 1 vs 2 first-rank votes
  EXPECT_EQ(order_of<2>({{1, 4}, {5, 1}}, false), (std::vector<int>{0, 1}));  // tie: stable
}

TEST(OrderAxes, StableForEqualKeys) {
  EXPECT_EQ(order_of<1>({{3, 3, 3}}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(order_of<2>({{0, 0, 0, 0}, {0, 0, 0, 0}}), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(order_of<1>({{-8, 2, -2, 8}}), (std::vector<int>{1, 2, 0, 3}));
}

// The prior art's importance, computed exactly in 128 bits (it overflows 64 bits at rank >= 22
// with three operands): importance[i] = w0 * 2^(g (N - order_0[i])) + sum_k 2^(g (N -
// order_k[i])), g = bit length of (operands + 1), sorted descending, stable. Our lexicographic
// key must order axes exactly like it.
__extension__ typedef unsigned __int128 Wide;

std::vector<int> prior_art_order(const StrideSet& strides, bool weight_first) {
  const std::size_t m = strides.size(), rank = strides[0].size();
  unsigned g = 0;
  for (std::size_t v = m + 1; v != 0; v >>= 1) ++g;
  std::vector<Wide> importance(rank, 0);
  for (std::size_t k = 0; k < m; ++k) {
    for (std::size_t i = 0; i < rank; ++i) {
      // Independent index_order: 1 + count of non-zero |s| strictly below |s_i|; 0 -> 1.
      const auto mag = [](std::ptrdiff_t v) { return v < 0 ? -v : v; };
      std::size_t order = 1;
      if (strides[k][i] != 0)
        for (std::size_t j = 0; j < rank; ++j)
          if (strides[k][j] != 0 && mag(strides[k][j]) < mag(strides[k][i])) ++order;
      const Wide w = (k == 0 && weight_first) ? 2 : 1;
      importance[i] += w << (g * (rank - order));
    }
  }
  std::vector<int> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
    return importance[static_cast<std::size_t>(a)] > importance[static_cast<std::size_t>(b)];
  });
  return perm;
}

bool is_permutation_of_iota(const std::vector<int>& perm) {
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int>(i)) return false;
  return true;
}

Strides row_major_strides(const Extents& extents) {
  Strides s(extents.size());
  std::ptrdiff_t stride = 1;
  for (std::size_t i = extents.size(); i-- > 0;) {
    s[i] = stride;
    stride *= static_cast<std::ptrdiff_t>(extents[i]);
  }
  return s;
}

Strides col_major_strides(const Extents& extents) {
  Strides s(extents.size());
  std::ptrdiff_t stride = 1;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    s[i] = stride;
    stride *= static_cast<std::ptrdiff_t>(extents[i]);
  }
  return s;
}

/// A row-major output and a source with every axis reversed (the full reversal permutation).
StrideSet reversal_of(const Extents& extents) {
  const Strides row = row_major_strides(extents);
  return {row, Strides(row.rbegin(), row.rend())};
}

Strides shuffled(Strides s, std::mt19937& rng) {
  std::shuffle(s.begin(), s.end(), rng);
  return s;
}

TEST(OrderAxes, Rank30ThreeOperandsBeyondPriorArtBitPacking) {
  // Three operands: the prior art's g = 3 shifts reach 3 * 29 = 87 bits and overflow.
  std::mt19937 rng(30);
  const Extents extents(30, 2);
  const Strides row = row_major_strides(extents);
  for (int rep = 0; rep < 20; ++rep) {
    // Output and one source row-major, one source a random permutation (add-like): the output's
    // unit-stride axis gets 3 of 4 first-rank votes and must be innermost.
    const StrideSet s = {row, shuffled(row, rng), row};
    const std::vector<int> perm = order_of<3>(s);
    ASSERT_EQ(perm.size(), 30u);
    EXPECT_TRUE(is_permutation_of_iota(perm));
    EXPECT_EQ(perm[0], 29) << "operand 0's unit-stride axis must be innermost";
    EXPECT_EQ(perm, prior_art_order(s, true));
    // Two permuted sources can outvote the output (2 + 0 + 0 vs 0 + 1 + 1 ties, then the next
    // rank decides), so here only the exact agreement with the wide prior-art sum is checked.
    const StrideSet t = {row, shuffled(row, rng), shuffled(row, rng)};
    const std::vector<int> tperm = order_of<3>(t);
    EXPECT_TRUE(is_permutation_of_iota(tperm));
    EXPECT_EQ(tperm, prior_art_order(t, true));
  }
}

TEST(OrderAxes, Rank40TwoOperandsBeyondPriorArtBitPacking) {
  // Two operands: g = 2, shifts reach 2 * 39 = 78 bits.
  std::mt19937 rng(40);
  const Extents extents(40, 2);
  const Strides row = row_major_strides(extents);
  for (int rep = 0; rep < 20; ++rep) {
    const StrideSet s = {row, shuffled(row, rng)};
    const std::vector<int> perm = order_of<2>(s);
    ASSERT_EQ(perm.size(), 40u);
    EXPECT_TRUE(is_permutation_of_iota(perm));
    EXPECT_EQ(perm[0], 39);
    EXPECT_EQ(perm, prior_art_order(s, true));
    EXPECT_EQ(order_of<2>(s, false), prior_art_order(s, false));
  }
  // Operand 0 shuffled, operand 1 row-major: the innermost axis is operand 0's unit axis.
  const StrideSet s = {shuffled(row, rng), row};
  const auto unit = static_cast<int>(std::find(s[0].begin(), s[0].end(), 1) - s[0].begin());
  EXPECT_EQ(order_of<2>(s)[0], unit);
}

TEST(OrderAxes, RandomSmallCasesMatchPriorArtImportance) {
  std::mt19937 rng(18);
  std::uniform_int_distribution<int> rank_dist(1, 12), stride_dist(-6, 6), ops(1, 3);
  for (int rep = 0; rep < 500; ++rep) {
    const auto rank = static_cast<std::size_t>(rank_dist(rng));
    const int m = ops(rng);
    StrideSet s(static_cast<std::size_t>(m), Strides(rank));
    for (auto& list : s)
      for (auto& v : list) v = stride_dist(rng);
    const bool weight = rep % 2 == 0;
    std::vector<int> perm;
    if (m == 1) perm = order_of<1>(s, weight);
    if (m == 2) perm = order_of<2>(s, weight);
    if (m == 3) perm = order_of<3>(s, weight);
    ASSERT_TRUE(is_permutation_of_iota(perm));
    EXPECT_EQ(perm, prior_art_order(s, weight)) << "rep " << rep;
  }
}

// ---------------------------------------------------------------------------------------------
// memory_region (item 20), last_argmax_weighted (item 22)
// ---------------------------------------------------------------------------------------------

TEST(MemoryRegion, ReferenceCases) {
  EXPECT_EQ(region_of<1>({100}, {{8}}), 832u);
  EXPECT_EQ(region_of<1>({10}, {{128}}), 640u);
  EXPECT_EQ(region_of<1>({10, 10}, {{8, 80}}), 1280u);
  EXPECT_EQ(region_of<2>({10, 10}, {{8, 80}, {80, 8}}), 2560u);
  EXPECT_EQ(region_of<1>({10, 5}, {{8, 40}}), 256u);
  EXPECT_EQ(region_of<1>({5, 4}, {{64, 320}}), 1280u);  // 64 is not below a line: 20 runs
}

TEST(MemoryRegion, SignsZerosAndLineSize) {
  EXPECT_EQ(region_of<1>({10}, {{-8}}), 128u);  // |stride| is what counts
  EXPECT_EQ(region_of<1>({10, 10}, {{-8, -80}}), 1280u);
  EXPECT_EQ(region_of<1>({1000}, {{0}}), 64u);                            // broadcast: one line
  EXPECT_EQ(region_of<2>({1, 1, 1}, {{8, 800, 8000}, {0, 0, 0}}), 128u);  // one line each
  EXPECT_EQ(region_of<1>({}, {{}}), 64u);
  // A 128-byte line: stride 64 is now "contiguous" span: (9 * 64 / 128 + 1) * 128.
  EXPECT_EQ(region_of<1>({10}, {{64}}, 128), 640u);
  EXPECT_EQ(region_of<1>({10}, {{128}}, 128), 1280u);
}

TEST(LastArgmaxWeighted, ReferenceCases) {
  auto pick = [](const Extents& blocks, const Extents& costs) {
    return last_argmax_weighted(static_cast<int>(blocks.size()), blocks.data(), costs.data());
  };
  EXPECT_EQ(pick({10, 20, 5}, {1, 1, 2}), 1);
  EXPECT_EQ(pick({10, 10}, {1, 1}), 1);  // tie -> last
  EXPECT_EQ(pick({1, 1, 1}, {1, 1, 1}), -1);
  EXPECT_EQ(pick({1, 5, 3}, {100, 1, 1}), 1);  // blocks of 1 are skipped whatever their cost
  EXPECT_EQ(pick({3, 10}, {10, 1}), 0);
  EXPECT_EQ(pick({}, {}), -1);
  EXPECT_EQ(pick({2, 3, 2}, {4, 2, 4}), 2);  // all weigh 4: the last wins
}

// ---------------------------------------------------------------------------------------------
// compute_blocks (item 21, section 3.4)
// ---------------------------------------------------------------------------------------------

TEST(ComputeBlocks, ReferenceCases) {
  // Fits: whole dims.
  EXPECT_EQ(blocks_of<1>({10, 10}, {{8, 80}}, {2, 2}), (Extents{10, 10}));
  // Every stride beyond the budget: all ones.
  EXPECT_EQ(blocks_of<1>({100, 100}, {{40000000, 40000}}, {2, 2}), (Extents{1, 1}));
  // Axis 0 is every operand's smallest stride: kept whole, rest blocked (here: fits).
  EXPECT_EQ(blocks_of<1>({100, 10, 10}, {{8, 800, 8000}}, {2, 200, 2000}), (Extents{100, 10, 10}));
}

TEST(ComputeBlocks, WorkedExamplesOfSection34) {
  // Transpose copy 1000x1000 f64: dest [1,1000], src [1000,1]; region 32,640 B.
  const Extents transpose = blocks_of<2>({1000, 1000}, {{8, 8000}, {8000, 8}}, {2, 2});
  EXPECT_EQ(transpose, (Extents{43, 42}));
  EXPECT_EQ(region_of<2>(transpose, {{8, 8000}, {8000, 8}}), 32640u);
  // Symmetrize 4000x4000: dest col-major, A col-major, A transposed.
  EXPECT_EQ(blocks_of<3>({4000, 4000}, {{8, 32000}, {8, 32000}, {32000, 8}}, {2, 2}),
            (Extents{40, 32}));
  // 32^4 reversal, already ordered [0,3,1,2].
  EXPECT_EQ(blocks_of<2>({32, 32, 32, 32}, {{8, 262144, 256, 8192}, {262144, 8, 8192, 256}},
                         {2, 2, 64, 64}),
            (Extents{32, 32, 2, 1}));
}

TEST(ComputeBlocks, OnlyWritesAxesFromFirst) {
  // Blocks before `first` stay untouched; the sub-problem [1, 3) is the fitting [10, 10].
  const Extents b = blocks_of<1>({100, 10, 10}, {{8, 800, 8000}}, {2, 200, 2000}, 1);
  EXPECT_EQ(b, (Extents{kSentinel, 10, 10}));
  // first == rank: nothing to do.
  EXPECT_EQ(blocks_of<1>({100, 10}, {{8, 80}}, {2, 2}, 2), (Extents{kSentinel, kSentinel}));
}

TEST(ComputeBlocks, StreamingAxisKeptWholeOthersShrunk) {
  // Axis 0 is unit stride for both operands and is kept whole; axes 1 and 2 are transposed
  // between the operands and must be shrunk until the rest fits.
  const StrideSet bytes = {{8, 800, 80000}, {8, 80000, 800}};
  const Extents b = blocks_of<2>({100, 100, 100}, bytes, {2, 200, 200});
  EXPECT_EQ(b, (Extents{100, 19, 13}));  // worked by hand: halve 2,1,2,1,2 then 1 down to 19
  EXPECT_LE(region_of<2>({b[1], b[2]}, {{800, 80000}, {80000, 800}}), 32768u);
}

TEST(ComputeBlocks, ShrinksToBudgetAndNoFurther) {
  const StrideSet bytes = {{8, 8000}, {8000, 8}};
  for (std::size_t budget : {1024u, 4096u, 32768u, 100000u}) {
    PlannerOptions opt;
    opt.block_bytes = budget;
    const Extents b = blocks_of<2>({1000, 1000}, bytes, {2, 2}, 0, opt);
    EXPECT_LE(region_of<2>(b, bytes), budget) << budget;
    // Not over-shrunk: undoing the last step (a halving, or a decrement, which doubling
    // covers) of some axis breaks the budget again.
    Extents twice0 = b, twice1 = b;
    twice0[0] *= 2;
    twice1[1] *= 2;
    EXPECT_TRUE(region_of<2>(twice0, bytes) > budget || region_of<2>(twice1, bytes) > budget)
        << budget;
  }
}

TEST(ComputeBlocks, FullyShrunkWhenNothingFits) {
  // A budget below one line per operand: the loop stops when every block is 1.
  PlannerOptions opt;
  opt.block_bytes = 64;
  EXPECT_EQ(blocks_of<2>({50, 60}, {{8, 400}, {480, 8}}, {2, 2}, 0, opt), (Extents{1, 1}));
}

/// The shrink loops of compute_blocks as Strided.jl writes them (halve, then one step at a time),
/// for problems that skip its early exits.
template <int N>
Extents stepwise_blocks(const Extents& dims, const StrideSet& bytes, const Extents& costs,
                        const PlannerOptions& opt) {
  Extents b = dims;
  const int n = static_cast<int>(dims.size());
  while (region_of<N>(b, bytes, opt.cache_line) >= 2 * opt.block_bytes) {
    const int i = last_argmax_weighted(n, b.data(), costs.data());
    if (i < 0) break;
    b[static_cast<std::size_t>(i)] = (b[static_cast<std::size_t>(i)] + 1) / 2;
  }
  while (region_of<N>(b, bytes, opt.cache_line) > opt.block_bytes) {
    const int i = last_argmax_weighted(n, b.data(), costs.data());
    if (i < 0) break;
    b[static_cast<std::size_t>(i)] -= 1;
  }
  return b;
}

// A broadcast axis (stride 0 for every operand) does not change the region, so one-by-one steps
// on it took up to its extent: plan() of a broadcast view of 2^40 rows did not return. Its block
// now jumps to where the steps stop, to the same blocks.
TEST(ComputeBlocks, BroadcastAxesShrinkLikeSteps) {
  const StrideSet bytes = {{8, 0, 8000}, {8000, 0, 8}};  // axis 1 broadcast, 0 and 2 transposed
  int jumped = 0;
  for (std::size_t budget : {1024u, 32768u}) {
    PlannerOptions opt;
    opt.block_bytes = budget;
    for (std::size_t e = 2; e < 3000; e += 37) {
      const Extents dims = {1000, e, 600};
      const Extents costs = {16, 1, 16};
      const Extents want = stepwise_blocks<2>(dims, bytes, costs, opt);
      ASSERT_EQ(blocks_of<2>(dims, bytes, costs, 0, opt), want) << "extent " << e;
      jumped += want[1] < e / 2 ? 1 : 0;
    }
  }
  EXPECT_GT(jumped, 10);  // the sweep reaches the broadcast axis in the step loop
  // A layout a random search found stuck in the steps (more than 10^8 of them): the other axes
  // shrink to 1 first, then the broadcast block stepped down from 2^40.
  const StrideSet stuck = {{4194304, 67108864, 0}, {1024, 128, 0}};
  const Extents costs = {256, 32, 1};
  for (const std::size_t e : {std::size_t(1) << 20, std::size_t(1) << 40}) {
    const Extents dims = {185, 2, e};
    const Extents b = blocks_of<2>(dims, stuck, costs);
    if (e < (std::size_t(1) << 21)) {
      EXPECT_EQ(b, stepwise_blocks<2>(dims, stuck, costs, PlannerOptions{}));
    }
    EXPECT_LE(b[2], e);
  }
}

// Every option value and any extents below 2^63 elements: the cost arithmetic saturates, the
// gather sizes stop at GATHER_MAX, a fusion whose extent x stride passes 64 bits joins nothing,
// a cache line of 0 counts as 1 byte. UBSan (the asan preset) checks the arithmetic; here the
// plans must be complete.
TEST(MakePlan, AnyExtentsAndOptionsWithoutOverflow) {
  constexpr std::size_t most = ~std::size_t(0);
  const std::ptrdiff_t far = std::ptrdiff_t(1) << 61;
  const std::vector<std::pair<Extents, StrideSet>> layouts = {
      {{3, std::size_t(1) << 30, std::size_t(1) << 31}, {{1, 0, 0}}},  // broadcast, gathered
      {{2, 2, std::size_t(1) << 40, 3}, {{far, -far, 0, 1}}},          // strides near 2^63
      {{4, std::size_t(1) << 58}, {{far * 2, 0}}},                     // fusion: 4 * 2^62
      {{2, 3}, {{far * 2, 1}}},                                        // bytes past 2^63
  };
  for (const auto& [extents, strides] : layouts)
    for (const std::size_t line : {std::size_t(0), std::size_t(64), most})
      for (const std::size_t budget : {std::size_t(0), std::size_t(32768), most}) {
        PlannerOptions opt;
        opt.cache_line = line;
        opt.block_bytes = budget;
        opt.max_tile_elements = budget == 0 ? 0 : most;
        const Plan<1> p = plan_of<1>(extents, strides, 16, opt);
        std::size_t count = 1, tiles = 1;
        for (std::size_t e : extents) count *= e;
        EXPECT_EQ(p.count, count);
        for (int i = 0; i < p.rank; ++i) {
          EXPECT_GE(p.blocks[i], 1u);
          EXPECT_LE(p.blocks[i], p.dims[i]);
          tiles *= p.tiles[i];
        }
        EXPECT_EQ(p.tile_count, tiles);
      }
}

// ---------------------------------------------------------------------------------------------
// make_plan: worked examples with default options
// ---------------------------------------------------------------------------------------------

/// Strided.jl's L1 blocks for every strategy (transposes otherwise get square L2 tiles, and
/// short ones gathered blocks).
PlannerOptions l1_blocks_only() {
  PlannerOptions opt;
  opt.transpose_row_bytes = 0;
  opt.gather = false;
  return opt;
}

/// The defaults with the L2 of the machine the figures were measured on (1 MiB), so that tile
/// shapes do not depend on the machine running the tests.
PlannerOptions with_l2(std::size_t bytes = std::size_t(1) << 20) {
  PlannerOptions opt;
  opt.l2_bytes = bytes;
  return opt;
}

TEST(MakePlan, TransposesGetTilesOfTransposeRowBytes) {
  const auto p = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, with_l2());
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  // Source rows of about 512 bytes of f64, about 256 of them (their destination rows are 2 KiB
  // or more), cut evenly: 1000 = 336 + 336 + 328 rows and 13 x 72 + 64 columns.
  EXPECT_EQ(blocks_of_plan(p), (Extents{336, 72}));
  EXPECT_EQ(p.tile_count, 3u * 14u);
  expect_visits_match<2>(p, {1000, 1000}, {{1, 1000}, {1000, 1}}, nullptr);
  // Rows of 512 bytes are 128 floats (cut evenly in lines of 16 floats: 7 x 144 columns).
  const auto f = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 4, with_l2());
  EXPECT_EQ(blocks_of_plan(f), (Extents{336, 144}));
  // An axis just longer than a block is one piece, not a block and a thin rest (72 = 64 + 8).
  EXPECT_EQ(blocks_of_plan(plan_of<2>({72, 72}, {{1, 72}, {72, 1}}, 8, with_l2())),
            (Extents{72, 72}));
  // Axes beyond the two streaming ones are one element deep.
  const auto r = plan_of<2>({64, 4, 4, 64}, {{1, 64, 256, 1024}, {1024, 256, 64, 1}}, 8, with_l2());
  EXPECT_EQ(r.strategy, Strategy::Transpose);
  EXPECT_EQ(blocks_of_plan(r), (Extents{64, 64, 1, 1}));
}

TEST(MakePlan, TransposesWithASourceAlongTheDestinationReadRowsFourTimesAsLong) {
  // C = A + B^T: A streams with C, B reads across; B's tile rows are 2 KiB.
  const std::vector<std::vector<std::ptrdiff_t>> apbt = {{1, 1000}, {1, 1000}, {1000, 1}};
  const auto p = plan_of<3>({1000, 1000}, apbt, 8, with_l2());
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  EXPECT_EQ(blocks_of_plan(p), (Extents{128, 256}));
  expect_visits_match<3>(p, {1000, 1000}, apbt, nullptr);
  // The tile is 256 KiB whatever the element size (the backends' stage): 128 x 512 floats.
  EXPECT_EQ(blocks_of_plan(plan_of<3>({1000, 1000}, apbt, 4, with_l2())), (Extents{128, 512}));
  // Half as many rows where half the L2 holds fewer (512 KiB L2: 64 rows).
  const auto s = plan_of<3>({1000, 1000}, apbt, 8, with_l2(std::size_t(512) << 10));
  EXPECT_EQ(blocks_of_plan(s), (Extents{64, 256}));
  // Never more than the stage holds, however large the L2 (2 MiB, as on Intel Xeons, would give
  // 256 rows: a tile the backends could not stage, walked 1.8x slower block by block).
  for (const std::size_t mib : {2, 32}) {
    EXPECT_EQ(blocks_of_plan(plan_of<3>({1000, 1000}, apbt, 8, with_l2(mib << 20))),
              (Extents{128, 256}));
    EXPECT_EQ(blocks_of_plan(plan_of<3>({1000, 1000}, apbt, 4, with_l2(mib << 20))),
              (Extents{128, 512}));
    const auto z = plan_of<3>({1000, 1000}, apbt, 16, with_l2(mib << 20));
    EXPECT_LE(z.blocks[0] * z.blocks[1] * 16, strided::detail::MAP_STAGE_BYTES);
    // Bytes into complex<double>: rows of 2048 destination elements, 32 KiB of each source.
    const auto w = plan_of<3>({4096, 4096}, {{1, 4096}, {1, 4096}, {4096, 1}}, {1, 16, 16},
                              with_l2(mib << 20));
    EXPECT_EQ(w.strategy, Strategy::Transpose);
    EXPECT_LE(w.blocks[0] * w.blocks[1] * 16, strided::detail::MAP_STAGE_BYTES);
  }
  // A plain transpose's rows stay about 512 bytes.
  EXPECT_EQ(blocks_of_plan(plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, with_l2())),
            (Extents{336, 72}));
}

TEST(MakePlan, ColumnSweepsFollowTheL2) {
  using strided::detail::axis_sweep_outputs;
  using strided::detail::axis_sweep_tile;
  constexpr std::size_t KiB = 1024;
  // 16 lanes per output in at most half the L2 and the 512 KiB stage, 256 outputs at least.
  EXPECT_EQ(axis_sweep_outputs(1024 * KiB, 8), 4096u);
  EXPECT_EQ(axis_sweep_outputs(2048 * KiB, 8), 4096u);  // the stage caps it
  EXPECT_EQ(axis_sweep_outputs(256 * KiB, 8), 1024u);
  EXPECT_EQ(axis_sweep_outputs(32 * KiB, 8), 256u);
  EXPECT_EQ(axis_sweep_outputs(1024 * KiB, 4), 8192u);
  EXPECT_EQ(axis_sweep_outputs(1024 * KiB, 16), 2048u);
  EXPECT_EQ(axis_sweep_outputs(0, 8), 256u);
  // Accumulators too large for 256 outputs: what the stage holds, never fewer than 16.
  EXPECT_EQ(axis_sweep_outputs(1024 * KiB, 1024), 32u);
  EXPECT_EQ(axis_sweep_outputs(1024 * KiB, 65536), 16u);
  // Tiles: one sweep, or an even share per thread, rounded up to 16; 256 on a device.
  EXPECT_EQ(axis_sweep_tile(4096, 1, 1024 * KiB), 4096u);
  EXPECT_EQ(axis_sweep_tile(4096, 2, 1024 * KiB), 2048u);
  EXPECT_EQ(axis_sweep_tile(100000, 2, 1024 * KiB), 4096u);
  EXPECT_EQ(axis_sweep_tile(4096, 3, 1024 * KiB), 1376u);
  EXPECT_EQ(axis_sweep_tile(4096, 64, 1024 * KiB), 256u);
  EXPECT_EQ(axis_sweep_tile(4096, 0, 1024 * KiB), 256u);
}

TEST(MakePlan, GpuScalePlansLeaveTwoTo17LaneChains) {
  using strided::detail::tile_grain;
  const PlannerOptions opt;
  // Below 2^22 elements the grain is max_tile_elements: the fold order of earlier releases.
  EXPECT_EQ(tile_grain(1, opt), opt.max_tile_elements);
  EXPECT_EQ(tile_grain((std::size_t(1) << 22) - 1, opt), opt.max_tile_elements);
  EXPECT_EQ(tile_grain(std::size_t(1) << 22, opt), 512u);
  EXPECT_EQ(tile_grain(std::size_t(1) << 23, opt), 1024u);
  EXPECT_EQ(tile_grain(std::size_t(1) << 24, opt), 2048u);
  EXPECT_EQ(tile_grain(3 * (std::size_t(1) << 22), opt), 1536u);
  EXPECT_EQ(tile_grain((std::size_t(1) << 25) - 1, opt), 4095u);
  EXPECT_EQ(tile_grain(std::size_t(1) << 25, opt), 4096u);
  EXPECT_EQ(tile_grain(std::size_t(1) << 40, opt), 4096u);
  PlannerOptions small = opt;
  small.max_tile_elements = 1000;  // never above the user's cap
  EXPECT_EQ(tile_grain(std::size_t(1) << 25, small), 1000u);
  // Flat and blocked plans from 2^22 to 2^27 elements: at least 2^13 tiles (2^17 chains of 16
  // lanes), each chain at most 256 elements.
  for (std::size_t count = std::size_t(1) << 22; count <= std::size_t(1) << 27;
       count = count * 3 / 2) {
    const std::size_t flat_extents[] = {count};
    const std::ptrdiff_t unit[] = {1}, stride2[] = {2};
    const std::size_t sizes[] = {8};
    for (const std::ptrdiff_t* s : {unit, stride2}) {
      const std::ptrdiff_t* strides[] = {s};
      const auto p = make_plan<1>(1, flat_extents, strides, sizes, opt);
      std::size_t tile = 1;
      for (int i = 0; i < p.rank; ++i) tile *= p.blocks[i];
      EXPECT_GE(p.tile_count * 16, std::size_t(1) << 17) << count;
      EXPECT_LE(tile, 16u * 256u) << count;
    }
    // A matrix with padded rows is not dense: 2-d blocked tiles.
    std::size_t side = 1;
    while (side * side < count) side *= 2;
    const std::size_t square[] = {side, side};
    const std::ptrdiff_t padded[] = {1, static_cast<std::ptrdiff_t>(side + 8)};
    const std::ptrdiff_t* strides[] = {padded};
    const auto q = make_plan<1>(2, square, strides, sizes, opt);
    EXPECT_EQ(q.rank, 2);
    EXPECT_GE(q.tile_count * 16, std::size_t(1) << 17) << side;
  }
}

TEST(MakePlan, TransposedTileRowsFollowTheL2) {
  using strided::detail::transpose_tile_rows;
  // Source and destination rows of a tile take at most half the L2, 16 to 256 rows.
  EXPECT_EQ(transpose_tile_rows(std::size_t(1) << 20, 512), 256u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(4) << 20, 512), 256u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(1) << 20, 1024), 256u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(512) << 10, 1024), 128u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(256) << 10, 1024), 64u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(64) << 10, 1024), 16u);
  EXPECT_EQ(transpose_tile_rows(0, 1024), 16u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(256) << 10, 4096), 16u);
  // Any row size: a product past 64 bits must not wrap into a fitting one.
  EXPECT_EQ(transpose_tile_rows(std::size_t(1) << 40, ~std::size_t(0) / 2 + 1), 16u);
  EXPECT_EQ(transpose_tile_rows(std::size_t(1) << 20, 0), 16u);
  const auto small = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, with_l2(256 << 10));
  EXPECT_EQ(blocks_of_plan(small), (Extents{144, 72}));
  expect_visits_match<2>(small, {1000, 1000}, {{1, 1000}, {1000, 1}}, nullptr);
  // Only maps are transposed: a reduction's plan (weight_first_operand off) ignores the L2.
  PlannerOptions reduce_small = with_l2(64 << 10), reduce_large = with_l2(8 << 20);
  reduce_small.weight_first_operand = reduce_large.weight_first_operand = false;
  const auto a = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, reduce_small);
  const auto b = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, reduce_large);
  EXPECT_EQ(blocks_of_plan(a), blocks_of_plan(b));
}

TEST(MakePlan, StreamedTransposesRunInColumnBandTiles) {
  using strided::detail::TRANSPOSE_BAND_ROWS;
  PlannerOptions streamed = with_l2();
  streamed.stream_bytes = 0;
  // 2-d, the source reading along plan axis 1 with unit stride onto destination rows of whole
  // lines: tiles of about TRANSPOSE_BAND_ROWS source rows (cut evenly in lines: 1000 = 25 x 40)
  // by source rows of transpose_row_bytes (13 x 72 + 64), walked in the plan's order, so that
  // the next tile continues the destination rows of this one.
  const auto p = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, streamed);
  ASSERT_TRUE(p.stream_stores);
  ASSERT_EQ(p.strategy, Strategy::Transpose);
  EXPECT_EQ(blocks_of_plan(p), (Extents{40, 72}));
  EXPECT_FALSE(p.custom_walk);
  expect_visits_match<2>(p, {1000, 1000}, {{1, 1000}, {1000, 1}}, nullptr);
  // The same bands whatever the L2 (the band's rows are the TLB's, not the cache's).
  EXPECT_EQ(blocks_of_plan(plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8,
                                      [] {
                                        PlannerOptions o = with_l2(256 << 10);
                                        o.stream_bytes = 0;
                                        return o;
                                      }())),
            (Extents{40, 72}));
  // floats: rows of whole 16-float lines, 512-byte source rows of 128 floats.
  const auto f = plan_of<2>({1024, 1024}, {{1, 1024}, {1024, 1}}, 4, streamed);
  EXPECT_EQ(blocks_of_plan(f), (Extents{TRANSPOSE_BAND_ROWS, 128}));
  // Rank 4 (a reversal of 64 x 4 x 4 x 64): one element deep beyond the two streaming axes.
  const Extents e = {64, 4, 4, 64};
  const StrideSet s = {{1, 64, 256, 1024}, {1024, 256, 64, 1}};
  const auto r = plan_of<2>(e, s, 8, streamed);
  ASSERT_EQ(r.strategy, Strategy::Transpose);
  EXPECT_EQ(blocks_of_plan(r), (Extents{TRANSPOSE_BAND_ROWS, 64, 1, 1}));
  EXPECT_FALSE(r.custom_walk);
  expect_visits_match<2>(r, e, s, nullptr);
  // Two sources reading across (A^T + B^T) band the same way.
  const auto two = plan_of<3>({1000, 1000}, {{1, 1000}, {1000, 1}, {1000, 1}}, 8, streamed);
  EXPECT_EQ(blocks_of_plan(two), (Extents{40, 72}));
  EXPECT_FALSE(two.custom_walk);
}

TEST(MakePlan, ColumnBandsPaceTheFetchesOfPackedSourceRows) {
  PlannerOptions streamed = with_l2();
  streamed.stream_bytes = 0;
  // 40 source rows 512 bytes apart (a 1000 x 64 source): 20 KB, within the 32 KiB of
  // block_bytes, not within 16 KiB.
  const Extents e = {1000, 64};
  const StrideSet s = {{1, 1000}, {64, 1}};
  const auto packed = plan_of<2>(e, s, 8, streamed);
  ASSERT_TRUE(packed.column_bands);
  EXPECT_EQ(blocks_of_plan(packed), (Extents{40, 64}));
  EXPECT_TRUE(packed.paced_fetch);
  PlannerOptions small = streamed;
  small.block_bytes = 16 << 10;
  const auto apart = plan_of<2>(e, s, 8, small);
  ASSERT_TRUE(apart.column_bands);
  EXPECT_FALSE(apart.paced_fetch);
  EXPECT_EQ(blocks_of_plan(apart), blocks_of_plan(packed));  // only the fetch differs
  // A 1000^2 transpose: rows 8000 bytes apart, fetched before the tile whatever the L2.
  const auto square = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, streamed);
  ASSERT_TRUE(square.column_bands);
  EXPECT_FALSE(square.paced_fetch);
  EXPECT_FALSE(plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, with_l2(64 << 20)).paced_fetch);
  // 64^4: the swap of axis pairs (1 0 3 2, W1.perm1032) reads 32 rows 512 bytes apart, paced;
  // the reversal (W1.perm3210) 32 rows 2 MiB apart, not.
  const Extents q = {64, 64, 64, 64};
  const auto swap = plan_of<2>(q, {{1, 64, 4096, 262144}, {64, 1, 262144, 4096}}, 8, streamed);
  ASSERT_TRUE(swap.column_bands);
  EXPECT_TRUE(swap.paced_fetch);
  const auto reversal = plan_of<2>(q, {{1, 262144, 64, 4096}, {262144, 1, 4096, 64}}, 8, streamed);
  ASSERT_TRUE(reversal.column_bands);
  EXPECT_FALSE(reversal.paced_fetch);
  // Two sources: paced only when both are packed (the second's rows 1 KiB apart: 40 KB).
  EXPECT_TRUE(plan_of<3>(e, {{1, 1000}, {64, 1}, {64, 1}}, 8, streamed).paced_fetch);
  const auto mixed = plan_of<3>(e, {{1, 1000}, {64, 1}, {128, 1}}, 8, streamed);
  ASSERT_TRUE(mixed.column_bands);
  EXPECT_FALSE(mixed.paced_fetch);
  // Plans not in column bands never pace.
  EXPECT_FALSE(plan_of<2>(e, {{1, 1000}, {1, 1000}}, 8, streamed).paced_fetch);
}

TEST(MakePlan, OtherStreamedTransposesWalkTilesAlongTheSource) {
  PlannerOptions streamed = with_l2();
  streamed.stream_bytes = 0;
  // A reversed source (stride -1 on its unit axis) reads its rows backwards, which column bands
  // do not: its tiles walk by the source's stride, the source's unit axis (plan axis 1) first.
  const auto reversed = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, -1}}, 8, streamed);
  ASSERT_TRUE(reversed.stream_stores);
  ASSERT_EQ(reversed.strategy, Strategy::Transpose);
  ASSERT_TRUE(reversed.custom_walk);
  EXPECT_EQ(std::vector<short>(reversed.walk, reversed.walk + 2), (std::vector<short>{1, 0}));
  expect_visits_match<2>(reversed, {1000, 1000}, {{1, 1000}, {1000, -1}}, nullptr);
  // Rank 4 reversed on its unit axis too: the outer axes by the source's stride as well.
  const Extents e = {64, 4, 4, 64};
  const StrideSet s = {{1, 64, 256, 1024}, {-1024, -256, -64, -1}};
  const auto r = plan_of<2>(e, s, 8, streamed);
  ASSERT_EQ(r.strategy, Strategy::Transpose);
  ASSERT_TRUE(r.custom_walk);
  for (int w = 1; w < r.rank; ++w)
    EXPECT_LT(std::abs(r.strides[1][r.walk[w - 1]]), std::abs(r.strides[1][r.walk[w]]));
  expect_visits_match<2>(r, e, s, nullptr);
  // Destination rows that are not whole lines (999 doubles apart) keep the planner's tiles.
  const auto ragged = plan_of<2>({999, 1000}, {{1, 999}, {1000, 1}}, 8, streamed);
  ASSERT_EQ(ragged.strategy, Strategy::Transpose);
  EXPECT_GT(ragged.blocks[0], strided::detail::TRANSPOSE_BAND_ROWS);
  // Unstreamed outputs, and A + B^T (a source that streams with the destination), keep the
  // plan's order.
  EXPECT_FALSE(plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, with_l2()).custom_walk);
  const auto mixed = plan_of<3>({1000, 1000}, {{1, 1000}, {1, 1000}, {1000, 1}}, 8, streamed);
  EXPECT_EQ(mixed.strategy, Strategy::Transpose);
  EXPECT_FALSE(mixed.custom_walk);
}

TEST(MakePlan, StreamedTransposesWhoseTileRowsEndMidLineKeepTheDestinationsWalk) {
  PlannerOptions streamed = with_l2();
  streamed.stream_bytes = 0;
  // 17^4 reversed: 17 is prime, so no group gathers part of an axis and the tiles are 17 x 17,
  // destination rows of 136 bytes. The next tile in the destination's order completes the lines
  // this one left partly written.
  const Extents e = {17, 17, 17, 17};
  const StrideSet s = {{1, 17, 289, 4913}, {4913, 289, 17, 1}};
  const auto p = plan_of<2>(e, s, 8, streamed);
  ASSERT_TRUE(p.stream_stores);
  ASSERT_EQ(p.strategy, Strategy::Transpose);
  ASSERT_FALSE(p.gathered);
  EXPECT_EQ(p.blocks[0], 17u);
  EXPECT_FALSE(p.custom_walk);
  expect_visits_match<2>(p, e, s, nullptr);
  // Rows of 16 doubles (two whole lines) run in column bands, in the plan's order.
  const Extents whole = {16, 17, 17, 16};
  const StrideSet ws = {{1, 16, 272, 4624}, {4624, 272, 16, 1}};
  const auto q = plan_of<2>(whole, ws, 8, streamed);
  ASSERT_EQ(q.strategy, Strategy::Transpose);
  ASSERT_FALSE(q.gathered);
  EXPECT_EQ(q.blocks[0], 16u);
  EXPECT_FALSE(q.custom_walk);
  expect_visits_match<2>(q, whole, ws, nullptr);
}

TEST(MakePlan, EvenBlocksLeaveNoThinLastPiece) {
  using strided::detail::even_block;
  EXPECT_EQ(even_block(72, 64, 8), 72u);     // one piece
  EXPECT_EQ(even_block(8192, 64, 8), 64u);   // exact
  EXPECT_EQ(even_block(1000, 64, 8), 72u);   // 15 pieces of 67, in lines of 8: 13 x 72 + 64
  EXPECT_EQ(even_block(300, 256, 8), 300u);  // never past the axis
  EXPECT_EQ(even_block(130, 64, 8), 72u);    // 72 + 58, not 64 + 64 + 2
  EXPECT_EQ(even_block(577, 64, 8), 64u);    // 8 x 72 + 1 would be thinner: plain blocks
  EXPECT_EQ(even_block(50, 64, 8), 50u);     // shorter than a block: the axis
  EXPECT_EQ(even_block(7, 0, 8), 1u);        // no block: one element
  for (const std::size_t multiple : {8u, 16u})
    for (const std::size_t block : {16u, 64u, 256u})
      for (std::size_t n = 1; n < 5000; n += 3) {
        const std::size_t b = even_block(n, block, multiple);
        ASSERT_GE(b, 1u);
        ASSERT_LE(b, n);
        EXPECT_LT(b, 2 * block + multiple) << n;
        const auto thin = [n](std::size_t size) {  // elements in a last piece under half a block
          const std::size_t last = n % size;
          return last != 0 && 2 * last < size ? last : 0;
        };
        if (n > block && n < 2 * block) {
          EXPECT_EQ(thin(b), 0u) << n << " " << block;
        }
        EXPECT_LE(thin(b), thin(block)) << n << " " << block;
      }
}

TEST(MakePlan, StreamedCopiesOfRunsTileLongSourceRows) {
  PlannerOptions streamed = with_l2(), cached = with_l2();
  streamed.stream_bytes = 0;
  cached.stream_bytes = ~std::size_t(0);
  // W1.perm0213 in small: runs of 32 f64 (256 bytes) on both sides, the next two axes swapped.
  // The plan keeps the destination's order. A tile takes whole runs, 8 of the destination's
  // next axis (destination runs of 2 KiB), then the source's next axes by its strides, whole
  // while the tile stays within half the L2 and the plan keeps 1024 tiles (but tiles of 4096
  // elements at least): 8 source rows of 512 elements.
  const Extents e = {8, 16, 16, 32};
  const StrideSet s = {{8192, 512, 32, 1}, {8192, 32, 512, 1}};
  const auto p = plan_of<2>(e, s, 8, streamed);
  const Extents long_rows = {32, 8, 16, 1};
  EXPECT_EQ(p.strategy, Strategy::Tiled);
  EXPECT_FALSE(p.custom_walk);
  EXPECT_EQ(plan_strides(p, 0), (Strides{1, 32, 512, 8192}));
  EXPECT_EQ(plan_strides(p, 1), (Strides{1, 512, 32, 8192}));
  EXPECT_EQ(blocks_of_plan(p), long_rows);
  EXPECT_EQ(p.tile_count, 16u);
  expect_visits_match<2>(p, e, s, nullptr);
  // Runs of 32 f32 (128 bytes): 16 of the destination's next axis make runs of 2 KiB.
  EXPECT_EQ(blocks_of_plan(plan_of<2>(e, s, 4, streamed)), (Extents{32, 16, 8, 1}));
  // W1.perm0213 itself (64^4, 2^24 elements): tiles of 2^24 / 1024 elements, 4 source rows of
  // 4096; with a 64 KiB L2, tiles of 4096 elements.
  const Extents w1 = {64, 64, 64, 64};
  const StrideSet w1s = {{262144, 4096, 64, 1}, {262144, 64, 4096, 1}};
  const auto full = plan_of<2>(w1, w1s, 8, streamed);
  EXPECT_EQ(blocks_of_plan(full), (Extents{64, 4, 64, 1}));
  EXPECT_EQ(full.tile_count, 1024u);
  PlannerOptions small_l2 = with_l2(std::size_t(64) << 10);
  small_l2.stream_bytes = 0;
  EXPECT_EQ(blocks_of_plan(plan_of<2>(w1, w1s, 8, small_l2)), (Extents{64, 4, 16, 1}));
  // Unstreamed outputs keep the planner's L1 tiles (their lines stay in cache anyway), and so do
  // a reversed source run (stride -1) and zip maps of several sources.
  EXPECT_NE(blocks_of_plan(plan_of<2>(e, s, 8, cached)), long_rows);
  const StrideSet reversed = {{8192, 512, 32, 1}, {8192, 32, 512, -1}};
  EXPECT_NE(blocks_of_plan(plan_of<2>(e, reversed, 8, streamed)), long_rows);
  const StrideSet zip = {{8192, 512, 32, 1}, {8192, 32, 512, 1}, {8192, 512, 32, 1}};
  EXPECT_NE(blocks_of_plan(plan_of<3>(e, zip, 8, streamed)), long_rows);
  // A run longer than 2 KiB takes one of the destination's next axis; under a small tile cap the
  // source's next axis is cut, never the run.
  PlannerOptions capped = streamed;
  capped.max_tile_elements = 4096;
  const Extents wide = {64, 4, 1024};
  const StrideSet ws = {{4096, 1024, 1}, {1024, 65536, 1}};
  const auto w = plan_of<2>(wide, ws, 8, capped);
  EXPECT_EQ(plan_strides(w, 1), (Strides{1, 65536, 1024}));
  EXPECT_EQ(blocks_of_plan(w), (Extents{1024, 1, 4}));
  expect_visits_match<2>(w, wide, ws, nullptr);
}

TEST(Machine, CacheSizesParseAsSysfsWritesThem) {
  using strided::detail::parse_cache_size;
  EXPECT_EQ(parse_cache_size("32K"), 32768u);
  EXPECT_EQ(parse_cache_size("1024K"), std::size_t(1) << 20);
  EXPECT_EQ(parse_cache_size("32768K"), std::size_t(32) << 20);
  EXPECT_EQ(parse_cache_size("2M"), std::size_t(2) << 20);
  EXPECT_EQ(parse_cache_size("64"), 64u);
  EXPECT_EQ(parse_cache_size(""), 0u);
  const auto& m = strided::detail::machine();
  EXPECT_GT(m.l1d_bytes, 0u);
  EXPECT_GE(m.l2_bytes, m.l1d_bytes);
  EXPECT_NE(m.cpu[0], '\0');
}

TEST(MakePlan, TransposeCopy1000) {
  const auto p = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, l1_blocks_only());
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(dims_of(p), (Extents{1000, 1000}));
  EXPECT_EQ(blocks_of_plan(p), (Extents{43, 42}));
  EXPECT_EQ(p.tiles[0], 24u);
  EXPECT_EQ(p.tiles[1], 24u);
  EXPECT_EQ(p.tile_count, 576u);
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  EXPECT_EQ(p.transpose_axis, 1);
  expect_plan_invariants(p, {1000, 1000});
  std::vector<Extents> tiles;
  expect_visits_match<2>(p, {1000, 1000}, {{1, 1000}, {1000, 1}}, &tiles);
  ASSERT_EQ(tiles.size(), 576u);
  for (const Extents& t : tiles) expect_tile_fits(p, {8, 8}, PlannerOptions{}, t);
}

TEST(MakePlan, Symmetrize4000) {
  const auto p = plan_of<3>({4000, 4000}, {{1, 4000}, {1, 4000}, {4000, 1}}, 8, l1_blocks_only());
  EXPECT_EQ(dims_of(p), (Extents{4000, 4000}));
  EXPECT_EQ(blocks_of_plan(p), (Extents{40, 32}));
  EXPECT_EQ(p.tile_count, 100u * 125u);
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  expect_plan_invariants(p, {4000, 4000});
  expect_tile_fits(p, {8, 8, 8}, PlannerOptions{}, blocks_of_plan(p));
}

TEST(MakePlan, Reversal32To4) {
  const Extents e = {32, 32, 32, 32};
  const StrideSet s = {{1, 32, 1024, 32768}, {32768, 1024, 32, 1}};
  const auto p = plan_of<2>(e, s, 8, l1_blocks_only());
  EXPECT_EQ(p.rank, 4);
  EXPECT_EQ(dims_of(p), e);
  EXPECT_EQ(std::vector<short>(p.first_axis, p.first_axis + 4), (std::vector<short>{0, 3, 1, 2}));
  EXPECT_EQ(plan_strides(p, 0), (Strides{1, 32768, 32, 1024}));
  EXPECT_EQ(plan_strides(p, 1), (Strides{32768, 1, 1024, 32}));
  EXPECT_EQ(blocks_of_plan(p), (Extents{32, 32, 2, 1}));
  EXPECT_EQ(p.tile_count, 16u * 32u);
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  expect_plan_invariants(p, e);
  std::vector<Extents> tiles;
  expect_visits_match<2>(p, e, s, &tiles);
  for (const Extents& t : tiles) expect_tile_fits(p, {8, 8}, PlannerOptions{}, t);
}

TEST(MakePlan, ContiguousIsCappedByMaxTileElements) {
  // One streaming axis fits no L1 budget, so only the parallel-grain cap limits the tile: the
  // dense fast path and the general path both halve 1e6 down to 62500.
  const auto p = plan_of<1>({1000000}, {{1}});
  EXPECT_EQ(p.strategy, Strategy::Flat);
  ASSERT_EQ(p.rank, 1);
  EXPECT_EQ(p.blocks[0], 62500u);
  EXPECT_EQ(p.tile_count, (1000000 + p.blocks[0] - 1) / p.blocks[0]);
  // Same for a row-major 1000x1000 pair: fused to one axis first.
  const auto q = plan_of<2>({1000, 1000}, {{1000, 1}, {1000, 1}});
  EXPECT_EQ(q.rank, 1);
  EXPECT_EQ(dims_of(q), (Extents{1000000}));
  EXPECT_EQ(q.blocks[0], p.blocks[0]);
  PlannerOptions opt;
  opt.max_tile_elements = 1000;
  const auto r = plan_of<1>({1000000}, {{1}}, 8, opt);
  ASSERT_EQ(r.rank, 1);
  EXPECT_LE(r.blocks[0], 1000u);
  EXPECT_GT(r.blocks[0], 500u);
  // A gapped (not dense) 1-d operand takes the general path: halved exactly, 1e6 -> 62500.
  const auto g = plan_of<1>({1000000}, {{2}});
  EXPECT_EQ(g.strategy, Strategy::Tiled);
  EXPECT_EQ(blocks_of_plan(g), (Extents{62500}));
  EXPECT_EQ(g.tile_count, 16u);
  opt.max_tile_elements = 1000;
  EXPECT_EQ(blocks_of_plan(plan_of<1>({1000000}, {{2}}, 8, opt)), (Extents{977}));
}

TEST(MakePlan, DenseFastPathFusesLikeTheGeneralPath) {
  // Operands sharing one dense row- or column-major layout may skip the planner; the result must
  // be the general path's fusion. The general path is forced with a block override equal to the
  // fast path's blocks (an override disables the fast path), then every field is compared.
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> rank_dist(1, 9), coin(0, 1);
  for (int rep = 0; rep < 200; ++rep) {
    const auto rank = static_cast<std::size_t>(rank_dist(rng));
    Extents e;
    do {
      e = random_extents_for_fast_path(rng, rank);
    } while (product(e) < 2);
    Strides s = coin(rng) ? row_major_strides(e) : col_major_strides(e);
    // Strides of extent-1 axes are arbitrary and may differ between operands.
    Strides t = s;
    for (std::size_t i = 0; i < rank; ++i)
      if (e[i] == 1) t[i] = static_cast<std::ptrdiff_t>(rng() % 50) - 25;
    const StrideSet set = {s, t, s};
    const auto fast = plan_of<3>(e, set);
    PlannerOptions opt;
    std::size_t over[MAX_PLAN_RANK] = {};
    std::copy(fast.blocks, fast.blocks + fast.rank, over);
    opt.block_override = over;
    const auto general = plan_of<3>(e, set, 8, opt);
    SCOPED_TRACE(testing::Message() << "rep " << rep << "\n" << describe(fast));
    ASSERT_EQ(fast.rank, general.rank);
    EXPECT_EQ(dims_of(fast), dims_of(general));
    EXPECT_EQ(blocks_of_plan(fast), blocks_of_plan(general));
    EXPECT_EQ(fast.tile_count, general.tile_count);
    EXPECT_EQ(fast.strategy, general.strategy);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(plan_strides(fast, k), plan_strides(general, k));
    for (int i = 0; i < fast.rank; ++i) {
      EXPECT_EQ(fast.first_axis[i], general.first_axis[i]);
      EXPECT_EQ(fast.fused_axes[i], general.fused_axes[i]);
    }
    EXPECT_LE(fast.blocks[0], PlannerOptions{}.max_tile_elements);
    expect_visits_match<3>(fast, e, set);
  }
}

TEST(MakePlan, CapHalvesOuterAxesFirst) {
  // Unit-stride axis 0 (kept whole by blocking: 2^12) times a gapped axis 1 (2^8): the cap of
  // 2^16 elements halves axis 1 first, down to 16.
  const auto p = plan_of<1>({4096, 256}, {{1, 5000}});
  ASSERT_EQ(p.rank, 2);
  EXPECT_EQ(blocks_of_plan(p), (Extents{4096, 16}));
  EXPECT_LE(p.blocks[0] * p.blocks[1], 65536u);
}

TEST(MakePlan, BlockOverrideIsHonoured) {
  const std::size_t over[MAX_PLAN_RANK] = {7, 3};
  PlannerOptions opt;
  opt.block_override = over;
  const auto p = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, opt);
  EXPECT_EQ(blocks_of_plan(p), (Extents{7, 3}));
  EXPECT_EQ(p.tiles[0], 143u);
  EXPECT_EQ(p.tiles[1], 334u);
  EXPECT_EQ(p.tile_count, 143u * 334u);
  // Clamped to [1, dims]: 0 -> 1, beyond the extent -> the extent. No max-tile cap applies.
  const std::size_t wild[MAX_PLAN_RANK] = {0, 5000};
  opt.block_override = wild;
  const auto q = plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}, 8, opt);
  EXPECT_EQ(blocks_of_plan(q), (Extents{1, 1000}));
  EXPECT_EQ(q.tile_count, 1000u);
  // Overrides index fused axes: a contiguous 8x125 fuses to one axis of 1000.
  const std::size_t one[MAX_PLAN_RANK] = {100};
  opt.block_override = one;
  const auto r = plan_of<1>({8, 125}, {{125, 1}}, 8, opt);
  EXPECT_EQ(dims_of(r), (Extents{1000}));
  EXPECT_EQ(blocks_of_plan(r), (Extents{100}));
  EXPECT_EQ(r.tile_count, 10u);
  expect_visits_match<1>(r, {8, 125}, {{125, 1}});
}

// ---------------------------------------------------------------------------------------------
// make_plan: fusion, dropping, strategies, degenerate shapes
// ---------------------------------------------------------------------------------------------

TEST(MakePlan, FusesColumnMajorPair) {
  // Item 23: dims [2,3], strides [1,2] -> one fused axis of 6 with stride 1.
  const auto p = plan_of<1>({2, 3}, {{1, 2}});
  EXPECT_EQ(p.rank, 1);
  EXPECT_EQ(dims_of(p), (Extents{6}));
  EXPECT_EQ(plan_strides(p, 0), (Strides{1}));
  EXPECT_EQ(p.first_axis[0], 0);
  EXPECT_EQ(p.fused_axes[0], 2);
  EXPECT_EQ(p.strategy, Strategy::Flat);
  EXPECT_EQ(p.tile_count, 1u);
}

TEST(MakePlan, FuseReferenceCases) {
  // Item 15/16: [3,4] with both operands [1,3] -> [12].
  const auto a = plan_of<2>({3, 4}, {{1, 3}, {1, 3}});
  EXPECT_EQ(dims_of(a), (Extents{12}));
  EXPECT_EQ(plan_strides(a, 1), (Strides{1}));
  // [1,10]: not contiguous -> [3,4] unfused.
  const auto b = plan_of<1>({3, 4}, {{1, 10}});
  EXPECT_EQ(dims_of(b), (Extents{3, 4}));
  EXPECT_EQ(plan_strides(b, 0), (Strides{1, 10}));
  EXPECT_EQ(b.strategy, Strategy::Tiled);
  // [2,3,4], strides [1,2,100] -> [6,4] with strides [1,100].
  const auto c = plan_of<1>({2, 3, 4}, {{1, 2, 100}});
  EXPECT_EQ(dims_of(c), (Extents{6, 4}));
  EXPECT_EQ(plan_strides(c, 0), (Strides{1, 100}));
  EXPECT_EQ(std::vector<short>(c.fused_axes, c.fused_axes + 2), (std::vector<short>{2, 1}));
  EXPECT_EQ(std::vector<short>(c.first_axis, c.first_axis + 2), (std::vector<short>{0, 2}));
  // One operand contiguous, the other not: fusion needs every operand.
  const auto d = plan_of<2>({3, 4}, {{1, 3}, {1, 10}});
  EXPECT_EQ(dims_of(d), (Extents{3, 4}));
  EXPECT_EQ(plan_strides(d, 1), (Strides{1, 10}));
}

TEST(MakePlan, RowMajorContiguousFusesToOneFlatAxis) {
  for (std::size_t rank = 1; rank <= 8; ++rank) {
    Extents e(rank);
    for (std::size_t i = 0; i < rank; ++i) e[i] = 2 + i % 3;
    const Strides row = row_major_strides(e);
    const auto p = plan_of<2>(e, {row, row});
    SCOPED_TRACE(rank);
    EXPECT_EQ(p.rank, 1);
    EXPECT_EQ(dims_of(p), (Extents{product(e)}));
    EXPECT_EQ(plan_strides(p, 0), (Strides{1}));
    EXPECT_EQ(plan_strides(p, 1), (Strides{1}));
    EXPECT_EQ(p.first_axis[0], static_cast<short>(rank - 1));  // innermost: the last axis
    EXPECT_EQ(p.fused_axes[0], static_cast<short>(rank));
    EXPECT_EQ(p.strategy, Strategy::Flat);
    // The same for three operands with different element sizes, and column-major.
    const Strides col = col_major_strides(e);
    const auto q = plan_of<3>(e, {col, col, col}, Extents{8, 4, 16});
    EXPECT_EQ(q.rank, 1);
    EXPECT_EQ(q.first_axis[0], 0);
    EXPECT_EQ(q.strategy, Strategy::Flat);
  }
}

TEST(MakePlan, PermutedViewsFuseWhatIsContiguousForAll) {
  // Extents [a,b,c,d] = [3,4,5,6]: operand 0 row-major; operand 1 keeps (c,d) contiguous and
  // innermost but swaps the order of a and b. (c,d) fuses; b and a stay separate.
  const Extents e = {3, 4, 5, 6};
  const StrideSet s = {{120, 30, 6, 1}, {30, 90, 6, 1}};
  const auto p = plan_of<2>(e, s);
  ASSERT_EQ(p.rank, 3);
  EXPECT_EQ(dims_of(p), (Extents{30, 4, 3}));
  EXPECT_EQ(std::vector<short>(p.first_axis, p.first_axis + 3), (std::vector<short>{3, 1, 0}));
  EXPECT_EQ(std::vector<short>(p.fused_axes, p.fused_axes + 3), (std::vector<short>{2, 1, 1}));
  EXPECT_EQ(plan_strides(p, 0), (Strides{1, 30, 120}));
  EXPECT_EQ(plan_strides(p, 1), (Strides{1, 90, 30}));
  EXPECT_EQ(p.strategy, Strategy::Tiled);
  expect_visits_match<2>(p, e, s);
  // A numpy-style transpose of both operands (same permutation) still fuses completely.
  const auto q = plan_of<2>({6, 5, 4}, {{1, 6, 30}, {1, 6, 30}});
  EXPECT_EQ(dims_of(q), (Extents{120}));
  const auto r = plan_of<2>({4, 6, 5}, {{30, 1, 6}, {30, 1, 6}});
  EXPECT_EQ(dims_of(r), (Extents{120}));
  EXPECT_EQ(r.first_axis[0], 1);
  EXPECT_EQ(r.strategy, Strategy::Flat);
}

TEST(MakePlan, NegativeStridesFuseAndAreKept) {
  // A fully reversed contiguous 3x4: fuses to one axis of stride -1, not Flat (unit means +1).
  const auto p = plan_of<1>({3, 4}, {{-1, -3}});
  EXPECT_EQ(dims_of(p), (Extents{12}));
  EXPECT_EQ(plan_strides(p, 0), (Strides{-1}));
  EXPECT_EQ(p.strategy, Strategy::Tiled);
  expect_visits_match<1>(p, {3, 4}, {{-1, -3}});
  // Reversed 1-d and reversed row-major: never the dense (flat) path.
  const auto r1 = plan_of<2>({5}, {{-1}, {-1}});
  EXPECT_EQ(plan_strides(r1, 0), (Strides{-1}));
  EXPECT_EQ(r1.strategy, Strategy::Tiled);
  expect_visits_match<2>(r1, {5}, {{-1}, {-1}});
  const auto r2 = plan_of<1>({3, 4}, {{-4, -1}});
  EXPECT_EQ(plan_strides(r2, 0), (Strides{-1}));
  EXPECT_EQ(r2.strategy, Strategy::Tiled);
  expect_visits_match<1>(r2, {3, 4}, {{-4, -1}});
  // Mixed signs do not fuse.
  const auto q = plan_of<1>({3, 4}, {{1, -3}});
  EXPECT_EQ(dims_of(q), (Extents{3, 4}));
  expect_visits_match<1>(q, {3, 4}, {{1, -3}});
}

TEST(MakePlan, BroadcastAxes) {
  // Two stride-0 axes of an input fuse with each other (0 == d * 0) when the output fuses too.
  const auto p = plan_of<2>({3, 4}, {{1, 3}, {0, 0}});
  EXPECT_EQ(dims_of(p), (Extents{12}));
  EXPECT_EQ(plan_strides(p, 1), (Strides{0}));
  EXPECT_EQ(p.strategy, Strategy::Tiled);  // a broadcast input is not unit stride
  expect_visits_match<2>(p, {3, 4}, {{1, 3}, {0, 0}});
  // A stride-0 axis next to a non-zero one does not fuse.
  const auto q = plan_of<2>({3, 4}, {{1, 3}, {0, 1}});
  EXPECT_EQ(dims_of(q), (Extents{3, 4}));
  expect_visits_match<2>(q, {3, 4}, {{1, 3}, {0, 1}});
}

TEST(MakePlan, ExtentOneAxisIsDroppedBeforeOrdering) {
  // Item 18's dims [4,1,5], strides [1,4,4]: the extent-1 axis (whatever its stride) is gone,
  // and the remaining axes 0 and 2 fuse.
  const auto p = plan_of<1>({4, 1, 5}, {{1, 4, 4}});
  EXPECT_EQ(p.rank, 1);
  EXPECT_EQ(dims_of(p), (Extents{20}));
  EXPECT_EQ(p.first_axis[0], 0);
  EXPECT_EQ(p.fused_axes[0], 2);
  // Extent-1 axes with odd strides (0, huge, negative) anywhere do not block fusion.
  const auto q = plan_of<2>({1, 3, 1, 4, 1}, {{0, 1, PTRDIFF_MAX, 3, -7}, {12345, 1, 0, 3, -1}});
  EXPECT_EQ(dims_of(q), (Extents{12}));
  EXPECT_EQ(q.first_axis[0], 1);
  EXPECT_EQ(q.strategy, Strategy::Flat);
  // All extents 1: one element, one tile (rank 0, or one axis of extent 1 from the dense fast
  // path), whatever the strides.
  const auto r = plan_of<1>({1, 1, 1}, {{5, 0, -3}});
  EXPECT_LE(r.rank, 1);
  EXPECT_EQ(r.count, 1u);
  EXPECT_EQ(r.tile_count, 1u);
  EXPECT_EQ(r.strategy, Strategy::Flat);
  expect_plan_invariants(r, {1, 1, 1});
  EXPECT_EQ(walk_plan(r), (std::vector<Tuple<1>>{{0}}));
  // Non-dense strides on extent-1 axes: the same.
  const auto r2 = plan_of<2>({1, 1}, {{7, 7}, {-2, 9}});
  EXPECT_EQ(r2.tile_count, 1u);
  expect_plan_invariants(r2, {1, 1});
  EXPECT_EQ(walk_plan(r2), (std::vector<Tuple<2>>{{0, 0}}));
}

TEST(MakePlan, LogicalRankBeyondPlanRankWhenMostExtentsAreOne) {
  // 100 logical axes, 6 of them with extent > 1: the plan only holds the 6 (fused to fewer).
  Extents e(100, 1);
  e[3] = 2;
  e[17] = 3;
  e[40] = 2;
  e[64] = 2;
  e[80] = 3;
  e[99] = 2;
  std::mt19937 rng(100);
  const StrideSet s = {col_major_strides(e), shuffled(col_major_strides(e), rng)};
  const auto p = plan_of<2>(e, s);
  expect_plan_invariants(p, e);
  expect_visits_match<2>(p, e, s);
}

TEST(MakePlan, ZeroExtentIsEmpty) {
  for (const Extents& e : {Extents{0}, Extents{3, 0}, Extents{0, 1000000}, Extents{5, 0, 7}}) {
    const StrideSet s = {Strides(e.size(), 3), Strides(e.size(), -1)};
    const auto p = plan_of<2>(e, s);
    EXPECT_EQ(p.strategy, Strategy::Empty);
    EXPECT_EQ(p.count, 0u);
    EXPECT_EQ(p.tile_count, 0u);
    EXPECT_TRUE(walk_plan(p).empty());
  }
}

TEST(MakePlan, RankZeroIsOneElementOneTile) {
  const std::ptrdiff_t* strides[2] = {nullptr, nullptr};
  const std::size_t sizes[2] = {8, 8};
  const std::size_t rank = 0;
  const auto p = make_plan<2>(rank, nullptr, strides, sizes);
  EXPECT_LE(p.rank, 1);  // rank 0, or one axis of extent 1 (dense fast path)
  expect_plan_invariants(p, {});
  // An override skips the dense fast path: the general path drops every axis, rank 0.
  const std::size_t over[MAX_PLAN_RANK] = {4};
  PlannerOptions opt;
  opt.block_override = over;
  const auto q = plan_of<2>({1, 1}, {{3, 5}, {0, -1}}, 8, opt);
  EXPECT_EQ(q.rank, 0);
  EXPECT_EQ(q.count, 1u);
  EXPECT_EQ(q.tile_count, 1u);
  EXPECT_EQ(q.strategy, Strategy::Flat);
  EXPECT_EQ(walk_plan(q), (std::vector<Tuple<2>>{{0, 0}}));
  EXPECT_EQ(p.count, 1u);
  EXPECT_EQ(p.tile_count, 1u);
  EXPECT_EQ(p.strategy, Strategy::Flat);
  EXPECT_EQ(walk_plan(p), (std::vector<Tuple<2>>{{0, 0}}));
}

TEST(MakePlan, StrategySelection) {
  // Rank-1 non-unit stride: tiled.
  EXPECT_EQ(plan_of<1>({10}, {{2}}).strategy, Strategy::Tiled);
  EXPECT_EQ(plan_of<2>({10}, {{1}, {3}}).strategy, Strategy::Tiled);
  EXPECT_EQ(plan_of<2>({10}, {{1}, {1}}).strategy, Strategy::Flat);
  // Output unit axis 0, a source with unit stride on axis 1: transpose.
  const auto t = plan_of<2>({40, 50}, {{1, 40}, {50, 1}});
  EXPECT_EQ(t.strategy, Strategy::Transpose);
  EXPECT_EQ(t.transpose_axis, 1);
  // A source with |stride| 1 but negative on axis 1 still counts.
  EXPECT_EQ(plan_of<2>({40, 50}, {{1, 40}, {-50, -1}}).strategy, Strategy::Transpose);
  // Without the output weighting (reductions), no transpose.
  PlannerOptions opt;
  opt.weight_first_operand = false;
  const auto u = plan_of<2>({40, 50}, {{1, 40}, {50, 1}}, 8, opt);
  EXPECT_EQ(u.strategy, Strategy::Tiled);
  EXPECT_EQ(u.transpose_axis, -1);
  // Both operands share a unit axis but rank 2 remains: tiled, not transpose.
  const auto v = plan_of<2>({40, 50}, {{1, 80}, {1, 100}});
  EXPECT_EQ(v.strategy, Strategy::Tiled);
  EXPECT_EQ(v.transpose_axis, -1);
  // Output not unit stride: tiled.
  EXPECT_EQ(plan_of<2>({40, 50}, {{2, 80}, {50, 1}}).strategy, Strategy::Tiled);
}

TEST(MakePlan, Rank40FusionKeepsTheMapping) {
  // 2^40 elements: plan only (no walk). Operand 0 row-major, operand 1 a random permutation
  // of those strides. Random plan positions must map to matching offsets of both operands.
  std::mt19937 rng(4040);
  const Extents e(40, 2);
  const Strides row = row_major_strides(e);
  const StrideSet s = {row, shuffled(row, rng)};
  PlannerOptions no_gather;  // plan positions map through strides only (no offset tables)
  no_gather.gather = false;
  const auto p = plan_of<2>(e, s, 8, no_gather);
  expect_plan_invariants(p, e);
  EXPECT_EQ(p.count, std::size_t(1) << 40);
  EXPECT_EQ(p.first_axis[0], 39);
  EXPECT_EQ(p.strides[0][0], 1);
  std::uniform_int_distribution<std::size_t> any;
  for (int rep = 0; rep < 2000; ++rep) {
    std::ptrdiff_t o0 = 0, o1 = 0;
    for (int i = 0; i < p.rank; ++i) {
      const auto idx = static_cast<std::ptrdiff_t>(any(rng) % p.dims[i]);
      o0 += idx * p.strides[0][i];
      o1 += idx * p.strides[1][i];
    }
    // Operand 0 is row-major over extents 2: its offset's bits are the multi-index.
    ASSERT_GE(o0, 0);
    std::ptrdiff_t want1 = 0;
    for (std::size_t a = 0; a < 40; ++a)
      if ((o0 >> (39 - a)) & 1) want1 += s[1][a];
    ASSERT_EQ(o1, want1) << "rep " << rep;
  }
}

// ---------------------------------------------------------------------------------------------
// make_plan: randomized exhaustive visit check, ranks 0..30
// ---------------------------------------------------------------------------------------------

Extents random_extents(std::mt19937& rng, std::size_t rank, std::size_t max_count) {
  Extents e(rank, 1);
  if (rank == 0) return e;
  std::uniform_int_distribution<std::size_t> axis(0, rank - 1), size(2, 5);
  std::size_t count = 1;
  for (std::size_t t = 0; t < 2 * rank + 4; ++t) {
    const std::size_t a = axis(rng), v = size(rng);
    if (e[a] == 1 && count * v <= max_count) {
      e[a] = v;
      count *= v;
    }
  }
  return e;
}

/// An injective layout: axes dense in a random order, optional gaps (padding between axes and
/// a leading stride above 1), random negative strides.
Strides dense_strides(std::mt19937& rng, const Extents& e, bool gaps, bool negate) {
  std::vector<std::size_t> order(e.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::shuffle(order.begin(), order.end(), rng);
  std::uniform_int_distribution<int> pad(0, 3), coin(0, 9);
  Strides s(e.size());
  std::ptrdiff_t stride = gaps ? 1 + pad(rng) % 2 : 1;
  for (std::size_t a : order) {
    s[a] = stride;
    stride = stride * static_cast<std::ptrdiff_t>(e[a]) + (gaps ? pad(rng) : 0);
  }
  if (negate)
    for (auto& v : s)
      if (coin(rng) < 3) v = -v;
  return s;
}

Strides input_strides(std::mt19937& rng, const Extents& e, const Strides& out) {
  std::uniform_int_distribution<int> kind(0, 6), coin(0, 9), any(-6, 6);
  switch (kind(rng)) {
    case 0:
      return out;
    case 1:
      return row_major_strides(e);
    case 2:
      return col_major_strides(e);
    case 3: {  // broadcast some axes
      Strides s = dense_strides(rng, e, false, false);
      for (auto& v : s)
        if (coin(rng) < 4) v = 0;
      return s;
    }
    case 4: {  // arbitrary, possibly non-injective
      Strides s(e.size());
      for (auto& v : s) v = any(rng);
      return s;
    }
    default:
      return dense_strides(rng, e, coin(rng) < 5, coin(rng) < 5);
  }
}

template <int N>
void check_random_plans(std::mt19937& rng, std::size_t rank, int reps) {
  std::uniform_int_distribution<int> coin(0, 9), variant(0, 2), line_count(1, 8), grain(2, 64),
      block(0, 6);
  std::uniform_int_distribution<std::size_t> esize(0, 4);
  for (int rep = 0; rep < reps; ++rep) {
    const Extents e = random_extents(rng, rank, 2048);
    StrideSet s;
    s.push_back(rank == 0 ? Strides{} : dense_strides(rng, e, coin(rng) < 5, coin(rng) < 5));
    for (int k = 1; k < N; ++k) s.push_back(input_strides(rng, e, s[0]));
    Extents sizes(N);
    for (auto& v : sizes) v = std::size_t(1) << esize(rng);  // 1..16 bytes
    PlannerOptions opt;
    std::size_t over[MAX_PLAN_RANK];
    const int v = variant(rng);
    if (v == 1) {  // tiny budgets so small problems are really tiled
      opt.block_bytes = 64 * static_cast<std::size_t>(line_count(rng));
      opt.max_tile_elements = static_cast<std::size_t>(grain(rng));
    } else if (v == 2) {
      for (auto& b : over) b = static_cast<std::size_t>(block(rng));
      opt.block_override = over;
    }
    SCOPED_TRACE(testing::Message()
                 << "operands " << N << ", rank " << rank << ", rep " << rep << ", variant " << v);
    const Plan<N> p = plan_of<N>(e, s, sizes, opt);
    expect_plan_invariants(p, e);
    std::vector<Extents> tiles;
    expect_visits_match<N>(p, e, s, &tiles);
    if (v == 2) {
      for (int i = 0; i < p.rank; ++i)
        EXPECT_EQ(p.blocks[i], std::max<std::size_t>(1, std::min(over[i], p.dims[i])));
    } else {
      std::size_t tile = 1;
      for (int i = 0; i < p.rank; ++i) tile *= p.blocks[i];
      EXPECT_LE(tile, opt.max_tile_elements);
      // Transposes are tiled for the L2 (square tiles), gathered blocks by their tables (each
      // line is consumed within a few steps), everything else for the L1 budget.
      if (p.strategy != Strategy::Transpose && p.strategy != Strategy::Gather)
        for (const Extents& t : tiles) expect_tile_fits(p, sizes, opt, t);
    }
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(MakePlan, EveryElementVisitedExactlyOnceRanks0To30) {
  std::mt19937 rng(20240607);
  for (std::size_t rank = 0; rank <= 30; ++rank) {
    check_random_plans<1>(rng, rank, 12);
    check_random_plans<2>(rng, rank, 12);
    check_random_plans<3>(rng, rank, 12);
    if (HasFailure()) return;
  }
}

TEST(MakePlan, TileWorkingSetWithDefaultOptions) {
  // Transposed and permuted operands large enough to need L1 blocking under the defaults.
  std::mt19937 rng(32768);
  for (int rep = 0; rep < 12; ++rep) {
    Extents e = {static_cast<std::size_t>(40 + rep * 13), static_cast<std::size_t>(150 - rep * 5),
                 static_cast<std::size_t>(3 + rep % 4)};
    const StrideSet s = {col_major_strides(e), dense_strides(rng, e, rep % 2 == 0, rep % 3 == 0)};
    const Extents sizes = {8, rep % 2 == 0 ? std::size_t(8) : std::size_t(4)};
    const auto p = plan_of<2>(e, s, sizes, l1_blocks_only());
    SCOPED_TRACE(describe(p));
    expect_plan_invariants(p, e);
    std::vector<Extents> tiles;
    expect_visits_match<2>(p, e, s, &tiles);
    for (const Extents& t : tiles) expect_tile_fits(p, sizes, PlannerOptions{}, t);
  }
}

// ---------------------------------------------------------------------------------------------
// combine_pairwise
// ---------------------------------------------------------------------------------------------

/// combine_pairwise folds in place: each call gets its own copy of the leaves.
template <class U, class ReduceFn>
U combine_copy(std::vector<U> leaves, std::size_t first, std::size_t last, const ReduceFn& red) {
  return combine_pairwise(leaves.data(), first, last, red);
}

/// The tree the contract defines, written recursively: n leaves are (first n / 2) + (the rest).
std::string recursive_tree(std::size_t first, std::size_t last) {
  if (last - first == 1) return std::to_string(first);
  const std::size_t mid = first + (last - first) / 2;
  // Appended piece by piece: GCC 12 at -O3 in C++20 reports a false -Wrestrict for
  // "(" + std::string&&.
  std::string tree = "(";
  tree += recursive_tree(first, mid);
  tree += '+';
  tree += recursive_tree(mid, last);
  tree += ')';
  return tree;
}

TEST(CombinePairwise, FixedTreeShapeForCounts1To7) {
  const std::vector<std::string> leaves = {"0", "1", "2", "3", "4", "5", "6"};
  auto cat = [](const std::string& a, const std::string& b) { return "(" + a + "+" + b + ")"; };
  const std::vector<std::string> want = {
      "0",
      "(0+1)",
      "(0+(1+2))",
      "((0+1)+(2+3))",
      "((0+1)+(2+(3+4)))",
      "((0+(1+2))+(3+(4+5)))",
      "((0+(1+2))+((3+4)+(5+6)))",
  };
  for (std::size_t n = 1; n <= 7; ++n) EXPECT_EQ(combine_copy(leaves, 0, n, cat), want[n - 1]) << n;
}

TEST(CombinePairwise, ShapeDependsOnlyOnCount) {
  const std::vector<std::string> leaves = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
  auto cat = [](const std::string& a, const std::string& b) { return "(" + a + b + ")"; };
  EXPECT_EQ(combine_copy(leaves, 4, 7, cat), "(e(fg))");
  EXPECT_EQ(combine_copy(leaves, 1, 6, cat), "((bc)(d(ef)))");
  EXPECT_EQ(combine_copy(leaves, 0, 9, cat), "(((ab)(cd))((ef)(g(hi))))");
  // Numeric: a non-associative fold (subtraction) exposes the tree as well.
  const std::vector<double> v = {1, 2, 4, 8, 16};
  auto sub = [](double a, double b) { return a - b; };
  EXPECT_EQ(combine_copy(v, 0, 5, sub), (1.0 - 2.0) - (4.0 - (8.0 - 16.0)));
}

TEST(CombinePairwise, IterativeWalkBuildsTheRecursiveTreeForEveryCount) {
  // Every count up to 1100 (odd and even splits at every depth) and a few offsets, for the
  // walk (device code) and the host recursion (what combine_pairwise runs on the host).
  std::vector<std::string> leaves(1200);
  for (std::size_t i = 0; i < leaves.size(); ++i) leaves[i] = std::to_string(i);
  auto cat = [](const std::string& a, const std::string& b) { return "(" + a + "+" + b + ")"; };
  for (std::size_t first : {0, 1, 37})
    for (std::size_t n = 1; n <= 1100; ++n) {
      const std::string want = recursive_tree(first, first + n);
      std::vector<std::string> walked = leaves, recursed = leaves;
      ASSERT_EQ(strided::detail::combine_pairwise_walk(walked.data(), first, first + n, cat), want)
          << "walk: first " << first << ", count " << n;
      ASSERT_EQ(strided::detail::combine_pairwise_host(recursed.data(), first, first + n, cat),
                want)
          << "host: first " << first << ", count " << n;
      ASSERT_EQ(combine_copy(leaves, first, first + n, cat), want) << first << " " << n;
    }
}

TEST(CombinePairwise, HostAndWalkAgreeAtGpuScaleCounts) {
  // The tile counts of GPU-scale plans (2^13, 2^14) and counts around them, under an operation
  // that is neither associative nor commutative.
  const auto ordered = [](std::uint64_t a, std::uint64_t b) { return a * 1000003u + b; };
  for (const std::size_t n : {8191, 8192, 8193, 12288, 16384, 16385, 24577}) {
    std::vector<std::uint64_t> leaves(n);
    for (std::size_t i = 0; i < n; ++i) leaves[i] = i * 7919 + 11;
    std::vector<std::uint64_t> walked = leaves, recursed = leaves;
    EXPECT_EQ(strided::detail::combine_pairwise_host(recursed.data(), 0, n, ordered),
              strided::detail::combine_pairwise_walk(walked.data(), 0, n, ordered))
        << n;
  }
}

// ---------------------------------------------------------------------------------------------
// explain
// ---------------------------------------------------------------------------------------------

TEST(Explain, NamesStrategyAndFusedDims) {
  const std::string flat = describe(plan_of<1>({2, 3}, {{1, 2}}));
  EXPECT_NE(flat.find("strategy flat"), std::string::npos) << flat;
  EXPECT_NE(flat.find("6 elements"), std::string::npos) << flat;
  EXPECT_NE(flat.find("fused dims (innermost first) [6]"), std::string::npos) << flat;
  EXPECT_NE(flat.find("from axes [0+1]"), std::string::npos) << flat;
  EXPECT_NE(flat.find("operand 0 strides [1]"), std::string::npos) << flat;
  EXPECT_NE(flat.find("blocks [6], 1 tile"), std::string::npos) << flat;

  const std::string tr = describe(plan_of<2>({1000, 1000}, {{1, 1000}, {1000, 1}}));
  EXPECT_NE(tr.find("strategy transpose"), std::string::npos) << tr;
  EXPECT_NE(tr.find("[1000, 1000]"), std::string::npos) << tr;
  EXPECT_NE(tr.find("operand 1 strides [1000, 1]"), std::string::npos) << tr;
  EXPECT_NE(tr.find("blocks [336, 72], 42 tiles"), std::string::npos) << tr;

  const std::string tiled = describe(plan_of<2>({3, 4, 5, 6}, {{120, 30, 6, 1}, {30, 90, 6, 1}}));
  EXPECT_NE(tiled.find("strategy tiled"), std::string::npos) << tiled;
  EXPECT_NE(tiled.find("fused dims (innermost first) [30, 4, 3]"), std::string::npos) << tiled;
  EXPECT_NE(tiled.find("from axes [3+1, 1, 0]"), std::string::npos) << tiled;

  const std::string empty = describe(plan_of<1>({4, 0}, {{1, 4}}));
  EXPECT_NE(empty.find("strategy empty"), std::string::npos) << empty;
  EXPECT_EQ(empty.find("fused dims"), std::string::npos) << empty;
}

}  // namespace

namespace {

/// A gathered plan whose two table axes are n0 contiguous output elements and n1 contiguous
/// source elements.
template <int N>
void expect_contiguous_groups(const Plan<N>& p, std::size_t n0, std::size_t n1) {
  ASSERT_EQ(p.strategy, Strategy::Gather);
  ASSERT_TRUE(p.gathered);
  ASSERT_EQ(p.dims[0], n0);
  ASSERT_EQ(p.dims[1], n1);
  for (std::size_t k = 0; k < n0; ++k) EXPECT_EQ(p.table[0][0][k], std::ptrdiff_t(k));  // output
  for (std::size_t k = 0; k < n1; ++k) EXPECT_EQ(p.table[1][1][k], std::ptrdiff_t(k));  // source
}

TEST(MakePlan, HighRankReversalIsGatheredIntoTwoTableAxes) {
  // Rank 12, every extent 2, the axes reversed: no two axes fuse for both operands.
  const Extents e(12, 2);
  const StrideSet rev = reversal_of(e);
  const auto p = plan_of<2>(e, rev);
  expect_contiguous_groups(p, 64, 64);  // the six output-fastest axes, the six source-fastest
  EXPECT_EQ(p.tile_count, 1u);
  expect_visits_match<2>(p, e, rev);
  PlannerOptions off;
  off.gather = false;
  EXPECT_NE(plan_of<2>(e, rev, 8, off).strategy, Strategy::Gather);
}

TEST(MakePlan, GatheredSourcesReadWholeLines) {
  // W2's rank-25 permutation: the source's unit axis is the destination's 7th fastest. Taken
  // for the destination's group, it left the source's group at stride 2 (a scalar gather).
  const Extents e(25, 2);
  const std::vector<std::size_t> perm = {20, 11, 7,  4,  0, 8,  16, 13, 1,  10, 14, 5, 23,
                                         12, 17, 15, 22, 2, 24, 6,  3,  18, 9,  21, 19};
  const Strides row = row_major_strides(e);
  Strides src(25);
  for (std::size_t d = 0; d < 25; ++d) src[d] = row[perm[d]];
  const auto p = plan_of<2>(e, {row, src});
  ASSERT_EQ(p.strategy, Strategy::Gather);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(p.table[0][0][k], k);  // a destination line
    EXPECT_EQ(p.table[1][1][k], k);  // a source line
  }
  // (2^25 elements: the visits of gathered plans are checked on smaller ones above.)
}

TEST(MakePlan, GatheredSourceGroupIsTheFirstSourceThatReadsAcross) {
  // strided-rs' 4-d zips: B = A + permute(A, [1,2,3,0]), 32^4 column-major. The first source
  // shares the destination's layout: the axis-1 group must be the permuted source's lines, or
  // it is read element by element.
  const Extents e(4, 32);
  const Strides col = {1, 32, 1024, 32768};
  const Strides permuted = {32, 1024, 32768, 1};
  const auto p = plan_of<3>(e, {col, col, permuted});
  ASSERT_EQ(p.strategy, Strategy::Gather);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(p.table[0][0][k], k);  // a destination line
    EXPECT_EQ(p.table[0][1][k], k);  // and the first source's
    EXPECT_EQ(p.table[1][2][k], k);  // a line of the permuted source
  }
  expect_visits_match<3>(p, e, {col, col, permuted});
  // The order of the sources does not matter.
  const auto q = plan_of<3>(e, {col, permuted, col});
  ASSERT_EQ(q.strategy, Strategy::Gather);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(q.table[1][1][k], k);
  expect_visits_match<3>(q, e, {col, permuted, col});
}

TEST(MakePlan, SourcesPermutedEachTheirOwnWayAreNotGathered) {
  // strided-rs' multiple_permute_sum: B = A + P1(A) + P2(A) + P3(A), 32^4 column-major, each
  // source's unit axis another. Two groups cannot hold four operands' lines: gathered, one
  // source read one element per line over blocks of 256 x 64 (2x slower than a plain loop).
  const Extents e(4, 32);
  const Strides col = {1, 32, 1024, 32768};
  const StrideSet s = {col, col, {32, 1024, 32768, 1}, {1024, 32768, 1, 32}, {32768, 1, 32, 1024}};
  const auto p = plan_of<5>(e, s);
  EXPECT_FALSE(p.gathered);
  EXPECT_EQ(p.strategy, Strategy::Transpose);
  EXPECT_EQ(dims_of(p), (Extents{32, 32, 32, 32}));
  expect_visits_match<5>(p, e, s);
}

TEST(MakePlan, GatheredGroupsTakeADivisorOfAnAxisThatDoesNotFitWhole) {
  // 30^4 reversed: whole axes give groups of 30 (30 x 30 = 900 passes GATHER_MAX). Each group
  // takes 6 of the next axis (the largest divisor of 30 within 256 / 30), the other 5 stay a
  // tile axis: groups of 180 contiguous elements on both sides.
  const Extents e(4, 30);
  const StrideSet rev = reversal_of(e);
  const auto p = plan_of<2>(e, rev);
  expect_contiguous_groups(p, 180, 180);
  EXPECT_EQ(dims_of(p), (Extents{180, 180, 5, 5}));
  expect_visits_match<2>(p, e, rev);
  // (Source rows of transpose_row_bytes would be 60 elements here, short of the 64 of 512
  // bytes: the source keeps its whole-axes group, as below.)
  // A source's unit axis too long for a group (352, as in HPTT's 5-d cases) gives it a run of
  // its largest divisor within the group: 176 elements (44 within 512 bytes, short of 64).
  const Extents h = {48, 28, 352};
  const StrideSet hs = {{1, 48, 1344}, {9856, 352, 1}};
  const auto g = plan_of<2>(h, hs);
  ASSERT_EQ(g.strategy, Strategy::Gather);
  EXPECT_EQ(g.dims[0], 192u);  // 48 x 4 of 28
  EXPECT_EQ(g.dims[1], 176u);
  for (int k = 0; k < 176; ++k) EXPECT_EQ(g.table[1][1][k], k);
  expect_visits_match<2>(g, h, hs);
  // A prime extent has no divisor to take: the plan stays a transpose of whole axes.
  const Extents q(4, 17);
  const Strides qrow = row_major_strides(q);
  const Strides qrev(qrow.rbegin(), qrow.rend());
  EXPECT_EQ(plan_of<2>(q, {qrow, qrev}).strategy, Strategy::Transpose);
  // Only transposes split axes: a reduction's tiles (its fold order) never change this way.
  PlannerOptions fold;
  fold.weight_first_operand = false;
  const auto r = plan_of<2>(e, rev, 8, fold);
  EXPECT_NE(r.strategy, Strategy::Gather);
  EXPECT_EQ(dims_of(r), e);
}

TEST(MakePlan, TransposesOfShortAxesAreGatheredIntoLongRows) {
  // A row-major output and a column-major source with inner extents 16 and 4: a transpose
  // whose tiles would have rows of 16 and 4 elements. Gathered, the tile is 256 x 64: output
  // rows of 2 KiB, source rows of transpose_row_bytes (512 B).
  const Extents e = {4, 4, 4, 4, 16, 16};
  const Strides row = row_major_strides(e), col = col_major_strides(e);
  const auto p = plan_of<2>(e, {row, col});
  expect_contiguous_groups(p, 256, 64);
  EXPECT_EQ(p.tile_count, 4u);
  expect_visits_match<2>(p, e, {row, col});
  // Short inner axes that every operand shares stay a plain (flat or tiled) plan.
  EXPECT_NE(plan_of<2>({3, 4, 30}, {{120, 30, 1}, {30, 90, 1}}).strategy, Strategy::Gather);
}

TEST(MakePlan, ShortSourceRowsUnderALongDestinationAxisAreGathered) {
  // HPTT's 6-d reversal of a column-major 32 x 5 x 15 x 15 x 15 x 112: the destination's unit
  // axis (112) is long, the source's (32) gives rows of 256 bytes. The source's group takes
  // 32 x 5 = 160 contiguous elements, the destination's keeps its whole axis of 112 (a
  // transpose's tiles were 112 x 32).
  // Each reversal's groups and dims, then every element once on a smaller one of the same kind.
  const auto check_reversal = [](const Extents& e, std::size_t g0, std::size_t g1,
                                 const Extents& dims, const Extents& small) {
    const auto p = plan_of<2>(e, {col_major_strides(e), row_major_strides(e)});
    expect_contiguous_groups(p, g0, g1);
    EXPECT_EQ(dims_of(p), dims);
    const StrideSet ss = {col_major_strides(small), row_major_strides(small)};
    const auto q = plan_of<2>(small, ss);
    expect_contiguous_groups(q, g0, g1);
    expect_visits_match<2>(q, small, ss);
  };
  check_reversal({112, 15, 15, 15, 5, 32}, 112, 160, {112, 160, 15, 15, 15}, {112, 3, 2, 5, 32});
  // Source rows of 512 bytes or more stay a transpose (72^4 reversed: gathered, its groups
  // would be 216 x 216).
  const Extents r(4, 72);
  EXPECT_EQ(plan_of<2>(r, {col_major_strides(r), row_major_strides(r)}).strategy,
            Strategy::Transpose);
  // A destination axis longer than a group (HPTT's 5-d reversal of 48 x 4 x 28 x 28 x 352)
  // gives the destination's group its largest divisor within one (176 of 352), and the source
  // runs of 48 x 4 = 192 elements: source rows of 1.5 KiB, not the transpose's 384 bytes.
  check_reversal({352, 28, 28, 4, 48}, 176, 192, {176, 192, 2, 28, 28}, {352, 2, 3, 4, 48});
}

TEST(MakePlan, GatheredSourceGroupsTakeRowsOfTransposeRowBytes) {
  // Rank 16, every extent 2, reversed: 2^16 elements, groups of up to 256. The output's group
  // takes 256 (2 KiB rows); the source's stops at transpose_row_bytes: 64 doubles, 128 floats,
  // 128 doubles for rows of 1 KiB.
  const Extents e(16, 2);
  const StrideSet rev = reversal_of(e);
  const auto p = plan_of<2>(e, rev);
  expect_contiguous_groups(p, 256, 64);
  expect_visits_match<2>(p, e, rev);
  EXPECT_EQ(plan_of<2>(e, rev, 4).dims[1], 128u);
  PlannerOptions long_rows;
  long_rows.transpose_row_bytes = 1024;
  EXPECT_EQ(plan_of<2>(e, rev, 8, long_rows).dims[1], 128u);
  // A reduction's gathered tiles (its fold order) do not depend on the option.
  PlannerOptions fold = long_rows;
  fold.weight_first_operand = false;
  const auto r = plan_of<2>(e, rev, 8, fold);
  const auto r512 = plan_of<2>(e, rev, 8, [] {
    PlannerOptions o;
    o.weight_first_operand = false;
    return o;
  }());
  ASSERT_TRUE(r.gathered);
  EXPECT_EQ(dims_of(r), dims_of(r512));
  // Streamed, the tiles beyond the block walk by the source's stride: the next tile continues
  // the source's rows.
  PlannerOptions streamed;
  streamed.stream_bytes = 0;
  const auto w = plan_of<2>(e, rev, 8, streamed);
  ASSERT_TRUE(w.gathered);
  ASSERT_TRUE(w.custom_walk);
  ASSERT_GE(w.rank, 4);
  EXPECT_EQ(w.walk[0], 0);
  EXPECT_EQ(w.walk[1], 1);
  for (int k = 3; k < w.rank; ++k)
    EXPECT_LT(std::abs(w.strides[1][w.walk[k - 1]]), std::abs(w.strides[1][w.walk[k]]));
  EXPECT_EQ(std::abs(w.strides[1][w.walk[2]]), 64);  // right after the source's group
  expect_visits_match<2>(w, e, rev);
}

}  // namespace
