#ifndef STRIDED_REPORT_DETERMINISM_HPP
#define STRIDED_REPORT_DETERMINISM_HPP

// The determinism contract, shown: one sum and one f32 dot accumulated in f64 over values whose
// rounding depends on the order of the additions, computed on Kokkos::Serial, on the default
// host space of this run, and in child processes at 1 and 2 threads (Kokkos starts once per
// process, so other thread counts need other processes). The bits must agree.
#include <cstdint>
#include <string>
#include <vector>

#include "progress.hpp"

namespace strided_report {

struct DeterminismReport {
  struct Line {
    std::string where;  ///< "Serial, in this process", "OpenMP 1 thread, child process"
    bool ran = false;   ///< false: the child could not be run or read
    std::uint64_t sum = 0, dot = 0;  ///< the results' bits
  };
  std::vector<Line> lines;
  std::uint64_t loop_sum = 0;  ///< a left-to-right loop over the same values, for contrast
  bool identical() const;
};

/// Computes the sums here and in the children (this program re-run with --determinism-probe).
DeterminismReport check_determinism(Progress& progress);

void print_determinism(const DeterminismReport& report);

/// The child's side: prints "probe <space> <threads> <sum bits> <dot bits>" and returns 0.
int run_determinism_probe();

}  // namespace strided_report

#endif
