// X1: the exact tier (correctly rounded sum and dot of 2^26 f64) beside the fixed-fold sum and
// dot on the same data; the closing table gives each as a fraction of the read limit measured in
// the same run (limit/read). Two data sets: uniform in [-1/2, 1/2) (a few binades), and wide,
// the same scaled by 2^-30..2^30 (products over 120 binades: more of each term lies below the
// first bins' last boundary and takes the second set of bins).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <random>

#include "bench_common.hpp"

namespace {

using strided_bench::shared_data;

template <int Binades>
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

template <bool Exact, int Binades>
void sum(benchmark::State& state) {
  using V = Vectors<Binades>;
  const auto& d = shared_data<V>();
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
  strided_bench::set_bytes(state, V::n * sizeof(double));
}

template <bool Exact, int Binades>
void dot(benchmark::State& state) {
  using V = Vectors<Binades>;
  const auto& d = shared_data<V>();
  double s = 0;
  for (auto _ : state) {
    if constexpr (Exact)
      s = strided::dot(d.a.view(), d.b.view(), strided::exact);
    else
      s = strided::dot(d.a.view(), d.b.view());
    benchmark::DoNotOptimize(s);
  }
  strided_bench::set_bytes(state, 2.0 * V::n * sizeof(double));
}

const bool registered = [] {
  const auto ms = [](benchmark::internal::Benchmark* b) {
    b->UseRealTime()->Unit(benchmark::kMillisecond);
  };
  ms(benchmark::RegisterBenchmark("X1.exact_sum/strided", sum<true, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum/strided_fixed_fold", sum<false, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot/strided", dot<true, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot/strided_fixed_fold", dot<false, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum_wide/strided", sum<true, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum_wide/strided_fixed_fold", sum<false, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot_wide/strided", dot<true, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot_wide/strided_fixed_fold", dot<false, 30>));
  return true;
}();

}  // namespace
