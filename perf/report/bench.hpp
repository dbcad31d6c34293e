#ifndef STRIDED_REPORT_BENCH_HPP
#define STRIDED_REPORT_BENCH_HPP

// What a workload's code sees while it runs: its sizes, the repetition policy, the progress
// line, and the result its rows go into.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <utility>

#include "progress.hpp"
#include "results.hpp"
#include "sizes.hpp"
#include "timing.hpp"

namespace strided_report {

class Bench {
 public:
  Bench(WorkloadResult& result, const Sizes& sizes, const Repetitions& reps, bool explain,
        Progress& progress, std::string step)
      : m_result(result),
        m_sizes(sizes),
        m_reps(reps),
        m_explain(explain),
        m_progress(progress),
        m_step(std::move(step)) {}

  const Sizes& sizes() const { return m_sizes; }

  /// Times `run()` (one call, then a fence), then records the row with `check()`'s verdict on
  /// the output that the timed calls left.
  template <class Run, class Check>
  void measure(const std::string& variant, double bytes, Run&& run, Check&& check) {
    announce(variant);
    const double seconds = median_seconds(m_reps, [&] {
      run();
      Kokkos::fence();
    });
    m_result.rows.push_back({variant, seconds, bytes, static_cast<bool>(check())});
  }

  /// The flops of one call of the row measured last (the T rows show GFLOP/s).
  void count_flops(double flops) { m_result.rows.back().flops = flops; }

  /// Call overhead (W8): each sample makes `calls` calls and fences once, and the row holds the
  /// time of one call. Host execution spaces finish a kernel before returning; a fence per call
  /// would time Kokkos rather than the call.
  template <class Run, class Check>
  void measure_calls(const std::string& variant, double bytes, std::size_t calls, Run&& run,
                     Check&& check) {
    announce(variant);
    const double seconds = median_seconds(m_reps, [&] {
      for (std::size_t c = 0; c < calls; ++c) run();
      Kokkos::fence();
    });
    m_result.per_call = true;
    m_result.rows.push_back(
        {variant, seconds / static_cast<double>(calls), bytes, static_cast<bool>(check())});
  }

  /// A line shown below the table for this workload (T: its sizes and GEMM shape).
  void note(std::string text) { m_result.note = std::move(text); }

  /// Records the plan's text with --explain; `text()` is not called otherwise.
  template <class Text>
  void explain(Text&& text) {
    if (m_explain) m_result.plan = text();
  }

 private:
  void announce(const std::string& variant) {
    m_progress.show(m_step + " " + m_result.id + " " + variant + " ...");
  }

  WorkloadResult& m_result;
  const Sizes& m_sizes;
  const Repetitions& m_reps;
  bool m_explain;
  Progress& m_progress;
  std::string m_step;  ///< "[k/n]"
};

}  // namespace strided_report

#endif
