#ifndef STRIDED_REPORT_LIMITS_HPP
#define STRIDED_REPORT_LIMITS_HPP

// The machine's bandwidth limits, measured in the report's own run with the STREAM-like kernels
// that strided-bench uses too (stream_kernels.hpp).
#include <cstddef>

#include "progress.hpp"
#include "results.hpp"
#include "timing.hpp"

namespace strided_report {

/// Copy, copy with non-temporal stores, read, a+b and a+b with non-temporal stores over three
/// arrays of `bytes` each, allocated for the measurement and freed after it.
Limits measure_limits(std::size_t bytes, const Repetitions& reps, Progress& progress);

}  // namespace strided_report

#endif
