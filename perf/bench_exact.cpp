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

/// The sum (Dot false) or the dot of the vectors, exact or fixed-fold. The timed result must
/// agree with the other tier within the fixed fold's error bound, n * 2^-52 * sum |term|.
template <bool Exact, bool Dot, int Binades>
void reduction(benchmark::State& state) {
  using V = Vectors<Binades>;
  const auto& d = shared_data<V>();
  const auto run = [&](auto tier) {
    if constexpr (Dot)
      return strided::dot(d.a.view(), d.b.view(), tier);
    else
      return strided::sum(d.a.view(), tier);
  };
  double s = 0;
  for (auto _ : state) {
    if constexpr (Exact)
      s = run(strided::exact);
    else
      s = run(strided::default_options());
    benchmark::DoNotOptimize(s);
  }
  const double other = Exact ? run(strided::default_options()) : run(strided::exact);
  double magnitude = 0;
  for (std::size_t i = 0; i < V::n; ++i)
    magnitude += std::abs(d.a.data()[i] * (Dot ? d.b.data()[i] : 1.0));
  if (!(std::abs(s - other) <= V::n * 0x1p-52 * magnitude))
    state.SkipWithError("the fixed-fold and exact results disagree beyond rounding");
  strided_bench::set_bytes(state, (Dot ? 2.0 : 1.0) * V::n * sizeof(double));
}

const bool registered = [] {
  const auto ms = [](benchmark::internal::Benchmark* b) {
    b->UseRealTime()->Unit(benchmark::kMillisecond);
  };
  ms(benchmark::RegisterBenchmark("X1.exact_sum/strided", reduction<true, false, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum/strided_fixed_fold", reduction<false, false, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot/strided", reduction<true, true, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot/strided_fixed_fold", reduction<false, true, 0>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum_wide/strided", reduction<true, false, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_sum_wide/strided_fixed_fold",
                                  reduction<false, false, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot_wide/strided", reduction<true, true, 30>));
  ms(benchmark::RegisterBenchmark("X1.exact_dot_wide/strided_fixed_fold",
                                  reduction<false, true, 30>));
  return true;
}();

}  // namespace
