// Axis reductions against a reference fold, their error cases, and each output's bits against its
// own full reduction; each on every execution space.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"
#include "reduce_test.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::bits;
using strided_test::documented_fold;
using strided_test::fill_small_integers;
using strided_test::for_each_index;
using strided_test::random_operand;
using strided_test::read;
using strided_test::ReduceTest;

TYPED_TEST_SUITE(ReduceTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(ReduceTest, AxisReductionsMatchReference) {
  std::mt19937 rng(41);
  const TypeParam exec;
  const std::vector<std::vector<std::size_t>> shapes = {
      {6, 7}, {300, 200}, {4, 5, 6}, {2, 3, 4, 5}, {2, 1, 3, 0}, {70000, 2}, {3, 40000}};
  for (const auto& shape : shapes) {
    auto a = random_operand<double>(shape, rng);
    fill_small_integers(a.view, 7);
    const std::size_t rank = shape.size();
    for (unsigned mask = 0; mask < (1u << rank); ++mask) {
      std::vector<std::size_t> axes, kept_dims;
      for (std::size_t k = 0; k < rank; ++k)
        ((mask >> k) & 1 ? axes : kept_dims).push_back((mask >> k) & 1 ? k : shape[k]);
      if (rng() % 2) std::reverse(axes.begin(), axes.end());  // order does not matter
      SCOPED_TRACE(::testing::Message() << "shape rank " << rank << " mask " << mask);
      auto dst = random_operand<double>(kept_dims, rng);
      strided::sum_axes(exec, dst.view, a.view, axes);
      auto mx = random_operand<double>(kept_dims, rng);
      strided::max_axes(exec, mx.view, a.view, axes);
      // Reference: accumulate every source element into its output.
      std::vector<double> want(dst.view.size() ? dst.view.size() : 1, 0.0);
      std::vector<double> want_max(want.size(), -INFINITY);
      for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
        std::size_t o = 0;
        for (std::size_t k = 0, kk = 0; k < rank; ++k)
          if (!((mask >> k) & 1)) o = o * kept_dims[kk++] + i[k];
        want[o] += read(a.view, i);
        want_max[o] = std::max(want_max[o], read(a.view, i));
      });
      // Output i's reference is at its row-major offset (for_each_index's order).
      const auto row_major = [&](const std::vector<std::size_t>& i) {
        std::size_t o = 0;
        for (std::size_t k = 0; k < i.size(); ++k) o = o * kept_dims[k] + i[k];
        return o;
      };
      EXPECT_TRUE(strided_test::elements_equal(
          dst.view, [&](const std::vector<std::size_t>& i) { return want[row_major(i)]; }, a.view));
      EXPECT_TRUE(strided_test::elements_equal(
          mx.view, [&](const std::vector<std::size_t>& i) { return want_max[row_major(i)]; },
          a.view));
    }
  }
}

TYPED_TEST(ReduceTest, AxisErrorsLeaveTheDestinationUntouched) {
  const TypeParam exec;
  std::vector<double> s(24, 1.0), d(8, 5.0);
  strided::StridedView<double> src(s.data(), 24, {2, 3, 4}, {12, 4, 1});
  const auto expect_code = [&](strided::ErrorCode code, auto&& call) {
    const std::vector<double> before = d;
    try {
      call();
      ADD_FAILURE() << "expected " << strided::to_string(code);
    } catch (const strided::Error& e) {
      EXPECT_EQ(e.code(), code) << e.what();
    }
    EXPECT_EQ(d, before);
  };
  strided::StridedView<double> d8(d.data(), 8, {2, 4}, {4, 1});
  expect_code(strided::ErrorCode::InvalidAxis, [&] { strided::sum_axes(exec, d8, src, {3}); });
  expect_code(strided::ErrorCode::InvalidAxis, [&] { strided::sum_axes(exec, d8, src, {1, 1}); });
  // Axes are validated before the destination's shape.
  strided::StridedView<double> d3(d.data(), 8, {3}, {1});
  expect_code(strided::ErrorCode::InvalidAxis, [&] { strided::sum_axes(exec, d3, src, {7}); });
  expect_code(strided::ErrorCode::RankMismatch, [&] { strided::sum_axes(exec, d3, src, {1}); });
  strided::StridedView<double> d_wrong(d.data(), 8, {2, 3}, {3, 1});
  expect_code(strided::ErrorCode::ShapeMismatch,
              [&] { strided::sum_axes(exec, d_wrong, src, {1}); });
  // Overlap between dst and src, and a non-injective dst.
  strided::StridedView<double> inside(s.data(), 24, {2, 4}, {4, 1});
  const std::vector<double> s_before = s;
  try {
    strided::sum_axes(exec, inside, src, {1});
    ADD_FAILURE() << "expected OverlappingInputOutput";
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), strided::ErrorCode::OverlappingInputOutput);
  }
  EXPECT_EQ(s, s_before);
  strided::StridedView<double> bcast(d.data(), 8, {2, 4}, {0, 1});
  expect_code(strided::ErrorCode::NonInjectiveOutput,
              [&] { strided::sum_axes(exec, bcast, src, {1}); });
  expect_code(strided::ErrorCode::InvalidAxis, [&] {
    std::vector<double> one(1, 0.0);
    strided::StridedView<double> scalar(one.data(), 1, std::vector<std::size_t>{},
                                        std::vector<std::ptrdiff_t>{});
    strided::reduce_axis(
        exec, scalar, 0, [](double x) { return x; }, [](double x, double y) { return x + y; }, 0.0);
  });
  std::vector<double> other(12, 1.0);
  strided::StridedView<double> wrong_b(other.data(), 12, {3, 4}, {4, 1});
  expect_code(strided::ErrorCode::RankMismatch,
              [&] { strided::dot_axes(exec, d8, src, wrong_b, {1}); });
}

TYPED_TEST(ReduceTest, GpuScaleAxisReductionsTakeTheGrainOfAllTheirElements) {
  // 2^22 elements or more in all: every output's axis is cut by the grain of all of them
  // (2048 x 2049: tiles of at most 512, so each output folds in 4 or 8 tiles), under both
  // algorithms: the host's column sweep and row folds, and the device's column and run folds.
  const TypeParam exec;
  strided::Options device;
  device.algorithm = strided::Algorithm::Device;
  const std::size_t rows = 2048, cols = 2049, all = rows * cols;
  auto a = strided::StridedArray<double>::from_fn_row_major(
      {rows, cols},
      [](const strided::MultiIndex& i) { return std::sin(double(i[0] * 37 + i[1])); });
  const auto column = [&](std::size_t j, bool squared) {
    std::vector<double> x(rows);
    for (std::size_t i = 0; i < rows; ++i) x[i] = a(i, j) * (squared ? a(i, j) : 1.0);
    return x;
  };
  const auto row = [&](std::size_t i) {
    return std::vector<double>(a.data() + i * cols, a.data() + (i + 1) * cols);
  };
  for (const strided::Options& options : {strided::Options{}, device}) {
    auto colsum = strided::StridedArray<double>::row_major({cols});
    auto rowsum = strided::StridedArray<double>::row_major({rows});
    auto coldot = strided::StridedArray<double>::row_major({cols});
    strided::sum_axes(exec, colsum.view(), a.view(), {0}, options);
    strided::sum_axes(exec, rowsum.view(), a.view(), {1}, options);
    strided::dot_axes(exec, coldot.view(), a.view(), a.view(), {0}, options);
    for (std::size_t j = 0; j < cols; ++j) {
      ASSERT_EQ(bits(colsum(j)), bits(0.0 + documented_fold(column(j, false), all))) << j;
      ASSERT_EQ(bits(coldot(j)), bits(0.0 + documented_fold(column(j, true), all))) << j;
    }
    for (std::size_t i = 0; i < rows; ++i)
      ASSERT_EQ(bits(rowsum(i)), bits(0.0 + documented_fold(row(i), all))) << i;
  }
}

TYPED_TEST(ReduceTest, EachOutputHasTheBitsOfItsOwnFullReduction) {
  // Below 2^22 elements in all (GpuScaleAxisReductions... above), column sums take a sweep across
  // outputs (rows outer, bands as wide as the L2 holds, groups of 4 rows per lane), row sums fold
  // each row: either way an output's bits are those of strided::sum (and strided::dot) over its own
  // sub-tensor. Rows: fewer than the 16 lanes, one group, ragged tails; widths: under one vector
  // band, several bands of 256, and more than one band of a 1 MiB L2 (4096 f64 outputs).
  const TypeParam exec;
  for (std::size_t rows : {5, 16, 17, 83, 700})
    for (std::size_t cols : {37, 531, 4500}) {
      auto a = strided::StridedArray<double>::from_fn_row_major(
          {rows, cols},
          [](const strided::MultiIndex& i) { return std::sin(double(i[0] * 37 + i[1])); });
      auto colsum = strided::StridedArray<double>::row_major({cols});
      auto rowsum = strided::StridedArray<double>::row_major({rows});
      strided::sum_axes(exec, colsum.view(), a.view(), {0});
      strided::sum_axes(exec, rowsum.view(), a.view(), {1});
      ASSERT_TRUE(strided_test::elements_same_bits(
          colsum.view(),
          [&](const std::vector<std::size_t>& j) {
            return strided::sum(exec, a.view().slice(1, j[0], j[0] + 1));
          },
          a.view()))
          << rows << " x " << cols << ", column sums";
      ASSERT_TRUE(strided_test::elements_same_bits(
          rowsum.view(),
          [&](const std::vector<std::size_t>& i) {
            return strided::sum(exec, a.view().slice(0, i[0], i[0] + 1));
          },
          a.view()))
          << rows << " x " << cols << ", row sums";
      auto coldot = strided::StridedArray<double>::row_major({cols});
      strided::dot_axes(exec, coldot.view(), a.view(), a.view(), {0});
      ASSERT_TRUE(strided_test::elements_same_bits(
          coldot.view(),
          [&](const std::vector<std::size_t>& j) {
            const auto column = a.view().slice(1, j[0], j[0] + 1);
            return strided::dot(exec, column, column);
          },
          a.view()))
          << rows << " x " << cols << ", column dots";
    }
}

TYPED_TEST(ReduceTest, FewLongAxisReductionsKeepEachOutputsBits) {
  // Outputs of more than 16 tiles each go through a buffer of tile partials. A host folds column
  // sums there in bands of outputs that lie side by side in the source (each line read once), and
  // anything else in even runs of (output, tile) pairs; a device folds one pair per team. Every
  // output still has the bits of its own full reduction. Tiles of 256 and a 64 KiB L2 (bands of
  // 256 outputs) make small shapes take those paths: ragged last tiles, bands narrower than one
  // vector, a second partial band, the unit axis after another kept axis, gapped outputs.
  const TypeParam exec;
  strided::Options small;
  small.planner.max_tile_elements = 256;
  small.planner.l2_bytes = 64 << 10;
  strided::Options device = small;
  device.algorithm = strided::Algorithm::Device;
  const auto value = [](const strided::MultiIndex& i) {
    double x = 0;
    for (std::size_t k = 0; k < i.size(); ++k) x = x * 31 + double(i[k]);
    return std::sin(x);
  };
  // Each output against strided::sum of its own sub-tensor: the kept axes sliced to one index.
  const auto check = [&](const strided::StridedView<double>& src,
                         const std::vector<std::size_t>& axes, const strided::Options& options,
                         const char* what) {
    std::vector<std::size_t> kept, kept_dims;
    for (std::size_t k = 0; k < src.rank(); ++k)
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) {
        kept.push_back(k);
        kept_dims.push_back(src.extents()[k]);
      }
    auto out = strided::StridedArray<double>::row_major(kept_dims);
    strided::sum_axes(exec, out.view(), src, axes, options);
    return strided_test::elements_same_bits(
               out.view(),
               [&](const std::vector<std::size_t>& o) {
                 auto sub = src;
                 for (std::size_t k = 0; k < kept.size(); ++k)
                   sub = sub.slice(kept[k], o[k], o[k] + 1);
                 return strided::sum(exec, sub, options);
               },
               src)
           << what;
  };
  for (const strided::Options& options : {small, device}) {
    for (std::size_t cols : {3, 8, 37, 300}) {
      auto a = strided::StridedArray<double>::from_fn_row_major({4099, cols}, value);
      ASSERT_TRUE(check(a.view(), {0}, options, "column sums"));
      ASSERT_TRUE(check(a.view().slice(0, 4098, 0, -1), {0}, options, "reversed column sums"));
      ASSERT_TRUE(check(a.view().permute({1, 0}), {1}, options, "row sums"));
      ASSERT_TRUE(check(a.view().slice(1, 0, cols, 2), {0}, options, "every other column"));
    }
    auto b = strided::StridedArray<double>::from_fn_row_major({5, 4099}, value);
    ASSERT_TRUE(check(b.view(), {1}, options, "row sums of 4099"));
    ASSERT_TRUE(check(b.view().slice(1, 4098, 0, -1), {1}, options, "reversed rows"));
    auto c = strided::StridedArray<double>::from_fn_row_major({5, 4099, 40}, value);
    ASSERT_TRUE(check(c.view(), {1}, options, "middle axis: unit outputs after another axis"));
    ASSERT_TRUE(
        check(c.view().permute({2, 1, 0}), {1}, options, "middle axis, unit outputs first"));
    ASSERT_TRUE(check(c.view(), {0, 1}, options, "two reduced axes"));
  }
}

}  // namespace
