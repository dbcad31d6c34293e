// Unit tests of the per-thread last plan (core/strided/core/plan_cache.hpp): a call that repeats
// its thread's previous layouts gets the plan make_plan would make, and any change in what a plan
// depends on (an extent, any operand's stride, an element size, a planner setting) plans again.
// A wrong hit runs a kernel with another layout's strides. No Kokkos.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "strided/core/plan_cache.hpp"

namespace {

using strided::detail::make_plan;
using strided::detail::make_plan_cached;
using strided::detail::Plan;
using strided::detail::PlannerOptions;

struct Layout {
  std::vector<std::size_t> extents;
  std::vector<std::vector<std::ptrdiff_t>> strides;  // one list per operand
  std::vector<std::size_t> sizes;                    // element size per operand
};

/// Whether two plans agree on every field the kernels read (axes up to the rank, the walk when
/// custom, the gather tables up to the groups' extents).
template <int N>
::testing::AssertionResult same_plan(const Plan<N>& a, const Plan<N>& b) {
  if (a.rank != b.rank || a.count != b.count || a.tile_count != b.tile_count ||
      a.strategy != b.strategy || a.transpose_axis != b.transpose_axis ||
      a.gathered != b.gathered || a.stream_stores != b.stream_stores ||
      a.column_bands != b.column_bands || a.paced_fetch != b.paced_fetch ||
      a.custom_walk != b.custom_walk)
    return ::testing::AssertionFailure() << "scalar fields differ";
  for (int i = 0; i < a.rank; ++i) {
    if (a.dims[i] != b.dims[i] || a.blocks[i] != b.blocks[i] || a.tiles[i] != b.tiles[i] ||
        a.first_axis[i] != b.first_axis[i] || a.fused_axes[i] != b.fused_axes[i] ||
        (a.custom_walk && a.walk[i] != b.walk[i]))
      return ::testing::AssertionFailure() << "axis " << i << " differs";
    for (int k = 0; k < N; ++k)
      if (a.strides[k][i] != b.strides[k][i])
        return ::testing::AssertionFailure() << "stride " << k << ", " << i << " differs";
  }
  if (a.gathered)
    for (int g = 0; g < 2; ++g)
      for (int k = 0; k < N; ++k)
        for (std::size_t e = 0; e < a.dims[g]; ++e)
          if (a.table[g][k][e] != b.table[g][k][e])
            return ::testing::AssertionFailure() << "table " << g << ", " << k << " differs";
  return ::testing::AssertionSuccess();
}

template <int N>
::testing::AssertionResult cached_matches_fresh(const Layout& l, const PlannerOptions& opt = {}) {
  const std::ptrdiff_t* s[N];
  for (int k = 0; k < N; ++k) s[k] = l.strides[k].data();
  const Plan<N> fresh = make_plan<N>(l.extents.size(), l.extents.data(), s, l.sizes.data(), opt);
  const Plan<N> cached =
      make_plan_cached<N>(l.extents.size(), l.extents.data(), s, l.sizes.data(), opt);
  return same_plan<N>(cached, fresh);
}

TEST(PlanCache, RepeatsAndEveryChangeGiveTheFreshPlan) {
  // A 4-d reversal that gathers (tables), then one change at a time, each repeated.
  const Layout base = {{4, 4, 4, 4}, {{1, 4, 16, 64}, {64, 16, 4, 1}}, {8, 8}};
  std::vector<Layout> sequence = {base, base};
  Layout changed = base;
  changed.extents[2] = 5;
  changed.strides[0] = {1, 4, 16, 80};
  changed.strides[1] = {80, 20, 4, 1};
  sequence.insert(sequence.end(), {changed, changed, base});
  for (int k = 0; k < 2; ++k) {  // one stride of one operand
    Layout one = base;
    one.strides[k][3] += 1;
    sequence.insert(sequence.end(), {one, one, base});
  }
  // Element sizes only: a transpose's tile rows are so many bytes.
  const Layout square = {{1000, 1000}, {{1, 1000}, {1000, 1}}, {8, 8}};
  Layout wider = square;
  wider.sizes = {16, 16};
  sequence.insert(sequence.end(), {square, wider, wider, square});
  Layout fewer = base;  // rank only (the same leading axes)
  fewer.extents = {4, 4, 4};
  fewer.strides = {{1, 4, 16}, {64, 16, 4}};
  sequence.insert(sequence.end(), {fewer, base});
  for (std::size_t i = 0; i < sequence.size(); ++i)
    EXPECT_TRUE(cached_matches_fresh<2>(sequence[i])) << "call " << i;
}

TEST(PlanCache, PlannerSettingsArePartOfTheKey) {
  const Layout l = {{64, 48, 33}, {{1, 64, 3072}, {1584, 33, 1}}, {8, 8}};
  PlannerOptions streamed;
  streamed.stream_bytes = 0;
  PlannerOptions small_blocks;
  small_blocks.block_bytes = 4096;
  PlannerOptions no_gather;
  no_gather.gather = false;
  PlannerOptions reduction;
  reduction.weight_first_operand = false;
  PlannerOptions l2;
  l2.l2_bytes = 256 << 10;
  PlannerOptions rows;
  rows.transpose_row_bytes = 128;
  PlannerOptions line;
  line.cache_line = 128;
  PlannerOptions tile;
  tile.max_tile_elements = 512;
  const std::size_t override_blocks[3] = {8, 8, 1};
  PlannerOptions forced;
  forced.block_override = override_blocks;
  for (const PlannerOptions& opt : {PlannerOptions{}, streamed, small_blocks, no_gather, reduction,
                                    l2, rows, line, tile, forced, PlannerOptions{}}) {
    EXPECT_TRUE(cached_matches_fresh<2>(l, opt));
    EXPECT_TRUE(cached_matches_fresh<2>(l, opt));
  }
  // Gathering on and off, for a layout that gathers.
  const Layout reversal = {{4, 4, 4, 4}, {{1, 4, 16, 64}, {64, 16, 4, 1}}, {8, 8}};
  for (const PlannerOptions& opt : {PlannerOptions{}, no_gather, PlannerOptions{}})
    EXPECT_TRUE(cached_matches_fresh<2>(reversal, opt));
}

TEST(PlanCache, CopiesCarryEveryFieldTheKernelsRead) {
  // Into an object full of other bytes: nothing the kernels read may be left from before.
  const std::size_t e[4] = {4, 4, 4, 4};
  const std::ptrdiff_t s0[4] = {1, 4, 16, 64}, s1[4] = {64, 16, 4, 1};
  const std::ptrdiff_t* s[2] = {s0, s1};
  const std::size_t sizes[2] = {8, 8};
  PlannerOptions streamed;
  streamed.stream_bytes = 0;  // (a custom walk)
  for (const PlannerOptions& opt : {PlannerOptions{}, streamed}) {
    const Plan<2> p = make_plan<2>(4, e, s, sizes, opt);
    ASSERT_TRUE(p.gathered);
    Plan<2> to;
    std::memset(static_cast<void*>(&to), 0xab, sizeof to);
    strided::detail::assign_plan<2>(to, p);
    EXPECT_TRUE(same_plan<2>(to, p));
  }
}

TEST(PlanCache, ThreeOperandsAndRandomLayouts) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    Layout l;
    const std::size_t rank = 1 + rng() % 6;
    for (std::size_t i = 0; i < rank; ++i) l.extents.push_back(1 + rng() % 7);
    for (int k = 0; k < 3; ++k) {
      std::vector<std::ptrdiff_t> s(rank);
      for (auto& x : s) x = static_cast<std::ptrdiff_t>(rng() % 200) - 50;
      l.strides.push_back(s);
      l.sizes.push_back(rng() % 2 ? 8 : 4);
    }
    EXPECT_TRUE(cached_matches_fresh<3>(l)) << trial;
    if (trial % 3 == 0) {
      EXPECT_TRUE(cached_matches_fresh<3>(l)) << trial;  // a repeat
    }
  }
}

TEST(PlanCache, EachThreadKeepsItsOwn) {
  // Two threads alternate two layouts of the same rank: each thread's hits are its own plans.
  const Layout a = {{4, 4, 4, 4}, {{1, 4, 16, 64}, {64, 16, 4, 1}}, {8, 8}};
  const Layout b = {{4, 4, 4, 4}, {{1, 4, 16, 64}, {16, 64, 1, 4}}, {8, 8}};
  bool ok[2] = {true, true};
  std::thread t0([&] {
    for (int r = 0; r < 2000; ++r) ok[0] = ok[0] && cached_matches_fresh<2>(a);
  });
  std::thread t1([&] {
    for (int r = 0; r < 2000; ++r) ok[1] = ok[1] && cached_matches_fresh<2>(b);
  });
  t0.join();
  t1.join();
  EXPECT_TRUE(ok[0]);
  EXPECT_TRUE(ok[1]);
  // Not one object shared under a race: each thread has its own.
  const void* mine = &strided::detail::thread_last_plan<2>();
  const void* other = nullptr;
  std::thread([&] { other = &strided::detail::thread_last_plan<2>(); }).join();
  EXPECT_NE(mine, other);
}

}  // namespace
