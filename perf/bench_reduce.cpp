// W4 (sums: contiguous, transposed view, row sums, column sums) and W6 (f32 dot accumulated in
// f64, dot of stride-2 views), beside Kokkos::parallel_reduce loops and KokkosBlas.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#if defined(STRIDED_BENCH_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_sum.hpp>
#endif

#include "bench_common.hpp"

namespace {

using strided_bench::Exec;
using strided_bench::shared_data;
using Vec = Kokkos::View<double*, Kokkos::HostSpace>;

struct Contig {
  static constexpr std::size_t n = std::size_t(1) << 26;
  Vec a{Kokkos::view_alloc(Kokkos::WithoutInitializing, "a"), n};
  Contig() {
    const Vec v = a;
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<Exec>(0, n),
                         [=](std::size_t i) { v(i) = static_cast<double>(i % 1024) * 0.5; });
    Kokkos::fence();
  }
  double expected() const { return double(n / 1024) * 0.5 * 1023 * 1024 / 2; }
};

void finish(benchmark::State& state, double got, double want, double bytes) {
  if (got != want) {
    state.SkipWithError("wrong sum");
    return;
  }
  strided_bench::set_bytes(state, bytes);
}

template <int Variant>
void sum_contig(benchmark::State& state) {
  const auto& d = shared_data<Contig>();
  const Vec a = d.a;
  double s = 0;
  for (auto _ : state) {
    if constexpr (Variant == 0) {
      s = strided::sum(strided::view(a));
    } else if constexpr (Variant == 1) {
      Kokkos::parallel_reduce(
          "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, Contig::n),
          KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += a(i); }, s);
    } else {
#if defined(STRIDED_BENCH_HAVE_KOKKOSKERNELS)
      s = KokkosBlas::sum(a);
#endif
    }
    benchmark::DoNotOptimize(s);
  }
  finish(state, s, d.expected(), Contig::n * sizeof(double));
}

struct Square {
  static constexpr std::size_t n = 4096;
  strided::StridedArray<double> a = strided_bench::make_row_major({n, n});
  strided::StridedArray<double> rows = strided::StridedArray<double>::row_major({n});
  double row_sum(std::size_t i) const {
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += a.data()[i * n + j];
    return s;
  }
};

template <int Variant>
void sum_transposed(benchmark::State& state) {
  const auto& d = shared_data<Square>();
  constexpr std::size_t n = Square::n;
  const double* a = d.a.data();
  double s = 0;
  for (auto _ : state) {
    if constexpr (Variant == 0) {
      s = strided::sum(d.a.view().transpose());
    } else {  // the peer reads the transposed view as it is laid out: column by column
      Kokkos::parallel_reduce(
          "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
          KOKKOS_LAMBDA(std::size_t j, double& acc) {
            for (std::size_t i = 0; i < n; ++i) acc += a[i * n + j];
          },
          s);
    }
    benchmark::DoNotOptimize(s);
  }
  // Values are multiples of 0.25 below 2^18: every partial sum is exact in any order.
  double want = 0;
  for (std::size_t k = 0; k < n * n; ++k) want += a[k];
  finish(state, s, want, n * n * sizeof(double));
}

/// Sums over axis 1 (rows) or axis 0 (columns) of the 4096^2 row-major matrix.
template <int Axis, bool Plain>
void axis_sum(benchmark::State& state) {
  auto& d = shared_data<Square>();
  constexpr std::size_t n = Square::n;
  const double* a = d.a.data();
  double* out = d.rows.data();
  for (auto _ : state) {
    if constexpr (!Plain) {
      strided::sum_axes(d.rows.view(), d.a.view(), {Axis});
    } else if constexpr (Axis == 1) {
      Kokkos::parallel_for(
          "peer::rowsum", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            double s = 0;
            for (std::size_t j = 0; j < n; ++j) s += a[i * n + j];
            out[i] = s;
          });
      Kokkos::fence();
    } else {  // column sums: a row-by-row sweep over the outputs, which vectorizes
      Kokkos::parallel_for(
          "peer::colsum", Kokkos::RangePolicy<Exec>(0, n / 64), KOKKOS_LAMBDA(std::size_t b) {
            double s[64] = {};
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t j = 0; j < 64; ++j) s[j] += a[i * n + b * 64 + j];
            for (std::size_t j = 0; j < 64; ++j) out[b * 64 + j] = s[j];
          });
      Kokkos::fence();
    }
    benchmark::ClobberMemory();
  }
  const double want = Axis == 1 ? d.row_sum(7) : [&] {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i * n + 7];
    return s;
  }();
  finish(state, out[7], want, n * n * sizeof(double));
}

/// Row or column sums of W4's 2^24 elements in other shapes (rows x cols, row-major): few long
/// reductions (through the buffer of tile partials), many short ones.
void axis_sum_shape(benchmark::State& state, std::size_t rows, int axis) {
  auto& d = shared_data<Square>();
  constexpr std::size_t all = Square::n * Square::n;
  const std::size_t cols = all / rows, outputs = axis == 1 ? rows : cols;
  const double* a = d.a.data();
  const strided::StridedView<const double> m(a, all, {rows, cols},
                                             {static_cast<std::ptrdiff_t>(cols), 1});
  auto out = strided::StridedArray<double>::row_major({outputs});
  for (auto _ : state) {
    strided::sum_axes(out.view(), m, {static_cast<std::size_t>(axis)});
    benchmark::ClobberMemory();
  }
  // Multiples of 0.25 below 2^18: every order gives the exact sum.
  const std::size_t o = outputs - 1;
  double want = 0;
  for (std::size_t k = 0; k < (axis == 1 ? cols : rows); ++k)
    want += axis == 1 ? a[o * cols + k] : a[k * cols + o];
  finish(state, out.data()[o], want, all * sizeof(double));
}

struct Floats {
  static constexpr std::size_t n = std::size_t(1) << 25;
  Kokkos::View<float*, Kokkos::HostSpace> x{"x", n}, y{"y", n};
  Floats() {
    const auto a = x, b = y;
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<Exec>(0, n), [=](std::size_t i) {
      a(i) = static_cast<float>(i % 64) * 0.5f;
      b(i) = static_cast<float>(i % 32);
    });
    Kokkos::fence();
  }
  double expected() const {
    double s = 0;
    for (std::size_t i = 0; i < 64; ++i) s += double(i % 64) * 0.5 * double(i % 32);
    return s * double(n / 64);
  }
};

template <int Variant>
void dot_f32(benchmark::State& state) {
  const auto& d = shared_data<Floats>();
  const auto x = d.x, y = d.y;
  double s = 0;
  for (auto _ : state) {
    if constexpr (Variant == 0) {
      s = strided::dot<double>(strided::view(x), strided::view(y));
    } else if constexpr (Variant == 1) {
      Kokkos::parallel_reduce(
          "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, Floats::n),
          KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += double(x(i)) * double(y(i)); }, s);
    } else {
#if defined(STRIDED_BENCH_HAVE_KOKKOSKERNELS)
      s = KokkosBlas::dot(x, y);  // accumulates in float: faster to write, less accurate
#endif
    }
    benchmark::DoNotOptimize(s);
  }
  if (Variant == 2) {  // float accumulation cannot match the exact value; check loosely
    if (std::abs(s - d.expected()) > 1e-3 * d.expected()) state.SkipWithError("wrong dot");
    strided_bench::set_bytes(state, 2.0 * Floats::n * sizeof(float));
    return;
  }
  finish(state, s, d.expected(), 2.0 * Floats::n * sizeof(float));
}

template <int Variant>
void dot_strided(benchmark::State& state) {
  const auto& d = shared_data<Contig>();
  constexpr std::size_t n = std::size_t(1) << 24;
  using Strided1 = Kokkos::View<double*, Kokkos::LayoutStride, Kokkos::HostSpace>;
  const Strided1 even(d.a.data(), Kokkos::LayoutStride(n, 2));
  const Strided1 odd(d.a.data() + 1, Kokkos::LayoutStride(n, 2));
  double s = 0;
  for (auto _ : state) {
    if constexpr (Variant == 0) {
      s = strided::dot(strided::view(even), strided::view(odd));
    } else if constexpr (Variant == 1) {
      Kokkos::parallel_reduce(
          "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
          KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += even(i) * odd(i); }, s);
    } else {
#if defined(STRIDED_BENCH_HAVE_KOKKOSKERNELS)
      s = KokkosBlas::dot(even, odd);
#endif
    }
    benchmark::DoNotOptimize(s);
  }
  double want = 0;
  for (std::size_t i = 0; i < 1024; i += 2)
    want += double(i % 1024) * 0.5 * double((i + 1) % 1024) * 0.5;
  want *= double(2 * n / 1024);
  // Logical bytes: the two views' elements, read once (every fetched cache line is used).
  finish(state, s, want, 2.0 * n * sizeof(double));
}

const bool registered = [] {
  benchmark::RegisterBenchmark("W4.sum_contig/strided", sum_contig<0>);
  benchmark::RegisterBenchmark("W4.sum_contig/kokkos_parallel_reduce", sum_contig<1>);
  benchmark::RegisterBenchmark("W4.sum_transposed/strided", sum_transposed<0>);
  benchmark::RegisterBenchmark("W4.sum_transposed/kokkos_parallel_reduce", sum_transposed<1>);
  benchmark::RegisterBenchmark("W4.rowsum/strided", axis_sum<1, false>);
  benchmark::RegisterBenchmark("W4.rowsum/plain_loop", axis_sum<1, true>);
  benchmark::RegisterBenchmark("W4.colsum/strided", axis_sum<0, false>);
  benchmark::RegisterBenchmark("W4.colsum/plain_loop", axis_sum<0, true>);
  for (const auto& [rows, axis] :
       std::vector<std::pair<std::size_t, int>>{{8, 1},
                                                {64, 1},
                                                {512, 1},
                                                {std::size_t(1) << 18, 1},
                                                {std::size_t(1) << 21, 1},
                                                {std::size_t(1) << 21, 0},
                                                {std::size_t(1) << 18, 0},
                                                {std::size_t(1) << 15, 0}}) {
    const std::size_t cols = Square::n * Square::n / rows;
    const std::string name = std::string("W4.shapes/") + (axis == 1 ? "rowsum_" : "colsum_") +
                             std::to_string(rows) + "x" + std::to_string(cols) + "/strided";
    benchmark::RegisterBenchmark(name.c_str(), axis_sum_shape, rows, axis);
  }
  benchmark::RegisterBenchmark("W6.dot_f32/strided", dot_f32<0>);
  benchmark::RegisterBenchmark("W6.dot_f32/kokkos_parallel_reduce", dot_f32<1>);
  benchmark::RegisterBenchmark("W6.dot_strided/strided", dot_strided<0>);
  benchmark::RegisterBenchmark("W6.dot_strided/kokkos_parallel_reduce", dot_strided<1>);
#if defined(STRIDED_BENCH_HAVE_KOKKOSKERNELS)
  benchmark::RegisterBenchmark("W4.sum_contig/kokkosblas_sum", sum_contig<2>);
  benchmark::RegisterBenchmark("W6.dot_f32/kokkosblas_dot_f32acc", dot_f32<2>);
  benchmark::RegisterBenchmark("W6.dot_strided/kokkosblas_dot", dot_strided<2>);
#endif
  return true;
}();

}  // namespace
