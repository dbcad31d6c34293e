// StridedView: element ops and their composition, element access under every op, construction
// and bounds validation (strided-rs §4.2 cases 1, 2, 5 and 13), argument containers, rank 0 and
// the heap-metadata path at rank 32, and views of const elements.
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <strided/strided.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "../expect_error.hpp"

namespace {

using strided_test::expect_error;

using strided::Adjoint;
using strided::Compose;
using strided::Conj;
using strided::ErrorCode;
using strided::Identity;
using strided::StridedView;
using strided::Transpose;

constexpr std::ptrdiff_t kMaxDiff = std::numeric_limits<std::ptrdiff_t>::max();
constexpr std::ptrdiff_t kMinDiff = std::numeric_limits<std::ptrdiff_t>::min();

// ---- element operations ---------------------------------------------------------------------

// The Klein four-group, all 16 pairs: Identity is neutral, every op is its own inverse, and the
// product of two distinct non-identity ops is the third.
template <class A, class B, class R>
constexpr bool composes_to = std::is_same_v<typename Compose<A, B>::type, R>;
static_assert(composes_to<Identity, Identity, Identity>);
static_assert(composes_to<Identity, Conj, Conj>);
static_assert(composes_to<Identity, Transpose, Transpose>);
static_assert(composes_to<Identity, Adjoint, Adjoint>);
static_assert(composes_to<Conj, Identity, Conj>);
static_assert(composes_to<Conj, Conj, Identity>);
static_assert(composes_to<Conj, Transpose, Adjoint>);
static_assert(composes_to<Conj, Adjoint, Transpose>);
static_assert(composes_to<Transpose, Identity, Transpose>);
static_assert(composes_to<Transpose, Conj, Adjoint>);
static_assert(composes_to<Transpose, Transpose, Identity>);
static_assert(composes_to<Transpose, Adjoint, Conj>);
static_assert(composes_to<Adjoint, Identity, Adjoint>);
static_assert(composes_to<Adjoint, Conj, Transpose>);
static_assert(composes_to<Adjoint, Transpose, Conj>);
static_assert(composes_to<Adjoint, Adjoint, Identity>);
static_assert(std::is_same_v<strided::compose_t<Conj, Transpose>, Adjoint>);
static_assert(strided::is_element_op_v<Identity> && strided::is_element_op_v<Conj> &&
              strided::is_element_op_v<Transpose> && strided::is_element_op_v<Adjoint>);
static_assert(!strided::is_element_op_v<int> && !strided::is_element_op_v<void>);

TEST(ElementOps, RealAndIntegerTypesAreUnchanged) {
  EXPECT_EQ(Identity::apply(-2.5), -2.5);
  EXPECT_EQ(Conj::apply(-2.5), -2.5);
  EXPECT_EQ(Transpose::apply(-2.5), -2.5);
  EXPECT_EQ(Adjoint::apply(-2.5), -2.5);
  EXPECT_EQ(Identity::apply(-7), -7);
  EXPECT_EQ(Conj::apply(-7), -7);
  EXPECT_EQ(Transpose::apply(-7), -7);
  EXPECT_EQ(Adjoint::apply(-7), -7);
  static_assert(std::is_same_v<decltype(Adjoint::apply(1)), int>);
  static_assert(std::is_same_v<decltype(Conj::apply(1.0f)), float>);
}

TEST(ElementOps, ComplexTypesConjugateUnderConjAndAdjoint) {
  const std::complex<double> s(1.5, -2.0);
  EXPECT_EQ(Identity::apply(s), s);
  EXPECT_EQ(Conj::apply(s), std::complex<double>(1.5, 2.0));
  EXPECT_EQ(Transpose::apply(s), s);
  EXPECT_EQ(Adjoint::apply(s), std::complex<double>(1.5, 2.0));
  const Kokkos::complex<double> k(3.0, 4.0);
  EXPECT_EQ(Identity::apply(k), k);
  EXPECT_EQ(Conj::apply(k), Kokkos::complex<double>(3.0, -4.0));
  EXPECT_EQ(Transpose::apply(k), k);
  EXPECT_EQ(Adjoint::apply(k), Kokkos::complex<double>(3.0, -4.0));
  static_assert(std::is_same_v<decltype(Conj::apply(k)), Kokkos::complex<double>>);
  static_assert(std::is_same_v<decltype(Conj::apply(s)), std::complex<double>>);
  // Composition agrees with applying both ops.
  using ConjAdjoint = strided::compose_t<Conj, Adjoint>;
  using ConjConj = strided::compose_t<Conj, Conj>;
  EXPECT_EQ(ConjAdjoint::apply(s), Adjoint::apply(Conj::apply(s)));
  EXPECT_EQ(ConjConj::apply(k), k);
}

// ---- element access under the four ops, for four element types ------------------------------

template <class T>
T make_value(int i) {
  if constexpr (strided::detail::is_complex_v<T>)
    return T(static_cast<double>(i), static_cast<double>(10 * i + 1));
  else
    return static_cast<T>(i);
}
template <class T>
T conj_of(const T& x) {
  if constexpr (strided::detail::is_complex_v<T>)
    return T(x.real(), -x.imag());
  else
    return x;
}

template <class T>
class ElementAccess : public ::testing::Test {};
using ElementTypes = ::testing::Types<double, int, std::complex<double>, Kokkos::complex<double>>;
struct ElementTypeNames {
  template <class T>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<T, double>) return "double";
    if constexpr (std::is_same_v<T, int>) return "int";
    if constexpr (std::is_same_v<T, std::complex<double>>) return "std_complex";
    return "Kokkos_complex";
  }
};
// The name generator also avoids Clang's -Wgnu-zero-variadic-macro-arguments in the macro.
TYPED_TEST_SUITE(ElementAccess, ElementTypes, ElementTypeNames);

TYPED_TEST(ElementAccess, AllFourOpsOnA2x3RowMajorView) {
  using T = TypeParam;
  std::vector<T> data;
  for (int i = 0; i < 6; ++i) data.push_back(make_value<T>(i + 1));
  const StridedView<T> v(data.data(), data.size(), {2, 3}, {3, 1});
  const auto c = v.conj();
  const auto t = v.transpose();
  const auto a = v.adjoint();
  static_assert(std::is_same_v<decltype(c), const StridedView<T, Conj>>);
  static_assert(std::is_same_v<decltype(t), const StridedView<T, Transpose>>);
  static_assert(std::is_same_v<decltype(a), const StridedView<T, Adjoint>>);
  static_assert(std::is_same_v<decltype(v(0, 0)), T>);
  ASSERT_EQ(t.extent(0), 3u);
  ASSERT_EQ(t.extent(1), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      const T x = data[3 * i + j];
      EXPECT_EQ(v(i, j), x);
      EXPECT_EQ(c(i, j), conj_of(x));
      EXPECT_EQ(t(j, i), x);
      EXPECT_EQ(a(j, i), conj_of(x));
    }
}

TYPED_TEST(ElementAccess, OpsGivenAsTemplateArgumentApplyOnRead) {
  using T = TypeParam;
  std::vector<T> data;
  for (int i = 0; i < 4; ++i) data.push_back(make_value<T>(i + 2));
  // Column-major 2x2: the op is applied on read, the memory is never changed.
  const StridedView<T, Identity> vi(data.data(), 4, {2, 2}, {1, 2});
  const StridedView<T, Conj> vc(data.data(), 4, {2, 2}, {1, 2});
  const StridedView<T, Transpose> vt(data.data(), 4, {2, 2}, {1, 2});
  const StridedView<T, Adjoint> va(data.data(), 4, {2, 2}, {1, 2});
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      const T x = data[i + 2 * j];
      EXPECT_EQ(vi(i, j), x);
      EXPECT_EQ(vc(i, j), conj_of(x));
      EXPECT_EQ(vt(i, j), x);  // Transpose permutes indices only through transpose()
      EXPECT_EQ(va(i, j), conj_of(x));
    }
  EXPECT_EQ(data[1], make_value<T>(3));
  // conj() of a Conj view reads the original values again.
  const auto back = vc.conj();
  static_assert(std::is_same_v<typename decltype(back)::op_type, Identity>);
  EXPECT_EQ(back(1, 1), data[3]);
}

TEST(StridedView, MutableReferenceThroughAt) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {1, 2});
  v.at(1, 2) = 42.0;
  EXPECT_EQ(data[5], 42.0);
  v.at(0, 1) += 1.0;
  EXPECT_EQ(data[2], 4.0);
  static_assert(std::is_same_v<decltype(v.at(0, 0)), double&>);
  expect_error([&] { (void)v.at(0, 0, 0); }, ErrorCode::RankMismatch, "StridedView::at");
}

// ---- strided-rs §4.2 cases 1, 2, 5 -----------------------------------------------------------

TEST(StridedView, Case1RowMajorAccessors) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {3, 1});
  EXPECT_EQ(v(0, 1), 2);
  EXPECT_EQ(v(1, 0), 4);
  EXPECT_EQ(v(1, 2), 6);
  EXPECT_EQ(v.rank(), 2u);
  EXPECT_EQ(v.size(), 6u);
  EXPECT_FALSE(v.empty());
  EXPECT_EQ(v.extent(0), 2u);
  EXPECT_EQ(v.extent(1), 3u);
  EXPECT_EQ(v.stride(0), 3);
  EXPECT_EQ(v.stride(1), 1);
  EXPECT_EQ(v.data(), data);
  static_assert(std::is_same_v<decltype(v.extent(0)), std::size_t>);
  static_assert(std::is_same_v<decltype(v.stride(0)), std::ptrdiff_t>);
  static_assert(std::is_same_v<decltype(v.data()), double*>);
  static_assert(std::is_same_v<StridedView<double>::op_type, Identity>);
}

TEST(StridedView, Case2ColMajorAccess) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {1, 2});
  EXPECT_EQ(v(1, 0), 2);
  EXPECT_EQ(v(0, 1), 3);
  EXPECT_EQ(v(1, 2), 6);
  EXPECT_EQ(v(0, 0), 1);
}

TEST(StridedView, Case5ConjOfComplexVector) {
  std::complex<double> data[] = {{1, 2}, {3, 4}};
  const StridedView<std::complex<double>> v(data, 2, {2}, {1});
  const auto c = v.conj();
  EXPECT_EQ(c(0), std::complex<double>(1, -2));
  EXPECT_EQ(c(1), std::complex<double>(3, -4));
  EXPECT_EQ(v(0), std::complex<double>(1, 2));  // the source view is unchanged
  EXPECT_EQ(c.data(), v.data());
}

TEST(StridedView, WrongNumberOfIndicesThrows) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {3, 1});
  expect_error([&] { (void)v(1); }, ErrorCode::RankMismatch, "StridedView::operator()");
  expect_error([&] { (void)v(1, 1, 1); }, ErrorCode::RankMismatch, "StridedView::operator()");
}

TEST(StridedView, OffsetMovesTheOrigin) {
  double data[10];
  std::iota(data, data + 10, 0.0);
  const StridedView<double> v(data, 10, {2, 2}, {4, 2}, 3);
  EXPECT_EQ(v.data(), data + 3);
  EXPECT_EQ(v(0, 0), 3);
  EXPECT_EQ(v(0, 1), 5);
  EXPECT_EQ(v(1, 0), 7);
  EXPECT_EQ(v(1, 1), 9);
}

TEST(StridedView, NegativeStridesWithOffset) {
  double data[6] = {0, 1, 2, 3, 4, 5};
  // Origin at the last element, walking backwards on both axes.
  const StridedView<double> v(data, 6, {2, 3}, {-3, -1}, 5);
  EXPECT_EQ(v.data(), data + 5);
  EXPECT_EQ(v(0, 0), 5);
  EXPECT_EQ(v(0, 2), 3);
  EXPECT_EQ(v(1, 0), 2);
  EXPECT_EQ(v(1, 2), 0);
  // Mixed signs: rows forward, columns backward.
  const StridedView<double> m(data, 6, {2, 3}, {3, -1}, 2);
  EXPECT_EQ(m(0, 0), 2);
  EXPECT_EQ(m(1, 2), 3);
  // One short of the needed offset reaches index -1.
  expect_error(
      [&] {
        StridedView<double>(data, 6, {2, 3}, {-3, -1}, 4);
      },
      ErrorCode::OffsetOverflow, "StridedView");
  expect_error(
      [&] {
        StridedView<double>(data, 6, {2, 3}, {3, -1}, 1);
      },
      ErrorCode::OffsetOverflow, "StridedView");
  // Negative strides without an offset always reach before the buffer.
  expect_error([&] { StridedView<double>(data, 6, {2}, {-1}); }, ErrorCode::OffsetOverflow,
               "StridedView");
}

// ---- §4.2 case 13: bounds validation ----------------------------------------------------------

TEST(StridedView, Case13BoundsValidation) {
  double data[7] = {};
  EXPECT_NO_THROW(StridedView<double>(data, 6, {2, 3}, {3, 1}, 0));
  EXPECT_NO_THROW(StridedView<double>(data, 6, {2, 3}, {1, 2}, 0));
  expect_error(
      [&] {
        StridedView<double>(data, 5, {2, 3}, {3, 1}, 0);
      },
      ErrorCode::OffsetOverflow, "StridedView");
  EXPECT_NO_THROW(StridedView<double>(nullptr, 0, {0, 3}, {3, 1}, 0));
  EXPECT_NO_THROW(StridedView<double>(data, 7, {2, 3}, {3, 1}, 1));
  expect_error(
      [&] {
        StridedView<double>(data, 6, {2, 3}, {3, 1}, 1);
      },
      ErrorCode::OffsetOverflow, "StridedView");
}

TEST(StridedView, ShortAndExactBuffers) {
  double data[12] = {};
  // The last reachable element is (1*5 + 2*2) = 9: 10 elements suffice, 9 do not.
  EXPECT_NO_THROW(StridedView<double>(data, 10, {2, 3}, {5, 2}));
  expect_error(
      [&] {
        StridedView<double>(data, 9, {2, 3}, {5, 2});
      },
      ErrorCode::OffsetOverflow, "StridedView");
  // A gap-strided view needs only its reachable span, not the product of strides and extents.
  EXPECT_NO_THROW(StridedView<double>(data, 1, {1, 1}, {100, 7}));
  // Stride 0 (broadcast) reaches only the origin.
  EXPECT_NO_THROW(StridedView<double>(data, 1, {4, 5}, {0, 0}));
  expect_error([&] { StridedView<double>(data, 0, {1}, {1}); }, ErrorCode::OffsetOverflow,
               "StridedView");
}

TEST(StridedView, ZeroExtentIsValidForAnyStridesAndOffset) {
  double data[1] = {};
  for (std::ptrdiff_t offset : {std::ptrdiff_t(0), std::ptrdiff_t(100), std::ptrdiff_t(-5)}) {
    const StridedView<double> v(data, 0, {3, 0, 4}, {kMaxDiff, 1, kMinDiff}, offset);
    EXPECT_EQ(v.size(), 0u);
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(v.rank(), 3u);
    EXPECT_EQ(v.extent(1), 0u);
    EXPECT_EQ(v.stride(0), kMaxDiff);
    EXPECT_EQ(v.stride(2), kMinDiff);
  }
  EXPECT_NO_THROW(StridedView<double>(nullptr, 0, {0}, {-1}));
  // An empty view's transforms stay empty and never throw on bounds.
  const StridedView<double> e(nullptr, 0, {0, 5}, {kMaxDiff, kMaxDiff}, 7);
  EXPECT_EQ(e.reverse(1).size(), 0u);
  EXPECT_EQ(e.slice(1, 0, 5, 2).size(), 0u);
  EXPECT_EQ(e.permute({1, 0}).extent(0), 5u);
}

// Found by the fuzzer: the element count of a non-empty view must fit std::ptrdiff_t (kernels
// index with signed integers). Stride-0 axes reach one element, so only this rule bounds them:
// 2^64 - 1 elements used to be rejected on one axis and 2^63 accepted over two.
TEST(StridedView, ElementCountFitsPtrdiff) {
  double data[1] = {};
  const std::size_t huge = std::numeric_limits<std::size_t>::max();
  const auto max_count = static_cast<std::size_t>(kMaxDiff);
  expect_error(
      [&] {
        StridedView<double>(data, 1, {1, huge}, {1 << 26, 0});
      },
      ErrorCode::OffsetOverflow, "StridedView");
  expect_error(
      [&] {
        StridedView<double>(data, 1, {std::size_t(1) << 32, std::size_t(1) << 31}, {0, 0});
      },
      ErrorCode::OffsetOverflow, "StridedView");
  const StridedView<double> widest(data, 1, {max_count}, {0});
  EXPECT_EQ(widest.size(), max_count);
  // broadcast keeps the rule: its count would otherwise wrap size() (2^32 * 2^32 == 0).
  const StridedView<double> one(data, 1, {1, 1}, {1, 1});
  expect_error(
      [&] {
        one.broadcast({std::size_t(1) << 32, std::size_t(1) << 32});
      },
      ErrorCode::OffsetOverflow, "broadcast");
  expect_error([&] { one.broadcast({huge, 1}); }, ErrorCode::OffsetOverflow, "broadcast");
  EXPECT_EQ(one.broadcast({max_count, 1}).size(), max_count);
  EXPECT_EQ(StridedView<double>(data, 1, {0, 1}, {1, 1}).broadcast({0, huge}).size(), 0u);
}

TEST(StridedView, NegativeOffsetThrows) {
  double data[4] = {};
  expect_error([&] { StridedView<double>(data, 4, {2}, {1}, -1); }, ErrorCode::OffsetOverflow,
               "StridedView");
  expect_error([&] { StridedView<double>(data, 4, {}, {}, -1); }, ErrorCode::OffsetOverflow,
               "StridedView");
  expect_error([&] { StridedView<double>(data, 4, {2}, {1}, kMinDiff); }, ErrorCode::OffsetOverflow,
               "StridedView");
}

TEST(StridedView, OverflowIsOffsetOverflow) {
  double data[4] = {};
  // (extent - 1) * stride does not fit.
  expect_error([&] { StridedView<double>(data, 4, {3}, {kMaxDiff}); }, ErrorCode::OffsetOverflow,
               "StridedView");
  expect_error([&] { StridedView<double>(data, 4, {3}, {kMaxDiff / 2 + 1}); },
               ErrorCode::OffsetOverflow, "StridedView");
  expect_error([&] { StridedView<double>(data, 4, {2}, {kMinDiff}); }, ErrorCode::OffsetOverflow,
               "StridedView");
  // Each axis fits, their sum does not.
  expect_error(
      [&] {
        StridedView<double>(data, SIZE_MAX, {2, 2}, {kMaxDiff, 1});
      },
      ErrorCode::OffsetOverflow, "StridedView");
  // offset + reach does not fit.
  expect_error([&] { StridedView<double>(data, SIZE_MAX, {2}, {1}, kMaxDiff); },
               ErrorCode::OffsetOverflow, "StridedView");
  // The element count does not fit std::size_t (stride 0 keeps the span at one element).
  const std::size_t big = std::size_t(1) << 33;
  expect_error(
      [&] {
        StridedView<double>(data, 4, {big, big}, {0, 0});
      },
      ErrorCode::OffsetOverflow, "StridedView");
  // Huge but representable strides on a huge buffer length are fine (nothing is read).
  EXPECT_NO_THROW(StridedView<double>(data, SIZE_MAX, {2}, {kMaxDiff - 1}));
  // A stride PTRDIFF_MIN is only harmless on an extent-1 axis.
  EXPECT_NO_THROW(StridedView<double>(data, 4, {1, 2}, {kMinDiff, 1}));
}

TEST(StridedView, StrideLengthMismatch) {
  double data[6] = {};
  expect_error(
      [&] {
        StridedView<double>(data, 6, {2, 3}, {1});
      },
      ErrorCode::StrideLengthMismatch, "StridedView");
  expect_error(
      [&] {
        StridedView<double>(data, 6, {6}, {1, 1});
      },
      ErrorCode::StrideLengthMismatch, "StridedView");
  expect_error([&] { StridedView<double>(data, 6, {}, {1}); }, ErrorCode::StrideLengthMismatch,
               "StridedView");
  // Checked even when an extent is 0.
  expect_error(
      [&] {
        StridedView<double>(data, 6, {0, 3}, {1});
      },
      ErrorCode::StrideLengthMismatch, "StridedView");
  try {
    StridedView<double>(data, 6, {2, 3}, {1});
  } catch (const strided::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find('2'), std::string::npos);
    EXPECT_NE(what.find('1'), std::string::npos);
  }
}

TEST(StridedView, ErrorIsARuntimeError) {
  static_assert(std::is_base_of_v<std::runtime_error, strided::Error>);
  double data[1];
  EXPECT_THROW(StridedView<double>(data, 0, {1}, {1}), std::runtime_error);
}

// ---- argument containers ---------------------------------------------------------------------

void expect_2x3_col_major(const StridedView<double>& v, const double* data) {
  ASSERT_EQ(v.rank(), 2u);
  EXPECT_EQ(v.extent(0), 2u);
  EXPECT_EQ(v.extent(1), 3u);
  EXPECT_EQ(v.stride(0), 1);
  EXPECT_EQ(v.stride(1), 2);
  EXPECT_EQ(v(1, 2), data[5]);
}

TEST(StridedView, DimsAndStridesFromEveryContainer) {
  double data[] = {1, 2, 3, 4, 5, 6};
  expect_2x3_col_major(StridedView<double>(data, 6, {2, 3}, {1, 2}), data);
  expect_2x3_col_major(StridedView<double>(data, 6, std::vector<int>{2, 3}, std::vector<int>{1, 2}),
                       data);
  expect_2x3_col_major(
      StridedView<double>(data, 6, std::vector<std::size_t>{2, 3}, std::vector<std::size_t>{1, 2}),
      data);
  expect_2x3_col_major(
      StridedView<double>(data, 6, std::vector<long>{2, 3}, std::vector<std::ptrdiff_t>{1, 2}),
      data);
  expect_2x3_col_major(
      StridedView<double>(data, 6, std::array<std::size_t, 2>{2, 3}, std::array<int, 2>{1, 2}),
      data);
  const int cdims[] = {2, 3};
  const long cstrides[] = {1, 2};
  expect_2x3_col_major(StridedView<double>(data, 6, cdims, cstrides), data);
  std::size_t udims[2] = {2, 3};
  std::ptrdiff_t sstrides[2] = {1, 2};
  expect_2x3_col_major(StridedView<double>(data, 6, udims, sstrides), data);
  // Negative strides from signed containers.
  const StridedView<double> r(data, 6, std::vector<int>{2, 3}, std::array<int, 2>{-1, -2}, 5);
  EXPECT_EQ(r.stride(1), -2);
  EXPECT_EQ(r(0, 0), 6);
  EXPECT_EQ(r(1, 2), 1);
  // A negative extent in a signed container is rejected before anything else.
  expect_error(
      [&] {
        StridedView<double>(data, 6, std::vector<int>{2, -3}, {1, 2});
      },
      ErrorCode::InvalidArgument, "IndexList");
  const int bad[] = {-1};
  expect_error([&] { StridedView<double>(data, 6, bad, {1}); }, ErrorCode::InvalidArgument,
               "IndexList");
  // Braced lists of variables of any one integer type: not constants, so that converting them
  // into the list's own type would be narrowing (a compile error without IndexList's template).
  int m = 2, n = 3, one = 1;
  unsigned long long um = 2, un = 3;
  short s1 = 1, s2 = 2;
  expect_2x3_col_major(StridedView<double>(data, 6, {m, n}, {one, m}), data);
  expect_2x3_col_major(StridedView<double>(data, 6, {um, un}, {s1, s2}), data);
  int minus_three = -3;
  expect_error(
      [&] {
        StridedView<double>(data, 6, {m, minus_three}, {one, m});
      },
      ErrorCode::InvalidArgument, "IndexList");
}

// ---- rank 0 ----------------------------------------------------------------------------------

TEST(StridedView, RankZero) {
  double data[3] = {7, 8, 9};
  const StridedView<double> v(data, 3, {}, {}, 2);
  EXPECT_EQ(v.rank(), 0u);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_FALSE(v.empty());
  EXPECT_EQ(v.data(), data + 2);
  EXPECT_EQ(v(), 9);
  v.at() = 10;
  EXPECT_EQ(data[2], 10);
  EXPECT_EQ(v.conj()(), 10);
  EXPECT_EQ(v.permute({}).data(), data + 2);
  EXPECT_EQ(v.broadcast({}).size(), 1u);
  EXPECT_EQ(v.diagonal(std::vector<std::pair<std::size_t, std::size_t>>{}).rank(), 0u);
  expect_error([&] { (void)v(0); }, ErrorCode::RankMismatch, "StridedView::operator()");
  expect_error([&] { StridedView<double>(data, 3, {}, {}, 3); }, ErrorCode::OffsetOverflow,
               "StridedView");
  expect_error([&] { StridedView<double>(data, 0, {}, {}); }, ErrorCode::OffsetOverflow,
               "StridedView");
  expect_error([&] { (void)v.transpose(); }, ErrorCode::RankMismatch, "transpose");
  expect_error([&] { (void)v.reverse(0); }, ErrorCode::InvalidAxis, "reverse");
  expect_error([&] { (void)v.slice(0, 0, 0); }, ErrorCode::InvalidAxis, "slice");
  std::complex<double> z(1, 2);
  const StridedView<std::complex<double>> vz(&z, 1, {}, {});
  EXPECT_EQ(vz.conj()(), std::complex<double>(1, -2));
}

// ---- rank 32: metadata on the heap -----------------------------------------------------------

constexpr std::size_t kBigRank = 32;
using BigIndex = std::array<std::size_t, kBigRank>;

template <class V, std::size_t... I>
auto read_at(const V& v, const BigIndex& idx, std::index_sequence<I...>) {
  return v(idx[I]...);
}
template <class V>
auto read_at(const V& v, const BigIndex& idx) {
  return read_at(v, idx, std::make_index_sequence<kBigRank>{});
}

/// Visits every multi-index of `extents` (odometer, last axis fastest).
template <class F>
void for_each_index(const BigIndex& extents, F&& f) {
  for (std::size_t e : extents)
    if (e == 0) return;
  BigIndex idx{};
  while (true) {
    f(idx);
    std::size_t k = kBigRank;
    while (k-- > 0) {
      if (++idx[k] < extents[k]) break;
      idx[k] = 0;
    }
    if (k == std::size_t(-1)) return;
  }
}

struct Rank32 : ::testing::Test {
  // Six axes of extent 2, the rest 1: 64 elements in a 64-element column-major buffer, so every
  // element value is its own linear index.
  void SetUp() override {
    std::ptrdiff_t s = 1;
    for (std::size_t k = 0; k < kBigRank; ++k) {
      dims[k] = (k % 5 == 0 && k < 30) ? 2 : 1;
      strides[k] = s;
      s *= static_cast<std::ptrdiff_t>(dims[k]);
    }
    data.resize(static_cast<std::size_t>(s));
    std::iota(data.begin(), data.end(), 0.0);
  }
  double expected(const BigIndex& idx) const {
    std::ptrdiff_t off = 0;
    for (std::size_t k = 0; k < kBigRank; ++k)
      off += static_cast<std::ptrdiff_t>(idx[k]) * strides[k];
    return data[static_cast<std::size_t>(off)];
  }
  StridedView<double> make() { return {data.data(), data.size(), dims, strides}; }

  std::array<std::size_t, kBigRank> dims{};
  std::array<std::ptrdiff_t, kBigRank> strides{};
  std::vector<double> data;
};

TEST_F(Rank32, ConstructionAndAccess) {
  static_assert(kBigRank > strided::INLINE_RANK);
  const auto v = make();
  ASSERT_EQ(v.rank(), kBigRank);
  EXPECT_EQ(v.size(), 64u);
  for (std::size_t k = 0; k < kBigRank; ++k) {
    EXPECT_EQ(v.extent(k), dims[k]);
    EXPECT_EQ(v.stride(k), strides[k]);
  }
  std::size_t visited = 0;
  for_each_index(dims, [&](const BigIndex& idx) {
    EXPECT_EQ(read_at(v, idx), expected(idx));
    ++visited;
  });
  EXPECT_EQ(visited, 64u);
  // Copies own their metadata: changing a copy's transform leaves the original intact.
  const auto copy = v;
  const auto rev = copy.reverse(0);
  EXPECT_EQ(v.stride(0), 1);
  EXPECT_EQ(rev.stride(0), -1);
  // A short buffer is still detected at this rank.
  expect_error([&] { StridedView<double>(data.data(), 63, dims, strides); },
               ErrorCode::OffsetOverflow, "StridedView");
}

TEST_F(Rank32, PermuteReversesAxisOrder) {
  const auto v = make();
  std::array<std::size_t, kBigRank> perm{};
  for (std::size_t k = 0; k < kBigRank; ++k) perm[k] = kBigRank - 1 - k;
  const auto p = v.permute(perm);
  ASSERT_EQ(p.rank(), kBigRank);
  for (std::size_t k = 0; k < kBigRank; ++k) {
    EXPECT_EQ(p.extent(k), dims[perm[k]]);
    EXPECT_EQ(p.stride(k), strides[perm[k]]);
  }
  BigIndex pdims{};
  for (std::size_t k = 0; k < kBigRank; ++k) pdims[k] = dims[perm[k]];
  for_each_index(pdims, [&](const BigIndex& idx) {
    BigIndex orig{};
    for (std::size_t k = 0; k < kBigRank; ++k) orig[perm[k]] = idx[k];
    EXPECT_EQ(read_at(p, idx), expected(orig));
  });
  perm[3] = perm[4];
  expect_error([&] { (void)v.permute(perm); }, ErrorCode::InvalidAxis, "permute");
  perm[3] = kBigRank;
  expect_error([&] { (void)v.permute(perm); }, ErrorCode::InvalidAxis, "permute");
  expect_error([&] { (void)v.permute(std::vector<std::size_t>(kBigRank - 1, 0)); },
               ErrorCode::RankMismatch, "permute");
}

TEST_F(Rank32, OtherTransforms) {
  const auto v = make();
  // reverse axis 5 (extent 2): origin moves to index 1 along it.
  const auto r = v.reverse(5);
  EXPECT_EQ(r.data(), v.data() + strides[5]);
  EXPECT_EQ(r.stride(5), -strides[5]);
  // slice axis 10 to its second element.
  const auto s = v.slice(10, 1, 2);
  EXPECT_EQ(s.extent(10), 1u);
  EXPECT_EQ(s.data(), v.data() + strides[10]);
  // broadcast axis 1 (extent 1) to 3.
  BigIndex bdims = dims;
  bdims[1] = 3;
  const auto b = v.broadcast(bdims);
  EXPECT_EQ(b.extent(1), 3u);
  EXPECT_EQ(b.stride(1), 0);
  EXPECT_EQ(b.size(), 192u);
  // diagonal of axes 0 and 5 (both extent 2): rank 31.
  const auto d = v.diagonal({{0, 5}});
  ASSERT_EQ(d.rank(), kBigRank - 1);
  EXPECT_EQ(d.extent(0), 2u);
  EXPECT_EQ(d.stride(0), strides[0] + strides[5]);
  EXPECT_EQ(d.extent(4), dims[4]);
  EXPECT_EQ(d.extent(5), dims[6]);  // axis 5 removed, later axes shift down
  EXPECT_EQ(d.stride(5), strides[6]);
  EXPECT_EQ(d.size(), 32u);
  // Element checks through every transform.
  for_each_index(dims, [&](const BigIndex& idx) {
    BigIndex ri = idx;
    ri[5] = dims[5] - 1 - idx[5];
    EXPECT_EQ(read_at(r, idx), expected(ri));
    BigIndex bi = idx;
    bi[1] = 2;  // any index along the broadcast axis reads the same element
    EXPECT_EQ(read_at(b, bi), expected(idx));
  });
  const auto c = v.conj();
  static_assert(std::is_same_v<typename decltype(c)::op_type, Conj>);
  EXPECT_EQ(c.rank(), kBigRank);
  expect_error([&] { (void)v.transpose(); }, ErrorCode::RankMismatch, "transpose");
  expect_error([&] { (void)v.adjoint(); }, ErrorCode::RankMismatch, "adjoint");
  expect_error([&] { (void)v.reverse(kBigRank); }, ErrorCode::InvalidAxis, "reverse");
  expect_error([&] { (void)v.diagonal({{0, kBigRank}}); }, ErrorCode::InvalidAxis, "diagonal");
}

// ---- views of const elements -----------------------------------------------------------------

TEST(ConstView, FromConstPointer) {
  const double data[] = {1, 2, 3, 4};
  const StridedView<const double> v(data, 4, {2, 2}, {2, 1});
  static_assert(std::is_same_v<decltype(v.data()), const double*>);
  static_assert(std::is_same_v<StridedView<const double>::value_type, double>);
  static_assert(std::is_same_v<StridedView<const double>::element_type, const double>);
  EXPECT_EQ(v(1, 0), 3);
  EXPECT_EQ(v.transpose()(1, 0), 2);
  EXPECT_EQ(v.reverse(0)(0, 1), 4);
  // A non-const pointer converts too.
  double mut[] = {5, 6};
  const StridedView<const double> w(mut, 2, {2}, {1});
  EXPECT_EQ(w(1), 6);
}

TEST(ConstView, FromMutableView) {
  std::complex<double> data[] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}};
  const StridedView<std::complex<double>> v(data, 4, {2, 2}, {1, 2});
  const StridedView<const std::complex<double>> c = v;  // implicit
  EXPECT_EQ(c.data(), v.data());
  EXPECT_EQ(c.extents(), v.extents());
  EXPECT_EQ(c.strides(), v.strides());
  EXPECT_EQ(c(1, 1), data[3]);
  // The op is kept.
  const StridedView<const std::complex<double>, Adjoint> ca = v.adjoint();
  EXPECT_EQ(ca(0, 1), std::complex<double>(2, -2));
  // A function taking a const view accepts a mutable one.
  auto first = [](StridedView<const std::complex<double>> x) { return x(0, 0); };
  EXPECT_EQ(first(v), data[0]);
  // Not the other way round, nor across ops.
  static_assert(std::is_convertible_v<StridedView<double>, StridedView<const double>>);
  static_assert(!std::is_convertible_v<StridedView<const double>, StridedView<double>>);
  static_assert(!std::is_constructible_v<StridedView<double>, StridedView<const double>>);
  static_assert(!std::is_convertible_v<StridedView<double, Conj>, StridedView<const double>>);
}

}  // namespace
