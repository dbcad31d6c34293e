// The device algorithm (one tile per team, scratch transposes, 16 lanes per tile) run on the
// host spaces against the host algorithm: maps give the same elements, reductions the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"
#include "test_layouts.hpp"

namespace {

using strided::Algorithm;
using strided_test::random_operand;

template <class Exec>
class DeviceAlgorithmTest : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceAlgorithmTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// Runs `f` under one algorithm, then restores the process-wide choice.
template <class F>
auto with_algorithm(Algorithm a, F&& f) {
  const strided::ScopedExecutionOptions scope(a);
  return f();
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Inexact values: a different fold order would change the low bits.
template <class T>
void fill_inexact(const strided::StridedView<T>& v, double salt) {
  std::size_t n = 0;
  strided_test::for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    const double x = std::sin(salt + 0.37 * static_cast<double>(n++));
    if constexpr (strided::detail::is_complex_v<T>)
      strided_test::write(v, i, T(x, std::cos(x * 3)));
    else
      strided_test::write(v, i, static_cast<T>(x));
  });
}

TEST(Algorithm, AutoPicksTheHostAlgorithmOnHostSpaces) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  EXPECT_FALSE(with_algorithm(Algorithm::Auto,
                              [] { return strided::detail::uses_device_algorithm<Host>(); }));
  EXPECT_TRUE(with_algorithm(Algorithm::Device,
                             [] { return strided::detail::uses_device_algorithm<Host>(); }));
  EXPECT_FALSE(
      with_algorithm(Algorithm::Device, [] { return strided::detail::may_run_inline<Host>(); }));
  EXPECT_TRUE(
      with_algorithm(Algorithm::Host, [] { return strided::detail::may_run_inline<Host>(); }));
}

TEST(Algorithm, ScopedOptionsRestoreThePreviousSettings) {
  const strided::ExecutionOptions outside = strided::execution_options();
  try {
    const strided::ScopedExecutionOptions device(Algorithm::Device);
    EXPECT_EQ(strided::execution_options().algorithm, Algorithm::Device);
    EXPECT_EQ(strided::execution_options().stage_copies, outside.stage_copies);
    {
      strided::ExecutionOptions staged;
      staged.stage_copies = true;
      const strided::ScopedExecutionOptions inner(staged);
      EXPECT_EQ(strided::execution_options().algorithm, Algorithm::Auto);
      EXPECT_TRUE(strided::execution_options().stage_copies);
    }
    EXPECT_EQ(strided::execution_options().algorithm, Algorithm::Device);
    EXPECT_EQ(strided::execution_options().stage_copies, outside.stage_copies);
    throw std::runtime_error("leaving the scope by an exception");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(strided::execution_options().algorithm, outside.algorithm);
  EXPECT_EQ(strided::execution_options().stage_copies, outside.stage_copies);
}

TYPED_TEST(DeviceAlgorithmTest, ReductionsHaveTheBitsOfTheHostAlgorithm) {
  std::mt19937 rng(71);
  const TypeParam exec;
  for (std::size_t rank : {0, 1, 2, 3, 4, 6, 8, 12, 25}) {
    for (int trial = 0; trial < 3; ++trial) {
      // Up to 300k elements: many tiles, partial tiles and gathered plans at high rank.
      const auto extents =
          strided_test::random_extents(rank, trial == 2 ? 300000 : 5000, rng, trial == 1);
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial);
      auto a = random_operand<double>(extents, rng);
      auto b = random_operand<double>(extents, rng);
      auto f = random_operand<float>(extents, rng);
      auto z = random_operand<std::complex<double>>(extents, rng);
      fill_inexact(a.view, 1);
      fill_inexact(b.view, 2);
      fill_inexact(f.view, 3);
      fill_inexact(z.view, 4);
      const auto all = [&] {
        return std::vector<double>{
            strided::sum(exec, a.view),
            strided::sum_squares(exec, a.view),
            strided::dot(exec, a.view, b.view),
            strided::dot<double>(exec, f.view, a.view),
            strided::max(exec, a.view),
            strided::min(exec, b.view),
            strided::reduce(
                exec, a.view, [](double x) { return 1 + 1e-3 * x; },
                [](double x, double y) { return x * y; }, 1.0),
            strided::sum(exec, z.view.conj()).real(),
            strided::sum(exec, z.view.conj()).imag(),
            rank > 0 ? strided::sum(exec, a.view.reverse(0)) : 0.0,
        };
      };
      const auto host = with_algorithm(Algorithm::Host, all);
      const auto device = with_algorithm(Algorithm::Device, all);
      for (std::size_t k = 0; k < host.size(); ++k)
        EXPECT_TRUE(same_bits(host[k], device[k]))
            << "reduction " << k << ": host " << host[k] << " device " << device[k];
    }
  }
}

TYPED_TEST(DeviceAlgorithmTest, AxisReductionsHaveTheBitsOfTheHostAlgorithm) {
  std::mt19937 rng(73);
  const TypeParam exec;
  for (std::size_t rank : {1, 2, 3, 4, 5, 7}) {
    for (int trial = 0; trial < 4; ++trial) {
      const auto extents = strided_test::random_extents(rank, trial == 3 ? 200000 : 4000, rng);
      std::vector<std::size_t> axes;
      for (std::size_t k = 0; k < rank; ++k)
        if (rng() % 2) axes.push_back(k);
      std::shuffle(axes.begin(), axes.end(), rng);
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial << " reducing "
                                        << axes.size() << " axes");
      auto a = random_operand<double>(extents, rng);
      fill_inexact(a.view, 5);
      std::vector<std::size_t> kept;
      for (std::size_t k = 0; k < rank; ++k)
        if (std::find(axes.begin(), axes.end(), k) == axes.end()) kept.push_back(extents[k]);
      const auto reduce = [&] {
        auto out = random_operand<double>(kept, rng);
        strided::sum_axes(exec, out.view, a.view, axes);
        return out;
      };
      auto host = with_algorithm(Algorithm::Host, reduce);
      auto device = with_algorithm(Algorithm::Device, reduce);
      EXPECT_TRUE(strided_test::elements_same_bits(
          device.view,
          [&](const std::vector<std::size_t>& i) { return strided_test::read(host.view, i); },
          a.view));
    }
  }
}

TYPED_TEST(DeviceAlgorithmTest, MapsWriteWhatTheHostAlgorithmWrites) {
  std::mt19937 rng(79);
  const TypeParam exec;
  // Permutations that take the scratch-block transpose (square and ragged), gathered high-rank
  // plans, and random layouts.
  const std::vector<std::vector<std::size_t>> shapes = {
      {300, 200}, {33, 65, 3}, {64, 64, 7}, {2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3}, {}, {0, 4}};
  for (int trial = 0; trial < 16; ++trial) {
    const auto extents = trial < static_cast<int>(shapes.size())
                             ? shapes[static_cast<std::size_t>(trial)]
                             : strided_test::random_extents(1 + rng() % 6, 40000, rng, true);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    auto a = random_operand<double>(extents, rng);
    auto b = random_operand<double>(extents, rng);
    fill_inexact(a.view, 6);
    fill_inexact(b.view, 7);
    const auto run = [&] {
      auto copied = random_operand<double>(extents, rng);
      auto summed = random_operand<double>(extents, rng);
      auto zipped = random_operand<double>(extents, rng);
      strided::copy_into(exec, copied.view, a.view);
      strided::copy_into(exec, summed.view, b.view);
      strided::add(exec, summed.view, a.view);
      strided::zip_map_into(
          exec, zipped.view, [](double x, double y) { return x * y - 1; }, a.view, b.view);
      // Moved, not copied (an initializer list copies): the views keep pointing at the buffers.
      std::vector<strided_test::Operand<double>> outputs;
      outputs.push_back(std::move(copied));
      outputs.push_back(std::move(summed));
      outputs.push_back(std::move(zipped));
      return outputs;
    };
    // Same seeds for both runs: the same output layouts (and guard areas) on both sides.
    const auto seed = rng();
    rng.seed(seed);
    const auto host = with_algorithm(Algorithm::Host, run);
    rng.seed(seed);
    const auto device = with_algorithm(Algorithm::Device, run);
    for (std::size_t k = 0; k < host.size(); ++k) {
      ASSERT_EQ(host[k].buffer.size(), device[k].buffer.size());
      // The logical elements first (a readable failure), then the whole buffers, guards included.
      ASSERT_TRUE(strided_test::elements_same_bits(
          device[k].view,
          [&](const std::vector<std::size_t>& i) { return strided_test::read(host[k].view, i); },
          a.view, b.view))
          << "output " << k;
      const auto whole = [](const strided_test::Operand<double>& x) {
        return strided::StridedView<const double>(x.buffer.data(), x.buffer.size(),
                                                  {x.buffer.size()}, {1});
      };
      ASSERT_TRUE(strided_test::elements_same_bits(
          whole(device[k]),
          [&](const std::vector<std::size_t>& e) { return host[k].buffer[e[0]]; }))
          << "output " << k << ", whole buffer";
    }
  }
}

}  // namespace
