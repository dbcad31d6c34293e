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

/// A whole number of blocks, as the non-temporal and read kernels require.
std::size_t stream_elements(std::size_t bytes) {
  return bytes / sizeof(double) / strided_perf::stream_block * strided_perf::stream_block;
}

}  // namespace

StreamArrays::StreamArrays(std::size_t bytes)
    : a("stream::a", stream_elements(bytes)),
      b("stream::b", stream_elements(bytes)),
      c("stream::c", stream_elements(bytes)) {}

void measure_host_limit(LimitKind kind, const StreamArrays& arrays, const Repetitions& reps,
                        Progress& progress, const std::string& label, Limits& into) {
  const std::size_t n = arrays.n();
  const double *a = arrays.a.data(), *b = arrays.b.data();
  double* c = arrays.c.data();
  const double array = static_cast<double>(n * sizeof(double));
  const auto time = [&](Row& row, const char* name, double moved, auto&& kernel) {
    progress.show(label + name + " ...");
    row.variant = name;
    row.bytes = moved * array;
    row.add_samples(timed_samples(reps, kernel));
  };
  if (kind == LimitKind::Copy) {
    time(into.copy, "copy", 2, [&] { strided_perf::stream_copy(a, c, n); });
    time(into.copy_nt, "copy_nt", 2, [&] { strided_perf::stream_copy_nt(a, c, n); });
  } else if (kind == LimitKind::Read) {
    time(into.read, "read", 1, [&] { do_not_optimize(strided_perf::stream_read(a, n)); });
  } else if (kind == LimitKind::Add) {
    time(into.add, "add", 3, [&] { strided_perf::stream_add(a, b, c, n); });
    time(into.add_nt, "add_nt", 3, [&] { strided_perf::stream_add_nt(a, b, c, n); });
  }
}

Limits measure_limits(const StreamArrays& arrays, const Repetitions& reps, Progress& progress) {
  Limits limits;
  for (LimitKind kind : {LimitKind::Copy, LimitKind::Read, LimitKind::Add})
    measure_host_limit(kind, arrays, reps, progress, "[limits] ", limits);
  if constexpr (!std::is_same_v<DExec, Kokkos::DefaultHostExecutionSpace>) {
    // Initialized views (every page touched); the host arrays stay, the device has its own memory.
    const DView da("stream::device_a", device_limit_bytes / sizeof(double)),
        dc("stream::device_c", device_limit_bytes / sizeof(double));
    const double dbytes = static_cast<double>(device_limit_bytes);
    auto drow = [&](const char* name, double moved, auto&& kernel) {
      progress.show(std::string("[limits] ") + name + " ...");
      return Row{name, median_seconds(reps, kernel), moved * dbytes, true};
    };
    limits.device_copy = drow("dcopy", 2, [&] { device_copy(da, dc); });
    limits.device_read = drow("dread", 1, [&] { do_not_optimize(device_read(da)); });
  }
  return limits;
}

}  // namespace strided_report
