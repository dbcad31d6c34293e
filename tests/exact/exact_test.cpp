// The exact tier against an independent oracle (MPFR): sums, dots and sums of squares of data
// built to defeat naive summation, on many layouts, in f64, f32 and complex, full and over axes,
// with and without kept plans; each on every execution space (and, by ctest, at 1 to 4 threads
// and under the device algorithm). Every result must equal the correctly rounded exact value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "../expect_error.hpp"
#include "../kernels/test_layouts.hpp"
#include "mpfr_oracle.hpp"

namespace {

using strided_test::for_each_index;
using strided_test::Hard;
using strided_test::hard_values;
using strided_test::oracle_sum;
using strided_test::random_operand;
using strided_test::read;
using strided_test::same_result;
using Complex = Kokkos::complex<double>;

template <class Exec>
class ExactTest : public ::testing::Test {};
TYPED_TEST_SUITE(ExactTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

const char* name_of(Hard kind) {
  static const char* names[] = {"wide range",    "cancelling", "subnormal",
                                "near overflow", "ties",       "specials"};
  return names[static_cast<int>(kind)];
}

/// Writes `values` into the logical elements of v, in index order.
template <class T, class F>
void fill_with(const strided::StridedView<T>& v, const std::vector<double>& values, F&& convert) {
  std::size_t k = 0;
  for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(v, i, convert(values[k++]));
  });
}

/// The logical elements of v, as doubles, in index order.
template <class V>
std::vector<double> elements(const V& v) {
  std::vector<double> out;
  for_each_index(v.extents(),
                 [&](const std::vector<std::size_t>& i) { out.push_back(double(read(v, i))); });
  return out;
}

std::size_t count_of(const std::vector<std::size_t>& extents) {
  std::size_t n = 1;
  for (std::size_t e : extents) n *= e;
  return n;
}

TYPED_TEST(ExactTest, DoublesMatchTheOracleOnManyLayouts) {
  const TypeParam exec;
  std::mt19937 layout_rng(7);
  std::mt19937_64 rng(11);
  const std::vector<std::vector<std::size_t>> shapes = {{},
                                                        {0},
                                                        {1},
                                                        {5},
                                                        {300},
                                                        {70000},
                                                        {3, 0, 4},
                                                        {17, 33},
                                                        {64, 64},
                                                        {2, 3, 4, 5, 6},
                                                        {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}};
  for (const auto& extents : shapes) {
    for (int k = 0; k < static_cast<int>(Hard::Count); ++k) {
      const Hard kind = static_cast<Hard>(k);
      SCOPED_TRACE(::testing::Message() << name_of(kind) << ", rank " << extents.size() << ", "
                                        << count_of(extents) << " elements");
      auto a = random_operand<double>(extents, layout_rng);
      auto b = random_operand<double>(extents, layout_rng);
      const std::size_t n = count_of(extents);
      fill_with(a.view, hard_values(kind, n, rng), [](double x) { return x; });
      // b: magnitudes that make products underflow, overflow and cancel as well.
      fill_with(b.view, hard_values(static_cast<Hard>((k + 1) % int(Hard::Count)), n, rng),
                [](double x) { return x; });
      const auto x = elements(a.view), y = elements(b.view);
      const double sum = strided::sum(exec, a.view, strided::exact);
      EXPECT_TRUE(same_result(sum, oracle_sum<double>(x))) << sum;
      const double dot = strided::dot(exec, a.view, b.view, strided::exact);
      EXPECT_TRUE(same_result(dot, oracle_sum<double>(x, &y))) << dot;
      const double squares = strided::sum_squares(exec, a.view, strided::exact);
      EXPECT_TRUE(same_result(squares, oracle_sum<double>(x, &x))) << squares;
      // Other walks over the same elements: reversed, transposed, through a kept plan.
      if (!extents.empty()) {
        EXPECT_TRUE(same_result(strided::sum(exec, a.view.reverse(0), strided::exact), sum));
        std::vector<std::size_t> backwards(extents.size());
        for (std::size_t k = 0; k < backwards.size(); ++k) backwards[k] = backwards.size() - 1 - k;
        EXPECT_TRUE(
            same_result(strided::sum(exec, a.view.permute(backwards), strided::exact), sum));
      }
      const auto plan = strided::make_plan(a.view, b.view);
      EXPECT_TRUE(same_result(strided::dot(exec, plan, a.view, b.view, strided::exact), dot));
    }
  }
}

/// Contiguous runs long enough for the in-place paths' blocks (1024 terms on the host), with data
/// that sends blocks down each of them: whose exact sum is the products' rounding errors (or a
/// few terms far below the rest), growing or shrinking magnitudes, products lost to underflow
/// among ordinary ones, zeros of both signs. Each against the oracle.
TYPED_TEST(ExactTest, LongRunsTakeEveryInPlacePathExactly) {
  const TypeParam exec;
  std::mt19937_64 rng(23);
  const auto value = [&](int lo, int hi) {  // +-[1, 2) * 2^[lo, hi]
    const double sign = rng() % 2 ? -1.0 : 1.0;
    return sign * std::ldexp(1.0 + strided_test::random_unit(rng), lo + int(rng() % (hi - lo + 1)));
  };
  const auto check = [&](const char* what, const std::vector<double>& x,
                         const std::vector<double>& y) {
    SCOPED_TRACE(::testing::Message() << what << ", " << x.size() << " elements");
    auto a = strided::StridedArray<double>::row_major({x.size()});
    auto b = strided::StridedArray<double>::row_major({x.size()});
    std::copy(x.begin(), x.end(), a.data());
    std::copy(y.begin(), y.end(), b.data());
    const double sum = strided::sum(exec, a.view(), strided::exact);
    EXPECT_TRUE(same_result(sum, oracle_sum<double>(x))) << sum;
    const double dot = strided::dot(exec, a.view(), b.view(), strided::exact);
    EXPECT_TRUE(same_result(dot, oracle_sum<double>(x, &y))) << dot;
    const double squares = strided::sum_squares(exec, a.view(), strided::exact);
    EXPECT_TRUE(same_result(squares, oracle_sum<double>(x, &x))) << squares;
  };
  for (const std::size_t n : {1023, 1024, 1025, 3000, 20011}) {
    std::vector<double> x(n), y(n);
    // Cancelling pairs (X, Y), (-X, Y) around pairs (a, b), (fl(a b), -1), whose sum is the
    // errors of fl(a b), and a few small values for the sum: `spread` binades under the rest.
    for (const int spread : {0, 20, 30, 60, 110, 200}) {
      for (std::size_t i = 0; i + 1 < n; i += 2) {
        x[i] = value(-2, 2);
        y[i] = value(-2, 2);
        x[i + 1] = -x[i];
        y[i + 1] = y[i];
      }
      if (n % 2) x[n - 1] = y[n - 1] = 0;
      for (int k = 0; k < 3; ++k) {
        const std::size_t i = 2 * (rng() % (n / 2));
        x[i] = value(-spread - 1, -spread);
        y[i] = value(-1, 0);
        x[i + 1] = x[i] * y[i];
        y[i + 1] = -1.0;
      }
      check("product errors", x, y);
      for (int k = 0; k < 3; ++k) x[rng() % n] = value(-spread - 1, -spread);
      check("far terms", x, y);
    }
    for (std::size_t i = 0; i < n; ++i) {  // growing, then shrinking
      x[i] = value(int(i % 700) - 350, int(i % 700) - 350);
      y[i] = value(-int(i / 100), -int(i / 100));
    }
    check("growing", x, y);
    for (std::size_t i = 0; i < n; ++i) {  // products lost to underflow, and zeros
      x[i] = rng() % 4 ? value(-5, 5) : rng() % 2 ? 0.0 : -0.0;
      y[i] = rng() % 50 ? value(-5, 5) : value(-1074 + 60, -1000);
      if (rng() % 100 == 0) x[i] = value(-600, -540);
    }
    check("underflow and zeros", x, y);
    for (std::size_t i = 0; i < n; ++i) {  // the bins' capacity: every part at its largest
      x[i] = std::nextafter(0x1p20, 0.0);
      y[i] = std::nextafter(0x1p10, 0.0);
    }
    check("largest parts", x, y);
    for (std::size_t i = 0; i < n; ++i) x[i] = y[i] = -0.0;
    check("negative zeros", x, y);
  }
}

TYPED_TEST(ExactTest, ExactZerosSignsAndRounding) {
  const TypeParam exec;
  const auto sum_of = [&](std::vector<double> v) {
    auto a = strided::StridedArray<double>::row_major({v.size()});
    for (std::size_t i = 0; i < v.size(); ++i) a.data()[i] = v[i];
    return strided::sum(exec, a.view(), strided::exact);
  };
  const double max = std::numeric_limits<double>::max();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(same_result(sum_of({}), 0.0));
  EXPECT_TRUE(same_result(sum_of({-0.0, -0.0}), -0.0));
  EXPECT_TRUE(same_result(sum_of({-0.0, 0.0}), 0.0));
  EXPECT_TRUE(same_result(sum_of({1.5, -1.5}), 0.0));
  EXPECT_TRUE(same_result(sum_of({1.0, 0x1p-53}), 1.0));                       // a tie: to even
  EXPECT_TRUE(same_result(sum_of({1.0, 0x1p-53, 0x1p-1074}), 1.0 + 0x1p-52));  // above it
  EXPECT_TRUE(same_result(sum_of({max, max, -max}), max));  // a naive sum overflows
  EXPECT_TRUE(same_result(sum_of({max, max}), inf));
  EXPECT_TRUE(same_result(sum_of({max, 0x1p970}), inf));  // rounds up past DBL_MAX
  EXPECT_TRUE(same_result(sum_of({max, 0x1p969}), max));  // a tie that stays at DBL_MAX
  EXPECT_TRUE(same_result(sum_of({inf, 1.0, -inf}), std::nan("")));
  EXPECT_TRUE(same_result(sum_of({-inf, -1.0}), -inf));
  EXPECT_TRUE(same_result(sum_of({0x1p-1074, 0x1p-1074}), 0x1p-1073));
  EXPECT_TRUE(same_result(sum_of({1e300, 1e-300, -1e300}), 1e-300));
  // Products: exact even where the rounded product underflows or overflows.
  auto a = strided::StridedArray<double>::row_major({3}),
       b = strided::StridedArray<double>::row_major({3});
  const double av[] = {1e-200, 1e200, -1e200}, bv[] = {1e-200, 1e200, 1e200};
  for (int i = 0; i < 3; ++i) a.data()[i] = av[i], b.data()[i] = bv[i];
  const std::vector<double> x(av, av + 3), y(bv, bv + 3);
  EXPECT_TRUE(same_result(strided::dot(exec, a.view(), b.view(), strided::exact),
                          oracle_sum<double>(x, &y)));
  EXPECT_EQ(strided::dot(exec, a.view(), b.view(), strided::exact), 0.0);  // 1e-400: below
  // 2^-1100 twice and 2^-1074: products below the smallest subnormal still count.
  const double cv[] = {0x1p-600, 0x1p-600, 0x1p-600}, dv[] = {0x1p-500, 0x1p-500, 0x1p-475};
  for (int i = 0; i < 3; ++i) a.data()[i] = cv[i], b.data()[i] = dv[i];
  const std::vector<double> c(cv, cv + 3), d(dv, dv + 3);
  const double tiny = strided::dot(exec, a.view(), b.view(), strided::exact);
  EXPECT_TRUE(same_result(tiny, oracle_sum<double>(c, &d)));
  EXPECT_EQ(tiny, 0x1p-1074);  // 2^-1075 + 2^-1099: just above the tie, so up
}

TYPED_TEST(ExactTest, FloatsRoundOnceToTheChosenType) {
  const TypeParam exec;
  std::mt19937 layout_rng(3);
  std::mt19937_64 rng(5);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{1000}, {40, 77}, {5, 6, 7}}) {
    for (int k = 0; k < static_cast<int>(Hard::Count); ++k) {
      SCOPED_TRACE(::testing::Message()
                   << name_of(static_cast<Hard>(k)) << ", rank " << extents.size());
      auto a = random_operand<float>(extents, layout_rng);
      auto b = random_operand<float>(extents, layout_rng);
      const std::size_t n = count_of(extents);
      // The hard values moved into float's range (its subnormals included).
      std::vector<double> xs = hard_values(static_cast<Hard>(k), n, rng), ys(n);
      for (std::size_t i = 0; i < n; ++i) {
        int e = 0;
        const double m = std::isfinite(xs[i]) ? std::frexp(xs[i], &e) : xs[i];
        xs[i] =
            static_cast<float>(std::isfinite(m) ? std::ldexp(m, e % 120 - (i % 3 ? 20 : 149)) : m);
        ys[i] = static_cast<float>(
            std::ldexp(strided_test::random_unit(rng) - 0.5, int(rng() % 60) - 30));
      }
      fill_with(a.view, xs, [](double v) { return static_cast<float>(v); });
      fill_with(b.view, ys, [](double v) { return static_cast<float>(v); });
      const auto x = elements(a.view), y = elements(b.view);
      EXPECT_TRUE(same_result(strided::sum(exec, a.view, strided::exact), oracle_sum<float>(x)));
      EXPECT_TRUE(
          same_result(strided::sum<double>(exec, a.view, strided::exact), oracle_sum<double>(x)));
      EXPECT_TRUE(same_result(strided::dot(exec, a.view, b.view, strided::exact),
                              oracle_sum<float>(x, &y)));
      EXPECT_TRUE(same_result(strided::dot<double>(exec, a.view, b.view, strided::exact),
                              oracle_sum<double>(x, &y)));
      EXPECT_TRUE(same_result(strided::sum_squares<double>(exec, a.view, strided::exact),
                              oracle_sum<double>(x, &x)));
    }
  }
}

TYPED_TEST(ExactTest, ComplexComponentsAreExact) {
  const TypeParam exec;
  std::mt19937 layout_rng(13);
  std::mt19937_64 rng(17);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{777}, {9, 31}}) {
    const std::size_t n = count_of(extents);
    auto a = random_operand<Complex>(extents, layout_rng);
    auto b = random_operand<Complex>(extents, layout_rng);
    const auto ar = hard_values(Hard::WideRange, n, rng),
               ai = hard_values(Hard::Cancelling, n, rng);
    const auto br = hard_values(Hard::Cancelling, n, rng),
               bi = hard_values(Hard::WideRange, n, rng);
    std::size_t k = 0;
    for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
      strided_test::write(a.view, i, Complex(ar[k], ai[k]));
      strided_test::write(b.view, i, Complex(br[k], bi[k]));
      ++k;
    });
    const Complex s = strided::sum(exec, a.view, strided::exact);
    EXPECT_TRUE(same_result(s.real(), oracle_sum<double>(ar)));
    EXPECT_TRUE(same_result(s.imag(), oracle_sum<double>(ai)));
    // conj(a) . b = (ar br + ai bi) + i (ar bi - ai br), each component one exact sum.
    std::vector<double> left, right, left_i, right_i;
    for (std::size_t j = 0; j < n; ++j) {
      left.insert(left.end(), {ar[j], ai[j]});
      right.insert(right.end(), {br[j], bi[j]});
      left_i.insert(left_i.end(), {ar[j], -ai[j]});
      right_i.insert(right_i.end(), {bi[j], br[j]});
    }
    const Complex d = strided::dot(exec, a.view.conj(), b.view, strided::exact);
    EXPECT_TRUE(same_result(d.real(), oracle_sum<double>(left, &right)));
    EXPECT_TRUE(same_result(d.imag(), oracle_sum<double>(left_i, &right_i)));
  }
}

TYPED_TEST(ExactTest, AxisReductionsRoundEachOutputOnce) {
  const TypeParam exec;
  std::mt19937 layout_rng(19);
  std::mt19937_64 rng(23);
  const std::vector<std::size_t> extents = {6, 50, 7};
  for (const std::vector<std::size_t>& axes :
       std::vector<std::vector<std::size_t>>{{1}, {0, 2}, {2, 0, 1}, {}}) {
    SCOPED_TRACE(::testing::Message() << axes.size() << " reduced axes");
    auto a = random_operand<double>(extents, layout_rng);
    auto b = random_operand<double>(extents, layout_rng);
    fill_with(a.view, hard_values(Hard::Cancelling, count_of(extents), rng),
              [](double x) { return x; });
    fill_with(b.view, hard_values(Hard::WideRange, count_of(extents), rng),
              [](double x) { return x; });
    std::vector<std::size_t> kept_extents, kept;
    for (std::size_t k = 0; k < extents.size(); ++k)
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) {
        kept.push_back(k);
        kept_extents.push_back(extents[k]);
      }
    auto sums = random_operand<double>(kept_extents, layout_rng);
    auto dots = random_operand<double>(kept_extents, layout_rng);
    auto squares = random_operand<double>(kept_extents, layout_rng);
    strided::sum_axes(exec, sums.view, a.view, axes, strided::exact);
    strided::dot_axes(exec, dots.view, a.view, b.view, axes, strided::exact);
    const auto plan = strided::make_axes_plan(squares.view, a.view, axes);
    strided::sum_squares_axes(exec, plan, squares.view, a.view, strided::exact);
    for_each_index(kept_extents, [&](const std::vector<std::size_t>& out) {
      std::vector<double> x, y;
      for_each_index(extents, [&](const std::vector<std::size_t>& i) {
        for (std::size_t k = 0; k < kept.size(); ++k)
          if (i[kept[k]] != out[k]) return;
        x.push_back(read(a.view, i));
        y.push_back(read(b.view, i));
      });
      EXPECT_TRUE(same_result(read(sums.view, out), oracle_sum<double>(x)));
      EXPECT_TRUE(same_result(read(dots.view, out), oracle_sum<double>(x, &y)));
      EXPECT_TRUE(same_result(read(squares.view, out), oracle_sum<double>(x, &x)));
    });
  }
}

// The forms without an execution space (DefaultHostExecutionSpace) and with kept plans.
/// The device's bins (one lane, short blocks) hold the integer of the host's (16 lanes): blocks of
/// wide-ranging, growing, shrinking and cancelling terms, added to both, round to the same
/// double, and both equal the MPFR oracle.
TEST(ExactSumLanes, OneLaneHoldsTheIntegerOfSixteen) {
  using strided::detail::ExactSum;
  using strided::detail::NarrowInteger;
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 60; ++trial) {
    ExactSum<NarrowInteger, 1, 16> sixteen;
    ExactSum<NarrowInteger, 1, 1> one;
    std::vector<double> all;
    const int spread = trial % 3 == 0 ? 20 : trial % 3 == 1 ? 200 : 900;
    for (int b = 0; b < 24; ++b) {
      const int n = 1 + static_cast<int>(rng() % 256);
      const int shift = (trial % 2 ? b : -b) * 3;  // growing or shrinking data
      std::vector<double> block(static_cast<std::size_t>(n));
      for (double& x : block) {
        const int e = static_cast<int>(rng() % static_cast<unsigned>(2 * spread + 1)) - spread;
        x = rng() % 17 == 0 ? 0.0 : std::ldexp(unit(rng), e + shift);
      }
      if (b % 5 == 4)  // cancelling: the previous terms negated
        for (std::size_t k = 0; k < block.size() && k < all.size(); ++k) block[k] = -all[k];
      sixteen.add_block<true>(block.data(), n);
      one.add_block<true>(block.data(), n);
      all.insert(all.end(), block.begin(), block.end());
    }
    const double a = sixteen.finish().round<double>();
    const double c = one.finish().round<double>();
    EXPECT_EQ(std::memcmp(&a, &c, sizeof a), 0) << "trial " << trial << ": " << a << " vs " << c;
    EXPECT_TRUE(same_result(a, oracle_sum<double>(all))) << "trial " << trial;
  }
}

/// The device's merge of chunk integers by groups, one item per digit (MergeChunks): several
/// groups and a short last one (a host run has at most one group) give the integer of merging
/// every chunk one after another.
TEST(ExactMerge, GroupsOfChunksMergeDigitByDigit) {
  using strided::detail::ExactSum;
  using strided::detail::NarrowInteger;
  using Merge = strided::detail::MergeChunks<NarrowInteger, 1>;
  constexpr std::size_t chunks = 3 * strided::detail::EXACT_MERGE_GROUP + 7;
  constexpr std::size_t groups = 4;
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<NarrowInteger> ints(chunks), heads(groups);
  NarrowInteger want;
  for (NarrowInteger& v : ints) {
    ExactSum<NarrowInteger> sum;
    std::vector<double> block(100);
    for (double& x : block) x = std::ldexp(unit(rng), static_cast<int>(rng() % 400) - 200);
    sum.add_block<true>(block.data(), static_cast<int>(block.size()));
    v = sum.finish();
    v.normalize();  // as ExactChunks leaves them
    want.merge(v);
  }
  const Merge merge{ints.data(), heads.data(), chunks};
  for (std::size_t item = 0; item < groups * Merge::WIDTH; ++item) merge(item);
  NarrowInteger got;
  for (const NarrowInteger& h : heads) got.merge(h);
  got.normalize();
  want.normalize();
  EXPECT_EQ(std::memcmp(got.digit, want.digit, sizeof got.digit), 0);
  EXPECT_EQ(got.flags, want.flags);
  EXPECT_NE(got.round<double>(), 0.0);
  // A lost group changes the integer: the comparison above can fail.
  NarrowInteger partial;
  for (std::size_t g = 0; g + 1 < groups; ++g) partial.merge(heads[g]);
  partial.normalize();
  EXPECT_NE(std::memcmp(partial.digit, want.digit, sizeof partial.digit), 0);
}

TEST(ExactForms, DefaultHostAndKeptPlansGiveTheSameBits) {
  std::mt19937 layout_rng(29);
  std::mt19937_64 rng(31);
  const std::vector<std::size_t> extents = {9, 40};
  auto a = random_operand<double>(extents, layout_rng);
  auto b = random_operand<double>(extents, layout_rng);
  fill_with(a.view, hard_values(Hard::WideRange, 360, rng), [](double x) { return x; });
  fill_with(b.view, hard_values(Hard::Cancelling, 360, rng), [](double x) { return x; });
  const auto x = elements(a.view), y = elements(b.view);
  const auto plan1 = strided::make_plan(a.view);
  const auto plan2 = strided::make_plan(a.view, b.view);
  EXPECT_TRUE(same_result(strided::sum(a.view, strided::exact), oracle_sum<double>(x)));
  EXPECT_TRUE(same_result(strided::sum(plan1, a.view, strided::exact), oracle_sum<double>(x)));
  EXPECT_TRUE(same_result(strided::dot(a.view, b.view, strided::exact), oracle_sum<double>(x, &y)));
  EXPECT_TRUE(
      same_result(strided::dot(plan2, a.view, b.view, strided::exact), oracle_sum<double>(x, &y)));
  EXPECT_TRUE(same_result(strided::sum_squares(a.view, strided::exact), oracle_sum<double>(x, &x)));
  EXPECT_TRUE(
      same_result(strided::sum_squares(plan1, a.view, strided::exact), oracle_sum<double>(x, &x)));
  // Over all axes into a rank-0 destination, with and without a kept plan.
  auto total = strided::StridedArray<double>::row_major({});
  strided::sum_axes(total.view(), a.view, {0, 1}, strided::exact);
  EXPECT_TRUE(same_result(total.data()[0], oracle_sum<double>(x)));
  strided::dot_axes(total.view(), a.view, b.view, {1, 0}, strided::exact);
  EXPECT_TRUE(same_result(total.data()[0], oracle_sum<double>(x, &y)));
  const auto axes_plan = strided::make_axes_plan(total.view(), a.view, b.view, {0, 1});
  strided::dot_axes(axes_plan, total.view(), a.view, b.view, strided::exact);
  EXPECT_TRUE(same_result(total.data()[0], oracle_sum<double>(x, &y)));
  strided::sum_squares_axes(total.view(), a.view, {0, 1}, strided::exact);
  EXPECT_TRUE(same_result(total.data()[0], oracle_sum<double>(x, &x)));
}

TYPED_TEST(ExactTest, BadInputRaisesTheFixedFoldErrors) {
  const TypeParam exec;
  auto a = strided::StridedArray<double>::row_major({4, 5});
  auto b = strided::StridedArray<double>::row_major({5, 4});
  auto d = strided::StridedArray<double>::row_major({4});
  using strided::ErrorCode;
  strided_test::expect_error([&] { (void)strided::dot(exec, a.view(), b.view(), strided::exact); },
                             ErrorCode::ShapeMismatch, "dot");
  strided_test::expect_error(
      [&] { strided::sum_axes(exec, d.view(), a.view(), {2}, strided::exact); },
      ErrorCode::InvalidAxis, "sum_axes");
  strided_test::expect_error(
      [&] { strided::sum_axes(exec, d.view(), a.view(), {0}, strided::exact); },
      ErrorCode::ShapeMismatch, "sum_axes");
  const auto plan = strided::make_plan(a.view());
  strided_test::expect_error([&] { (void)strided::sum(exec, plan, b.view(), strided::exact); },
                             ErrorCode::PlanMismatch, "sum");
}

}  // namespace
