// TileShapes: the permuted copies of W1, W3 and W9 under other tile shapes than the planner's
// defaults, to measure how much a per-shape choice could gain. Each row is
// TileShapes/<workload>/row<transpose_row_bytes>/block<block_bytes>; the defaults are row512
// and block32768; TileShapes/<workload>/tuned runs the plan tune_copy_plan chose (its label).
// Element copies are reordered, never their values: every row checks its result.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"

namespace {

struct Case {
  std::string name;
  std::vector<std::size_t> dims;  ///< of the row-major source
  std::vector<std::size_t> perm;  ///< destination axis k is source axis perm[k]
};

/// A row-major source and a row-major destination of the permuted shape, built on first use.
struct CaseData {
  strided::StridedArray<double> src, dst;
};

CaseData& data_of(const Case& c) {
  static std::map<std::string, std::unique_ptr<CaseData>>* all = [] {
    auto* m = new std::map<std::string, std::unique_ptr<CaseData>>();
    strided_bench::finalizers().push_back([m] { delete m; });
    return m;
  }();
  auto& slot = (*all)[c.name];
  if (!slot) {
    std::vector<std::size_t> out(c.dims.size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = c.dims[c.perm[k]];
    slot = std::make_unique<CaseData>(
        CaseData{strided_bench::make_row_major(c.dims), strided_bench::make_row_major(out)});
  }
  return *slot;
}

/// Checks a sample of dst against src and records the bytes moved.
template <class D, class S>
void check_copy(benchmark::State& state, const D& dst, const S& src) {
  if (strided_bench::check_sample(state, dst, [&](const std::vector<std::size_t>& i) {
        std::ptrdiff_t o = 0;
        for (std::size_t k = 0; k < i.size(); ++k)
          o += static_cast<std::ptrdiff_t>(i[k]) * src.stride(k);
        return src.data()[o];
      }))
    strided_bench::set_bytes(state, 2.0 * static_cast<double>(dst.size()) * sizeof(double));
}

void tile_shape(benchmark::State& state, const Case& c, std::size_t row_bytes,
                std::size_t block_bytes) {
  auto& d = data_of(c);
  const auto src = d.src.view().permute(c.perm);
  const auto dst = d.dst.view();
  strided::Options options;
  options.planner.transpose_row_bytes = row_bytes;
  options.planner.block_bytes = block_bytes;
  for (auto _ : state) strided::copy_into(dst, src, options);
  check_copy(state, dst, src);
}

/// The plan tune_copy_plan measures and keeps for this layout (its measuring runs before timing).
void tuned(benchmark::State& state, const Case& c) {
  auto& d = data_of(c);
  const auto src = d.src.view().permute(c.perm);
  const auto dst = d.dst.view();
  const auto plan = strided::tune_copy_plan(dst, src);
  for (auto _ : state) strided::copy_into(plan, dst, src);
  state.SetLabel("row" + std::to_string(plan.options().planner.transpose_row_bytes) + "/block" +
                 std::to_string(plan.options().planner.block_bytes));
  check_copy(state, dst, src);
}

const bool registered = [] {
  std::vector<Case> cases = {{"W1.perm3210", {64, 64, 64, 64}, {3, 2, 1, 0}},
                             {"W1.perm2301", {64, 64, 64, 64}, {2, 3, 0, 1}},
                             {"W1.perm1032", {64, 64, 64, 64}, {1, 0, 3, 2}},
                             {"W1.perm0213", {64, 64, 64, 64}, {0, 2, 1, 3}},
                             {"W3.transpose", {8192, 8192}, {1, 0}}};
  // W9.rank8: 2^24 elements as 8 axes of 8, axes reversed.
  cases.push_back({"W9.rank8", std::vector<std::size_t>(8, 8), {7, 6, 5, 4, 3, 2, 1, 0}});
  for (const Case& c : cases) {
    benchmark::RegisterBenchmark(("TileShapes/" + c.name + "/tuned").c_str(), tuned, c)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    for (std::size_t row : {256, 512, 1024, 2048, 4096})
      for (std::size_t block : {8192, 16384, 32768, 65536, 131072}) {
        const std::string name = "TileShapes/" + c.name + "/row" + std::to_string(row) + "/block" +
                                 std::to_string(block);
        benchmark::RegisterBenchmark(name.c_str(), tile_shape, c, row, block)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
  }
  return true;
}();

}  // namespace
