#include "limits.hpp"

#include <Kokkos_Core.hpp>
#include <string>

#include "stream_kernels.hpp"

namespace strided_report {

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
  return limits;
}

}  // namespace strided_report
