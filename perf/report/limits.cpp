#include "limits.hpp"

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "stream_kernels.hpp"

namespace strided_report {

namespace {

using DExec = Kokkos::DefaultExecutionSpace;
using DView = Kokkos::View<double*, DExec::memory_space>;

// KOKKOS_LAMBDA in free functions: nvcc's rules for extended lambdas.
void device_copy(const DView& a, const DView& c) {
  Kokkos::parallel_for(
      "stream::device_copy", Kokkos::RangePolicy<DExec>(0, a.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { c(i) = a(i); });
  Kokkos::fence();
}

double device_read(const DView& a) {
  double s = 0;
  Kokkos::parallel_reduce(
      "stream::device_read", Kokkos::RangePolicy<DExec>(0, a.extent(0)),
      KOKKOS_LAMBDA(std::size_t i, double& acc) { acc += a(i); }, s);
  return s;  // a scalar result: parallel_reduce has waited for it
}

}  // namespace

Limits measure_limits(std::size_t bytes, const Repetitions& reps, Progress& progress) {
  // A whole number of blocks, as the non-temporal and read kernels require.
  const std::size_t n =
      bytes / sizeof(double) / strided_perf::stream_block * strided_perf::stream_block;
  // Initialized views: every page is touched before the first timing.
  const Kokkos::View<double*, Kokkos::HostSpace> va("stream::a", n), vb("stream::b", n),
      vc("stream::c", n);
  const double *a = va.data(), *b = vb.data();
  double* c = vc.data();
  const double array = static_cast<double>(n * sizeof(double));
  auto row = [&](const char* name, double arrays, auto&& kernel) {
    progress.show(std::string("[limits] ") + name + " ...");
    return Row{name, median_seconds(reps, kernel), arrays * array, true};
  };
  Limits limits;
  limits.copy = row("copy", 2, [&] { strided_perf::stream_copy(a, c, n); });
  limits.copy_nt = row("copy_nt", 2, [&] { strided_perf::stream_copy_nt(a, c, n); });
  limits.read = row("read", 1, [&] { do_not_optimize(strided_perf::stream_read(a, n)); });
  limits.add = row("add", 3, [&] { strided_perf::stream_add(a, b, c, n); });
  limits.add_nt = row("add_nt", 3, [&] { strided_perf::stream_add_nt(a, b, c, n); });
  if constexpr (!std::is_same_v<DExec, Kokkos::DefaultHostExecutionSpace>) {
    // Initialized views (every page touched); the host arrays stay, the device has its own memory.
    const DView da("stream::device_a", device_limit_bytes / sizeof(double)),
        dc("stream::device_c", device_limit_bytes / sizeof(double));
    const double dbytes = static_cast<double>(device_limit_bytes);
    auto drow = [&](const char* name, double arrays, auto&& kernel) {
      progress.show(std::string("[limits] ") + name + " ...");
      return Row{name, median_seconds(reps, kernel), arrays * dbytes, true};
    };
    limits.device_copy = drow("dcopy", 2, [&] { device_copy(da, dc); });
    limits.device_read = drow("dread", 1, [&] { do_not_optimize(device_read(da)); });
  }
  return limits;
}

}  // namespace strided_report
