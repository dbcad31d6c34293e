// Bad input to element-wise kernels: the right ErrorCode, and the destination untouched.
#include <gtest/gtest.h>

#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"

namespace {

template <class Exec>
class MapErrorTest : public ::testing::Test {};
TYPED_TEST_SUITE(MapErrorTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

using View = strided::StridedView<double>;

template <class F>
void expect_error(strided::ErrorCode code, const std::vector<double>& buffer, F&& call) {
  const std::vector<double> before = buffer;
  try {
    call();
    FAIL() << "expected " << strided::to_string(code);
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find("strided::"), std::string::npos) << e.what();
  }
  EXPECT_EQ(buffer, before) << "the destination was written";
}

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i) + 0.5;
  return v;
}

TYPED_TEST(MapErrorTest, ShapeAndRankMismatch) {
  auto d = iota(12), s = iota(12);
  View dst(d.data(), 12, {3, 4}, {4, 1});
  View wrong_shape(s.data(), 12, {4, 3}, {3, 1});
  View wrong_rank(s.data(), 12, {12}, {1});
  const TypeParam exec;
  expect_error(strided::ErrorCode::ShapeMismatch, d,
               [&] { strided::copy_into(exec, dst, wrong_shape); });
  expect_error(strided::ErrorCode::RankMismatch, d, [&] { strided::add(exec, dst, wrong_rank); });
  expect_error(strided::ErrorCode::ShapeMismatch, d, [&] {
    strided::zip_map_into(
        exec, dst, [](double a, double b) { return a + b; }, View(s.data(), 12, {3, 4}, {4, 1}),
        wrong_shape);
  });
}

TYPED_TEST(MapErrorTest, NonInjectiveOutput) {
  auto d = iota(40), s = iota(40);
  const TypeParam exec;
  View src(s.data(), 40, {3, 4}, {4, 1});
  // Stride 0 with extent > 1.
  expect_error(strided::ErrorCode::NonInjectiveOutput, d, [&] {
    strided::copy_into(exec, View(d.data(), 40, {3, 4}, {0, 1}), src);
  });
  // Colliding interleaved strides: (i, j) -> 2i + j collides at (1, 0) and (0, 2).
  expect_error(strided::ErrorCode::NonInjectiveOutput, d, [&] {
    strided::copy_into(exec, View(d.data(), 40, {3, 4}, {2, 1}), src);
  });
  // Stride 0 on an extent-1 axis is fine; so is an injective interleaving.
  std::vector<double> big(2 * 2000 + 3 * 1500), big_src(big.size(), 1.0);
  View inter(big.data(), big.size(), {3, 1500}, {2000, 3});
  strided::copy_into(exec, inter, View(big_src.data(), big_src.size(), {3, 1500}, {1500, 1}));
  EXPECT_EQ(big[2000 + 3 * 7], 1.0);
  View one(d.data(), 40, {1, 4}, {0, 1});
  strided::copy_into(exec, one, View(s.data(), 40, {1, 4}, {4, 1}));
  EXPECT_EQ(d[3], s[3]);
}

TYPED_TEST(MapErrorTest, OverlappingInputAndOutput) {
  auto d = iota(64);
  const TypeParam exec;
  View a(d.data(), 64, {8, 8}, {8, 1});
  // In-place transpose reads a different layout of the same memory.
  expect_error(strided::ErrorCode::OverlappingInputOutput, d,
               [&] { strided::copy_into(exec, a, a.transpose()); });
  // Which inputs are accepted does not depend on the options: a staged copy is refused too.
  strided::Options staged;
  staged.stage_copies = true;
  expect_error(strided::ErrorCode::OverlappingInputOutput, d,
               [&] { strided::copy_into(exec, a, a.transpose(), staged); });
  expect_error(strided::ErrorCode::ShapeMismatch, d, [&] {
    strided::copy_into(exec, a, View(d.data(), 64, {4, 16}, {16, 1}), staged);
  });
  // A shifted window overlaps partially.
  View shifted(d.data(), 64, {7, 8}, {8, 1}, 8);
  View first(d.data(), 64, {7, 8}, {8, 1});
  expect_error(strided::ErrorCode::OverlappingInputOutput, d,
               [&] { strided::add(exec, first, shifted); });
  // Disjoint interleavings (even and odd elements) and disjoint halves are accepted.
  View even(d.data(), 64, {32}, {2}), odd(d.data(), 64, {32}, {2}, 1);
  strided::copy_into(exec, even, odd);
  EXPECT_EQ(d[0], 1.5);
  EXPECT_EQ(d[62], 63.5);
  View low(d.data(), 64, {32}, {1}), high(d.data(), 64, {32}, {1}, 32);
  strided::copy_into(exec, low, high);
  EXPECT_EQ(d[0], d[32]);
  // The same layout, whatever its op, is accepted.
  strided::copy_into(exec, a, a.conj());
}

TYPED_TEST(MapErrorTest, SymmetrizeErrors) {
  auto d = iota(12), s = iota(12);
  const TypeParam exec;
  View rect_dst(d.data(), 12, {3, 4}, {4, 1});
  View rect(s.data(), 12, {3, 4}, {4, 1});
  expect_error(strided::ErrorCode::NonSquare, d,
               [&] { strided::symmetrize_into(exec, rect_dst, rect); });
  View rank1(s.data(), 12, {12}, {1});
  View rank1_dst(d.data(), 12, {12}, {1});
  expect_error(strided::ErrorCode::RankMismatch, d,
               [&] { strided::symmetrize_conj_into(exec, rank1_dst, rank1); });
  View sq(s.data(), 12, {3, 3}, {3, 1});
  View sq_dst(d.data(), 12, {2, 2}, {2, 1});
  expect_error(strided::ErrorCode::ShapeMismatch, d,
               [&] { strided::symmetrize_into(exec, sq_dst, sq); });
}

}  // namespace
