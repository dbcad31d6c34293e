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

/// f(options) with the run's default options but the algorithm `a`.
template <class F>
auto with_algorithm(Algorithm a, F&& f) {
  strided::Options options = strided::default_options();
  options.algorithm = a;
  return f(static_cast<const strided::Options&>(options));
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// all(options) returns reductions' results: they must have the same bits under both algorithms.
template <class F>
void expect_same_bits_on_both_algorithms(const F& all) {
  const auto host = with_algorithm(Algorithm::Host, all);
  const auto device = with_algorithm(Algorithm::Device, all);
  for (std::size_t k = 0; k < host.size(); ++k)
    EXPECT_TRUE(same_bits(host[k], device[k]))
        << "reduction " << k << ": host " << host[k] << " device " << device[k];
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
  const Host exec;
  const auto options = [](Algorithm a) {
    strided::Options o;
    o.algorithm = a;
    return o;
  };
  EXPECT_FALSE(strided::detail::uses_device_algorithm<Host>(options(Algorithm::Auto)));
  EXPECT_FALSE(strided::detail::uses_device_algorithm<Host>(options(Algorithm::Host)));
  EXPECT_TRUE(strided::detail::uses_device_algorithm<Host>(options(Algorithm::Device)));
  // Small calls run on the calling thread under the host algorithm only.
  EXPECT_FALSE(strided::detail::runs_inline(exec, options(Algorithm::Device), 100));
  EXPECT_TRUE(strided::detail::runs_inline(exec, options(Algorithm::Host), 100));
  EXPECT_TRUE(strided::detail::runs_inline(exec, options(Algorithm::Auto), 100));
}

TEST(Algorithm, DefaultOptionsApplyToCallsWithoutOptions) {
  const strided::Options before = strided::default_options();
  strided::Options device = before;
  device.algorithm = Algorithm::Device;
  device.stage_copies = true;
  strided::set_default_options(device);
  EXPECT_EQ(strided::default_options().algorithm, Algorithm::Device);
  EXPECT_TRUE(strided::default_options().stage_copies);
  // A call's own options win over the defaults.
  std::vector<double> a(64, 1.0), b(64, 0.0);
  const strided::StridedView<double> av(a.data(), a.size(), {8, 8}, {8, 1});
  const strided::StridedView<double> bv(b.data(), b.size(), {8, 8}, {1, 8});
  strided::copy_into(bv, av, strided::Options{});
  EXPECT_EQ(b, a);
  strided::set_default_options(before);
  EXPECT_EQ(strided::default_options().algorithm, before.algorithm);
  EXPECT_EQ(strided::default_options().stage_copies, before.stage_copies);
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
      const auto all = [&](const strided::Options& o) {
        return std::vector<double>{
            strided::sum(exec, a.view, o),
            strided::sum_squares(exec, a.view, o),
            strided::dot(exec, a.view, b.view, o),
            strided::dot<double>(exec, f.view, a.view, o),
            strided::max(exec, a.view, o),
            strided::min(exec, b.view, o),
            strided::reduce(
                exec, a.view, [](double x) { return 1 + 1e-3 * x; },
                [](double x, double y) { return x * y; }, 1.0, o),
            strided::sum(exec, z.view.conj(), o).real(),
            strided::sum(exec, z.view.conj(), o).imag(),
            rank > 0 ? strided::sum(exec, a.view.reverse(0), o) : 0.0,
        };
      };
      expect_same_bits_on_both_algorithms(all);
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
      const auto reduce = [&](const strided::Options& o) {
        auto out = random_operand<double>(kept, rng);
        strided::sum_axes(exec, out.view, a.view, axes, o);
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

TYPED_TEST(DeviceAlgorithmTest, DenseRunsAndRowSumsHaveTheBitsOfTheHostAlgorithm) {
  // The host algorithm folds the tiles of a dense plan several at a time, part by part, and row
  // sums several rows at a time: each tile's and each row's fold must stay exactly its own.
  const TypeParam exec;
  const strided_test::LayoutOptions dense{false, false, false};
  std::mt19937 rng(79);
  for (const std::size_t n : {std::size_t(1) << 18, (std::size_t(1) << 18) + 37,
                              std::size_t(5) * 65536 + 100, std::size_t(70001)}) {
    SCOPED_TRACE(::testing::Message() << n << " elements");
    auto a = random_operand<double>({n}, rng, dense);
    auto b = random_operand<double>({n}, rng, dense);
    auto f = random_operand<float>({n}, rng, dense);
    auto g = random_operand<float>({n}, rng, dense);
    fill_inexact(a.view, 6);
    fill_inexact(b.view, 7);
    fill_inexact(f.view, 8);
    fill_inexact(g.view, 9);
    const auto all = [&](const strided::Options& o) {
      return std::vector<double>{
          strided::sum(exec, a.view, o),
          strided::sum_squares(exec, a.view, o),
          strided::dot(exec, a.view, b.view, o),
          strided::dot<double>(exec, f.view, g.view, o),
          static_cast<double>(strided::dot(exec, f.view, g.view, o)),
          strided::reduce(
              exec, a.view, [](double x) { return 1 + 1e-3 * x; },
              [](double x, double y) { return x * y; }, 1.0, o),
      };
    };
    expect_same_bits_on_both_algorithms(all);
  }
  for (const auto& shape : std::vector<std::vector<std::size_t>>{
           {37, 1000}, {9, 4101}, {50, 7}, {6, 16}, {4, 70000}, {1030, 33}, {66, 4100}}) {
    SCOPED_TRACE(::testing::Message() << shape[0] << " rows of " << shape[1]);
    // Dense operands store axis 0 fastest: allocate the transposed shape, then permute it to
    // row-major rows.
    auto a = random_operand<double>({shape[1], shape[0]}, rng, dense);
    fill_inexact(a.view, 10);
    const auto row_major = a.view.permute({1, 0});
    for (const bool reversed : {false, true}) {
      const auto src = reversed ? row_major.reverse(0) : row_major;
      const auto rows = [&](const strided::Options& o) {
        auto out = random_operand<double>({shape[0]}, rng);
        strided::sum_axes(exec, out.view, src, {1}, o);
        return out;
      };
      auto host = with_algorithm(Algorithm::Host, rows);
      auto device = with_algorithm(Algorithm::Device, rows);
      EXPECT_TRUE(strided_test::elements_same_bits(
          device.view,
          [&](const std::vector<std::size_t>& i) { return strided_test::read(host.view, i); }, src))
          << (reversed ? "rows reversed" : "rows in order");
    }
  }
}

TYPED_TEST(DeviceAlgorithmTest, ColumnSumsHaveTheBitsOfTheHostAlgorithm) {
  // Reductions along a strided axis: 16 lanes per output across adjacent outputs (column folds)
  // from 64 reduced elements on, one lane per output below; several sub-tiles per output when
  // the column is long (items tiles-outer, partials output-major).
  const TypeParam exec;
  const strided_test::LayoutOptions dense{false, false, false};
  std::mt19937 rng(83);
  for (const auto& shape : std::vector<std::vector<std::size_t>>{
           {100, 37}, {64, 9}, {63, 9}, {70000, 3}, {5000, 130}, {2, 4100}}) {
    SCOPED_TRACE(::testing::Message() << shape[0] << " rows of " << shape[1]);
    auto a = random_operand<double>({shape[1], shape[0]}, rng, dense);
    auto b = random_operand<double>({shape[1], shape[0]}, rng, dense);
    fill_inexact(a.view, 11);
    fill_inexact(b.view, 12);
    const auto row_major = a.view.permute({1, 0}), other = b.view.permute({1, 0});
    for (const bool reversed : {false, true}) {
      const auto src = reversed ? row_major.reverse(1) : row_major;
      const auto columns = [&](const strided::Options& o) {
        auto sums = random_operand<double>({shape[1]}, rng);
        auto dots = random_operand<double>({shape[1]}, rng);
        strided::sum_axes(exec, sums.view, src, {0}, o);
        strided::dot_axes(exec, dots.view, src, other, {0}, o);
        return std::make_pair(std::move(sums), std::move(dots));
      };
      auto host = with_algorithm(Algorithm::Host, columns);
      auto device = with_algorithm(Algorithm::Device, columns);
      EXPECT_TRUE(strided_test::elements_same_bits(
          device.first.view,
          [&](const std::vector<std::size_t>& i) { return strided_test::read(host.first.view, i); },
          src))
          << (reversed ? "sums, columns reversed" : "sums");
      EXPECT_TRUE(strided_test::elements_same_bits(
          device.second.view,
          [&](const std::vector<std::size_t>& i) {
            return strided_test::read(host.second.view, i);
          },
          src))
          << (reversed ? "dots, columns reversed" : "dots");
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
    const auto run = [&](const strided::Options& o) {
      auto copied = random_operand<double>(extents, rng);
      auto summed = random_operand<double>(extents, rng);
      auto zipped = random_operand<double>(extents, rng);
      strided::copy_into(exec, copied.view, a.view, o);
      strided::copy_into(exec, summed.view, b.view, o);
      strided::add(exec, summed.view, a.view, o);
      strided::zip_map_into(
          exec, zipped.view, [](double x, double y) { return x * y - 1; }, a.view, b.view, o);
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

/// The one routing decision, case by case: the device algorithm when asked for; a one run only
/// for small dense calls (or any size, when uncapped, on one thread); the calling thread for small
/// calls and single tiles; otherwise host threads over tile chunks, or the MDRange grid for maps.
TYPED_TEST(DeviceAlgorithmTest, RouteDecidesEachCaseOnce) {
  using strided::detail::CallFacts;
  using strided::detail::Route;
  using strided::detail::route;
  constexpr std::size_t small = strided::detail::INLINE_ELEMENTS;
  constexpr std::size_t large = small * 64;
  const TypeParam exec;
  const bool one_thread = strided::compat::concurrency(exec) == 1;
  const Route spread = one_thread ? Route::Inline : Route::TileChunks;
  strided::Options host = strided::default_options();
  host.algorithm = Algorithm::Host;
  strided::Options device = host;
  device.algorithm = Algorithm::Device;
  strided::Options grid = host;
  grid.tile_policy = strided::TilePolicy::MDRange;

  auto facts = [](std::size_t work, std::size_t tiles, int rank, bool one_run, bool capped,
                  bool has_grid) {
    CallFacts f;
    f.work = work, f.tiles = tiles, f.rank = rank, f.one_run = one_run;
    f.one_run_capped = capped, f.grid = has_grid;
    return f;
  };
  // Algorithm::Device takes the team algorithm whatever the call.
  EXPECT_EQ(route(exec, device, facts(1, 1, 1, true, true, false)), Route::Team);
  EXPECT_EQ(route(exec, device, facts(large, 64, 3, false, true, true)), Route::Team);
  // Small dense calls go as one run; small tiled ones stay on the calling thread.
  EXPECT_EQ(route(exec, host, facts(small, 1, 1, true, true, false)), Route::OneRun);
  EXPECT_EQ(route(exec, host, facts(small, 4, 2, false, true, false)), Route::Inline);
  // A capped one run above INLINE_ELEMENTS takes the tiles; an uncapped one stays one run
  // wherever the call would run on the calling thread anyway.
  EXPECT_EQ(route(exec, host, facts(large, 64, 1, true, true, false)), spread);
  EXPECT_EQ(route(exec, host, facts(large, 64, 1, true, false, false)),
            one_thread ? Route::OneRun : Route::TileChunks);
  // One tile never opens a parallel region.
  EXPECT_EQ(route(exec, host, facts(large, 1, 2, false, true, true)), Route::Inline);
  // The grid form only for families that have one, under TilePolicy::MDRange, at rank 2 or more.
  EXPECT_EQ(route(exec, grid, facts(large, 64, 2, false, true, true)),
            one_thread ? Route::Inline : Route::TileGrid);
  EXPECT_EQ(route(exec, grid, facts(large, 64, 1, false, true, true)), spread);
  EXPECT_EQ(route(exec, grid, facts(large, 64, 2, false, true, false)), spread);
  EXPECT_EQ(route(exec, host, facts(large, 64, 2, false, true, true)), spread);
}

}  // namespace
