// STREAM-like limits over 256 MiB arrays, in the same run as the kernels they judge: copy (with
// and without non-temporal stores), read-only sum and a + b.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench_common.hpp"

namespace {

using strided_bench::Exec;
constexpr std::size_t N = (std::size_t(256) << 20) / sizeof(double);

struct Arrays {
  Kokkos::View<double*, Kokkos::HostSpace> a{"a", N}, b{"b", N}, c{"c", N};
  static Arrays& get() { return strided_bench::shared_data<Arrays>(); }
};

void limit_copy(benchmark::State& state) {
  auto& s = Arrays::get();
  const double* a = s.a.data();
  double* c = s.c.data();
  for (auto _ : state) {
    Kokkos::parallel_for(
        "limit::copy", Kokkos::RangePolicy<Exec>(0, N),
        KOKKOS_LAMBDA(std::size_t i) { c[i] = a[i]; });
    Kokkos::fence();
  }
  strided_bench::set_bytes(state, 2.0 * N * sizeof(double));
}

void limit_copy_nt(benchmark::State& state) {
  auto& s = Arrays::get();
  const double* a = s.a.data();
  double* c = s.c.data();
  for (auto _ : state) {
    Kokkos::parallel_for(
        "limit::copy_nt", Kokkos::RangePolicy<Exec>(0, N / 2), KOKKOS_LAMBDA(std::size_t i) {
#if defined(__SSE2__)
          _mm_stream_pd(c + 2 * i, _mm_load_pd(a + 2 * i));
#else
          c[2 * i] = a[2 * i];
          c[2 * i + 1] = a[2 * i + 1];
#endif
        });
    Kokkos::fence();
  }
  strided_bench::set_bytes(state, 2.0 * N * sizeof(double));
}

/// Read-only sum with 8 independent accumulators per block of 1024 elements, so the loop is
/// bound by memory, not by the latency of one chain of additions.
void limit_read(benchmark::State& state) {
  auto& s = Arrays::get();
  const double* a = s.a.data();
  constexpr std::size_t block = 1024;
  for (auto _ : state) {
    double total = 0;
    Kokkos::parallel_reduce(
        "limit::read", Kokkos::RangePolicy<Exec>(0, N / block),
        KOKKOS_LAMBDA(std::size_t b, double& acc) {
          double part[8] = {};
          for (std::size_t i = b * block; i < (b + 1) * block; i += 8)
            for (int l = 0; l < 8; ++l) part[l] += a[i + static_cast<std::size_t>(l)];
          acc += ((part[0] + part[1]) + (part[2] + part[3])) +
                 ((part[4] + part[5]) + (part[6] + part[7]));
        },
        total);
    benchmark::DoNotOptimize(total);
  }
  strided_bench::set_bytes(state, 1.0 * N * sizeof(double));
}

void limit_add(benchmark::State& state) {
  auto& s = Arrays::get();
  const double* a = s.a.data();
  const double* b = s.b.data();
  double* c = s.c.data();
  for (auto _ : state) {
    Kokkos::parallel_for(
        "limit::add", Kokkos::RangePolicy<Exec>(0, N),
        KOKKOS_LAMBDA(std::size_t i) { c[i] = a[i] + b[i]; });
    Kokkos::fence();
  }
  strided_bench::set_bytes(state, 3.0 * N * sizeof(double));
}

BENCHMARK(limit_copy)->Name("limit/copy")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_copy_nt)->Name("limit/copy_nt")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_read)->Name("limit/read")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(limit_add)->Name("limit/add")->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
