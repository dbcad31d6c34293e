// Kept plans (make_plan, make_axes_plan) and per-call Options on every host space: a plan
// executed many times, on other data of the same layouts, gives the one-shot call's results
// (values for maps, bits for reductions); operands of other layouts are refused before anything
// is written; options change how a call runs and, for tile shapes, the fold order, and nothing
// else.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
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
