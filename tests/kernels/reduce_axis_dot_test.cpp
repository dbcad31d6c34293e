// reduce_axis (its result's layout, reducing to rank 0), reduce_axes with a map and no axes, and
// dot_axes, against reference loops; each on every execution space.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"
#include "reduce_test.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::fill_small_integers;
using strided_test::random_operand;
using strided_test::ReduceTest;

TYPED_TEST_SUITE(ReduceTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

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

}  // namespace
