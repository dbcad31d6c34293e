#ifndef STRIDED_REPORT_PRINT_HPP
#define STRIDED_REPORT_PRINT_HPP

// The report's output on stdout: the limits and the workload table (table.cpp), the JSON lines
// (json.cpp) and the closing summary (summary.cpp).
#include <cstddef>
#include <string>
#include <vector>

#include "determinism.hpp"
#include "results.hpp"

namespace strided_report {

/// "21.04 ms", "96.1 ns": a duration in a readable unit.
std::string format_time(double seconds);

/// The limits used (the best of the measurements before and after the workloads) and both runs.
void print_limits(const Limits& before, const Limits& after, std::size_t array_bytes,
                  const std::vector<WorkloadResult>& results);

/// One line per measured variant: median, GB/s, fraction of the limit, speed-up of Strided over
/// the peer, and for Strided's row the verdict on each target.
void print_table(const std::vector<WorkloadResult>& results, const Limits& limits);

/// The workloads' notes (T: sizes, MiB and GEMM shapes), after the table.
void print_notes(const std::vector<WorkloadResult>& results);

/// The plan Strided chose for each workload (--explain).
void print_plans(const std::vector<WorkloadResult>& results);

/// One JSON object per line per measured row, limits included (--json); `algorithm` is the
/// --algorithm of the run.
void print_json(const std::vector<WorkloadResult>& results, const Limits& limits, int threads,
                const std::string& algorithm);

/// Which workloads meet their targets, which results are wrong, whether sums are reproducible.
/// `determinism` is null when --only left it out.
void print_summary(const std::vector<WorkloadResult>& results, const Limits& limits, int threads,
                   bool quick, const DeterminismReport* determinism);

}  // namespace strided_report

#endif
