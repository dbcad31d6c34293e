// W5 (C = A + B^T, c = a * b), W7 (symmetrize) and W8 (call overhead on small tensors), each
// beside a plain loop.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <vector>

#include "bench_common.hpp"

namespace {

using strided_bench::Exec;
using strided_bench::shared_data;

struct Square4096 {
  static constexpr std::size_t n = 4096;
  strided::StridedArray<double> a = strided_bench::make_row_major({n, n});
  strided::StridedArray<double> b = strided_bench::make_row_major({n, n});
  strided::StridedArray<double> c = strided_bench::make_row_major({n, n});
};

template <bool Plain>
void add_transposed(benchmark::State& state) {
  auto& d = shared_data<Square4096>();
  constexpr std::size_t n = Square4096::n;
  const double *a = d.a.data(), *b = d.b.data();
  double* c = d.c.data();
  for (auto _ : state) {
    if constexpr (Plain) {
      Kokkos::parallel_for(
          "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            for (std::size_t j = 0; j < n; ++j) c[i * n + j] = a[i * n + j] + b[j * n + i];
          });
      Kokkos::fence();
    } else {
      strided::zip_map_into(
          d.c.view(), [](double x, double y) { return x + y; }, d.a.view(), d.b.view().transpose());
    }
  }
  if (strided_bench::check_sample(state, d.c.view(), [&](const std::vector<std::size_t>& i) {
        return a[i[0] * n + i[1]] + b[i[1] * n + i[0]];
      }))
    strided_bench::set_bytes(state, 3.0 * n * n * sizeof(double));
}

struct Vectors {
  static constexpr std::size_t n = std::size_t(1) << 25;
  strided::StridedArray<double> a = strided_bench::make_row_major({n});
  strided::StridedArray<double> b = strided_bench::make_row_major({n});
  strided::StridedArray<double> c = strided_bench::make_row_major({n});
};

template <bool Plain>
void mul_contig(benchmark::State& state) {
  auto& d = shared_data<Vectors>();
  constexpr std::size_t n = Vectors::n;
  const double *a = d.a.data(), *b = d.b.data();
  double* c = d.c.data();
  for (auto _ : state) {
    if constexpr (Plain) {
      Kokkos::parallel_for(
          "peer::loop", Kokkos::RangePolicy<Exec>(0, n),
          KOKKOS_LAMBDA(std::size_t i) { c[i] = a[i] * b[i]; });
      Kokkos::fence();
    } else {
      strided::zip_map_into(
          d.c.view(), [](double x, double y) { return x * y; }, d.a.view(), d.b.view());
    }
  }
  if (strided_bench::check_sample(
          state, d.c.view(), [&](const std::vector<std::size_t>& i) { return a[i[0]] * b[i[0]]; }))
    strided_bench::set_bytes(state, 3.0 * n * sizeof(double));
}

template <bool Plain>
void symmetrize(benchmark::State& state) {
  auto& d = shared_data<Square4096>();
  constexpr std::size_t n = Square4096::n;
  const double* a = d.a.data();
  double* c = d.c.data();
  for (auto _ : state) {
    if constexpr (Plain) {
      Kokkos::parallel_for(
          "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            for (std::size_t j = 0; j < n; ++j) c[i * n + j] = (a[i * n + j] + a[j * n + i]) / 2;
          });
      Kokkos::fence();
    } else {
      strided::symmetrize_into(d.c.view(), d.a.view());
    }
  }
  if (strided_bench::check_sample(state, d.c.view(), [&](const std::vector<std::size_t>& i) {
        return (a[i[0] * n + i[1]] + a[i[1] * n + i[0]]) / 2;
      }))
    strided_bench::set_bytes(state, 2.0 * n * n * sizeof(double));
}

/// W8: map, copy and sum on n elements, Strided against a hand-written serial loop.
template <int Kernel, bool Plain>
void small(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto a = strided_bench::make_row_major({n});
  auto b = strided::StridedArray<double>::row_major({n});
  const double* pa = a.data();
  double* pb = b.data();
  double total = 0;
  for (auto _ : state) {
    if constexpr (Kernel == 0) {
      if constexpr (Plain)
        for (std::size_t i = 0; i < n; ++i) pb[i] = 2 * pa[i] + 1;
      else
        strided::map_into(b.view(), a.view(), [](double x) { return 2 * x + 1; });
    } else if constexpr (Kernel == 1) {
      if constexpr (Plain)
        for (std::size_t i = 0; i < n; ++i) pb[i] = pa[i];
      else
        strided::copy_into(b.view(), a.view());
    } else {
      if constexpr (Plain) {
        double s = 0;
        for (std::size_t i = 0; i < n; ++i) s += pa[i];
        total = s;
      } else {
        total = strided::sum(a.view());
      }
    }
    benchmark::DoNotOptimize(total);
    benchmark::ClobberMemory();
  }
  if (Kernel != 2 && pb[n - 1] != (Kernel == 0 ? 2 * pa[n - 1] + 1 : pa[n - 1]))
    state.SkipWithError("wrong result");
  state.SetItemsProcessed(static_cast<std::int64_t>(n) * state.iterations());
}

const bool registered = [] {
  benchmark::RegisterBenchmark("W5.add_transposed/strided", add_transposed<false>);
  benchmark::RegisterBenchmark("W5.add_transposed/plain_loop", add_transposed<true>);
  benchmark::RegisterBenchmark("W5.mul_contig/strided", mul_contig<false>);
  benchmark::RegisterBenchmark("W5.mul_contig/plain_loop", mul_contig<true>);
  benchmark::RegisterBenchmark("W7.symmetrize/strided", symmetrize<false>);
  benchmark::RegisterBenchmark("W7.symmetrize/plain_loop", symmetrize<true>);
  for (int n : {16, 256, 4096}) {
    benchmark::RegisterBenchmark("W8.map/strided", small<0, false>)->Arg(n);
    benchmark::RegisterBenchmark("W8.map/plain_loop", small<0, true>)->Arg(n);
    benchmark::RegisterBenchmark("W8.copy/strided", small<1, false>)->Arg(n);
    benchmark::RegisterBenchmark("W8.copy/plain_loop", small<1, true>)->Arg(n);
    benchmark::RegisterBenchmark("W8.sum/strided", small<2, false>)->Arg(n);
    benchmark::RegisterBenchmark("W8.sum/plain_loop", small<2, true>)->Arg(n);
  }
  return true;
}();

}  // namespace
