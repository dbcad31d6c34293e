#ifndef STRIDED_REPORT_LIMITS_HPP
#define STRIDED_REPORT_LIMITS_HPP

// The machine's bandwidth limits, measured in the report's own run with the STREAM-like kernels
// that strided-bench uses too (stream_kernels.hpp).
#include <cstddef>

#include "progress.hpp"
#include "results.hpp"
#include "timing.hpp"

namespace strided_report {

/// Each array of the device's copy and read: 2^25 doubles.
inline constexpr std::size_t device_limit_bytes = std::size_t(1) << 28;

/// Copy, copy with non-temporal stores, read, a+b and a+b with non-temporal stores over three
/// arrays of `bytes` each, allocated for the measurement and freed after it. When
/// Kokkos::DefaultExecutionSpace is not the host's, also its copy (parallel_for) and read
/// (parallel_reduce sum) over arrays of device_limit_bytes in its memory space.
Limits measure_limits(std::size_t bytes, const Repetitions& reps, Progress& progress);

}  // namespace strided_report

#endif
