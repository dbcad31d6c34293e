// Kept plans (make_plan, make_axes_plan) and per-call Options on every host space: a plan
// executed many times, on other data of the same layouts, gives the one-shot call's results
// (values for maps, bits for reductions); operands of other layouts are refused before anything
// is written; options change how a call runs and, for tile shapes, the fold order, and nothing
// else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "../expect_error.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::Operand;
using strided_test::random_operand;

/// A new buffer with `like`'s layout (extents, strides, offset), filled from `salt`.
template <class T>
Operand<T> same_layout(const Operand<T>& like, std::size_t salt) {
  std::vector<T> buffer(like.buffer.size(), strided_test::sentinel<T>());
  const strided::StridedView<T> view(buffer.data(), buffer.size(), like.view.extents(),
                                     like.view.strides(), like.view.data() - like.buffer.data());
  if (salt > 0) strided_test::fill(view, salt);
  return Operand<T>{std::move(buffer), view};  // moving keeps the buffer's address
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class Exec>
class PlanTest : public ::testing::Test {};
TYPED_TEST_SUITE(PlanTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(PlanTest, KeptPlansGiveTheOneShotResultsOnNewData) {
  const TypeParam exec;
  std::mt19937 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const auto extents = strided_test::random_extents(1 + trial % 5, 3000, rng, true);
    auto dst = random_operand<double>(extents, rng);
    auto src = random_operand<double>(extents, rng);
    const auto copy_plan = strided::make_plan(dst.view, src.view);
    const auto axpy_plan = strided::make_plan(dst.view, dst.view, src.view);
    const auto sum_plan = strided::make_plan(src.view);
    const auto dot_plan = strided::make_plan(src.view, dst.view);
    for (std::size_t round = 1; round <= 3; ++round) {
      auto d = same_layout(dst, round);
      const auto s = same_layout(src, 100 + round);
      auto expected = same_layout(dst, round);
      strided::copy_into(exec, copy_plan, d.view, s.view);
      strided::copy_into(exec, expected.view, s.view);
      ASSERT_EQ(d.buffer, expected.buffer) << strided::explain(copy_plan);
      strided::axpy(exec, axpy_plan, d.view, s.view, 0.5);
      strided::axpy(exec, expected.view, s.view, 0.5);
      ASSERT_EQ(d.buffer, expected.buffer) << strided::explain(axpy_plan);
      strided::zip_map_into(
          exec, copy_plan, d.view, [](double x) { return 3 * x - 1; }, s.view);
      strided::map_into(exec, expected.view, s.view, [](double x) { return 3 * x - 1; });
      ASSERT_EQ(d.buffer, expected.buffer) << strided::explain(copy_plan);
      EXPECT_TRUE(same_bits(strided::sum(exec, sum_plan, s.view), strided::sum(exec, s.view)));
      EXPECT_TRUE(same_bits(strided::dot(exec, dot_plan, s.view, d.view),
                            strided::dot(exec, s.view, d.view)));
      EXPECT_TRUE(same_bits(strided::max(exec, sum_plan, s.view), strided::max(exec, s.view)));
    }
  }
}

TYPED_TEST(PlanTest, KeptAxesPlansGiveTheOneShotBits) {
  const TypeParam exec;
  std::mt19937 rng(12);
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t rank = 2 + static_cast<std::size_t>(trial % 3);
    const auto extents = strided_test::random_extents(rank, 4000, rng, trial % 4 == 0);
    const std::size_t axis = static_cast<std::size_t>(rng()) % rank;
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < rank; ++k)
      if (k != axis) kept.push_back(extents[k]);
    auto src = random_operand<double>(extents, rng);
    auto other = random_operand<double>(extents, rng);
    auto dst = random_operand<double>(kept, rng);
    const auto sum_plan = strided::make_axes_plan(dst.view, src.view, {axis});
    const auto dot_plan = strided::make_axes_plan(dst.view, src.view, other.view, {axis});
    ASSERT_EQ(sum_plan.axes().size(), 1u);
    for (std::size_t round = 1; round <= 2; ++round) {
      const auto s = same_layout(src, round), o = same_layout(other, 50 + round);
      auto d = same_layout(dst, 0), expected = same_layout(dst, 0);
      strided::sum_axes(exec, sum_plan, d.view, s.view);
      strided::sum_axes(exec, expected.view, s.view, {axis});
      ASSERT_EQ(0, std::memcmp(d.buffer.data(), expected.buffer.data(), d.buffer.size() * 8))
          << strided::explain(sum_plan);
      strided::dot_axes(exec, dot_plan, d.view, s.view, o.view);
      strided::dot_axes(exec, expected.view, s.view, o.view, {axis});
      ASSERT_EQ(0, std::memcmp(d.buffer.data(), expected.buffer.data(), d.buffer.size() * 8))
          << strided::explain(dot_plan);
    }
  }
}

/// Every kernel's plan overloads, with and without an execution space, against the one-shot
/// call on the same data: the same buffer for element-wise kernels, the same bits for reductions.
TYPED_TEST(PlanTest, EveryKernelTakesAPlan) {
  const TypeParam exec;
  std::mt19937 rng(14);
  const std::vector<std::size_t> extents{23, 17, 9};
  auto a = random_operand<double>(extents, rng);
  auto b = random_operand<double>(extents, rng);
  strided_test::fill(a.view, 1);
  strided_test::fill(b.view, 2);
  auto dst = random_operand<double>(extents, rng);
  const auto p2 = strided::make_plan(dst.view, a.view);
  const auto p3 = strided::make_plan(dst.view, dst.view, a.view);
  const auto zip = strided::make_plan(dst.view, a.view, b.view);
  EXPECT_TRUE(p2.matches(dst.view, a.view));
  EXPECT_FALSE(p2.matches(a.view, dst.view));
  const auto twice = [](double x) { return 2 * x; };
  const auto minus = [](double x, double y) { return x - y; };
  // Each element-wise kernel through its plan (with and without exec) and one-shot.
  const auto same_as_one_shot = [&](const char* what, auto&& planned, auto&& one_shot) {
    auto got = same_layout(dst, 3), want = same_layout(dst, 3);
    planned(got.view);
    one_shot(want.view);
    EXPECT_EQ(got.buffer, want.buffer) << what;
  };
  same_as_one_shot(
      "copy_into", [&](auto d) { strided::copy_into(exec, p2, d, a.view); },
      [&](auto d) { strided::copy_into(exec, d, a.view); });
  same_as_one_shot(
      "copy_into (no exec)", [&](auto d) { strided::copy_into(p2, d, a.view); },
      [&](auto d) { strided::copy_into(d, a.view); });
  same_as_one_shot(
      "copy_conj", [&](auto d) { strided::copy_conj(exec, p2, d, a.view); },
      [&](auto d) { strided::copy_conj(exec, d, a.view); });
  same_as_one_shot(
      "copy_scale", [&](auto d) { strided::copy_scale(p2, d, a.view, 1.5); },
      [&](auto d) { strided::copy_scale(exec, d, a.view, 1.5); });
  same_as_one_shot(
      "map_into", [&](auto d) { strided::map_into(exec, p2, d, a.view, twice); },
      [&](auto d) { strided::map_into(d, a.view, twice); });
  same_as_one_shot(
      "map_into (no exec)", [&](auto d) { strided::map_into(p2, d, a.view, twice); },
      [&](auto d) { strided::map_into(exec, d, a.view, twice); });
  same_as_one_shot(
      "zip_map_into (no exec)",
      [&](auto d) { strided::zip_map_into(zip, d, minus, a.view, b.view); },
      [&](auto d) { strided::zip_map_into(exec, d, minus, a.view, b.view); });
  same_as_one_shot(
      "add", [&](auto d) { strided::add(exec, p3, d, a.view); },
      [&](auto d) { strided::add(exec, d, a.view); });
  same_as_one_shot(
      "mul", [&](auto d) { strided::mul(p3, d, a.view); },
      [&](auto d) { strided::mul(exec, d, a.view); });
  same_as_one_shot(
      "axpy (no exec)", [&](auto d) { strided::axpy(p3, d, a.view, -0.75); },
      [&](auto d) { strided::axpy(exec, d, a.view, -0.75); });
  // (A plan of (dst, src) given to add, mul or axpy fails to compile: they need (dst, dst, src).)

  // Full reductions: the same bits.
  const auto one = strided::make_plan(a.view);
  const auto two = strided::make_plan(a.view, b.view);
  const auto plus = [](double x, double y) { return x + y; };
  const auto cube = [](double x) { return x * x * x; };
  EXPECT_TRUE(same_bits(strided::reduce(exec, one, a.view, cube, plus, 0.5),
                        strided::reduce(exec, a.view, cube, plus, 0.5)));
  EXPECT_TRUE(same_bits(strided::reduce(one, a.view, cube, plus, 0.5),
                        strided::reduce(a.view, cube, plus, 0.5)));
  EXPECT_TRUE(same_bits(strided::zip_reduce(exec, two, a.view, b.view, minus, plus, 0.0),
                        strided::zip_reduce(exec, a.view, b.view, minus, plus, 0.0)));
  EXPECT_TRUE(same_bits(strided::zip_reduce(two, a.view, b.view, minus, plus, 0.0),
                        strided::zip_reduce(a.view, b.view, minus, plus, 0.0)));
  EXPECT_TRUE(same_bits(strided::sum(one, a.view), strided::sum(exec, a.view)));
  EXPECT_TRUE(same_bits(strided::product(exec, one, a.view), strided::product(exec, a.view)));
  EXPECT_TRUE(same_bits(strided::product(one, a.view), strided::product(a.view)));
  EXPECT_TRUE(
      same_bits(strided::sum_squares(exec, one, a.view), strided::sum_squares(exec, a.view)));
  EXPECT_TRUE(same_bits(strided::sum_squares(one, a.view), strided::sum_squares(a.view)));
  EXPECT_TRUE(same_bits(strided::max(one, a.view), strided::max(a.view)));
  EXPECT_TRUE(same_bits(strided::min(exec, one, a.view), strided::min(exec, a.view)));
  EXPECT_TRUE(same_bits(strided::min(one, a.view), strided::min(a.view)));
  EXPECT_TRUE(same_bits(strided::dot(two, a.view, b.view), strided::dot(a.view, b.view)));
  EXPECT_TRUE(same_bits(strided::dot<long double>(exec, two, a.view, b.view),
                        strided::dot<long double>(exec, a.view, b.view)));

  // Axis reductions: every built-in and reduce_axes, with and without exec.
  auto out = random_operand<double>({23, 9}, rng);
  const auto axes = strided::make_axes_plan(out.view, a.view, {1});
  const auto dots = strided::make_axes_plan(out.view, a.view, b.view, {1});
  EXPECT_EQ(axes.axes().size(), 1u);
  // The axes are a public type: kept, compared and passed on as given.
  static_assert(std::is_same_v<decltype(axes.axes()), const strided::AxisList&>);
  const strided::AxisList same{1};
  EXPECT_EQ(axes.axes()[0], same[0]);
  EXPECT_EQ(strided::make_axes_plan(out.view, a.view, same).axes()[0], 1u);
  EXPECT_EQ(axes.reduced_plan().count, 17u);
  EXPECT_EQ(axes.kept_plan().count, 23u * 9u);
  EXPECT_EQ(axes.options().planner.max_tile_elements,
            strided::default_options().planner.max_tile_elements);
  EXPECT_NE(strided::explain(axes).find("reduced axes: strategy"), std::string::npos);
  const auto same_axes = [&](const char* what, auto&& planned, auto&& one_shot) {
    auto got = same_layout(out, 0), want = same_layout(out, 0);
    planned(got.view);
    one_shot(want.view);
    EXPECT_EQ(0, std::memcmp(got.buffer.data(), want.buffer.data(), got.buffer.size() * 8)) << what;
  };
  same_axes(
      "reduce_axes", [&](auto d) { strided::reduce_axes(exec, axes, d, a.view, cube, plus, 1.0); },
      [&](auto d) { strided::reduce_axes(exec, d, a.view, {1}, cube, plus, 1.0); });
  same_axes(
      "reduce_axes (no exec)",
      [&](auto d) { strided::reduce_axes(axes, d, a.view, cube, plus, 1.0); },
      [&](auto d) { strided::reduce_axes(d, a.view, {1}, cube, plus, 1.0); });
  same_axes(
      "sum_axes", [&](auto d) { strided::sum_axes(axes, d, a.view); },
      [&](auto d) { strided::sum_axes(exec, d, a.view, {1}); });
  same_axes(
      "product_axes", [&](auto d) { strided::product_axes(exec, axes, d, a.view); },
      [&](auto d) { strided::product_axes(exec, d, a.view, {1}); });
  same_axes(
      "sum_squares_axes", [&](auto d) { strided::sum_squares_axes(axes, d, a.view); },
      [&](auto d) { strided::sum_squares_axes(d, a.view, {1}); });
  same_axes(
      "max_axes", [&](auto d) { strided::max_axes(exec, axes, d, a.view); },
      [&](auto d) { strided::max_axes(exec, d, a.view, {1}); });
  same_axes(
      "min_axes", [&](auto d) { strided::min_axes(axes, d, a.view); },
      [&](auto d) { strided::min_axes(d, a.view, {1}); });
  same_axes(
      "dot_axes", [&](auto d) { strided::dot_axes(exec, dots, d, a.view, b.view); },
      [&](auto d) { strided::dot_axes(exec, d, a.view, b.view, {1}); });
  same_axes(
      "dot_axes (no exec)", [&](auto d) { strided::dot_axes(dots, d, a.view, b.view); },
      [&](auto d) { strided::dot_axes(d, a.view, b.view, {1}); });
}

TYPED_TEST(PlanTest, OperandsOfOtherLayoutsAreRefusedBeforeAnyWrite) {
  const TypeParam exec;
  std::vector<double> a(48), b(48);
  std::vector<float> f(48);
  const strided::StridedView<double> row(a.data(), a.size(), {6, 8}, {8, 1});
  const strided::StridedView<double> col(b.data(), b.size(), {6, 8}, {1, 6});
  const strided::StridedView<double> flat(b.data(), b.size(), {48}, {1});
  const strided::StridedView<double> wide(b.data(), b.size(), {8, 6}, {6, 1});
  const strided::StridedView<float> floats(f.data(), f.size(), {6, 8}, {8, 1});
  const auto p = strided::make_plan(row, col);
  const auto untouched = a;
  using strided::ErrorCode;
  using strided_test::expect_error;
  expect_error([&] { strided::copy_into(exec, p, row, row); }, ErrorCode::PlanMismatch,
               "copy_into");  // strides
  expect_error([&] { strided::copy_into(exec, p, row, wide); }, ErrorCode::PlanMismatch,
               "copy_into");  // extents
  expect_error([&] { strided::copy_into(exec, p, row, flat); }, ErrorCode::PlanMismatch,
               "copy_into");  // rank
  expect_error([&] { strided::copy_into(exec, p, row, floats); }, ErrorCode::PlanMismatch,
               "copy_into");  // element size
  EXPECT_EQ(a, untouched);
  const auto s = strided::make_plan(row);
  expect_error([&] { (void)strided::sum(exec, s, col); }, ErrorCode::PlanMismatch, "sum");
  const strided::StridedView<double> sums(a.data(), 8, {8}, {1});
  const auto axes = strided::make_axes_plan(sums, col, {0});
  expect_error([&] { strided::sum_axes(exec, axes, sums, row); }, ErrorCode::PlanMismatch,
               "sum_axes");
  // A plan of a destination that repeats elements is refused when executed as a map.
  const strided::StridedView<double> repeats(a.data(), a.size(), {6, 8}, {0, 1});
  const auto bad = strided::make_plan(repeats, col);
  expect_error([&] { strided::copy_into(exec, bad, repeats, col); }, ErrorCode::NonInjectiveOutput,
               "copy_into");
  // The layouts match, the data overlap: checked per execution.
  std::vector<double> c(64, 1.0);
  const strided::StridedView<double> shifted(c.data() + 1, c.size() - 1, {6, 8}, {1, 6});
  const strided::StridedView<double> in_c(c.data(), c.size(), {6, 8}, {1, 6});
  const auto q = strided::make_plan(shifted, in_c);
  expect_error([&] { strided::copy_into(exec, q, shifted, in_c); },
               ErrorCode::OverlappingInputOutput, "copy_into");
  EXPECT_EQ(a, untouched);
  EXPECT_EQ(c, std::vector<double>(64, 1.0));
}

// plan() checks its operands as make_plan does (it read strides past a shorter operand's rank).
TYPED_TEST(PlanTest, PlanRefusesOperandsOfAnotherShape) {
  std::vector<double> a(48), b(48);
  const strided::StridedView<double> row(a.data(), a.size(), {6, 8}, {8, 1});
  const strided::StridedView<double> flat(b.data(), b.size(), {48}, {1});
  const strided::StridedView<double> wide(b.data(), b.size(), {8, 6}, {6, 1});
  const strided::StridedView<double> deep(b.data(), b.size(), {6, 8, 1}, {8, 1, 1});
  using strided::ErrorCode;
  using strided_test::expect_error;
  expect_error([&] { (void)strided::plan(row, flat); }, ErrorCode::RankMismatch, "plan");
  expect_error([&] { (void)strided::plan(flat, row); }, ErrorCode::RankMismatch, "plan");
  expect_error([&] { (void)strided::plan(row, row, deep); }, ErrorCode::RankMismatch, "plan");
  expect_error([&] { (void)strided::plan(row, wide, strided::Options{}); },
               ErrorCode::ShapeMismatch, "plan");
  EXPECT_EQ(strided::plan(row, row.reverse(1)).count, 48u);
}

TYPED_TEST(PlanTest, OptionsChangeHowACallRunsNotItsValues) {
  const TypeParam exec;
  std::mt19937 rng(13);
  const std::vector<std::size_t> extents{40, 33, 27};
  auto src = random_operand<double>(extents, rng);
  strided_test::fill(src.view, 5);
  auto dst = random_operand<double>(extents, rng);
  auto expected = same_layout(dst, 0);
  strided::copy_into(exec, expected.view, src.view);
  strided::Options small_tiles;
  small_tiles.planner.max_tile_elements = 512;
  small_tiles.planner.stream_bytes = 1024;  // streaming stores on this small output
  for (auto policy : {strided::TilePolicy::Range, strided::TilePolicy::MDRange})
    for (auto algorithm : {strided::Algorithm::Host, strided::Algorithm::Device}) {
      strided::Options o = small_tiles;
      o.tile_policy = policy;
      o.algorithm = algorithm;
      auto d = same_layout(dst, 0);
      strided::copy_into(exec, d.view, src.view, o);
      EXPECT_EQ(d.buffer, expected.buffer);
      // Tile shapes set the fold order: same options, same bits, on any space and algorithm.
      EXPECT_TRUE(same_bits(strided::sum(exec, src.view, o),
                            strided::sum(Kokkos::Serial(), src.view, small_tiles)));
    }
  const auto p = strided::make_plan(dst.view, src.view, small_tiles);
  EXPECT_TRUE(p.plan().stream_stores);
  EXPECT_NE(strided::explain(p).find("streaming stores"), std::string::npos);
  EXPECT_GT(p.plan().tile_count, strided::plan(dst.view, src.view).tile_count);
  EXPECT_EQ(p.options().planner.max_tile_elements, 512u);
  // The plan runs with its own options whatever the defaults are.
  const auto sum_plan = strided::make_plan(src.view, small_tiles);
  EXPECT_TRUE(
      same_bits(strided::sum(exec, sum_plan, src.view), strided::sum(exec, src.view, small_tiles)));
}

template <class T, std::size_t K>
bool one_of(const T (&candidates)[K], T value) {
  return std::find(std::begin(candidates), std::end(candidates), value) != std::end(candidates);
}

TYPED_TEST(PlanTest, TunedCopyPlansCopyAndAreKept) {
  const TypeParam exec;
  std::mt19937 rng(17);
  // A transposed layout (the tile side varies) and a permuted one (the L1 budget varies).
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{67, 45, 33}, {300, 257}}) {
    auto src = random_operand<double>(extents, rng);
    strided_test::fill(src.view, 9);
    auto dst = random_operand<double>(extents, rng);
    auto expected = same_layout(dst, 0);
    strided::copy_into(exec, expected.view, src.view);
    const auto p = strided::tune_copy_plan(exec, dst.view, src.view);
    EXPECT_EQ(dst.buffer, expected.buffer);  // measuring copies src into dst
    EXPECT_TRUE(one_of(strided::tuned_block_bytes, p.options().planner.block_bytes));
    EXPECT_TRUE(
        one_of(strided::tuned_transpose_row_bytes, p.options().planner.transpose_row_bytes));
    EXPECT_TRUE(p.matches(dst.view, src.view));
    // Kept: the same layouts again return the same choice at once, copying nothing.
    auto again = same_layout(dst, 0);
    const auto q = strided::tune_copy_plan(exec, again.view, src.view);
    EXPECT_EQ(again.buffer, same_layout(dst, 0).buffer);
    EXPECT_EQ(q.options().planner.block_bytes, p.options().planner.block_bytes);
    EXPECT_EQ(q.options().planner.transpose_row_bytes, p.options().planner.transpose_row_bytes);
    EXPECT_EQ(strided::explain(q), strided::explain(p));
    strided::copy_into(exec, q, again.view, src.view);
    EXPECT_EQ(again.buffer, expected.buffer);
  }
  // Errors before any write; an override is kept as given, measuring nothing.
  std::vector<double> a(48, 1.0), b(48, 2.0);
  const strided::StridedView<double> row(a.data(), a.size(), {6, 8}, {8, 1});
  const strided::StridedView<double> wide(b.data(), b.size(), {8, 6}, {6, 1});
  const strided::StridedView<double> repeats(a.data(), a.size(), {6, 8}, {0, 1});
  const strided::StridedView<double> col(b.data(), b.size(), {6, 8}, {1, 6});
  using strided::ErrorCode;
  strided_test::expect_error([&] { (void)strided::tune_copy_plan(exec, row, wide); },
                             ErrorCode::ShapeMismatch, "tune_copy_plan");
  strided_test::expect_error([&] { (void)strided::tune_copy_plan(exec, repeats, col); },
                             ErrorCode::NonInjectiveOutput, "copy_into");
  EXPECT_EQ(a, std::vector<double>(48, 1.0));
  const std::size_t blocks[] = {3, 4};
  strided::Options fixed;
  fixed.planner.block_override = blocks;
  const auto o = strided::tune_copy_plan(exec, row, col, fixed);
  EXPECT_EQ(o.options().planner.block_override, blocks);
  EXPECT_EQ(a, std::vector<double>(48, 1.0));
  // The same errors where nothing is measured: an override, and a layout pair already tuned.
  strided_test::expect_error([&] { (void)strided::tune_copy_plan(exec, repeats, col, fixed); },
                             ErrorCode::NonInjectiveOutput, "copy_into");
  std::vector<double> c1(48), c2(48, 3.0);
  (void)strided::tune_copy_plan(exec, strided::StridedView<double>(c1.data(), 48, {6, 7}, {8, 1}),
                                strided::StridedView<double>(c2.data(), 48, {6, 7}, {8, 1}));
  const strided::StridedView<double> shifted(a.data() + 1, a.size() - 1, {6, 7}, {8, 1});
  const strided::StridedView<double> inside(a.data(), a.size(), {6, 7}, {8, 1});
  strided_test::expect_error([&] { (void)strided::tune_copy_plan(exec, shifted, inside); },
                             ErrorCode::OverlappingInputOutput, "copy_into");
  EXPECT_EQ(a, std::vector<double>(48, 1.0));
  // The default options with a repetition count, with and without a space.
  auto src = random_operand<double>({29, 31, 3}, rng);
  strided_test::fill(src.view, 5);
  auto dst = random_operand<double>({29, 31, 3}, rng);
  auto expected = same_layout(dst, 0);
  strided::copy_into(exec, expected.view, src.view);
  const auto r = strided::tune_copy_plan(exec, dst.view, src.view, 1);
  EXPECT_EQ(dst.buffer, expected.buffer);
  EXPECT_TRUE(r.matches(dst.view, src.view));
  auto host = same_layout(dst, 0);
  EXPECT_TRUE(strided::tune_copy_plan(host.view, src.view, 2).matches(host.view, src.view));
}

// explain() of a Plan, a KernelPlan and an AxesPlan called unqualified under `using namespace
// strided`, as users write it (explain of a Plan<N> was ambiguous with the internal one).
TEST(Explain, CalledUnqualifiedUnderUsingNamespace) {
  using namespace strided;
  std::vector<double> a(24), b(4);
  const StridedView<double> v(a.data(), a.size(), {2, 3, 4}, {12, 4, 1});
  const StridedView<double> out(b.data(), b.size(), {4}, {1});
  const Plan<2> p = plan(v, v.reverse(1));
  const std::string text = explain(p);
  // A kept plan adds the device launches when the default options run the device algorithm.
  EXPECT_EQ(explain(make_plan(v, v.reverse(1))).rfind(text, 0), 0u);
  EXPECT_NE(text.find("24"), std::string::npos) << text;
  EXPECT_NE(explain(make_axes_plan(out, v, {0, 1})).find("reduced axes"), std::string::npos);
}

// Plans that run under the device algorithm print its launches (the launch-shape model);
// host plans do not.
TEST(Explain, DevicePlansShowTheirLaunchShape) {
  std::vector<double> a(std::size_t(1) << 22), out(4096);
  const strided::StridedView<double> v(a.data(), a.size(), {a.size()}, {1});
  const strided::StridedView<double> m(a.data(), 4096 * 1024, {1024, 4096}, {4096, 1});
  const strided::StridedView<double> columns(out.data(), out.size(), {4096}, {1});
  strided::Options host, device;
  host.algorithm = strided::Algorithm::Host;
  device.algorithm = strided::Algorithm::Device;
  const auto on_device = strided::make_plan(v, device);
  const std::string text = strided::explain(on_device);
  // 2^22 elements: 8192 tiles of 512, 2048 fold teams of 4 tiles, 131072 chains.
  EXPECT_NE(text.find("8192 tiles"), std::string::npos) << text;
  EXPECT_NE(text.find("device map on H200 (model): 8192 teams x 256 threads"), std::string::npos)
      << text;
  EXPECT_NE(text.find("device fold on H200 (model): 2048 teams x 64 threads"), std::string::npos)
      << text;
  EXPECT_NE(text.find("131072 fold chains"), std::string::npos) << text;
  if (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>) {
    EXPECT_EQ(strided::explain(strided::make_plan(v, host)).find("device"), std::string::npos);
  }
  EXPECT_NE(strided::explain(on_device, strided::DeviceModel::mi250()).find("MI250X"),
            std::string::npos);
  // Column sums of 1024 rows, 2^22 elements in all: each column in 2 tiles of 512 (the grain
  // of all of them), 16 lanes per (output, tile) across adjacent outputs.
  const std::string axes = strided::explain(strided::make_axes_plan(columns, m, {0}, device));
  EXPECT_NE(axes.find("blocks [512], 2 tiles"), std::string::npos) << axes;
  EXPECT_NE(axes.find("device column fold on H200 (model): 2048 teams x 64 threads"),
            std::string::npos)
      << axes;
  EXPECT_NE(axes.find("131072 fold chains"), std::string::npos) << axes;
  // 40 rows: one lane per output (TeamRows), for any model passed explicitly.
  const strided::StridedView<double> short_columns(a.data(), 40 * 4096, {40, 4096}, {4096, 1});
  const std::string rows = strided::explain(strided::make_axes_plan(columns, short_columns, {0}),
                                            strided::DeviceModel::mi250());
  EXPECT_NE(rows.find("device rows on MI250X (one GCD) (model)"), std::string::npos) << rows;
  EXPECT_NE(rows.find("4096 fold chains"), std::string::npos) << rows;
}

TEST(DefaultOptions, SetAndRead) {
  const strided::Options before = strided::default_options();
  strided::Options changed = before;
  changed.planner.max_tile_elements = 1234;
  strided::set_default_options(changed);
  EXPECT_EQ(strided::default_options().planner.max_tile_elements, 1234u);
  std::vector<double> data(5000);
  const strided::StridedView<double> v(data.data(), data.size(), {data.size()}, {1});
  EXPECT_GT(strided::plan(v).tile_count, 1u);  // calls without options read the defaults
  strided::set_default_options(before);
  EXPECT_EQ(strided::plan(v).tile_count, 1u);
  EXPECT_EQ(strided::default_options().planner.max_tile_elements, before.planner.max_tile_elements);
}

}  // namespace
