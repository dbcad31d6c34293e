// Every kernel that takes a function accepts a function, a function pointer, a function object
// and a lambda (API.md, Kernels), on every execution space and under both algorithms; each kind is
// checked against the value the function must produce. The shapes are large enough (above the
// inline threshold) to take the parallel path as well as the inline one.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"

namespace {

// Plain functions (as a user would write them at namespace scope).
std::int64_t triple(std::int64_t x) {
  return 3 * x;
}
std::int64_t plus(std::int64_t x, std::int64_t y) {
  return x + y;
}
std::int64_t difference(std::int64_t x, std::int64_t y) {
  return x - y;
}

struct Triple {
  std::int64_t operator()(std::int64_t x) const { return 3 * x; }
};
struct Plus {
  std::int64_t operator()(std::int64_t x, std::int64_t y) const { return x + y; }
};
struct Difference {
  std::int64_t operator()(std::int64_t x, std::int64_t y) const { return x - y; }
};

template <class Exec>
class CallablesTest : public ::testing::Test {};
TYPED_TEST_SUITE(CallablesTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// Rows x cols, row-major, values 0, 1, 2, ...; read column-major through a transposed view.
struct Operands {
  static constexpr std::size_t rows = 300, cols = 170;
  std::vector<std::int64_t> a = std::vector<std::int64_t>(rows * cols);
  std::vector<std::int64_t> b = std::vector<std::int64_t>(rows * cols);
  std::vector<std::int64_t> out = std::vector<std::int64_t>(rows * cols, -1);
  Operands() {
    std::iota(a.begin(), a.end(), std::int64_t{0});
    for (std::size_t n = 0; n < b.size(); ++n) b[n] = static_cast<std::int64_t>(n % 11);
  }
  strided::StridedView<const std::int64_t> src_a() const {
    return {a.data(), a.size(), {rows, cols}, {std::ptrdiff_t(cols), 1}};
  }
  strided::StridedView<const std::int64_t> src_b() const {
    return {b.data(), b.size(), {rows, cols}, {std::ptrdiff_t(cols), 1}};
  }
  /// Column-major destination: the copy transposes.
  strided::StridedView<std::int64_t> dst() {
    return {out.data(), out.size(), {rows, cols}, {1, std::ptrdiff_t(rows)}};
  }
  std::int64_t at_out(std::size_t i, std::size_t j) const { return out[i + j * rows]; }
  std::int64_t at_a(std::size_t i, std::size_t j) const { return a[i * cols + j]; }
  std::int64_t at_b(std::size_t i, std::size_t j) const { return b[i * cols + j]; }
};

/// Runs every kernel with the given unary map, binary zip and reduce functions and checks them.
template <class Exec, class Unary, class Binary, class Reduce>
void check_every_kernel(const Unary& unary, const Binary& binary, const Reduce& reduce) {
  const Exec exec;
  Operands o;
  const std::size_t R = Operands::rows, C = Operands::cols;

  strided::map_into(exec, o.dst(), o.src_a(), unary);
  exec.fence();
  ASSERT_TRUE(strided_test::elements_equal(
      o.dst(), [&](const std::vector<std::size_t>& i) { return 3 * o.at_a(i[0], i[1]); },
      o.src_a()));
  strided::map_into(o.dst(), o.src_b(), unary);  // the form without an instance
  EXPECT_EQ(o.at_out(R - 1, C - 1), 3 * o.at_b(R - 1, C - 1));

  strided::zip_map_into(exec, o.dst(), binary, o.src_a(), o.src_b());
  exec.fence();
  ASSERT_TRUE(strided_test::elements_equal(
      o.dst(),
      [&](const std::vector<std::size_t>& i) { return o.at_a(i[0], i[1]) - o.at_b(i[0], i[1]); },
      o.src_a(), o.src_b()));

  std::int64_t total_a = 0, total_ab = 0;
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) {
      total_a += o.at_a(i, j);
      total_ab += o.at_a(i, j) - o.at_b(i, j);
    }
  EXPECT_EQ(strided::reduce(exec, o.src_a(), unary, reduce, std::int64_t{0}), 3 * total_a);
  EXPECT_EQ(strided::reduce(o.src_a().transpose(), unary, reduce, std::int64_t{5}),
            3 * total_a + 5);
  EXPECT_EQ(strided::zip_reduce(exec, o.src_a(), o.src_b(), binary, reduce, std::int64_t{0}),
            total_ab);

  // Axis reductions: row sums of 3a into a rank-1 destination, and reduce_axis' own result.
  std::vector<std::int64_t> rows(R, -1);
  const strided::StridedView<std::int64_t> row_sums(rows.data(), R, {R}, {1});
  strided::reduce_axes(exec, row_sums, o.src_a(), {1}, unary, reduce, std::int64_t{0});
  exec.fence();
  const auto cols = strided::reduce_axis(exec, o.src_a(), 0, unary, reduce, std::int64_t{1});
  EXPECT_TRUE(strided_test::elements_equal(
      row_sums,
      [&](const std::vector<std::size_t>& i) {
        std::int64_t row = 0;
        for (std::size_t j = 0; j < C; ++j) row += 3 * o.at_a(i[0], j);
        return row;
      },
      o.src_a()))
      << "row sums";
  EXPECT_TRUE(strided_test::elements_equal(
      cols.view(),
      [&](const std::vector<std::size_t>& j) {
        std::int64_t col = 1;
        for (std::size_t i = 0; i < R; ++i) col += 3 * o.at_a(i, j[0]);
        return col;
      },
      o.src_a()))
      << "column sums";
}

TYPED_TEST(CallablesTest, Functions) {
  check_every_kernel<TypeParam>(triple, difference, plus);
}

TYPED_TEST(CallablesTest, FunctionPointers) {
  std::int64_t (*const unary)(std::int64_t) = &triple;
  std::int64_t (*const binary)(std::int64_t, std::int64_t) = &difference;
  std::int64_t (*const reduce)(std::int64_t, std::int64_t) = &plus;
  check_every_kernel<TypeParam>(unary, binary, reduce);
}

TYPED_TEST(CallablesTest, FunctionObjects) {
  check_every_kernel<TypeParam>(Triple{}, Difference{}, Plus{});
}

TYPED_TEST(CallablesTest, Lambdas) {
  const std::int64_t three = 3;  // a capture, as lambdas usually have
  check_every_kernel<TypeParam>([three](std::int64_t x) { return three * x; },
                                [](std::int64_t x, std::int64_t y) { return x - y; },
                                [](auto x, auto y) { return x + y; });  // generic
}

}  // namespace
