// STREAM-like limits over 256 MiB arrays, in the same run as the kernels they judge: copy and
// a + b (with and without non-temporal stores) and a read-only sum. The kernels are shared with
// strided-report (stream_kernels.hpp).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include "bench_common.hpp"
#include "stream_kernels.hpp"

namespace {

constexpr std::size_t N = (std::size_t(256) << 20) / sizeof(double);

struct Arrays {
  Kokkos::View<double*, Kokkos::HostSpace> a{"a", N}, b{"b", N}, c{"c", N};
  static Arrays& get() { return strided_bench::shared_data<Arrays>(); }
};

void limit_copy(benchmark::State& state) {
  auto& s = Arrays::get();
  for (auto _ : state) strided_perf::stream_copy(s.a.data(), s.c.data(), N);
  strided_bench::set_bytes(state, 2.0 * N * sizeof(double));
}

void limit_copy_nt(benchmark::State& state) {
  auto& s = Arrays::get();
  for (auto _ : state) strided_perf::stream_copy_nt(s.a.data(), s.c.data(), N);
  strided_bench::set_bytes(state, 2.0 * N * sizeof(double));
}

void limit_read(benchmark::State& state) {
  auto& s = Arrays::get();
  for (auto _ : state) {
    double total = strided_perf::stream_read(s.a.data(), N);
    benchmark::DoNotOptimize(total);
  }
  strided_bench::set_bytes(state, 1.0 * N * sizeof(double));
}

void limit_add(benchmark::State& state) {
  auto& s = Arrays::get();
  for (auto _ : state) strided_perf::stream_add(s.a.data(), s.b.data(), s.c.data(), N);
  strided_bench::set_bytes(state, 3.0 * N * sizeof(double));
}

void limit_add_nt(benchmark::State& state) {
  auto& s = Arrays::get();
  for (auto _ : state) strided_perf::stream_add_nt(s.a.data(), s.b.data(), s.c.data(), N);
  strided_bench::set_bytes(state, 3.0 * N * sizeof(double));
}

BENCHMARK(limit_copy)->Name("limit/copy")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_copy_nt)->Name("limit/copy_nt")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_read)->Name("limit/read")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_add)->Name("limit/add")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_add_nt)->Name("limit/add_nt")->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
