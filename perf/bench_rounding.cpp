// What rounding every product costs (the no-contraction promise): dot and axpy of 4096 f64, in
// L1, the built-in beside the same fold with an unrounded user function (zip_reduce and
// zip_map_into, which the compiler may vectorize and, with FMA flags, contract). The data are
// small multiples of 1/2, so both give the same exact result, and each run checks it.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_common.hpp"

namespace {

constexpr std::size_t N = 4096;

struct Operands {
  std::vector<double> a = std::vector<double>(N), b = std::vector<double>(N);
  Operands() {
    for (std::size_t i = 0; i < N; ++i) {
      a[i] = double(i % 16) * 0.5;
      b[i] = double(i % 8) * 0.5;
    }
  }
  strided::StridedView<const double> va() const { return {a.data(), N, {N}, {1}}; }
  strided::StridedView<const double> vb() const { return {b.data(), N, {N}, {1}}; }
  double dot() const {
    double s = 0;
    for (std::size_t i = 0; i < N; ++i) s += a[i] * b[i];  // exact: every partial is too
    return s;
  }
};

template <bool Rounded>
void dot_in_l1(benchmark::State& state) {
  const Operands o;
  double s = 0;
  for (auto _ : state) {
    if constexpr (Rounded)
      s = strided::dot(o.va(), o.vb());
    else
      s = strided::zip_reduce(
          o.va(), o.vb(), [](double x, double y) { return x * y; },
          [](double x, double y) { return x + y; }, 0.0);
    benchmark::DoNotOptimize(s);
  }
  if (s != o.dot()) return state.SkipWithError("wrong dot");
  strided_bench::set_bytes(state, 2.0 * N * sizeof(double));
}

template <bool Rounded>
void axpy_in_l1(benchmark::State& state) {
  const Operands o;
  std::vector<double> d(N, 0.0);
  const strided::StridedView<double> vd(d.data(), N, {N}, {1});
  for (auto _ : state) {
    // alpha = 0: d stays 0 however many iterations run, and every product is still computed.
    if constexpr (Rounded)
      strided::axpy(vd, o.va(), 0.0);
    else
      strided::zip_map_into(
          vd, [](double y, double x) { return y + 0.0 * x; }, vd, o.va());
    benchmark::DoNotOptimize(d.data());
  }
  for (double x : d)
    if (x != 0.0) return state.SkipWithError("wrong axpy");
  strided_bench::set_bytes(state, 3.0 * N * sizeof(double));
}

const bool registered = [] {
  benchmark::RegisterBenchmark("Rounding.dot4096/strided_dot", dot_in_l1<true>);
  benchmark::RegisterBenchmark("Rounding.dot4096/unrounded_zip_reduce", dot_in_l1<false>);
  benchmark::RegisterBenchmark("Rounding.axpy4096/strided_axpy", axpy_in_l1<true>);
  benchmark::RegisterBenchmark("Rounding.axpy4096/unrounded_zip_map", axpy_in_l1<false>);
  return true;
}();

}  // namespace
