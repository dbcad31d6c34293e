#ifndef STRIDED_PERF_BENCH_COMMON_HPP
#define STRIDED_PERF_BENCH_COMMON_HPP

// Shared pieces of the benchmarks: row-major arrays, byte accounting and result checks.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <strided/strided.hpp>

namespace strided_bench {

using Exec = Kokkos::DefaultHostExecutionSpace;

/// Releases benchmark data before Kokkos::finalize (the main calls it).
inline std::vector<std::function<void()>>& finalizers() {
  static std::vector<std::function<void()>> f;
  return f;
}

/// Data shared by the benchmarks of one workload: built on first use, freed before finalize.
template <class T>
T& shared_data() {
  static T* data = [] {
    T* p = new T();
    finalizers().push_back([p] { delete p; });
    return p;
  }();
  return *data;
}

/// A row-major f64 array whose element at flat index n is value(n).
inline strided::StridedArray<double> make_row_major(const std::vector<std::size_t>& dims) {
  auto a = strided::StridedArray<double>::row_major(dims);
  double* p = a.data();
  Kokkos::parallel_for(
      "strided_bench::fill", Kokkos::RangePolicy<Exec>(0, a.size()),
      KOKKOS_LAMBDA(std::size_t n) { p[n] = static_cast<double>(n % 1000003) * 0.25; });
  Kokkos::fence();
  return a;
}

/// The options of a benchmark row: the MDRangePolicy tile schedule for `strided_mdrange` rows.
inline strided::Options tile_policy(bool mdrange) {
  strided::Options options;
  options.tile_policy = mdrange ? strided::TilePolicy::MDRange : strided::TilePolicy::Range;
  return options;
}

/// Records GB/s (logical bytes: each operand read once, each output written once).
inline void set_bytes(benchmark::State& state, double bytes_per_iteration) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_iteration) * state.iterations());
  state.counters["GB/s"] = benchmark::Counter(bytes_per_iteration * 1e-9 * state.iterations(),
                                              benchmark::Counter::kIsRate);
}

/// Checks a sample of elements of `got` against `expected(multi-index)`; fails the benchmark.
template <class View, class Expected>
bool check_sample(benchmark::State& state, const View& got, Expected expected) {
  std::mt19937 rng(1234);
  std::vector<std::size_t> index(got.rank());
  for (int s = 0; s < 2000; ++s) {
    std::ptrdiff_t offset = 0;
    for (std::size_t k = 0; k < got.rank(); ++k) {
      index[k] = rng() % got.extent(k);
      offset += static_cast<std::ptrdiff_t>(index[k]) * got.stride(k);
    }
    if (got.data()[offset] != expected(index)) {
      state.SkipWithError("wrong result");
      return false;
    }
  }
  return true;
}

}  // namespace strided_bench

#endif
