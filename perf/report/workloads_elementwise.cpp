// W5 (C = A + B^T, c = a * b) and W7 (B = (A + A^T) / 2): Strided's zip_map_into and
// symmetrize_into beside a plain loop in the destination's order and a plain MDRange loop.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "workloads.hpp"

namespace strided_report {

namespace {

using MD = std::int64_t;  // MDRangePolicy's index type

/// Runs one variant writing `dst`: poisons it, times `run`, checks a sample with `expected`.
template <class Run, class Expected>
void map_variant(Bench& bench, const std::string& name, double bytes, Array& dst, Run&& run,
                 const Expected& expected) {
  poison(dst.data(), dst.size());
  bench.measure(name, bytes, run, [&] { return check_sample(dst.view(), expected); });
}

void run_add_transposed(Bench& bench) {
  const std::size_t n = bench.sizes().square;
  const Array a = make_pattern_array({n, n}), b = make_pattern_array({n, n}, 1);
  Array c = Array::row_major({n, n});
  const double *pa = a.data(), *pb = b.data();
  double* pc = c.data();
  const double bytes = 3.0 * n * n * sizeof(double);
  const auto expected = [&](const std::vector<std::size_t>& i) {
    return pa[i[0] * n + i[1]] + pb[i[1] * n + i[0]];
  };
  const auto bt = b.view().transpose();
  const auto plus = [](double x, double y) { return x + y; };
  bench.explain([&] { return strided::explain(strided::plan(c.view(), a.view(), bt)); });
  map_variant(
      bench, "strided", bytes, c, [&] { strided::zip_map_into(c.view(), plus, a.view(), bt); },
      expected);
  map_variant(
      bench, "plain_loop", bytes, c,
      [&] {
        Kokkos::parallel_for(
            "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
              for (std::size_t j = 0; j < n; ++j) pc[i * n + j] = pa[i * n + j] + pb[j * n + i];
            });
      },
      expected);
  const MD m = static_cast<MD>(n);
  map_variant(
      bench, "kokkos_mdrange", bytes, c,
      [&] {
        Kokkos::parallel_for(
            "peer::mdrange", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {m, m}),
            KOKKOS_LAMBDA(MD i, MD j) { pc[i * m + j] = pa[i * m + j] + pb[j * m + i]; });
      },
      expected);
}

void run_mul_contig(Bench& bench) {
  const std::size_t n = std::size_t(1) << bench.sizes().vector_log2;
  const Array a = make_pattern_array({n}), b = make_pattern_array({n}, 1);
  Array c = Array::row_major({n});
  const double *pa = a.data(), *pb = b.data();
  double* pc = c.data();
  const double bytes = 3.0 * n * sizeof(double);
  const auto expected = [&](const std::vector<std::size_t>& i) { return pa[i[0]] * pb[i[0]]; };
  const auto times = [](double x, double y) { return x * y; };
  bench.explain([&] { return strided::explain(strided::plan(c.view(), a.view(), b.view())); });
  map_variant(
      bench, "strided", bytes, c,
      [&] { strided::zip_map_into(c.view(), times, a.view(), b.view()); }, expected);
  map_variant(
      bench, "plain_loop", bytes, c,
      [&] {
        Kokkos::parallel_for(
            "peer::loop", Kokkos::RangePolicy<Exec>(0, n),
            KOKKOS_LAMBDA(std::size_t i) { pc[i] = pa[i] * pb[i]; });
      },
      expected);
}

void run_symmetrize(Bench& bench) {
  const std::size_t n = bench.sizes().square;
  const Array a = make_pattern_array({n, n});
  Array c = Array::row_major({n, n});
  const double* pa = a.data();
  double* pc = c.data();
  // A is read once (each element serves two outputs), C written once.
  const double bytes = 2.0 * n * n * sizeof(double);
  const auto expected = [&](const std::vector<std::size_t>& i) {
    return (pa[i[0] * n + i[1]] + pa[i[1] * n + i[0]]) / 2;
  };
  // symmetrize_into plans nothing: it pairs tiles (i, j) and (j, i) itself. The plan shown is
  // the equivalent map's, said so, so that no one reads W7's time against it.
  bench.explain([&] {
    return "symmetrize_into runs its own kernel (tiles (i, j) and (j, i) in pairs, each element of"
           " a read once); the equivalent map c = (a + a^T) / 2 would run\n" +
           strided::explain(strided::plan(c.view(), a.view(), a.view().transpose()));
  });
  map_variant(
      bench, "strided", bytes, c, [&] { strided::symmetrize_into(c.view(), a.view()); }, expected);
  map_variant(
      bench, "plain_loop", bytes, c,
      [&] {
        Kokkos::parallel_for(
            "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
              for (std::size_t j = 0; j < n; ++j)
                pc[i * n + j] = (pa[i * n + j] + pa[j * n + i]) / 2;
            });
      },
      expected);
  const MD m = static_cast<MD>(n);
  map_variant(
      bench, "kokkos_mdrange", bytes, c,
      [&] {
        Kokkos::parallel_for(
            "peer::mdrange", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {m, m}),
            KOKKOS_LAMBDA(MD i, MD j) { pc[i * m + j] = (pa[i * m + j] + pa[j * m + i]) / 2; });
      },
      expected);
}

}  // namespace

std::vector<Workload> elementwise_workloads() {
  return {
      {"W5.add_transposed", LimitKind::Add, {Target::of_limit(0.85)}, run_add_transposed},
      {"W5.mul_contig", LimitKind::Add, {Target::of_limit(0.90)}, run_mul_contig},
      {"W7.symmetrize", LimitKind::Copy, {Target::of_limit(0.75)}, run_symmetrize},
  };
}

}  // namespace strided_report
