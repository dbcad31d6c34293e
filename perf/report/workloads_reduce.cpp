// W4 (sums: contiguous, transposed view, row sums, column sums) and W6 (f32 dot accumulated in
// f64, dot of stride-2 views): Strided's reductions beside Kokkos::parallel_reduce, plain loops
// and, when built with Kokkos Kernels, KokkosBlas sum and dot. X1: the exact tier's sum and dot
// beside the fixed-fold ones.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#if defined(STRIDED_REPORT_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_sum.hpp>
#endif

#include "data.hpp"
#include "workloads.hpp"

namespace strided_report {

namespace {

using Vec = Kokkos::View<double*, Kokkos::HostSpace>;

/// Times a reduction `run() -> value` and checks the value of the last call exactly.
template <class Run>
void sum_variant(Bench& bench, const std::string& name, double bytes, double want, Run&& run) {
  double got = 0;
  bench.measure(
      name, bytes, [&] { got = run(); }, [&] { return got == want; });
}

/// A contiguous vector of 2^k doubles holding the pattern.
Vec pattern_vector(std::size_t count) {
  Vec v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "report::vector"), count);
  Kokkos::parallel_for(
      "report::fill", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(std::size_t i) { v(i) = pattern(i); });
  Kokkos::fence();
  return v;
}

// ---- W4 ----------------------------------------------------------------------------------------

void run_sum_contig(Bench& bench) {
  const std::size_t n = std::size_t(1) << bench.sizes().sum_log2;
  const Vec a = pattern_vector(n);
  const double want = pattern_sum(n), bytes = n * sizeof(double);
  bench.explain([&] { return strided::explain(strided::plan(strided::view(a))); });
  sum_variant(bench, "strided", bytes, want, [&] { return strided::sum(strided::view(a)); });
  sum_variant(bench, "kokkos_parallel_reduce", bytes, want, [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += a(i); }, s);
    return s;
  });
#if defined(STRIDED_REPORT_HAVE_KOKKOSKERNELS)
  sum_variant(bench, "kokkosblas_sum", bytes, want, [&] { return KokkosBlas::sum(a); });
#endif
}

void run_sum_transposed(Bench& bench) {
  const std::size_t n = bench.sizes().square;
  const Array a = make_pattern_array({n, n});
  const double want = pattern_sum(n * n), bytes = n * n * sizeof(double);
  const auto at = a.view().transpose();
  bench.explain([&] { return strided::explain(strided::plan(at)); });
  sum_variant(bench, "strided", bytes, want, [&] { return strided::sum(at); });
  // The peer walks the transposed view in its own row-major order: down A's columns.
  const double* pa = a.data();
  sum_variant(bench, "kokkos_parallel_reduce", bytes, want, [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(std::size_t j, double& acc) {
          for (std::size_t i = 0; i < n; ++i) acc += pa[i * n + j];
        },
        s);
    return s;
  });
}

/// Sums over axis 1 (row sums) or axis 0 (column sums) of an n x n row-major matrix; every
/// output is checked against a serial sum (exact, whatever the order).
void run_axis_sum(Bench& bench, std::size_t axis) {
  const std::size_t n = bench.sizes().square;
  const Array a = make_pattern_array({n, n});
  Array out = Array::row_major({n});
  const double* pa = a.data();
  double* po = out.data();
  std::vector<double> want(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) want[axis == 1 ? i : j] += pa[i * n + j];

  const double bytes = (n * n + n) * sizeof(double);
  auto variant = [&](const std::string& name, auto&& run) {
    poison(po, n);
    bench.measure(name, bytes, run, [&] { return std::equal(want.begin(), want.end(), po); });
  };
  bench.explain([&] {
    return "source " + strided::explain(strided::plan(a.view())) +
           "\n  (an axis reduction plans the kept and the reduced axes separately)";
  });
  variant("strided", [&] { strided::sum_axes(out.view(), a.view(), {axis}); });
  if (axis == 1) {
    variant("plain_loop", [&] {
      Kokkos::parallel_for(
          "peer::rowsum", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            double s = 0;
            for (std::size_t j = 0; j < n; ++j) s += pa[i * n + j];
            po[i] = s;
          });
    });
  } else {
    // Column sums as one would write them by hand: 64 columns per work item, swept row by row,
    // which vectorizes and reads whole cache lines.
    variant("plain_loop", [&] {
      Kokkos::parallel_for(
          "peer::colsum", Kokkos::RangePolicy<Exec>(0, n / 64), KOKKOS_LAMBDA(std::size_t b) {
            double s[64] = {};
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t j = 0; j < 64; ++j) s[j] += pa[i * n + b * 64 + j];
            for (std::size_t j = 0; j < 64; ++j) po[b * 64 + j] = s[j];
          });
    });
  }
}

// ---- W6 ----------------------------------------------------------------------------------------

void run_dot_f32(Bench& bench) {
  const std::size_t n = std::size_t(1) << bench.sizes().vector_log2;
  using Floats = Kokkos::View<float*, Kokkos::HostSpace>;
  const Floats x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n);
  const Floats y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n);
  Kokkos::parallel_for(
      "report::fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
        x(i) = static_cast<float>(i % 64) * 0.5f;
        y(i) = static_cast<float>(i % 32);
      });
  Kokkos::fence();
  // Products are multiples of 1/2 below 2^10: exact in f64 in any order.
  double period = 0;
  for (std::size_t i = 0; i < 64; ++i) period += double(i % 64) * 0.5 * double(i % 32);
  const double want = period * double(n / 64), bytes = 2.0 * n * sizeof(float);

  bench.explain(
      [&] { return strided::explain(strided::plan(strided::view(x), strided::view(y))); });
  sum_variant(bench, "strided", bytes, want,
              [&] { return strided::dot<double>(strided::view(x), strided::view(y)); });
  sum_variant(bench, "kokkos_parallel_reduce", bytes, want, [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += double(x(i)) * double(y(i)); }, s);
    return s;
  });
#if defined(STRIDED_REPORT_HAVE_KOKKOSKERNELS)
  // KokkosBlas accumulates in f32: faster to write, less accurate, so it is checked loosely.
  double got = 0;
  bench.measure(
      "kokkosblas_dot_f32acc", bytes, [&] { got = KokkosBlas::dot(x, y); },
      [&] { return std::abs(got - want) <= 1e-3 * want; });
#endif
}

void run_dot_strided(Bench& bench) {
  const std::size_t n = std::size_t(1) << (bench.sizes().vector_log2 - 1);
  // Small values (multiples of 1/2 below 512): products and their sums stay exact.
  const Vec a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "a"), 2 * n);
  Kokkos::parallel_for(
      "report::fill", Kokkos::RangePolicy<Exec>(0, 2 * n),
      KOKKOS_LAMBDA(std::size_t i) { a(i) = static_cast<double>(i % 1024) * 0.5; });
  Kokkos::fence();
  using Strided1 = Kokkos::View<const double*, Kokkos::LayoutStride, Kokkos::HostSpace>;
  const Strided1 even(a.data(), Kokkos::LayoutStride(n, 2));
  const Strided1 odd(a.data() + 1, Kokkos::LayoutStride(n, 2));
  double want = 0;
  for (std::size_t i = 0; i < n; ++i) want += a(2 * i) * a(2 * i + 1);
  // Logical bytes: the two views' elements, read once (every fetched cache line is used).
  const double bytes = 2.0 * n * sizeof(double);

  bench.explain(
      [&] { return strided::explain(strided::plan(strided::view(even), strided::view(odd))); });
  sum_variant(bench, "strided", bytes, want,
              [&] { return strided::dot(strided::view(even), strided::view(odd)); });
  sum_variant(bench, "kokkos_parallel_reduce", bytes, want, [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "peer::parallel_reduce", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += even(i) * odd(i); }, s);
    return s;
  });
#if defined(STRIDED_REPORT_HAVE_KOKKOSKERNELS)
  sum_variant(bench, "kokkosblas_dot", bytes, want, [&] { return KokkosBlas::dot(even, odd); });
#endif
}

// ---- X1: the exact tier ------------------------------------------------------------------------

/// The exact sum and dot beside the fixed-fold ones on the same data (named strided_*: a
/// reference, not a peer): what exactness costs.
void run_exact_sum(Bench& bench) {
  const std::size_t n = std::size_t(1) << bench.sizes().sum_log2;
  const Vec a = pattern_vector(n);
  const double want = pattern_sum(n), bytes = n * sizeof(double);
  sum_variant(bench, "strided", bytes, want,
              [&] { return strided::sum(strided::view(a), strided::exact); });
  sum_variant(bench, "strided_fixed_fold", bytes, want,
              [&] { return strided::sum(strided::view(a)); });
}

void run_exact_dot(Bench& bench) {
  const std::size_t n = std::size_t(1) << bench.sizes().vector_log2;
  const Vec a = pattern_vector(n);
  const Vec b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
  Kokkos::parallel_for(
      "report::fill", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(std::size_t i) { b(i) = pattern(i, 1) - 1e5; });
  Kokkos::fence();
  // The exact value: products of quarters are sixteenths of integers, summed in 128 bits.
  __extension__ typedef __int128 Wide;  // GCC and Clang, on 64-bit targets
  Wide sixteenths = 0;
  for (std::size_t i = 0; i < n; ++i)
    sixteenths += static_cast<Wide>(std::llround(a(i) * 4)) * std::llround(b(i) * 4);
  const double want = static_cast<double>(sixteenths) / 16, bytes = 2.0 * n * sizeof(double);
  sum_variant(bench, "strided", bytes, want,
              [&] { return strided::dot(strided::view(a), strided::view(b), strided::exact); });
  double got = 0;
  bench.measure(
      "strided_fixed_fold", bytes, [&] { got = strided::dot(strided::view(a), strided::view(b)); },
      [&] { return std::abs(got - want) <= 1e-12 * std::abs(want); });
}

}  // namespace

std::vector<Workload> reduce_workloads() {
  // The reproducible sum may cost at most 5% over a plain parallel_reduce (PERFORMANCE.md).
  return {
      {"W4.sum_contig",
       LimitKind::Read,
       {Target::of_limit(0.95), Target::time_ratio(1.05, "kokkos_parallel_reduce")},
       run_sum_contig},
      {"W4.sum_transposed", LimitKind::Read, {Target::of_limit(0.95)}, run_sum_transposed},
      {"W4.rowsum",
       LimitKind::Read,
       {Target::of_limit(0.95)},
       [](Bench& bench) { run_axis_sum(bench, 1); }},
      {"W4.colsum",
       LimitKind::Read,
       {Target::of_limit(0.90)},
       [](Bench& bench) { run_axis_sum(bench, 0); }},
      {"W6.dot_f32", LimitKind::Read, {Target::of_limit(0.95)}, run_dot_f32},
      {"W6.dot_strided", LimitKind::Read, {Target::of_limit(0.55)}, run_dot_strided},
      {"X1.exact_sum", LimitKind::Read, {Target::of_limit(0.60)}, run_exact_sum},
      {"X1.exact_dot", LimitKind::Read, {Target::of_limit(0.60)}, run_exact_dot},
  };
}

}  // namespace strided_report
