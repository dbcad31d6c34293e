// The D.* rows: W1.perm3210, W3.transpose, W4.sum_contig, W4.rowsum, W4.colsum and the exact
// sum (X1.exact_sum) on Kokkos::DefaultExecutionSpace with views in its memory space. On a CUDA or
// HIP build that is the GPU, where Strided runs its device algorithm (one tile per team) under
// --algorithm auto; on a host build it is the host space, where a second Strided row forces the
// device algorithm to show what the GPU path costs on the CPU. Peers on the same space:
// Kokkos::deep_copy between layouts, an MDRange copy, and parallel_reduce (over a range, or one
// team per row). No PERFORMANCE.md targets: the rows are informational, shown as fractions of the
// copy and read limits of the space they run on (the host's, or the device's dcopy and dread of the
// same run).
//
// Every KOKKOS_LAMBDA is in a free function (nvcc's rules for extended lambdas); the timed
// lambdas only call those functions and fence the instance.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "data.hpp"
#include "workloads.hpp"

namespace strided_report {

namespace {

using DExec = Kokkos::DefaultExecutionSpace;
using DMemory = DExec::memory_space;
template <class Data, class Layout = Kokkos::LayoutRight>
using DView = Kokkos::View<Data, Layout, DMemory>;
template <class Data, class Layout>
using DUnmanaged = Kokkos::View<Data, Layout, DMemory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using MD = std::int64_t;  // MDRangePolicy's index type
template <int Rank>
using RightMDRange =
    Kokkos::MDRangePolicy<DExec,
                          Kokkos::Rank<Rank, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;

/// A host build: the D.* rows run where the limits were measured.
constexpr bool on_host = std::is_same_v<DExec, Kokkos::DefaultHostExecutionSpace>;

// ---- kernels on the default execution space (free functions: nvcc) ----------------------------

/// p[i] = pattern(i) for i < n, in the default space's memory.
void fill_pattern(const DExec& exec, double* p, std::size_t n) {
  Kokkos::parallel_for(
      "report::device_fill", Kokkos::RangePolicy<DExec>(exec, 0, n),
      KOKKOS_LAMBDA(std::size_t i) { p[i] = pattern(i); });
  exec.fence();
}

/// Fills an output with -1 (as poison() does on the host) before each variant.
void poison_device(const DExec& exec, double* p, std::size_t n) {
  Kokkos::parallel_for(
      "report::device_poison", Kokkos::RangePolicy<DExec>(exec, 0, n),
      KOKKOS_LAMBDA(std::size_t i) { p[i] = -1; });
  exec.fence();
}

void mdrange_copy(const DExec& exec, const DView<double****>& dst,
                  const DUnmanaged<const double****, Kokkos::LayoutStride>& src) {
  const MD m0 = static_cast<MD>(dst.extent(0)), m1 = static_cast<MD>(dst.extent(1)),
           m2 = static_cast<MD>(dst.extent(2)), m3 = static_cast<MD>(dst.extent(3));
  Kokkos::parallel_for(
      "peer::mdrange", RightMDRange<4>(exec, {0, 0, 0, 0}, {m0, m1, m2, m3}),
      KOKKOS_LAMBDA(MD i, MD j, MD k, MD l) { dst(i, j, k, l) = src(i, j, k, l); });
}

void mdrange_copy(const DExec& exec, const DView<double**>& dst,
                  const DUnmanaged<const double**, Kokkos::LayoutLeft>& src) {
  const MD m0 = static_cast<MD>(dst.extent(0)), m1 = static_cast<MD>(dst.extent(1));
  Kokkos::parallel_for(
      "peer::mdrange", RightMDRange<2>(exec, {0, 0}, {m0, m1}),
      KOKKOS_LAMBDA(MD i, MD j) { dst(i, j) = src(i, j); });
}

double reduce_sum(const DExec& exec, const DView<double*>& v) {
  double s = 0;
  Kokkos::parallel_reduce(
      "peer::parallel_reduce", Kokkos::RangePolicy<DExec>(exec, 0, v.extent(0)),
      KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += v(i); }, s);
  return s;
}

/// Row sums as Kokkos suggests them: one team per row, a team reduction over its columns.
void team_rowsums(const DExec& exec, const DView<double*>& out, const DView<double**>& a) {
  using Team = Kokkos::TeamPolicy<DExec>;
  const std::size_t n = a.extent(1);
  Kokkos::parallel_for(
      "peer::team_reduce", Team(exec, static_cast<int>(a.extent(0)), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Team::member_type& team) {
        const std::size_t i = static_cast<std::size_t>(team.league_rank());
        double s = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n), [&](std::size_t j, double& acc) { acc += a(i, j); },
            s);
        Kokkos::single(Kokkos::PerTeam(team), [&] { out(i) = s; });
      });
}

/// Column sums as a plain Kokkos loop: one thread per column, down its rows (coalesced).
void range_colsums(const DExec& exec, const DView<double*>& out, const DView<double**>& a) {
  const std::size_t rows = a.extent(0);
  Kokkos::parallel_for(
      "peer::range_columns", Kokkos::RangePolicy<DExec>(exec, 0, a.extent(1)),
      KOKKOS_LAMBDA(std::size_t j) {
        double s = 0;
        for (std::size_t i = 0; i < rows; ++i) s += a(i, j);
        out(j) = s;
      });
}

// ---- variants
// ------------------------------------------------------------------------------------

/// Strided's rows: "strided" under the run's --algorithm (on a GPU build, auto is the device
/// algorithm) and, on a host build, "strided_device_algorithm" with Algorithm::Device forced.
/// `run(options)` makes one call with those options.
template <class Variant, class Run>
void strided_rows(Variant&& variant, Run&& run) {
  const strided::Options defaults = strided::default_options();
  variant("strided", [&] { return run(defaults); });
  if constexpr (on_host) {
    strided::Options device = defaults;
    device.algorithm = strided::Algorithm::Device;
    variant("strided_device_algorithm", [&] { return run(device); });
  }
}

/// The value a permuted view `src` of a pattern array (flat element n holds pattern(n)) has at
/// `index`: found from its strides, without reading device memory.
template <class Src>
double permuted_pattern(const Src& src, const std::vector<std::size_t>& index) {
  std::ptrdiff_t offset = 0;
  for (std::size_t k = 0; k < index.size(); ++k)
    offset += static_cast<std::ptrdiff_t>(index[k]) * src.stride(k);
  return pattern(static_cast<std::size_t>(offset));
}

/// One variant of a copy into `dst`: poisons it, times `run()` with a fence on `exec`, then copies
/// the output to the host (untimed) and checks 2000 random elements against the source.
template <class Dst, class Src, class Run>
void copy_variant(Bench& bench, const DExec& exec, const std::string& name, const Dst& dst,
                  const Src& src, Run&& run) {
  poison_device(exec, dst.data(), dst.size());
  bench.measure(
      name, 2.0 * static_cast<double>(dst.size()) * sizeof(double),
      [&] {
        run();
        exec.fence();
      },
      [&] {
        const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst);
        return check_sample(strided::view(host), [&](const std::vector<std::size_t>& i) {
          return permuted_pattern(src, i);
        });
      });
}

/// Times a reduction `run() -> value` (with a fence on `exec`) and checks its value exactly.
template <class Run>
void sum_variant(Bench& bench, const DExec& exec, const std::string& name, double bytes,
                 double want, Run&& run) {
  double got = 0;
  bench.measure(
      name, bytes,
      [&] {
        got = run();
        exec.fence();
      },
      [&] { return got == want; });
}

// ---- D.W1.perm3210 and D.W3.transpose
// ------------------------------------------------------------

void run_w1(Bench& bench) {
  const std::size_t n = bench.sizes().w1_extent;
  const DExec exec;
  const DView<double****> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W1.a"), n, n, n, n);
  const DView<double****> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W1.b"), n, n, n, n);
  fill_pattern(exec, a.data(), a.size());
  const auto src = strided::view(a).permute({3, 2, 1, 0});
  const auto dst = strided::view(b);
  const auto kept = strided::make_plan(dst, src);
  bench.explain([&] { return strided::explain(kept); });
  auto variant = [&](const std::string& name, auto&& run) {
    copy_variant(bench, exec, name, b, src, run);
  };
  strided_rows(variant, [&](const strided::Options& o) { strided::copy_into(exec, dst, src, o); });
  variant("strided_kept_plan", [&] { strided::copy_into(exec, kept, dst, src); });
  // (3,2,1,0) of a row-major tensor is the same memory read LayoutLeft.
  const DUnmanaged<const double****, Kokkos::LayoutLeft> left(a.data(), n, n, n, n);
  variant("kokkos_deep_copy", [&] { Kokkos::deep_copy(exec, b, left); });
  const DUnmanaged<const double****, Kokkos::LayoutStride> strided_src(
      a.data(),
      Kokkos::LayoutStride(n, src.stride(0), n, src.stride(1), n, src.stride(2), n, src.stride(3)));
  variant("kokkos_mdrange", [&] { mdrange_copy(exec, b, strided_src); });
}

void run_w3(Bench& bench) {
  const std::size_t n = bench.sizes().w3_extent;
  const DExec exec;
  const DView<double**> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W3.a"), n, n);
  const DView<double**> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W3.b"), n, n);
  fill_pattern(exec, a.data(), a.size());
  const auto src = strided::view(a).transpose();
  const auto dst = strided::view(b);
  const auto kept = strided::make_plan(dst, src);
  bench.explain([&] { return strided::explain(kept); });
  auto variant = [&](const std::string& name, auto&& run) {
    copy_variant(bench, exec, name, b, src, run);
  };
  strided_rows(variant, [&](const strided::Options& o) { strided::copy_into(exec, dst, src, o); });
  variant("strided_kept_plan", [&] { strided::copy_into(exec, kept, dst, src); });
  const DUnmanaged<const double**, Kokkos::LayoutLeft> at(a.data(), n, n);  // A^T, same memory
  variant("kokkos_deep_copy", [&] { Kokkos::deep_copy(exec, b, at); });
  variant("kokkos_mdrange", [&] { mdrange_copy(exec, b, at); });
}

// ---- D.W4.sum_contig, D.W4.rowsum and D.W4.colsum
// -------------------------------------------------------------

/// A full sum of 2^sum_log2 pattern values: the fixed fold (beside Kokkos' parallel_reduce) or,
/// with `exact`, the exact tier (beside the fixed fold of the same data: what exactness costs).
void run_full_sum(Bench& bench, bool exact) {
  const std::size_t n = std::size_t(1) << bench.sizes().sum_log2;
  const DExec exec;
  const DView<double*> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.sum.a"), n);
  fill_pattern(exec, a.data(), n);
  const double want = pattern_sum(n), bytes = static_cast<double>(n) * sizeof(double);
  const auto av = strided::view(a);
  auto variant = [&](const std::string& name, auto&& run) {
    sum_variant(bench, exec, name, bytes, want, run);
  };
  if (exact) {
    strided_rows(variant, [&](const strided::Options& o) {
      return strided::sum(exec, av, strided::exact, o);
    });
    variant("strided_fixed_fold", [&] { return strided::sum(exec, av); });
    return;
  }
  const auto kept = strided::make_plan(av);
  bench.explain([&] { return strided::explain(kept); });
  strided_rows(variant, [&](const strided::Options& o) { return strided::sum(exec, av, o); });
  variant("strided_kept_plan", [&] { return strided::sum(exec, kept, av); });
  variant("kokkos_parallel_reduce", [&] { return reduce_sum(exec, a); });
}

void run_sum_contig(Bench& bench) {
  run_full_sum(bench, false);
}

/// Row sums (axis 1) or column sums (axis 0) of an n x n row-major pattern array.
void run_axis_sum(Bench& bench, int axis) {
  const std::size_t n = bench.sizes().square;
  const DExec exec;
  const DView<double**> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W4.a"), n, n);
  const DView<double*> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D.W4.sums"), n);
  fill_pattern(exec, a.data(), a.size());
  // Row i holds pattern(i n) ... pattern(i n + n - 1): its sum is a difference of exact sums.
  // A column's sum is exact in any order too (multiples of 1/4 far below 2^53).
  std::vector<double> want(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (axis == 1) {
      want[i] = pattern_sum((i + 1) * n) - pattern_sum(i * n);
    } else {
      for (std::size_t j = 0; j < n; ++j) want[j] += pattern(i * n + j);
    }
  }
  const auto av = strided::view(a);
  const auto outv = strided::view(out);
  const double bytes = static_cast<double>(n * n + n) * sizeof(double);
  auto variant = [&](const std::string& name, auto&& run) {
    poison_device(exec, out.data(), n);
    bench.measure(
        name, bytes,
        [&] {
          run();
          exec.fence();
        },
        [&] {
          const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
          for (std::size_t i = 0; i < n; ++i)
            if (host(i) != want[i]) return false;
          return true;
        });
  };
  const auto kept = strided::make_axes_plan(outv, av, {axis});
  bench.explain([&] { return strided::explain(kept); });
  strided_rows(variant,
               [&](const strided::Options& o) { strided::sum_axes(exec, outv, av, {axis}, o); });
  variant("strided_kept_plan", [&] { strided::sum_axes(exec, kept, outv, av); });
  if (axis == 1) variant("kokkos_team_reduce", [&] { team_rowsums(exec, out, a); });
  if (axis == 0) variant("kokkos_range_columns", [&] { range_colsums(exec, out, a); });
}

void run_rowsum(Bench& bench) {
  run_axis_sum(bench, 1);
}
void run_colsum(Bench& bench) {
  run_axis_sum(bench, 0);
}

// ---- D.X1.exact_sum
// -------------------------------------------------------------------------------

void run_exact_sum(Bench& bench) {
  run_full_sum(bench, true);
}

}  // namespace

std::vector<Workload> device_workloads() {
  const LimitKind copy = on_host ? LimitKind::Copy : LimitKind::DeviceCopy;
  const LimitKind read = on_host ? LimitKind::Read : LimitKind::DeviceRead;
  // No targets: PERFORMANCE.md sets none for these rows, so the summary does not count them.
  return {
      {"D.W1.perm3210", copy, {}, run_w1},           {"D.W3.transpose", copy, {}, run_w3},
      {"D.W4.sum_contig", read, {}, run_sum_contig}, {"D.W4.rowsum", read, {}, run_rowsum},
      {"D.W4.colsum", read, {}, run_colsum},         {"D.X1.exact_sum", read, {}, run_exact_sum}};
}

}  // namespace strided_report
