#ifndef STRIDED_REPORT_LIMITS_HPP
#define STRIDED_REPORT_LIMITS_HPP

// The machine's bandwidth limits, measured in the report's own run with the STREAM-like kernels
// that strided-bench uses too (stream_kernels.hpp).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>

#include "progress.hpp"
#include "results.hpp"
#include "timing.hpp"

namespace strided_report {

/// Each array of the device's copy and read: 2^25 doubles.
inline constexpr std::size_t device_limit_bytes = std::size_t(1) << 28;

/// The three host arrays of the STREAM kernels, a whole number of the kernels' blocks of about
/// `bytes` each, initialized (every page touched before the first timing).
struct StreamArrays {
  explicit StreamArrays(std::size_t bytes);
  Kokkos::View<double*, Kokkos::HostSpace> a, b, c;
  std::size_t n() const { return a.extent(0); }
};

/// Copy, copy with non-temporal stores, read, a+b and a+b with non-temporal stores over
/// `arrays`. When Kokkos::DefaultExecutionSpace is not the host's, also its copy (parallel_for)
/// and read (parallel_reduce sum) over arrays of device_limit_bytes in its memory space,
/// allocated for the measurement and freed after it.
Limits measure_limits(const StreamArrays& arrays, const Repetitions& reps, Progress& progress);

/// The host kernels of `kind` over `arrays` (copy: both store variants; a+b: both; read),
/// their samples added to `into`'s rows; nothing for other kinds. A workload's own limit takes
/// one call per round; the progress line shows `label` and the kernel's name.
void measure_host_limit(LimitKind kind, const StreamArrays& arrays, const Repetitions& reps,
                        Progress& progress, const std::string& label, Limits& into);

}  // namespace strided_report

#endif
