// Built-ins that add products round each product first, whatever the compiler flags (API.md,
// Determinism contract). This file is compiled with -O3 -ffp-contract=fast and, on x86, -mfma
// (see tests/CMakeLists.txt), the flags under which a compiler fuses `acc + x * y` into one FMA.
// Each kernel folds one tile of N elements, in the order the contract fixes: lanes 0..15 take
// elements 0..15, element i >= 16 is added to lane i % 16, and the lanes combine in a pairwise
// tree. The reference computes that order with every product stored through a volatile (rounded);
// the same fold with fused products must give other bits, or the data would prove nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"

namespace {

/// One tile (N * 16 bytes is below the 32 KiB L1 block), 64 full passes over the lanes and one
/// element more (its lane is seeded: the add that a compiler would fuse).
constexpr std::size_t N = 16 * 64 + 1;

double rounded_product(double x, double y) {
  volatile double p = x * y;
  return p;
}

/// The contract's fold of x[i] * y[i] over one run, each product rounded or each one fused.
double fold(const std::vector<double>& x, const std::vector<double>& y, bool fused) {
  std::vector<double> lanes(16);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double p = rounded_product(x[i], y[i]);
    if (i < 16)
      lanes[i] = p;
    else
      lanes[i % 16] = fused ? std::fma(x[i], y[i], lanes[i % 16]) : lanes[i % 16] + p;
  }
  for (std::size_t width = 1; width < 16; width *= 2)
    for (std::size_t l = 0; l + width < 16; l += 2 * width) lanes[l] = lanes[l] + lanes[l + width];
  return lanes[0];
}

/// A run long enough that the host rounds its products a block of 16 at a time (vectorized)
/// rather than one by one: the bits must be the same.
constexpr std::size_t LONG_RUN = 16 * 1024 + 1;

/// n values of mixed sign and magnitude.
std::vector<double> operand(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  std::vector<double> v(n);
  for (double& x : v) x = uniform(rng);
  return v;
}

/// Operands x, y (y = x for squares) whose fold gives other bits when products are fused.
struct Operands {
  std::vector<double> x, y;
  explicit Operands(bool squares, std::size_t n = N) {
    std::mt19937_64 rng(squares ? 7 : 3);
    do {
      x = operand(rng, n);
      y = squares ? x : operand(rng, n);
    } while (fold(x, y, false) == fold(x, y, true));
  }
};

template <class Exec>
class ContractionTest : public ::testing::Test {};
TYPED_TEST_SUITE(ContractionTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// What a contracting compiler turns into one FMA (out of line, called with values it cannot
/// know: a product shared with other code, or a constant one, is not fused).
[[gnu::noinline]] double multiply_add(double x, double y, double c) {
  return x * y + c;
}

TEST(ContractionTest, ThisFileIsCompiledToContract) {
  // Without contraction here, the tests below would prove nothing.
  volatile double vx = 1.0 + std::ldexp(1.0, -30), vc = -1.0;
  const double x = vx, c = vc;
  EXPECT_EQ(multiply_add(x, x, c), std::fma(x, x, c))
      << "the compiler did not contract: check the flags";
  EXPECT_NE(std::fma(x, x, c), rounded_product(x, x) + c);
}

TYPED_TEST(ContractionTest, DotRoundsEachProduct) {
  const Operands o(false);
  const std::vector<double>&x = o.x, &y = o.y;
  const double expected = fold(x, y, false);
  const strided::StridedView<const double> a(x.data(), N, {N}, {1}), b(y.data(), N, {N}, {1});
  const TypeParam exec;
  EXPECT_EQ(strided::dot(exec, a, b), expected);
  EXPECT_EQ(strided::dot<double>(exec, a, b), expected);
  // The same elements through a strided and a reversed layout fold in the same order.
  std::vector<double> xs(2 * N), ys(N);
  for (std::size_t k = 0; k < N; ++k) {
    xs[2 * k] = x[k];
    ys[N - 1 - k] = y[k];
  }
  const strided::StridedView<const double> as(xs.data(), 2 * N, {N}, {2});
  const strided::StridedView<const double> bs(ys.data(), N, {N}, {-1}, N - 1);
  EXPECT_EQ(strided::dot(exec, as, bs), expected);
}

TYPED_TEST(ContractionTest, LongRunsRoundEachProduct) {
  const TypeParam exec;
  const Operands o(false, LONG_RUN);
  const strided::StridedView<const double> a(o.x.data(), LONG_RUN, {LONG_RUN}, {1});
  const strided::StridedView<const double> b(o.y.data(), LONG_RUN, {LONG_RUN}, {1});
  EXPECT_EQ(strided::dot(exec, a, b), fold(o.x, o.y, false));
  const std::vector<double> x = Operands(true, LONG_RUN).x;
  EXPECT_EQ(strided::sum_squares(
                exec, strided::StridedView<const double>(x.data(), LONG_RUN, {LONG_RUN}, {1})),
            fold(x, x, false));
}

/// The exact tier's products are p + e with e from a fused multiply-add: contracting p into what
/// reads it would lose e. Products (1 + 2^-30)(1 - 2^-30) = 1 - 2^-60, then as many of 1 * -1:
/// exactly -n 2^-60, on long unit runs (the vectorized block of products) and on strided views
/// (one product at a time).
TYPED_TEST(ContractionTest, ExactDotKeepsEveryProductError) {
  const TypeParam exec;
  for (const std::size_t n : {N, LONG_RUN}) {
    std::vector<double> x(2 * n), y(2 * n);
    for (std::size_t k = 0; k < n; ++k) {
      x[k] = 1 + 0x1p-30;
      y[k] = 1 - 0x1p-30;
      x[n + k] = 1;
      y[n + k] = -1;
    }
    const double expected = -static_cast<double>(n) * 0x1p-60;
    const strided::StridedView<const double> a(x.data(), 2 * n, {2 * n}, {1});
    const strided::StridedView<const double> b(y.data(), 2 * n, {2 * n}, {1});
    EXPECT_EQ(strided::dot(exec, a, b, strided::exact), expected) << n << " elements";
    // Reversed views: stride -1, one product at a time.
    EXPECT_EQ(strided::dot(exec, a.reverse(0), b.reverse(0), strided::exact), expected)
        << n << " elements, reversed";
  }
}

static_assert(strided::detail::exact_product_v<double, float, float>);
static_assert(!strided::detail::exact_product_v<double, double, double>);
static_assert(!strided::detail::exact_product_v<float, float, float>);
static_assert(!strided::detail::exact_product_v<double, float, double>);
static_assert(!strided::detail::exact_product_v<double, int, int>);

/// Two floats multiply exactly in a double, so an f32 dot accumulated in f64 needs no rounding
/// barrier (it vectorizes freely): fused or not, its bits are the contract's fold of the exact
/// products, and never those of products rounded to float first.
TYPED_TEST(ContractionTest, FloatProductsInADoubleNeedNoRounding) {
  const TypeParam exec;
  for (const std::size_t n : {N, LONG_RUN}) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
    std::vector<float> x(n), y(n);
    std::vector<double> xd(n), yd(n), rounded(n);
    for (std::size_t k = 0; k < n; ++k) {
      x[k] = uniform(rng);
      y[k] = uniform(rng);
      xd[k] = x[k];
      yd[k] = y[k];
      rounded[k] = static_cast<float>(x[k] * y[k]);
    }
    const std::vector<double> ones(n, 1.0);
    const double expected = fold(xd, yd, false);
    ASSERT_EQ(fold(xd, yd, true), expected);  // exact products: fusing changes nothing
    ASSERT_NE(fold(rounded, ones, false), expected);
    const strided::StridedView<const float> a(x.data(), n, {n}, {1}), b(y.data(), n, {n}, {1});
    EXPECT_EQ(strided::dot<double>(exec, a, b), expected) << n << " elements";
  }
}

TYPED_TEST(ContractionTest, SumSquaresRoundsEachSquare) {
  const std::vector<double> x = Operands(true).x;
  const double expected = fold(x, x, false);
  const TypeParam exec;
  EXPECT_EQ(strided::sum_squares(exec, strided::StridedView<const double>(x.data(), N, {N}, {1})),
            expected);
}

TYPED_TEST(ContractionTest, AxisReductionsRoundEachProduct) {
  // Two outputs, each the fold of one row of N products (and of N squares).
  const Operands o(false);
  const std::vector<double>&x = o.x, &y = o.y;
  std::vector<double> a2(x), b2(y);
  a2.insert(a2.end(), x.begin(), x.end());
  b2.insert(b2.end(), y.begin(), y.end());
  const strided::StridedView<const double> a(a2.data(), 2 * N, {2, N}, {std::ptrdiff_t(N), 1});
  const strided::StridedView<const double> b(b2.data(), 2 * N, {2, N}, {std::ptrdiff_t(N), 1});
  const TypeParam exec;
  std::vector<double> out(2, 0.0);
  const strided::StridedView<double> dst(out.data(), 2, {2}, {1});
  strided::dot_axes(exec, dst, a, b, {1});
  exec.fence();
  EXPECT_EQ(out[0], fold(x, y, false));
  EXPECT_EQ(out[1], fold(x, y, false));
  // Squares, reduced along the slow axis this time: q2(i, r) = q[i] for both outputs r.
  const std::vector<double> q = Operands(true).x;
  std::vector<double> q2(2 * N);
  for (std::size_t i = 0; i < N; ++i) q2[2 * i] = q2[2 * i + 1] = q[i];
  strided::sum_squares_axes(
      exec, dst, strided::StridedView<const double>(q2.data(), 2 * N, {N, 2}, {2, 1}), {0});
  exec.fence();
  EXPECT_EQ(out[0], fold(q, q, false));
  EXPECT_EQ(out[1], fold(q, q, false));
}

TYPED_TEST(ContractionTest, AxpyRoundsEachProduct) {
  // dst = -1 + alpha * x with alpha * x just above 1: fused, the product's low bits survive.
  const double alpha = 1.0 + std::ldexp(1.0, -30);
  std::vector<double> x(40000, alpha), d(40000, -1.0);  // parallel and inline sizes alike
  const TypeParam exec;
  for (std::size_t n : {std::size_t(N), x.size()}) {
    std::fill(d.begin(), d.end(), -1.0);
    strided::axpy(exec, strided::StridedView<double>(d.data(), n, {n}, {1}),
                  strided::StridedView<const double>(x.data(), n, {n}, {1}), alpha);
    exec.fence();
    const double expected = -1.0 + rounded_product(alpha, alpha);
    EXPECT_EQ(d[0], expected) << n << " elements";
    EXPECT_EQ(d[n - 1], expected) << n << " elements";
  }
}

}  // namespace
