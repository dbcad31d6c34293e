// Copies against a reference loop, on every execution space, over random layouts (permuted,
// reversed, gapped, broadcast), ranks 0-8, 12, 25 and 30, extents 0 and 1, several element types,
// both tile schedules and streaming stores.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "map_test.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::check_copy;
using strided_test::check_symmetrize;
using strided_test::expect_elements;
using strided_test::MapTest;
using strided_test::random_operand;
using strided_test::read;

TYPED_TEST_SUITE(MapTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(MapTest, CopyMatchesReferenceAtManyRanks) {
  std::mt19937 rng(42);
  for (std::size_t rank : {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 25, 30}) {
    for (int trial = 0; trial < 6; ++trial) {
      const auto extents = strided_test::random_extents(rank, 3000, rng, trial % 2 == 1);
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial);
      check_copy<double>(TypeParam(), extents, rng);
    }
  }
}

TYPED_TEST(MapTest, CopyEveryElementType) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 8; ++trial) {
    const auto extents = strided_test::random_extents(1 + trial % 5, 2000, rng, true);
    check_copy<float>(TypeParam(), extents, rng);
    check_copy<double>(TypeParam(), extents, rng);
    check_copy<int>(TypeParam(), extents, rng);
    check_copy<long long>(TypeParam(), extents, rng);
    check_copy<std::complex<double>>(TypeParam(), extents, rng);
    check_copy<Kokkos::complex<double>>(TypeParam(), extents, rng);
  }
}

TYPED_TEST(MapTest, LargePermutedCopiesUseEveryThread) {
  // Above the inline threshold: tiles are spread over the host-parallel space's threads.
  std::mt19937 rng(11);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{
           {64, 48, 33}, {257, 255}, {2, 3, 4, 5, 6, 7, 8}, {100000}}) {
    check_copy<double>(TypeParam(), extents, rng);
    check_copy<float>(TypeParam(), extents, rng);
  }
}

TYPED_TEST(MapTest, MDRangeTileScheduleGivesTheSameResults) {
  // The tile grid handed out as a Kokkos MDRangePolicy (tile axes 0 and 1, the outer ones folded).
  strided::Options mdrange = strided::default_options();
  mdrange.tile_policy = strided::TilePolicy::MDRange;
  std::mt19937 rng(12);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{257, 255},
                                             {40, 41, 42},
                                             {9, 10, 11, 12},
                                             {5, 6, 7, 8, 9},
                                             {3, 4, 5, 6, 7, 8},
                                             {2, 3, 4, 5, 6, 7, 8},
                                             {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}})
    check_copy<double>(TypeParam(), extents, rng, mdrange);
}

TYPED_TEST(MapTest, StreamedRunsTileLongSourceRows) {
  // Runs of 40 elements on both sides and the next two axes swapped (W1.perm0213 in small),
  // the destination's runs 43 apart (most start mid-line): a streamed plan keeps the
  // destination's order. A tile takes 7 runs of its next axis (2 KiB), then the source's axes
  // by stride: its next whole (12), then that axis grown to 8 of 10 (a tile of 4096 elements at
  // most): 8 source rows of 480 elements, written as destination runs of 8 x 40.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  std::mt19937 rng(21);
  const std::vector<std::size_t> extents = {40, 12, 10, 6};
  auto src = random_operand<double>(extents, rng, {false, false, false});
  strided_test::fill(src.view, 3);
  const std::vector<std::ptrdiff_t> strides = {1, 430, 43, 430 * 12};
  std::vector<double> buffer(430 * 12 * 6 + 3, strided_test::sentinel<double>());
  const strided::StridedView<double> dst(buffer.data(), buffer.size(), extents, strides, 0);
  const std::string plan = strided::explain(strided::plan(dst, src.view, streaming));
  EXPECT_NE(plan.find("operand 1 strides [1, 480, 40, 4800]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("blocks [40, 8, 12, 1]"), std::string::npos) << plan;
  strided::copy_into(TypeParam(), dst, src.view, streaming);
  EXPECT_TRUE(strided_test::elements_equal(
      dst, [&](const std::vector<std::size_t>& i) { return read(src.view, i); }, src.view));
  // The gaps between the runs keep their sentinel.
  for (std::size_t r = 0; r < buffer.size(); r += 43)
    for (std::size_t g = r + 40; g < r + 43 && g < buffer.size(); ++g)
      EXPECT_EQ(buffer[g], strided_test::sentinel<double>()) << g;
}

TYPED_TEST(MapTest, StreamedGatheredBlocksWalkAlongTheSource) {
  // Rank 16, every extent 2, the source reversed: gathered blocks of 256 x 64 whose tiles walk
  // by the source's stride, their source bands prefetched a band ahead.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  const std::vector<std::size_t> extents(16, 2);
  std::vector<std::ptrdiff_t> row(16), reversed(16);
  for (std::size_t k = 0; k < 16; ++k) row[k] = std::ptrdiff_t(1) << (15 - k);
  for (std::size_t k = 0; k < 16; ++k) reversed[k] = row[15 - k];
  std::vector<double> in(std::size_t(1) << 16), out(in.size(), strided_test::sentinel<double>());
  for (std::size_t e = 0; e < in.size(); ++e) in[e] = 0.5 * static_cast<double>(e) - 7.0;
  const strided::StridedView<const double> src(in.data(), in.size(), extents, reversed, 0);
  const strided::StridedView<double> dst(out.data(), out.size(), extents, row, 0);
  const std::string plan = strided::explain(strided::plan(dst, src, streaming));
  EXPECT_NE(plan.find("strategy gather"), std::string::npos) << plan;
  EXPECT_NE(plan.find("blocks [256, 64"), std::string::npos) << plan;
  strided::copy_into(TypeParam(), dst, src, streaming);
  // Element e of the output is the source's element at e's bits reversed.
  for (std::size_t e = 0; e < out.size(); ++e) {
    std::size_t r = 0;
    for (std::size_t b = 0; b < 16; ++b) r |= ((e >> b) & 1) << (15 - b);
    ASSERT_EQ(out[e], in[r]) << e;
  }
}

TYPED_TEST(MapTest, StreamedTilesOffTheLineGridGoThroughAStage) {
  // The strided-rs suite's 24-d scattered source at rank 16 (two axes' strides moved to the
  // top), the destination column-major in a buffer 16 bytes past a line, as a large
  // std::vector's: tiles of runs of 256 elements, staged whole and streamed out by runs.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  const std::size_t n = std::size_t(1) << 16;
  const std::vector<std::size_t> extents(16, 2);
  std::vector<int> scatter = {0, 1, 2, 3, 14, 4, 15};
  for (int k = 5; k <= 13; ++k) scatter.push_back(k);
  std::vector<std::ptrdiff_t> scattered = {1, 2, 4, 8, 1 << 14, 16, 1 << 15};
  for (std::ptrdiff_t s = 32; s <= (1 << 13); s *= 2) scattered.push_back(s);
  std::vector<std::ptrdiff_t> col(16);
  for (std::size_t k = 0; k < 16; ++k) col[k] = std::ptrdiff_t(1) << k;
  std::vector<double> in(n);
  for (std::size_t e = 0; e < n; ++e) in[e] = 0.25 * static_cast<double>(e) - 9.0;
  const strided::StridedView<const double> a(in.data(), n, extents, scattered, 0);
  const auto src = a.permute(scatter);
  const double sentinel = strided_test::sentinel<double>();
  std::vector<double> buffer(n + 16, sentinel);
  std::size_t lead = 0;  // the destination starts 16 bytes past a line
  while (reinterpret_cast<std::uintptr_t>(buffer.data() + lead) % 64 != 16) ++lead;
  const strided::StridedView<double> dst(buffer.data() + lead, n, extents, col, 0);
  const std::string plan = strided::explain(strided::plan(dst, src, streaming));
  EXPECT_NE(plan.find("strategy tiled"), std::string::npos) << plan;
  EXPECT_NE(plan.find("streaming stores"), std::string::npos) << plan;
  for (const double scale : {1.0, -2.5}) {
    std::fill(buffer.begin(), buffer.end(), sentinel);
    if (scale == 1.0)
      strided::copy_into(TypeParam(), dst, src, streaming);
    else
      strided::copy_scale(TypeParam(), dst, src, scale, streaming);
    EXPECT_TRUE(strided_test::elements_equal(
        dst, [&](const std::vector<std::size_t>& i) { return scale * read(src, i); }, src));
    for (std::size_t e = 0; e < lead; ++e) EXPECT_EQ(buffer[e], sentinel) << e;
    for (std::size_t e = lead + n; e < buffer.size(); ++e) EXPECT_EQ(buffer[e], sentinel) << e;
  }
}

TYPED_TEST(MapTest, StreamingStoresWriteTheSameValues) {
  // Outputs above stream_bytes use non-temporal stores (unit and transposed paths, including
  // unaligned starts): lower the threshold so that test-sized outputs take them.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  std::mt19937 rng(14);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{257, 255},
                                             {40000},
                                             {64, 48, 33},
                                             {24, 20, 36, 18},  // walked along the source
                                             {130, 3, 129},
                                             {4, 4, 4, 16, 16},
                                             {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}}) {
    check_copy<double>(TypeParam(), extents, rng, streaming);
    check_copy<float>(TypeParam(), extents, rng, streaming);
    check_copy<int>(TypeParam(), extents, rng, streaming);
    check_copy<std::complex<double>>(TypeParam(), extents, rng, streaming);
  }
  // The plans of these calls say (and so select) streaming stores.
  {
    auto x = random_operand<double>({257, 255}, rng);
    EXPECT_TRUE(strided::plan(x.view, x.view, streaming).stream_stores);
    EXPECT_FALSE(strided::plan(x.view, x.view).stream_stores);
  }
  auto a = random_operand<double>({300, 200}, rng, {false, false, false});
  strided_test::fill(a.view, 3);
  auto t = random_operand<double>({200, 300}, rng, {false, false, false});
  strided::copy_into(TypeParam(), t.view, a.view.transpose(), streaming);
  expect_elements(
      t,
      [&](const std::vector<std::size_t>& i) {
        return read(a.view, {i[1], i[0]});
      },
      a.view.transpose());
  auto sliced = random_operand<double>({200, 301}, rng, {false, false, false});
  const auto odd = sliced.view.slice(1, 1, 301);  // rows start off the 16-byte grid
  strided::copy_into(TypeParam(), odd, a.view.transpose(), streaming);
  EXPECT_TRUE(strided_test::elements_equal(
      odd,
      [&](const std::vector<std::size_t>& i) {
        return read(a.view, {i[1], i[0]});
      },
      a.view.transpose()));
  check_symmetrize<false, double>(TypeParam(), 300, rng, streaming);
  check_symmetrize<true, double>(TypeParam(), 97, rng, streaming);
  check_symmetrize<false, float>(TypeParam(), 160, rng, streaming);
  check_symmetrize<false, double>(TypeParam(), 520, rng, streaming);
  check_symmetrize<false, float>(TypeParam(), 520, rng, streaming);
}

/// dst (row-major, the extents reversed) = op(src reversed) for copy_into, copy_scale and a user's
/// map, plain and streamed, against the reference.
template <class T, class Exec>
void check_reversed_copies(const Exec& exec, const std::vector<std::size_t>& extents) {
  SCOPED_TRACE(::testing::Message() << sizeof(T) << "-byte elements, " << extents.size()
                                    << "-d, first extent " << extents[0]);
  const std::size_t rank = extents.size();
  std::vector<std::size_t> reversed(rank), back(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    reversed[k] = extents[rank - 1 - k];
    back[k] = rank - 1 - k;
  }
  std::size_t count = 1;
  for (std::size_t e : extents) count *= e;
  const auto src = strided::StridedArray<T>::row_major(extents);
  for (std::size_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<T, std::complex<double>>)
      src.data()[i] = T(0.25 * double(i) - 100.0, 7.0 - 0.5 * double(i));
    else
      src.data()[i] = T(0.25 * double(i) - 100.0);
  }
  auto dst = strided::StridedArray<T>::row_major(reversed);
  const auto from = src.view().permute(back);
  const auto expect = [&](T scale, T shift) {
    return strided_test::elements_equal(
        dst.view(),
        [&](const std::vector<std::size_t>& i) {
          std::vector<std::size_t> j(rank);
          for (std::size_t k = 0; k < rank; ++k) j[rank - 1 - k] = i[k];
          return scale * read(src.view(), j) + shift;
        },
        from);
  };
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  for (const auto& options : {strided::default_options(), streaming}) {
    strided::copy_into(exec, dst.view(), from, options);
    EXPECT_TRUE(expect(T(1.0), T(0.0)));
    strided::copy_scale(exec, dst.view(), from, T(3.0), options);
    EXPECT_TRUE(expect(T(3.0), T(0.0)));
    strided::map_into(
        exec, dst.view(), from, [](T x) { return T(2.0) * x + T(1.0); }, options);
    EXPECT_TRUE(expect(T(2.0), T(1.0)));
  }
}

TYPED_TEST(MapTest, RaggedTransposedTilesMatchTheReference) {
  // Reversed tensors of extents that are not multiples of the 8 x 8 blocks: built-in functions
  // run their ragged edges as overlapping full blocks, a user's function element by element;
  // streamed destination rows that start mid-line (66 or 70 doubles) go through a stage.
  // Gathered groups that take a divisor of an axis (30 x 6, 45 x 5, 150 of 300) start mid-line
  // in some tiles, where their bands start at the first line boundary.
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{30, 30, 5},
                                                                   {17, 17, 3, 2},
                                                                   {9, 23, 4},
                                                                   {8, 13},
                                                                   {255, 9},
                                                                   {70, 75, 3},
                                                                   {9, 100, 66},
                                                                   {30, 30, 30, 2},
                                                                   {45, 25, 18, 3},
                                                                   {40, 6, 300}})
    check_reversed_copies<double>(TypeParam(), extents);
}

TYPED_TEST(MapTest, SixteenByteElementsTransposeThroughTheKernels) {
  // complex<double> blocks of 4 x 4 (one line per row) through the in-register transposes:
  // whole, ragged, gathered at rank 8 and 12, plain and streamed.
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{64, 64},
                                                                   {67, 133},
                                                                   {9, 23, 4},
                                                                   {30, 30, 5},
                                                                   {4, 4, 4, 4, 4, 4, 4, 4},
                                                                   std::vector<std::size_t>(12, 2),
                                                                   {40, 6, 300}})
    check_reversed_copies<std::complex<double>>(TypeParam(), extents);
  // A + B^T: the source that reads across is staged transposed tile by tile.
  using C = std::complex<double>;
  const std::size_t rows = 67, cols = 133;
  const auto a = strided::StridedArray<C>::col_major({rows, cols});
  const auto b = strided::StridedArray<C>::col_major({cols, rows});
  for (std::size_t i = 0; i < rows * cols; ++i) {
    a.data()[i] = C(double(i), -0.5 * double(i));
    b.data()[i] = C(0.25 * double(i) - 3.0, double(i % 17));
  }
  auto sum = strided::StridedArray<C>::col_major({rows, cols});
  const auto bt = b.view().transpose();
  strided::zip_map_into(
      TypeParam(), sum.view(), [](C x, C y) { return x + y; }, a.view(), bt);
  EXPECT_TRUE(strided_test::elements_equal(
      sum.view(),
      [&](const std::vector<std::size_t>& i) { return read(a.view(), i) + read(bt, i); }, a.view(),
      bt));
}

/// B = op(A permuted), A column-major, into a column-major B in a buffer that starts `shift`
/// elements past a 64-byte line, its columns `pad` elements apart beyond their extent, streamed:
/// every element right, nothing outside B written.
template <class T, class Exec>
void check_permute_into_shifted_buffer(const Exec& exec, const std::vector<std::size_t>& extents,
                                       const std::vector<std::size_t>& perm, std::size_t shift,
                                       strided::detail::Strategy strategy, std::size_t pad = 0) {
  SCOPED_TRACE(::testing::Message()
               << sizeof(T) << "-byte elements, " << extents.size() << "-d, first extent "
               << extents[0] << ", " << shift << " past a line, padded by " << pad);
  const std::size_t rank = extents.size();
  std::vector<std::size_t> permuted(rank);
  std::vector<std::ptrdiff_t> strides(rank);
  std::size_t count = 1, span = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    permuted[k] = extents[perm[k]];
    strides[k] = static_cast<std::ptrdiff_t>(span);
    count *= permuted[k];
    span *= permuted[k] + (k == 0 ? pad : 0);
  }
  const auto a = strided::StridedArray<T>::col_major(extents);
  for (std::size_t i = 0; i < count; ++i) a.data()[i] = T(i % 1009) - T(500);
  const std::size_t line = 64 / sizeof(T);
  std::vector<T> buffer(span + 3 * line, strided_test::sentinel<T>());
  const auto first = static_cast<std::ptrdiff_t>(
      (line - reinterpret_cast<std::uintptr_t>(buffer.data()) / sizeof(T) % line) % line + shift);
  const strided::StridedView<T> view(buffer.data(), buffer.size(), permuted, strides, first);
  const strided_test::Operand<T> b(std::move(buffer), view);  // moving keeps the address
  const auto from = a.view().permute(perm);
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  const auto plan = strided::plan(b.view, from, streaming);
  ASSERT_TRUE(plan.stream_stores);
  ASSERT_EQ(plan.strategy, strategy);
  const auto expect = [&](T scale, T offset) {
    EXPECT_TRUE(strided_test::elements_equal(
        b.view,
        [&](const std::vector<std::size_t>& i) {
          std::vector<std::size_t> j(rank);
          for (std::size_t k = 0; k < rank; ++k) j[perm[k]] = i[k];
          return scale * read(a.view(), j) + offset;
        },
        from));
    EXPECT_TRUE(strided_test::outside_untouched(b));
  };
  strided::copy_into(exec, b.view, from, streaming);  // partial bands overlap their neighbours
  exec.fence();
  expect(T(1), T(0));
  strided::map_into(  // a user's function: partial bands element by element
      exec, b.view, from, [](T x) { return T(2) * x + T(1); }, streaming);
  exec.fence();
  expect(T(2), T(1));
}

TYPED_TEST(MapTest, PermutesIntoBuffersThatStartMidLine) {
  // A destination buffer that starts mid-line with rows of whole lines (a large std::vector):
  // the blocks run from each row's (or gathered run's) first line boundary, the lead band and
  // the ragged end through plain stores.
  using strided::detail::Strategy;
  for (std::size_t shift : {1, 2, 5, 7}) {
    check_permute_into_shifted_buffer<double>(TypeParam(), {40, 64}, {1, 0}, shift,
                                              Strategy::Transpose);
    check_permute_into_shifted_buffer<double>(TypeParam(), {19, 264}, {1, 0}, shift,
                                              Strategy::Transpose);
    check_permute_into_shifted_buffer<double>(TypeParam(), {9, 16}, {1, 0}, shift,
                                              Strategy::Transpose);
    check_permute_into_shifted_buffer<float>(TypeParam(), {33, 48}, {1, 0}, shift + 8,
                                             Strategy::Transpose);
    // HPTT's 6-d 112 x 5 x 32 x 15 x 15 x 15 at (2 0 4 1 5 3), smaller: the destination's
    // group is runs of 32 elements, each starting mid-line and following the last (gathered
    // into a stage, then copied out as one run).
    check_permute_into_shifted_buffer<double>(TypeParam(), {112, 5, 32, 3, 2, 3},
                                              {2, 0, 4, 1, 5, 3}, shift, Strategy::Gather);
    check_permute_into_shifted_buffer<float>(TypeParam(), {112, 5, 32, 3, 2, 3}, {2, 0, 4, 1, 5, 3},
                                             shift + 8, Strategy::Gather);
    // The same permutation of 32 x 6 x 32 x 3 x 2 x 3: the runs follow one another in two
    // segments of 32 along the block's second axis.
    check_permute_into_shifted_buffer<double>(TypeParam(), {32, 6, 32, 3, 2, 3}, {2, 0, 4, 1, 5, 3},
                                              shift, Strategy::Gather);
  }
}

TYPED_TEST(MapTest, StreamsRowsThatFollowEachOtherAsOneRun) {
  // Both sides share their unit axis, and the destination's next axis continues its rows where
  // the source's does not (HPTT's 6-d 16 x 32 x 15 x 32 x 15 x 15 at (0 3 2 5 4 1), smaller): a
  // streamed tile stores its destination as one run from its first line boundary, whether its
  // rows are whole lines (16 doubles, shift 0) or not (shifted, 15 doubles, 5 floats: a line
  // then holds parts of several rows).
  using strided::detail::Strategy;
  for (std::size_t shift : {0, 1, 2, 7}) {
    check_permute_into_shifted_buffer<double>(TypeParam(), {16, 8, 5, 6}, {0, 2, 1, 3}, shift,
                                              Strategy::Tiled);
    check_permute_into_shifted_buffer<double>(TypeParam(), {15, 8, 5, 6}, {0, 2, 1, 3}, shift,
                                              Strategy::Tiled);
    check_permute_into_shifted_buffer<float>(TypeParam(), {5, 12, 9}, {0, 2, 1}, shift + 3,
                                             Strategy::Tiled);
  }
}

TYPED_TEST(MapTest, TransposesIntoPaddedRowsWithARaggedEnd) {
  // Destination rows of whole lines (padded to 24 or 32 elements) that start on a line, with
  // 20 or 21 elements each: the last band of a built-in function is a full band shifted back
  // over its neighbour, off the line grid, so it must not take the streaming stores.
  using strided::detail::Strategy;
  for (std::size_t pad : {4, 12}) {
    check_permute_into_shifted_buffer<double>(TypeParam(), {37, 20}, {1, 0}, 0, Strategy::Transpose,
                                              pad);
    check_permute_into_shifted_buffer<float>(TypeParam(), {37, 20}, {1, 0}, 0, Strategy::Transpose,
                                             pad + 8);
  }
  check_permute_into_shifted_buffer<double>(TypeParam(), {37, 21}, {1, 0}, 0, Strategy::Transpose,
                                            3);
}

/// dst (m x n, rows `pitch` elements apart on a line boundary, the rest of each row left a
/// sentinel) = f(A^T, B^T) streamed, A and B n x m: the column bands of streamed transposes,
/// with tiles that end mid-block on both axes, through a built-in copy (whose ragged blocks
/// shift back over their neighbours), a user's function (element by element there) and two
/// sources read across.
/// `shift` elements past a line boundary (the rows' partial first lines go element by element).
template <class T, class Exec>
void check_column_bands(const Exec& exec, std::size_t m, std::size_t n, std::size_t pitch,
                        std::size_t shift = 0) {
  SCOPED_TRACE(::testing::Message() << sizeof(T) << "-byte elements, " << m << " x " << n
                                    << ", pitch " << pitch << ", shift " << shift);
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 0;
  std::vector<T> a(n * m), b(n * m);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = T(0.5 * double(i) - 3.0);
    b[i] = T(2.0 - 0.25 * double(i));
  }
  const std::size_t line = 64 / sizeof(T);
  std::vector<T> storage(m * pitch + 2 * line);
  const std::size_t lead = (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64;
  T* const out = storage.data() + lead / sizeof(T) + shift;
  const T sentinel = strided_test::sentinel<T>();
  const strided::StridedView<T> dst(out, m * pitch, {m, n},
                                    {static_cast<std::ptrdiff_t>(pitch), 1});
  const std::ptrdiff_t across[] = {1, static_cast<std::ptrdiff_t>(m)};
  const strided::StridedView<const T> at(a.data(), a.size(), {m, n}, {across[0], across[1]});
  const strided::StridedView<const T> bt(b.data(), b.size(), {m, n}, {across[0], across[1]});
  const auto plan = strided::plan(dst, at, streaming);
  ASSERT_EQ(plan.strategy, strided::detail::Strategy::Transpose);
  // Column-band tiles only for rows that start lines (else rows would end mid-line twice per
  // tile).
  EXPECT_EQ(plan.column_bands, shift == 0);
  EXPECT_EQ(strided::explain(plan).find("column bands") != std::string::npos, shift == 0);
  // Packed source rows (m short) fetch the next tile between this one's blocks: both kinds of
  // fetch run below.
  const bool packed = plan.blocks[0] * m * sizeof(T) <= streaming.planner.block_bytes;
  EXPECT_EQ(plan.paced_fetch, shift == 0 && packed);
  EXPECT_EQ(strided::explain(plan).find("a few lines per block") != std::string::npos,
            shift == 0 && packed);
  const auto expect = [&](auto&& want) {
    exec.fence();
    for (T* p = storage.data(); p < out; ++p) ASSERT_EQ(*p, sentinel) << "before the view";
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < pitch; ++j)
        ASSERT_EQ(out[i * pitch + j], j < n ? T(want(a[j * m + i], b[j * m + i])) : sentinel)
            << i << ", " << j;
  };
  std::fill(storage.begin(), storage.end(), sentinel);
  strided::copy_into(exec, dst, at, streaming);
  expect([](T x, T) { return x; });
  std::fill(out, out + m * pitch, sentinel);
  strided::map_into(
      exec, dst, at, [](T x) { return T(2.0) * x + T(1.0); }, streaming);
  expect([](T x, T) { return T(2.0) * x + T(1.0); });
  std::fill(out, out + m * pitch, sentinel);
  strided::zip_map_into(
      exec, dst, [](T x, T y) { return x - y; }, at, bt, streaming);
  expect([](T x, T y) { return x - y; });
  if (shift == 0) return;
  // A kept plan made for rows that start lines, run on these: column bands from each row's
  // first whole line, the partial lines around them element by element.
  const strided::StridedView<T> on_lines(out - shift, m * pitch, {m, n},
                                         {static_cast<std::ptrdiff_t>(pitch), 1});
  const auto kept = strided::make_plan(on_lines, at, streaming);
  ASSERT_TRUE(kept.plan().column_bands);
  std::fill(storage.begin(), storage.end(), sentinel);
  strided::copy_into(exec, kept, dst, at);
  expect([](T x, T) { return x; });
  const auto kept_zip = strided::make_plan(on_lines, at, bt, streaming);
  std::fill(storage.begin(), storage.end(), sentinel);
  strided::zip_map_into(
      exec, kept_zip, dst, [](T x, T y) { return T(3.0) * x - y; }, at, bt);
  expect([](T x, T y) { return T(3.0) * x - y; });
}

TYPED_TEST(MapTest, StreamedTransposesInColumnBands) {
  check_column_bands<double>(TypeParam(), 203, 139, 144);  // ragged tiles on both axes
  check_column_bands<double>(TypeParam(), 64, 64, 64);
  check_column_bands<double>(TypeParam(), 9, 8, 8);  // one block and a row
  check_column_bands<double>(TypeParam(), 300, 1000, 1000);
  check_column_bands<float>(TypeParam(), 203, 139, 144);
  check_column_bands<int>(TypeParam(), 70, 37, 48);
  check_column_bands<std::complex<double>>(TypeParam(), 50, 37, 40);
  // Rows that start mid-line (a large std::vector's buffer starts 16 bytes past a line).
  check_column_bands<double>(TypeParam(), 203, 139, 144, 2);
  check_column_bands<double>(TypeParam(), 300, 1000, 1000, 7);
  check_column_bands<float>(TypeParam(), 203, 139, 144, 5);
  check_column_bands<std::complex<double>>(TypeParam(), 50, 37, 40, 1);
}

/// The lines that MapBody::fetch_tile asks for ahead of each tile of a column-band plan, at once
/// or queued for a paced fetch: every line of the tile's source rows, row by row, from the
/// tile's origin (rows 203 doubles apart, so each starts at another point of a line), ragged
/// tiles included. Only speed depends on them, so only this test sees them. (Host code: device
/// passes have no fetch_tile.)
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
TEST(ColumnBands, EachTileFetchesItsOwnSourceRows) {
  using strided::detail::TileCursor;
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 0;
  const std::size_t m = 203, n = 139;  // ragged tiles on both axes
  std::vector<double> a(m * n);
  alignas(64) static double out[208 * 144];
  const strided::StridedView<double> dst(out, 208 * 144, {m, n}, {144, 1});
  const strided::StridedView<const double> at(a.data(), a.size(), {m, n},
                                              {1, static_cast<std::ptrdiff_t>(m)});
  const auto plan = strided::plan(dst, at, streaming);
  ASSERT_TRUE(plan.column_bands);
  auto body = strided::detail::map_body(
      dst, [](double x) { return 2.0 * x; }, at);
  body.stream = true;
  // Plan axis 0 runs along the destination's rows (j), axis 1 along the sources' (i).
  const std::size_t rows = plan.blocks[0], side = plan.blocks[1];
  ASSERT_EQ(plan.dims[0], n);
  TileCursor<2> tile(plan, 0);
  std::size_t ragged = 0;
  for (std::size_t t = 0; t < plan.tile_count; ++t, tile.next(plan)) {
    SCOPED_TRACE(::testing::Message() << "tile " << t);
    const std::size_t j0 = tile.coord[0] * rows, i0 = tile.coord[1] * side;
    const std::size_t nj = std::min(rows, n - j0), ni = std::min(side, m - i0);
    ragged += nj < rows || ni < side;
    std::vector<const char*> want;
    for (std::size_t j = j0; j < j0 + nj; ++j) {
      const auto first = reinterpret_cast<std::uintptr_t>(a.data() + j * m + i0);
      const auto last = reinterpret_cast<std::uintptr_t>(a.data() + j * m + i0 + ni) - 1;
      for (std::uintptr_t line = first - first % 64; line <= last; line += 64)
        want.push_back(reinterpret_cast<const char*>(line));
    }
    std::vector<const char*> got;
    const auto record = [&](const char* line) { got.push_back(line); };
    body.fetch_tile(plan, tile, record);
    ASSERT_EQ(got, want);
    // Paced (as the planner marks tiles of packed source rows): queued for the tile before to
    // fetch between its blocks, the same lines in the same order.
    auto paced = plan;
    paced.paced_fetch = true;
    strided::detail::RowsAhead ahead;
    body.next_tile_rows = &ahead;
    got.clear();
    body.fetch_tile(paced, tile, record);
    EXPECT_TRUE(got.empty());
    ASSERT_EQ(ahead.lines_left(), want.size());
    ahead.step(want.size(), record);
    ASSERT_EQ(got, want);
    // Not paced: fetched at once, whatever the body holds.
    got.clear();
    body.fetch_tile(plan, tile, record);
    ASSERT_EQ(got, want);
    body.next_tile_rows = nullptr;
  }
  EXPECT_GT(ragged, 0u);
  // Not streamed: nothing is fetched.
  body.stream = false;
  std::size_t calls = 0;
  body.fetch_tile(plan, TileCursor<2>(plan, 0), [&](const char*) { ++calls; });
  EXPECT_EQ(calls, 0u);
}
#endif

TYPED_TEST(MapTest, InPlaceScaleOfGappedReversedLayouts) {
  // The destination as its own source (the one overlap allowed): partial bands of a gathered
  // plan must not run twice over an element, or it is scaled twice (found by the fuzzer).
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 0;
  for (std::size_t shift = 0; shift < 8; ++shift) {
    SCOPED_TRACE(::testing::Message() << "origin " << shift);
    std::vector<std::complex<double>> z(200);
    std::vector<double> x(200);
    for (std::size_t i = 0; i < z.size(); ++i) {
      z[i] = {double(i), -double(i)};
      x[i] = double(i);
    }
    const std::ptrdiff_t origin = 100 + static_cast<std::ptrdiff_t>(shift);
    const strided::StridedView<std::complex<double>> vz(z.data(), z.size(), {2, 3, 4}, {-2, 4, -12},
                                                        origin);
    const strided::StridedView<double> vx(x.data(), x.size(), {2, 3, 4}, {-2, 4, -12}, origin);
    ASSERT_EQ(strided::plan(vx, vx, streaming).strategy, strided::detail::Strategy::Gather);
    strided::copy_scale(TypeParam(), vz, vz, std::complex<double>(-1.0, 0.0), streaming);
    strided::copy_scale(TypeParam(), vx, vx, 3.0, streaming);
    TypeParam().fence();
    std::vector<bool> in_view(200, false);
    for (std::ptrdiff_t i = 0; i < 2; ++i)
      for (std::ptrdiff_t j = 0; j < 3; ++j)
        for (std::ptrdiff_t k = 0; k < 4; ++k) in_view[origin - 2 * i + 4 * j - 12 * k] = true;
    for (std::size_t i = 0; i < 200; ++i) {
      const double sign = in_view[i] ? -1.0 : 1.0;
      ASSERT_EQ(z[i], std::complex<double>(sign * double(i), -sign * double(i))) << i;
      ASSERT_EQ(x[i], (in_view[i] ? 3.0 : 1.0) * double(i)) << i;
    }
  }
}

TYPED_TEST(MapTest, BroadcastSourceWithZeroStrides) {
  std::mt19937 rng(5);
  auto row = random_operand<double>({1, 37, 1}, rng);
  strided_test::fill(row.view, 9);
  const auto src = row.view.broadcast({50, 37, 20});
  auto dst = random_operand<double>({50, 37, 20}, rng);
  strided::copy_into(TypeParam(), dst.view, src);
  expect_elements(
      dst,
      [&](const std::vector<std::size_t>& i) {
        return read(row.view, {0, i[1], 0});
      },
      src);
}

}  // namespace
