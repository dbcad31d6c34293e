// X1: the exact tier (correctly rounded sum and dot of 2^26 f64) beside the fixed-fold sum and
// dot on the same data; the closing table gives each as a fraction of the read limit measured in
// the same run (limit/read). Data: random magnitudes over 2^-30..2^30, both signs, so the bins
// see realistic exponents (not only small integers).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <random>

#include "bench_common.hpp"

namespace {

using strided_bench::shared_data;

struct Vectors {
  static constexpr std::size_t n = std::size_t(1) << 26;
  strided::StridedArray<double> a = strided::StridedArray<double>::row_major({n});
  strided::StridedArray<double> b = strided::StridedArray<double>::row_major({n});
  Vectors() {
    double* x = a.data();
    double* y = b.data();
    // First touch in parallel (pages where the threads read them), values from a hash of i.
    Kokkos::parallel_for("strided_bench::fill", Kokkos::RangePolicy<strided_bench::Exec>(0, n),
                         [=](std::size_t i) {
                           std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
                           h ^= h >> 29;
                           const double unit = static_cast<double>(h >> 11) * 0x1p-53;  // [0, 1)
                           x[i] = std::ldexp(unit - 0.5, static_cast<int>(h % 61) - 30);
                           y[i] = std::ldexp(0.5 - unit, static_cast<int>((h >> 7) % 61) - 30);
                         });
    Kokkos::fence();
  }
};

template <bool Exact>
void sum(benchmark::State& state) {
  const auto& d = shared_data<Vectors>();
  double s = 0;
  for (auto _ : state) {
    if constexpr (Exact)
      s = strided::sum(d.a.view(), strided::exact);
    else
      s = strided::sum(d.a.view());
    benchmark::DoNotOptimize(s);
  }
  // The exact sum is the fixed-fold one to within its rounding error bound.
  const double fixed = strided::sum(d.a.view()), exact = strided::sum(d.a.view(), strided::exact);
  if (!(std::abs(fixed - exact) <= 1e-6 * std::abs(exact) + 1e-3))
    state.SkipWithError("the fixed-fold and exact sums disagree beyond rounding");
  strided_bench::set_bytes(state, Vectors::n * sizeof(double));
}

template <bool Exact>
void dot(benchmark::State& state) {
  const auto& d = shared_data<Vectors>();
  double s = 0;
  for (auto _ : state) {
    if constexpr (Exact)
      s = strided::dot(d.a.view(), d.b.view(), strided::exact);
    else
      s = strided::dot(d.a.view(), d.b.view());
    benchmark::DoNotOptimize(s);
  }
  strided_bench::set_bytes(state, 2.0 * Vectors::n * sizeof(double));
}

const bool registered = [] {
  benchmark::RegisterBenchmark("X1.exact_sum/strided", sum<true>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("X1.exact_sum/strided_fixed_fold", sum<false>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("X1.exact_dot/strided", dot<true>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("X1.exact_dot/strided_fixed_fold", dot<false>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
