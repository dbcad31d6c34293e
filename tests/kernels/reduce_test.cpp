// Reductions against a reference fold on many layouts, their semantics (empty inputs, NaN, init
// once, integer wrap), axis reductions and every error case; each on every execution space.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::for_each_index;
using strided_test::random_operand;
using strided_test::read;

template <class Exec>
class ReduceTest : public ::testing::Test {};
TYPED_TEST_SUITE(ReduceTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// Small integers in floating point: every partial sum is exact, so any fold order gives the
/// reference value bit for bit.
template <class T>
void fill_small_integers(const strided::StridedView<T>& v, std::size_t salt) {
  std::size_t n = salt;
  for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(v, i, static_cast<T>(static_cast<int>(n++ * 7 % 13) - 6));
  });
}

TYPED_TEST(ReduceTest, FullReductionsMatchReferenceOnManyLayouts) {
  std::mt19937 rng(31);
  for (std::size_t rank : {0, 1, 2, 3, 4, 5, 6, 7, 8, 25}) {
    for (int trial = 0; trial < 4; ++trial) {
      const auto extents =
          strided_test::random_extents(rank, trial == 3 ? 70000 : 2000, rng, trial == 1);
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial);
      auto a = random_operand<double>(extents, rng);
      auto b = random_operand<double>(extents, rng);
      fill_small_integers(a.view, 1);
      fill_small_integers(b.view, 5);
      double sum = 0, sum_sq = 0, dot = 0, mx = -INFINITY, mn = INFINITY;
      for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
        const double x = read(a.view, i), y = read(b.view, i);
        sum += x;
        sum_sq += x * x;
        dot += x * y;
        mx = std::max(mx, x);
        mn = std::min(mn, x);
      });
      const TypeParam exec;
      EXPECT_EQ(strided::sum(exec, a.view), sum);
      EXPECT_EQ(strided::sum_squares(exec, a.view), sum_sq);
      EXPECT_EQ(strided::dot(exec, a.view, b.view), dot);
      EXPECT_EQ(strided::max(exec, a.view), mx);
      EXPECT_EQ(strided::min(exec, a.view), mn);
      EXPECT_EQ(strided::reduce(
                    exec, a.view, [](double x) { return x * 2; },
                    [](double x, double y) { return x + y; }, 0.0),
                2 * sum);
      // Broadcast (stride 0) and reversed inputs.
      EXPECT_EQ(strided::sum(exec, a.view.conj()), sum);
      if (rank > 0) {
        EXPECT_EQ(strided::sum(exec, a.view.reverse(0)), sum);
      }
    }
  }
}

TYPED_TEST(ReduceTest, ElementTypesAndWidening) {
  std::mt19937 rng(37);
  const TypeParam exec;
  auto i32 = random_operand<int>({50, 40}, rng);
  fill_small_integers(i32.view, 2);
  auto i64 = random_operand<long long>({50, 40}, rng);
  fill_small_integers(i64.view, 3);
  long long s32 = 0, s64 = 0;
  for_each_index(i32.view.extents(), [&](const std::vector<std::size_t>& i) {
    s32 += read(i32.view, i);
    s64 += read(i64.view, i);
  });
  EXPECT_EQ(strided::sum(exec, i32.view), static_cast<int>(s32));
  EXPECT_EQ(strided::sum(exec, i64.view), s64);
  // Integers wrap: the product of many +-6 overflows; compare with wrapping unsigned arithmetic.
  unsigned long long wrapped = 1;
  for_each_index(i64.view.extents(), [&](const std::vector<std::size_t>& i) {
    wrapped *= static_cast<unsigned long long>(read(i64.view, i) == 0 ? 1 : read(i64.view, i));
  });
  auto nonzero = random_operand<long long>({50, 40}, rng);
  strided::map_into(exec, nonzero.view, i64.view, [](long long x) { return x == 0 ? 1LL : x; });
  EXPECT_EQ(static_cast<unsigned long long>(strided::product(exec, nonzero.view)), wrapped);

  // An f32 dot accumulated in f64: products and sums in double.
  auto f = random_operand<float>({1000, 3}, rng);
  auto g = random_operand<float>({1000, 3}, rng);
  std::size_t n = 0;
  for_each_index(f.view.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(f.view, i, 1.0f + 1e-7f * static_cast<float>(n));
    strided_test::write(g.view, i, 1.0f - 3e-7f * static_cast<float>(n++));
  });
  double wide = 0;
  for_each_index(f.view.extents(), [&](const std::vector<std::size_t>& i) {
    wide += double(read(f.view, i)) * double(read(g.view, i));
  });
  const double got = strided::dot<double>(exec, f.view, g.view);
  static_assert(std::is_same_v<decltype(strided::dot<double>(exec, f.view, g.view)), double>);
  static_assert(std::is_same_v<decltype(strided::dot(exec, f.view, g.view)), float>);
  EXPECT_NEAR(got, wide, 1e-9 * 3000);

  // Complex: the dot does not conjugate; dot(a.conj(), a) is the squared norm.
  auto c = random_operand<std::complex<double>>({30, 7}, rng);
  strided_test::fill(c.view, 4);
  std::complex<double> plain = 0;
  double norm = 0;
  for_each_index(c.view.extents(), [&](const std::vector<std::size_t>& i) {
    plain += read(c.view, i) * read(c.view, i);
    norm += std::norm(read(c.view, i));
  });
  EXPECT_EQ(strided::dot(exec, c.view, c.view), plain);
  EXPECT_EQ(strided::dot(exec, c.view.conj(), c.view), std::complex<double>(norm, 0));
  EXPECT_EQ(strided::sum(exec, c.view.conj()), std::conj(strided::sum(exec, c.view)));
}

TYPED_TEST(ReduceTest, EmptyNanAndInitSemantics) {
  const TypeParam exec;
  std::vector<double> buf(10, 1.0);
  strided::StridedView<double> empty(buf.data(), 10, {3, 0}, {1, 3});
  EXPECT_EQ(strided::sum(exec, empty), 0.0);
  EXPECT_EQ(strided::product(exec, empty), 1.0);
  EXPECT_EQ(strided::sum_squares(exec, empty), 0.0);
  EXPECT_EQ(strided::max(exec, empty), -INFINITY);
  EXPECT_EQ(strided::min(exec, empty), INFINITY);
  std::vector<int> ibuf(4, 1);
  strided::StridedView<int> iempty(ibuf.data(), 4, {0}, {1});
  EXPECT_EQ(strided::max(exec, iempty), std::numeric_limits<int>::lowest());
  EXPECT_EQ(strided::min(exec, iempty), std::numeric_limits<int>::max());
  // init enters exactly once per result, even with many tiles and lanes.
  std::vector<double> ones(100000, 1.0);
  strided::StridedView<double> v(ones.data(), ones.size(), {ones.size()}, {1});
  const auto plus = [](double x, double y) { return x + y; };
  const auto id = [](double x) { return x; };
  EXPECT_EQ(strided::reduce(exec, v, id, plus, 10.0), 100010.0);
  EXPECT_EQ(strided::reduce(exec, empty, id, plus, 10.0), 10.0);
  // NaN anywhere propagates through max and min.
  for (std::size_t at : {std::size_t(0), std::size_t(17), std::size_t(99999)}) {
    ones[at] = std::nan("");
    EXPECT_TRUE(std::isnan(strided::max(exec, v))) << at;
    EXPECT_TRUE(std::isnan(strided::min(exec, v))) << at;
    ones[at] = 1.0;
  }
}

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

TYPED_TEST(ReduceTest, ReduceAxisAndDotAxes) {
  std::mt19937 rng(43);
  const TypeParam exec;
  auto a = random_operand<double>({5, 6, 7}, rng);
  auto b = random_operand<double>({5, 6, 7}, rng);
  fill_small_integers(a.view, 1);
  fill_small_integers(b.view, 2);
  const auto counted = strided::reduce_axis(
      exec, a.view, 1, [](double x) { return x != 0 ? 1L : 0L; },
      [](long x, long y) { return x + y; }, 0L);
  static_assert(std::is_same_v<decltype(counted), const strided::StridedArray<long>>);
  ASSERT_EQ(counted.rank(), 2u);
  EXPECT_EQ(counted.stride(0), 1);  // column-major result
  auto dots = random_operand<double>({6}, rng);
  strided::dot_axes(exec, dots.view, a.view, b.view, {2, 0});
  EXPECT_TRUE(strided_test::elements_equal(
      dots.view,
      [&](const std::vector<std::size_t>& o) {
        const std::size_t j = o[0];
        double d = 0;
        for (std::size_t i = 0; i < 5; ++i)
          for (std::size_t k = 0; k < 7; ++k) d += a.view(i, j, k) * b.view(i, j, k);
        return d;
      },
      a.view, b.view));
  EXPECT_TRUE(strided_test::elements_equal(
      counted.view(),
      [&](const std::vector<std::size_t>& o) {
        const std::size_t i = o[0], k = o[1];
        long c = 0;
        for (std::size_t j = 0; j < 6; ++j) c += a.view(i, j, k) != 0;
        return c;
      },
      a.view));
  // Rank 1 to rank 0, and an empty axis list (map only).
  auto v = random_operand<double>({9}, rng);
  fill_small_integers(v.view, 3);
  const auto total = strided::reduce_axis(
      exec, v.view, 0, [](double x) { return x; }, [](double x, double y) { return x + y; }, 0.0);
  EXPECT_EQ(total.rank(), 0u);
  EXPECT_EQ(total.view()(), strided::sum(exec, v.view));
  auto same = random_operand<double>({9}, rng);
  strided::reduce_axes(
      exec, same.view, v.view, {}, [](double x) { return 3 * x; },
      [](double x, double y) { return x + y; }, 0.0);
  EXPECT_TRUE(strided_test::elements_equal(
      same.view, [&](const std::vector<std::size_t>& i) { return 3 * v.view(i[0]); }, v.view));
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

/// Bits of a double, to compare results exactly (NaN-safe, -0.0 distinct).
std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TYPED_TEST(ReduceTest, SameBitsAsSerialOnInexactData) {
  // sin(i) sums are order dependent: equal bits mean an equal fold order.
  std::mt19937 rng(47);
  const TypeParam exec;
  const Kokkos::Serial serial;
  for (const auto& shape : std::vector<std::vector<std::size_t>>{
           {1 << 18}, {700, 300}, {64, 48, 33}, {3, 70000}, {70000, 3}}) {
    auto a = random_operand<double>(shape, rng);
    auto b = random_operand<float>(shape, rng);
    std::size_t n = 0;
    for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
      strided_test::write(a.view, i, std::sin(double(n)));
      strided_test::write(b.view, i, static_cast<float>(std::cos(double(n++))));
    });
    EXPECT_EQ(bits(strided::sum(exec, a.view)), bits(strided::sum(serial, a.view)));
    EXPECT_EQ(bits(strided::dot<double>(exec, a.view, b.view)),
              bits(strided::dot<double>(serial, a.view, b.view)));
    std::vector<std::size_t> reversed(shape.size());
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    const auto permuted = a.view.permute(reversed);
    EXPECT_EQ(bits(strided::sum(exec, permuted)), bits(strided::sum(serial, permuted)));
    EXPECT_EQ(bits(strided::max(exec, permuted)), bits(strided::max(serial, permuted)));
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
      auto kept = shape;
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(axis));
      auto x = random_operand<double>(kept, rng);
      auto y = random_operand<double>(kept, rng);
      strided::sum_axes(exec, x.view, a.view, {axis});
      strided::sum_axes(serial, y.view, a.view, {axis});
      EXPECT_TRUE(strided_test::elements_same_bits(
          x.view, [&](const std::vector<std::size_t>& i) { return read(y.view, i); }, a.view))
          << "reduced axis " << axis;
    }
  }
}

TYPED_TEST(ReduceTest, EachOutputHasTheBitsOfItsOwnFullReduction) {
  // Column sums take a sweep across outputs, row sums fold each row: either way an output's
  // bits are those of strided::sum over its own sub-tensor.
  const TypeParam exec;
  for (std::size_t rows : {5, 16, 17, 700}) {
    const std::size_t cols = 37;
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
        << rows << " rows, column sums";
    ASSERT_TRUE(strided_test::elements_same_bits(
        rowsum.view(),
        [&](const std::vector<std::size_t>& i) {
          return strided::sum(exec, a.view().slice(0, i[0], i[0] + 1));
        },
        a.view()))
        << rows << " rows, row sums";
  }
}

}  // namespace
