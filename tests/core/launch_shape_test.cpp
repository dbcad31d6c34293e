// The launch-shape model of the device algorithm (core/launch_shape.hpp), on the plans the
// planner makes for PERFORMANCE.md's W1, W3, W4 and W6: teams per SM and fold chains on an
// H200, H100 and MI250X, without a GPU.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "strided/core/axes_plan.hpp"
#include "strided/core/explain.hpp"
#include "strided/core/launch_shape.hpp"
#include "strided/core/planner.hpp"

namespace {

using strided::DeviceKernel;
using strided::DeviceModel;
using strided::launch_shape;
using strided::LaunchShape;
using strided::detail::axis_kernel;
using strided::detail::make_plan;
using strided::detail::Plan;
using strided::detail::PlannerOptions;

/// Row-major strides of `extents`.
std::vector<std::ptrdiff_t> row_major(const std::vector<std::size_t>& extents) {
  std::vector<std::ptrdiff_t> s(extents.size());
  std::ptrdiff_t step = 1;
  for (std::size_t i = extents.size(); i-- > 0;) {
    s[i] = step;
    step *= static_cast<std::ptrdiff_t>(extents[i]);
  }
  return s;
}

/// The plan of B = permute(A, perm) (numpy semantics), both row-major f64.
Plan<2> permute_plan(const std::vector<std::size_t>& a_extents, const std::vector<int>& perm,
                     const PlannerOptions& opt) {
  const auto a = row_major(a_extents);
  std::vector<std::size_t> extents;
  std::vector<std::ptrdiff_t> src;
  for (int p : perm) {
    extents.push_back(a_extents[static_cast<std::size_t>(p)]);
    src.push_back(a[static_cast<std::size_t>(p)]);
  }
  const auto dst = row_major(extents);
  const std::ptrdiff_t* strides[] = {dst.data(), src.data()};
  const std::size_t sizes[] = {8, 8};
  return make_plan<2>(extents.size(), extents.data(), strides, sizes, opt);
}

/// The plans of W4's sum of a row-major 4096 x 4096 f64 matrix over axis `reduced`.
strided::detail::AxesLayout<1> w4_axis_layout(std::size_t reduced) {
  const std::vector<std::size_t> extents = {4096, 4096};
  const std::vector<std::ptrdiff_t> src = row_major(extents);
  const std::ptrdiff_t* strides[] = {src.data()};
  const std::size_t sizes[] = {8}, kept[] = {1 - reduced}, axes[] = {reduced};
  const std::ptrdiff_t dst_strides[] = {1};
  strided::detail::AxesLayout<1> layout;
  strided::detail::plan_axes<1>(layout, kept, axes, extents.data(), 2, dst_strides, 8, strides,
                                sizes, PlannerOptions{}, 0);
  return layout;
}

/// The plan of a full reduction of `sources` f64 operands of these extents and strides.
template <int N>
Plan<N> fold_plan(const std::vector<std::size_t>& extents,
                  const std::vector<std::vector<std::ptrdiff_t>>& strides, std::size_t size) {
  const std::ptrdiff_t* s[N];
  std::size_t sizes[N];
  for (int k = 0; k < N; ++k) {
    s[k] = strides[static_cast<std::size_t>(k)].data();
    sizes[k] = size;
  }
  return make_plan<N>(extents.size(), extents.data(), s, sizes, PlannerOptions{});
}

void expect_fills(const LaunchShape& s, const DeviceModel& d, const char* what) {
  EXPECT_GE(s.teams_per_sm, 4.0) << what << " on " << d.name;
  EXPECT_GE(s.threads_in_flight, std::size_t(d.multiprocessors) * 4 * s.team_threads)
      << what << " on " << d.name;
}

TEST(LaunchShape, CountsTeamsThreadsAndChains) {
  const DeviceModel h200 = DeviceModel::h200();
  // 8192 tiles of a fold: 4 per team of 4 x 16 lanes.
  const LaunchShape fold = launch_shape(DeviceKernel::Fold, 8192, std::size_t(8) << 25, h200);
  EXPECT_EQ(fold.teams, 2048u);
  EXPECT_EQ(fold.team_threads, 64);
  EXPECT_EQ(fold.vector_length, 16);
  EXPECT_EQ(fold.threads, 2048u * 64u);
  EXPECT_EQ(fold.chains, 8192u * 16u);
  EXPECT_EQ(fold.resident_teams_per_sm, 32);  // 2048 threads / 64, and the 32-block limit
  EXPECT_DOUBLE_EQ(fold.teams_per_sm, 2048.0 / 132.0);
  EXPECT_EQ(fold.threads_in_flight, 2048u * 64u);  // all resident: 15.5 of 32 teams per SM
  EXPECT_DOUBLE_EQ(fold.bytes_per_thread, double(std::size_t(8) << 25) / double(2048 * 64));
  // Maps: one tile per team of 256 threads, 8 resident per SM; more teams than fit wait.
  const LaunchShape map = launch_shape(DeviceKernel::Map, 100000, 1000, h200);
  EXPECT_EQ(map.teams, 100000u);
  EXPECT_EQ(map.team_threads, 256);
  EXPECT_EQ(map.vector_length, 32);
  EXPECT_EQ(map.resident_teams_per_sm, 8);
  EXPECT_EQ(map.threads_in_flight, 132u * 8u * 256u);
  EXPECT_EQ(map.chains, 0u);
  // Column folds: 4 outputs per team, 16 lanes each; rows: one lane per output.
  const LaunchShape column = launch_shape(DeviceKernel::Column, 4096, 1, h200);
  EXPECT_EQ(column.teams, 1024u);
  EXPECT_EQ(column.team_threads, 64);
  EXPECT_EQ(column.vector_length, 4);
  EXPECT_EQ(column.chains, 4096u * 16u);
  const LaunchShape rows = launch_shape(DeviceKernel::Rows, 16, 1, h200, 4096);
  EXPECT_EQ(rows.teams, 16u);
  EXPECT_EQ(rows.chains, 4096u);
  EXPECT_LT(rows.teams_per_sm, 1.0);
  // With the registers nvcc 13 gave these kernels for sm_90 (TeamMap up to 72, TeamFold up to
  // 64): 3 map teams and 16 fold teams per SM fit the 65536 registers.
  const LaunchShape map72 = launch_shape(DeviceKernel::Map, 100000, 1000, h200, 0, 72);
  EXPECT_EQ(map72.resident_teams_per_sm, 3);
  EXPECT_EQ(map72.threads_in_flight, 132u * 3u * 256u);
  EXPECT_EQ(launch_shape(DeviceKernel::Fold, 8192, 1, h200, 0, 64).resident_teams_per_sm, 16);
  EXPECT_EQ(launch_shape(DeviceKernel::Fold, 8192, 1, h200, 0, 16).resident_teams_per_sm, 32);
  // Nothing to launch.
  const LaunchShape none = launch_shape(DeviceKernel::Fold, 0, 0, h200);
  EXPECT_EQ(none.teams, 0u);
  EXPECT_EQ(none.threads_in_flight, 0u);
  EXPECT_EQ(none.bytes_per_thread, 0.0);
  // A wavefront of 64 does not change the team shapes (vector lengths stay at most 32).
  EXPECT_EQ(launch_shape(DeviceKernel::Map, 10, 1, DeviceModel::mi250()).team_threads, 256);
}

TEST(LaunchShape, PerformanceWorkloadsFillAnH200) {
  PlannerOptions opt;
  opt.l2_bytes = std::size_t(1) << 20;  // transposed tiles as on a 1 MiB-L2 host (not this one)
  for (const DeviceModel& d : {DeviceModel::h200(), DeviceModel::h100(), DeviceModel::mi250()}) {
    // W1: 64^4 permuted copies; W3: the 8192^2 transpose (maps, one tile per team).
    for (const std::vector<int>& perm :
         std::vector<std::vector<int>>{{3, 2, 1, 0}, {1, 0, 3, 2}, {0, 2, 1, 3}, {2, 3, 0, 1}}) {
      const auto p = permute_plan({64, 64, 64, 64}, perm, opt);
      expect_fills(launch_shape(DeviceKernel::Map, p.tile_count, p.count * 16, d), d, "W1");
    }
    const auto w3 = permute_plan({8192, 8192}, {1, 0}, opt);
    expect_fills(launch_shape(DeviceKernel::Map, w3.tile_count, w3.count * 16, d), d, "W3");
    // W4 full sums (2^26 contiguous; the transposed view of 4096^2) and W6 dots (2^25 f32,
    // 2^24 of stride 2): at least 2^17 chains of at most 256 elements.
    const std::vector<Plan<1>> sums = {fold_plan<1>({std::size_t(1) << 26}, {{1}}, 8),
                                       fold_plan<1>({4096, 4096}, {{1, 4096}}, 8)};
    const std::vector<Plan<2>> dots = {fold_plan<2>({std::size_t(1) << 25}, {{1}, {1}}, 4),
                                       fold_plan<2>({std::size_t(1) << 24}, {{2}, {2}}, 8)};
    const auto check_fold = [&](std::size_t tiles, std::size_t count, const char* what) {
      const LaunchShape s = launch_shape(DeviceKernel::Fold, tiles, count * 8, d);
      expect_fills(s, d, what);
      EXPECT_GE(s.chains, std::size_t(1) << 17) << what;
      EXPECT_LE(count / s.chains, 256u) << what;
    };
    for (const auto& p : sums) check_fold(p.tile_count, p.count, "W4 sum");
    for (const auto& p : dots) check_fold(p.tile_count, p.count, "W6 dot");
    // W4 row and column sums of 4096^2: 4096 outputs, each axis in tiles of the grain of all
    // 2^24 elements (2 of 2048), 16 lanes per tile (along the rows, or across adjacent outputs
    // for columns): 2^17 chains of 128 elements.
    for (const std::size_t reduced : {1, 0}) {
      const auto layout = w4_axis_layout(reduced);
      const DeviceKernel kernel = axis_kernel(layout.sub);
      EXPECT_EQ(kernel, reduced == 1 ? DeviceKernel::Fold : DeviceKernel::Column);
      const LaunchShape s =
          launch_shape(kernel, layout.outputs * layout.sub.tile_count, 8u << 24, d);
      const char* what = reduced == 1 ? "rowsum" : "colsum";
      expect_fills(s, d, what);
      EXPECT_GE(s.chains, std::size_t(1) << 17) << what;
      EXPECT_LE((std::size_t(1) << 24) / s.chains, 256u) << what;
    }
  }
}

TEST(LaunchShape, ShortAxisReductionsKeepOneLanePerOutput) {
  // Fewer than 64 reduced elements per output, not along a unit-stride run: TeamRows.
  const auto short_column = fold_plan<1>({40}, {{1000}}, 8);
  EXPECT_EQ(axis_kernel(short_column), DeviceKernel::Rows);
  const auto short_row = fold_plan<1>({40}, {{1}}, 8);
  EXPECT_EQ(axis_kernel(short_row), DeviceKernel::Fold);
  const auto long_column = fold_plan<1>({64}, {{1000}}, 8);
  EXPECT_EQ(axis_kernel(long_column), DeviceKernel::Column);
}

TEST(LaunchShape, ExplainPrintsBothLaunches) {
  const auto p = fold_plan<1>({std::size_t(1) << 24}, {{1}}, 8);
  const std::string text = strided::detail::describe_device(p, 8, DeviceModel::h200());
  EXPECT_NE(text.find("device map on H200 (model): 8192 teams x 256 threads"), std::string::npos)
      << text;
  EXPECT_NE(text.find("device fold on H200 (model): 2048 teams x 64 threads (vector length 16), "
                      "15.5 teams per SM (32 resident), 131072 threads in flight, 131072 fold "
                      "chains, 1024.0 bytes per thread"),
            std::string::npos)
      << text;
  const auto empty = fold_plan<1>({0, 5}, {{5, 1}}, 8);
  EXPECT_EQ(strided::detail::describe_device(empty, 8, DeviceModel::h200()), "");
}

}  // namespace
