// Metadata-only transforms: permute, transpose, adjoint, conj, broadcast, diagonal, slice and
// reverse, with their error cases (strided-rs §4.2 cases 3, 4, 6-11). Values are checked against
// references computed by plain loops over the original view.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
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
using strided::Conj;
using strided::ErrorCode;
using strided::Identity;
using strided::StridedView;
using strided::Transpose;
using cd = std::complex<double>;

template <class V>
using op_of = typename V::op_type;

std::vector<double> iota_vector(std::size_t n, double first = 0.0) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

// ---- permute ---------------------------------------------------------------------------------

TEST(Permute, Case3) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {3, 1});
  const auto p = v.permute({1, 0});
  EXPECT_EQ(p.extent(0), 3u);
  EXPECT_EQ(p.extent(1), 2u);
  EXPECT_EQ(p.stride(0), 1);
  EXPECT_EQ(p.stride(1), 3);
  EXPECT_EQ(p(1, 0), 2);
  EXPECT_EQ(p(0, 1), 4);
  EXPECT_EQ(p.data(), v.data());
  static_assert(std::is_same_v<decltype(p), const StridedView<double>>);
}

TEST(Permute, AllPermutationsOfRank3FollowNumpy) {
  const auto data = iota_vector(24);
  const StridedView<const double> v(data.data(), 24, {2, 3, 4}, {12, 4, 1});
  std::array<std::size_t, 3> perm = {0, 1, 2};
  int count = 0;
  do {
    const auto p = v.permute(perm);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(p.extent(k), v.extent(perm[k]));  // numpy: result.shape[k] == shape[perm[k]]
      EXPECT_EQ(p.stride(k), v.stride(perm[k]));
    }
    for (std::size_t a = 0; a < p.extent(0); ++a)
      for (std::size_t b = 0; b < p.extent(1); ++b)
        for (std::size_t c = 0; c < p.extent(2); ++c) {
          std::size_t orig[3];
          orig[perm[0]] = a;
          orig[perm[1]] = b;
          orig[perm[2]] = c;
          EXPECT_EQ(p(a, b, c), v(orig[0], orig[1], orig[2]));
        }
    ++count;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(count, 6);
  // A concrete one: perm (2, 0, 1) gives shape (4, 2, 3) and p(i, j, k) == v(j, k, i).
  const auto p = v.permute(std::vector<int>{2, 0, 1});
  EXPECT_EQ(p.extent(0), 4u);
  EXPECT_EQ(p.extent(1), 2u);
  EXPECT_EQ(p.extent(2), 3u);
  EXPECT_EQ(p(3, 1, 2), v(1, 2, 3));
  EXPECT_EQ(p(3, 1, 2), 23.0);
}

TEST(Permute, KeepsOpAndComposes) {
  cd data[] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}};
  const StridedView<cd> v(data, 6, {1, 2, 3}, {6, 3, 1});
  const auto p = v.conj().permute({2, 0, 1});
  static_assert(std::is_same_v<op_of<std::decay_t<decltype(p)>>, Conj>);
  EXPECT_EQ(p(2, 0, 1), cd(6, -6));
  // Permuting twice by a permutation and its inverse restores the view.
  const auto q = v.permute({2, 0, 1}).permute({1, 2, 0});
  EXPECT_EQ(q.extents(), v.extents());
  EXPECT_EQ(q.strides(), v.strides());
}

TEST(Permute, Errors) {
  double data[24] = {};
  const StridedView<double> v(data, 24, {2, 3, 4}, {12, 4, 1});
  expect_error([&] { (void)v.permute({1, 0}); }, ErrorCode::RankMismatch, "permute");
  expect_error([&] { (void)v.permute({0, 1, 2, 3}); }, ErrorCode::RankMismatch, "permute");
  expect_error([&] { (void)v.permute({}); }, ErrorCode::RankMismatch, "permute");
  expect_error([&] { (void)v.permute({0, 0, 1}); }, ErrorCode::InvalidAxis, "permute");
  expect_error([&] { (void)v.permute({2, 1, 2}); }, ErrorCode::InvalidAxis, "permute");
  expect_error([&] { (void)v.permute({0, 1, 3}); }, ErrorCode::InvalidAxis, "permute");
  expect_error(
      [&] {
        (void)v.permute({0, 1, std::numeric_limits<std::size_t>::max()});
      },
      ErrorCode::InvalidAxis, "permute");
  // Identity permutation at rank 0 is fine; any non-empty one is a rank mismatch.
  const StridedView<double> s(data, 1, {}, {});
  EXPECT_NO_THROW((void)s.permute({}));
  expect_error([&] { (void)s.permute({0}); }, ErrorCode::RankMismatch, "permute");
}

// ---- transpose / adjoint / conj --------------------------------------------------------------

TEST(Transpose, Case4) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {2, 3}, {3, 1});
  const auto t = v.transpose();
  EXPECT_EQ(t.extent(0), 3u);
  EXPECT_EQ(t.extent(1), 2u);
  EXPECT_EQ(t.stride(0), 1);
  EXPECT_EQ(t.stride(1), 3);
  EXPECT_EQ(t(0, 1), 4);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(t(j, i), v(i, j));
}

TEST(Adjoint, Case6) {
  cd data[] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  const StridedView<cd> v(data, 4, {2, 2}, {2, 1});
  const auto a = v.adjoint();
  static_assert(std::is_same_v<op_of<std::decay_t<decltype(a)>>, Adjoint>);
  EXPECT_EQ(a(0, 0), cd(1, -2));
  EXPECT_EQ(a(1, 0), cd(3, -4));
  EXPECT_EQ(a(0, 1), cd(5, -6));
  EXPECT_EQ(a(1, 1), cd(7, -8));
  EXPECT_EQ(a.data(), v.data());
  // Kokkos::complex as well.
  Kokkos::complex<double> k[] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  const StridedView<Kokkos::complex<double>> kv(k, 4, {2, 2}, {2, 1});
  EXPECT_EQ(kv.adjoint()(0, 1), Kokkos::complex<double>(5, -6));
}

TEST(Adjoint, OpTypesCompose) {
  cd data[] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}};
  const StridedView<cd> v(data, 6, {2, 3}, {3, 1});
  using I = StridedView<cd, Identity>;
  using C = StridedView<cd, Conj>;
  using T = StridedView<cd, Transpose>;
  using A = StridedView<cd, Adjoint>;
  static_assert(std::is_same_v<decltype(v.conj()), C>);
  static_assert(std::is_same_v<decltype(v.transpose()), T>);
  static_assert(std::is_same_v<decltype(v.adjoint()), A>);
  static_assert(std::is_same_v<decltype(v.conj().conj()), I>);
  static_assert(std::is_same_v<decltype(v.adjoint().adjoint()), I>);
  static_assert(std::is_same_v<decltype(v.transpose().transpose()), I>);
  static_assert(std::is_same_v<decltype(v.transpose().conj()), A>);
  static_assert(std::is_same_v<decltype(v.conj().transpose()), A>);
  static_assert(std::is_same_v<decltype(v.adjoint().conj()), T>);
  static_assert(std::is_same_v<decltype(v.adjoint().transpose()), C>);
  static_assert(std::is_same_v<decltype(v.conj().adjoint()), T>);
  // Values: adjoint twice and conj twice are the original; transpose().conj() is the adjoint.
  const auto aa = v.adjoint().adjoint();
  const auto cc = v.conj().conj();
  const auto tc = v.transpose().conj();
  const auto ct = v.adjoint().transpose();  // Conj op, original shape
  EXPECT_EQ(aa.extents(), v.extents());
  EXPECT_EQ(aa.strides(), v.strides());
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(aa(i, j), v(i, j));
      EXPECT_EQ(cc(i, j), v(i, j));
      EXPECT_EQ(tc(j, i), std::conj(v(i, j)));
      EXPECT_EQ(ct(i, j), std::conj(v(i, j)));
    }
}

TEST(Adjoint, RealTypesOnlyTranspose) {
  double data[] = {1, 2, 3, 4, 5, 6};
  const StridedView<double> v(data, 6, {3, 2}, {1, 3});
  const auto a = v.adjoint();
  const auto c = v.conj();
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      EXPECT_EQ(a(j, i), v(i, j));
      EXPECT_EQ(c(i, j), v(i, j));
    }
  EXPECT_EQ(c.data(), v.data());
  EXPECT_EQ(c.extents(), v.extents());
  EXPECT_EQ(c.strides(), v.strides());
}

TEST(Transpose, RankNot2Throws) {
  double data[8] = {};
  const StridedView<double> r0(data, 8, {}, {});
  const StridedView<double> r1(data, 8, {8}, {1});
  const StridedView<double> r3(data, 8, {2, 2, 2}, {4, 2, 1});
  for (const auto* v : {&r0, &r1, &r3}) {
    expect_error([&] { (void)v->transpose(); }, ErrorCode::RankMismatch, "transpose");
    expect_error([&] { (void)v->adjoint(); }, ErrorCode::RankMismatch, "adjoint");
    expect_error([&] { (void)v->conj().adjoint(); }, ErrorCode::RankMismatch, "adjoint");
  }
  EXPECT_NO_THROW((void)r1.conj());  // conj works at any rank
}

// ---- broadcast -------------------------------------------------------------------------------

TEST(Broadcast, Case7) {
  double data[] = {1, 2, 3};
  const StridedView<double> v(data, 3, {1, 3}, {3, 1});
  const auto b = v.broadcast({4, 3});
  EXPECT_EQ(b.extent(0), 4u);
  EXPECT_EQ(b.extent(1), 3u);
  EXPECT_EQ(b.stride(0), 0);
  EXPECT_EQ(b.stride(1), 1);
  EXPECT_EQ(b.size(), 12u);
  EXPECT_EQ(b.data(), data);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(b(i, j), data[j]);
}

TEST(Broadcast, SeveralAxesAndOps) {
  cd data[] = {{1, 1}, {2, 2}};
  const StridedView<cd> v(data, 2, {1, 2, 1}, {7, 1, 5});
  const auto b = v.conj().broadcast(std::array<std::size_t, 3>{3, 2, 4});
  static_assert(std::is_same_v<op_of<std::decay_t<decltype(b)>>, Conj>);
  EXPECT_EQ(b.stride(0), 0);
  EXPECT_EQ(b.stride(1), 1);
  EXPECT_EQ(b.stride(2), 0);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(b(i, j, k), std::conj(data[j]));
  // Same extents: unchanged (extent-1 axes keep their stride when not grown).
  const auto same = v.broadcast({1, 2, 1});
  EXPECT_EQ(same.strides(), v.strides());
  // Growing to extent 0 is allowed and gives an empty view.
  const auto empty = v.broadcast({0, 2, 1});
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.empty());
}

TEST(Broadcast, Errors) {
  double data[6] = {};
  const StridedView<double> v(data, 6, {1, 3}, {3, 1});
  expect_error([&] { (void)v.broadcast({3}); }, ErrorCode::RankMismatch, "broadcast");
  expect_error([&] { (void)v.broadcast({1, 1, 3}); }, ErrorCode::RankMismatch, "broadcast");
  expect_error([&] { (void)v.broadcast({4, 4}); }, ErrorCode::ShapeMismatch, "broadcast");
  expect_error([&] { (void)v.broadcast({4, 1}); }, ErrorCode::ShapeMismatch, "broadcast");
  const StridedView<double> z(data, 6, {0, 3}, {3, 1});
  expect_error([&] { (void)z.broadcast({1, 3}); }, ErrorCode::ShapeMismatch, "broadcast");
}

// ---- diagonal --------------------------------------------------------------------------------

TEST(Diagonal, Case8) {
  const auto data = iota_vector(9);
  const StridedView<const double> v(data.data(), 9, {3, 3}, {3, 1});
  const auto d = v.diagonal({{0, 1}});
  ASSERT_EQ(d.rank(), 1u);
  EXPECT_EQ(d.extent(0), 3u);
  EXPECT_EQ(d.stride(0), 4);
  EXPECT_EQ(d(0), 0);
  EXPECT_EQ(d(1), 4);
  EXPECT_EQ(d(2), 8);
}

TEST(Diagonal, Case9) {
  const auto data = iota_vector(12);
  const StridedView<const double> v(data.data(), 12, {2, 2, 3}, {6, 3, 1});
  const auto d = v.diagonal({{0, 1}});
  ASSERT_EQ(d.rank(), 2u);
  EXPECT_EQ(d.extent(0), 2u);
  EXPECT_EQ(d.extent(1), 3u);
  EXPECT_EQ(d.stride(0), 9);
  EXPECT_EQ(d.stride(1), 1);
  EXPECT_EQ(d(0, 2), 2);
  EXPECT_EQ(d(1, 0), 9);
}

TEST(Diagonal, Case10) {
  const auto data = iota_vector(12);
  const StridedView<const double> v(data.data(), 12, {2, 3, 2}, {6, 2, 1});
  for (const auto& pairs : {std::vector<std::pair<std::size_t, std::size_t>>{{0, 2}},
                            std::vector<std::pair<std::size_t, std::size_t>>{{2, 0}}}) {
    // The lower axis keeps its place whatever the order inside the pair.
    const auto d = v.diagonal(pairs);
    ASSERT_EQ(d.rank(), 2u);
    EXPECT_EQ(d.extent(0), 2u);
    EXPECT_EQ(d.extent(1), 3u);
    EXPECT_EQ(d.stride(0), 7);
    EXPECT_EQ(d.stride(1), 2);
    EXPECT_EQ(d(0, 1), 2);
    EXPECT_EQ(d(1, 0), 7);
    EXPECT_EQ(d(1, 2), 11);
  }
}

TEST(Diagonal, Case11) {
  const auto data = iota_vector(36);
  const StridedView<const double> v(data.data(), 36, {2, 3, 2, 3}, {18, 6, 3, 1});
  const auto d = v.diagonal({{0, 2}, {1, 3}});
  ASSERT_EQ(d.rank(), 2u);
  EXPECT_EQ(d.extent(0), 2u);
  EXPECT_EQ(d.extent(1), 3u);
  EXPECT_EQ(d.stride(0), 21);
  EXPECT_EQ(d.stride(1), 7);
  EXPECT_EQ(d(1, 1), 28);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(d(i, j), v(i, j, i, j));
  // Pairs given in another order and orientation, from a std::array, give the same view.
  const std::array<std::pair<std::size_t, std::size_t>, 2> swapped = {{{3, 1}, {2, 0}}};
  const auto e = v.diagonal(swapped);
  EXPECT_EQ(e.extents(), d.extents());
  EXPECT_EQ(e.strides(), d.strides());
}

TEST(Diagonal, SmallerExtentAndTripleDiagonal) {
  const auto data = iota_vector(27);
  // A 2x3 rectangle: the diagonal has the smaller extent.
  const StridedView<const double> r(data.data(), 6, {2, 3}, {3, 1});
  const auto rd = r.diagonal({{1, 0}});
  ASSERT_EQ(rd.rank(), 1u);
  EXPECT_EQ(rd.extent(0), 2u);
  EXPECT_EQ(rd(1), 4);
  // Merging three axes of a 3x3x3 cube by two pairs sharing an axis.
  const StridedView<const double> c(data.data(), 27, {3, 3, 3}, {9, 3, 1});
  const auto cd3 = c.diagonal({{0, 1}, {0, 2}});
  ASSERT_EQ(cd3.rank(), 1u);
  EXPECT_EQ(cd3.stride(0), 13);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(cd3(i), c(i, i, i));
  // Keeps the op.
  cd z[] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}};
  const auto zd = StridedView<cd>(z, 4, {2, 2}, {2, 1}).adjoint().diagonal({{0, 1}});
  static_assert(std::is_same_v<op_of<std::decay_t<decltype(zd)>>, Adjoint>);
  EXPECT_EQ(zd(1), cd(4, -4));
  // An empty pair list is the identity.
  const auto same = c.diagonal(std::vector<std::pair<std::size_t, std::size_t>>{});
  EXPECT_EQ(same.extents(), c.extents());
}

TEST(Diagonal, BadPairsThrowInvalidAxis) {
  double data[27] = {};
  const StridedView<double> v(data, 27, {3, 3, 3}, {9, 3, 1});
  expect_error([&] { (void)v.diagonal({{0, 0}}); }, ErrorCode::InvalidAxis, "diagonal");
  expect_error([&] { (void)v.diagonal({{0, 3}}); }, ErrorCode::InvalidAxis, "diagonal");
  expect_error([&] { (void)v.diagonal({{3, 0}}); }, ErrorCode::InvalidAxis, "diagonal");
  expect_error([&] { (void)v.diagonal({{5, 7}}); }, ErrorCode::InvalidAxis, "diagonal");
  // Axis 1 was merged into 0 and no longer exists.
  expect_error([&] { (void)v.diagonal({{0, 1}, {1, 2}}); }, ErrorCode::InvalidAxis, "diagonal");
  expect_error([&] { (void)v.diagonal({{0, 1}, {2, 1}}); }, ErrorCode::InvalidAxis, "diagonal");
  expect_error([&] { (void)v.diagonal({{0, 1}, {0, 1}}); }, ErrorCode::InvalidAxis, "diagonal");
  const StridedView<double> s(data, 1, {}, {});
  expect_error([&] { (void)s.diagonal({{0, 1}}); }, ErrorCode::InvalidAxis, "diagonal");
}

// ---- slice -----------------------------------------------------------------------------------

/// Python's range(begin, end, step) with non-negative bounds.
std::vector<std::size_t> python_range(std::size_t begin, std::size_t end, std::ptrdiff_t step) {
  std::vector<std::size_t> out;
  if (step > 0)
    for (std::size_t i = begin; i < end; i += static_cast<std::size_t>(step)) out.push_back(i);
  else
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(begin);
         i > static_cast<std::ptrdiff_t>(end); i += step)
      out.push_back(static_cast<std::size_t>(i));
  return out;
}

/// The contract's validity: non-negative bounds inside the extent, no clamping.
bool slice_is_valid(std::size_t n, std::size_t begin, std::size_t end, std::ptrdiff_t step) {
  if (step > 0) return begin <= end && end <= n;
  if (begin == end) return begin <= n;  // empty, like a[n:n:-1]
  return end < begin && begin < n;
}

TEST(Slice, MatchesPythonForEveryBoundAndStep) {
  const auto data = iota_vector(40);
  for (std::size_t n = 0; n <= 6; ++n) {
    // Axis 1 of an (2, n) view with row stride 7 and column stride 3: a non-unit stride.
    const StridedView<const double> v(data.data(), 40, {2, n}, {7, 3}, 1);
    for (std::ptrdiff_t step : {-4, -3, -2, -1, 1, 2, 3, 5}) {
      for (std::size_t begin = 0; begin <= n + 1; ++begin)
        for (std::size_t end = 0; end <= n + 1; ++end) {
          SCOPED_TRACE(testing::Message()
                       << "n=" << n << " [" << begin << ":" << end << ":" << step << "]");
          if (!slice_is_valid(n, begin, end, step)) {
            expect_error([&] { (void)v.slice(1, begin, end, step); }, ErrorCode::InvalidArgument,
                         "slice");
            continue;
          }
          const auto s = v.slice(1, begin, end, step);
          const auto expected = python_range(begin, end, step);
          ASSERT_EQ(s.extent(1), expected.size());
          EXPECT_EQ(s.extent(0), 2u);
          EXPECT_EQ(s.stride(0), 7);
          EXPECT_EQ(s.stride(1), 3 * step);
          if (!expected.empty()) {
            EXPECT_EQ(s.data(), data.data() + 1 + 3 * begin);
          }
          for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(s(r, i), v(r, expected[i]));
        }
    }
  }
}

TEST(Slice, NegativeStepExamples) {
  const auto data = iota_vector(10);
  const StridedView<const double> v(data.data(), 10, {10}, {1});
  // a[8:2:-2] == [8, 6, 4]
  const auto s = v.slice(0, 8, 2, -2);
  ASSERT_EQ(s.extent(0), 3u);
  EXPECT_EQ(s.stride(0), -2);
  EXPECT_EQ(s.data(), data.data() + 8);
  EXPECT_EQ(s(0), 8);
  EXPECT_EQ(s(1), 6);
  EXPECT_EQ(s(2), 4);
  // a[9:0:-1] == [9, ..., 1]
  const auto r = v.slice(0, 9, 0, -1);
  ASSERT_EQ(r.extent(0), 9u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(r(i), 9.0 - static_cast<double>(i));
  // Default step is 1.
  const auto d = v.slice(0, 3, 7);
  EXPECT_EQ(d.extent(0), 4u);
  EXPECT_EQ(d.stride(0), 1);
  EXPECT_EQ(d(0), 3);
  // Slices of slices compose: a[1:9:2][3:0:-1] == [7, 5, 3].
  const auto ss = v.slice(0, 1, 9, 2).slice(0, 3, 0, -1);
  ASSERT_EQ(ss.extent(0), 3u);
  EXPECT_EQ(ss(0), 7);
  EXPECT_EQ(ss(1), 5);
  EXPECT_EQ(ss(2), 3);
  EXPECT_EQ(ss.stride(0), -2);
}

TEST(Slice, HugeStepsAndEmptyAxes) {
  const auto data = iota_vector(10);
  const StridedView<const double> w(data.data(), 10, {5}, {2});
  constexpr std::ptrdiff_t big = std::numeric_limits<std::ptrdiff_t>::max();
  constexpr std::ptrdiff_t small = std::numeric_limits<std::ptrdiff_t>::min();
  // A step beyond the extent takes just the first element.
  const auto a = w.slice(0, 1, 5, big);
  ASSERT_EQ(a.extent(0), 1u);
  EXPECT_EQ(a(0), 2);
  const auto b = w.slice(0, 4, 0, small);
  ASSERT_EQ(b.extent(0), 1u);
  EXPECT_EQ(b(0), 8);
  // Empty slices of an empty axis, with either sign of step.
  const StridedView<const double> e(data.data(), 10, {3, 0}, {1, 1});
  EXPECT_EQ(e.slice(1, 0, 0, 1).extent(1), 0u);
  EXPECT_EQ(e.slice(1, 0, 0, -1).extent(1), 0u);
  EXPECT_EQ(e.slice(0, 2, 0, -1).extent(0), 2u);
  EXPECT_EQ(e.slice(0, 2, 0, -1).size(), 0u);
}

TEST(Slice, Errors) {
  double data[12] = {};
  const StridedView<double> v(data, 12, {3, 4}, {4, 1});
  expect_error([&] { (void)v.slice(0, 0, 3, 0); }, ErrorCode::InvalidArgument, "slice");
  expect_error([&] { (void)v.slice(0, 0, 4); }, ErrorCode::InvalidArgument, "slice");
  expect_error([&] { (void)v.slice(0, 2, 1); }, ErrorCode::InvalidArgument, "slice");
  expect_error([&] { (void)v.slice(1, 4, 0, -1); }, ErrorCode::InvalidArgument, "slice");
  expect_error([&] { (void)v.slice(1, 1, 2, -1); }, ErrorCode::InvalidArgument, "slice");
  expect_error([&] { (void)v.slice(2, 0, 1); }, ErrorCode::InvalidAxis, "slice");
  expect_error([&] { (void)v.slice(7, 0, 1, -1); }, ErrorCode::InvalidAxis, "slice");
  // The bad axis is reported before the bad step.
  expect_error([&] { (void)v.slice(2, 0, 1, 0); }, ErrorCode::InvalidAxis, "slice");
}

// ---- reverse ---------------------------------------------------------------------------------

TEST(Reverse, MovesOriginToLastElement) {
  const auto data = iota_vector(12);
  const StridedView<const double> v(data.data(), 12, {3, 4}, {4, 1});
  const auto r0 = v.reverse(0);
  EXPECT_EQ(r0.data(), data.data() + 8);
  EXPECT_EQ(r0.stride(0), -4);
  EXPECT_EQ(r0.stride(1), 1);
  const auto r1 = v.reverse(1);
  EXPECT_EQ(r1.data(), data.data() + 3);
  EXPECT_EQ(r1.stride(1), -1);
  const auto both = v.reverse(0).reverse(1);
  EXPECT_EQ(both.data(), data.data() + 11);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      EXPECT_EQ(r0(i, j), v(2 - i, j));
      EXPECT_EQ(r1(i, j), v(i, 3 - j));
      EXPECT_EQ(both(i, j), v(2 - i, 3 - j));
    }
  // Twice is the identity.
  const auto back = r0.reverse(0);
  EXPECT_EQ(back.data(), v.data());
  EXPECT_EQ(back.strides(), v.strides());
}

TEST(Reverse, NegativeStridesOpsAndEmpty) {
  cd data[] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  // Already reversed by construction: origin at 3, stride -1.
  const StridedView<cd> v(data, 4, {4}, {-1}, 3);
  const auto r = v.conj().reverse(0);
  static_assert(std::is_same_v<op_of<std::decay_t<decltype(r)>>, Conj>);
  EXPECT_EQ(r.data(), data);
  EXPECT_EQ(r.stride(0), 1);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(r(i), std::conj(data[i]));
  // Reversing an axis of an empty view keeps it empty and valid.
  const StridedView<cd> e(data, 4, {0, 3}, {1, 1});
  const auto re = e.reverse(1);
  EXPECT_EQ(re.size(), 0u);
  EXPECT_EQ(re.stride(1), -1);
  // Extent 1: the origin stays.
  const StridedView<cd> one(data, 4, {1, 4}, {100, 1});
  EXPECT_EQ(one.reverse(0).data(), data);
}

TEST(Reverse, BadAxis) {
  double data[4] = {};
  const StridedView<double> v(data, 4, {2, 2}, {2, 1});
  expect_error([&] { (void)v.reverse(2); }, ErrorCode::InvalidAxis, "reverse");
  expect_error([&] { (void)v.reverse(std::size_t(-1)); }, ErrorCode::InvalidAxis, "reverse");
}

// ---- chains against a hand-computed reference --------------------------------------------------

TEST(Chain, SliceReversePermuteBroadcast) {
  // 4x5x6 row-major cube with values 100 i + 10 j + k.
  std::vector<double> data(120);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      for (std::size_t k = 0; k < 6; ++k)
        data[30 * i + 6 * j + k] = static_cast<double>(100 * i + 10 * j + k);
  const StridedView<const double> v(data.data(), 120, {4, 5, 6}, {30, 6, 1});
  // Python: v[3:0:-2, :, 1:6:2].transpose(2, 0, 1)[:, :, ::-1] i.e. reverse axis 2.
  const auto c = v.slice(0, 3, 0, -2).slice(2, 1, 6, 2).permute({2, 0, 1}).reverse(2);
  ASSERT_EQ(c.extent(0), 3u);  // k in {1, 3, 5}
  ASSERT_EQ(c.extent(1), 2u);  // i in {3, 1}
  ASSERT_EQ(c.extent(2), 5u);  // j in {4, ..., 0}
  const std::size_t ks[] = {1, 3, 5}, is[] = {3, 1};
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t d = 0; d < 5; ++d)
        EXPECT_EQ(c(a, b, d), static_cast<double>(100 * is[b] + 10 * (4 - d) + ks[a]));
  // The diagonal of the first two axes of c: min(3, 2) = 2 entries.
  const auto dg = c.diagonal({{0, 1}});
  ASSERT_EQ(dg.rank(), 2u);
  EXPECT_EQ(dg.extent(0), 2u);
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t d = 0; d < 5; ++d) EXPECT_EQ(dg(a, d), c(a, a, d));
  // A broadcast extent-1 slice.
  const auto row = v.slice(0, 2, 3).broadcast({7, 5, 6});
  EXPECT_EQ(row.stride(0), 0);
  EXPECT_EQ(row(6, 4, 5), 245.0);
}

}  // namespace
