// Full reductions against a reference fold on many layouts, their semantics (empty inputs, NaN,
// init once, integer wrap, widening) and their bits against Serial's; each on every execution
// space.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
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

// An empty view may have extents whose product passes 64 bits (the fuzzer's first finding, in
// is_dense): every kernel sees no element.
TYPED_TEST(ReduceTest, EmptyViewsWithHugeExtents) {
  double data[1] = {5.0};
  const std::size_t big = std::size_t(1) << 62;
  const strided::StridedView<double> a(data, 1, {0, big, big, big}, {1, 1, 1 << 20, 1});
  const strided::StridedView<double> b(data, 1, {0, big, big, big}, {big, 0, -1, 3});
  EXPECT_EQ(strided::sum(TypeParam(), a), 0.0);
  EXPECT_EQ(strided::product(TypeParam(), b), 1.0);
  EXPECT_EQ(strided::max(TypeParam(), a), -std::numeric_limits<double>::infinity());
  strided::copy_into(TypeParam(), a, b);
  strided::add(TypeParam(), b, a);
  EXPECT_EQ(data[0], 5.0);
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

TYPED_TEST(ReduceTest, FollowsTheDocumentedFoldOrder) {
  // Below 2^22 elements tiles of 65536; from 2^22 on, GPU-scale tiles of 512 to 4096 elements.
  const TypeParam exec;
  strided::Options device;
  device.algorithm = strided::Algorithm::Device;
  for (const std::size_t n : {std::size_t(100003), (std::size_t(1) << 22) - 1,
                              (std::size_t(1) << 22) + 1000, std::size_t(9) << 21}) {
    auto a = strided::StridedArray<double>::row_major({n});
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = a.data()[i] = std::sin(double(i));
    const double expected = 0.0 + documented_fold(x);
    EXPECT_EQ(bits(strided::sum(exec, a.view())), bits(expected)) << n;
    EXPECT_EQ(bits(strided::sum(exec, a.view(), device)), bits(expected)) << n;
  }
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

}  // namespace
