#ifndef STRIDED_REPORT_BENCH_HPP
#define STRIDED_REPORT_BENCH_HPP

// What a workload's code sees while it runs: its sizes, the repetition policy, the progress
// line, and the result its rows go into.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "progress.hpp"
#include "results.hpp"
#include "sizes.hpp"
#include "timing.hpp"

namespace strided_report {

/// One round of one workload: its code calls measure() once per variant, in the same order each
/// round, and the samples of every round go into one row per variant.
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

  /// Times `run()` (one call, then a fence), then records the samples with `check()`'s verdict
  /// on the output that the timed calls left.
  template <class Run, class Check>
  void measure(const std::string& variant, double bytes, Run&& run, Check&& check) {
    announce(variant);
    std::vector<double> samples = timed_samples(m_reps, [&] {
      run();
      Kokkos::fence();
    });
    record(variant, bytes, std::move(samples), 1, static_cast<bool>(check()));
  }

  /// The flops of one call of the row measured last (the T rows show GFLOP/s).
  void count_flops(double flops) { m_result.rows[m_last].flops = flops; }

  /// Call overhead (W8): each sample makes `calls` calls and fences once, and the row holds the
  /// time of one call. Host execution spaces finish a kernel before returning; a fence per call
  /// would time Kokkos rather than the call.
  template <class Run, class Check>
  void measure_calls(const std::string& variant, double bytes, std::size_t calls, Run&& run,
                     Check&& check) {
    announce(variant);
    std::vector<double> samples = timed_samples(m_reps, [&] {
      for (std::size_t c = 0; c < calls; ++c) run();
      Kokkos::fence();
    });
    m_result.per_call = true;
    record(variant, bytes, std::move(samples), calls, static_cast<bool>(check()));
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

  /// Adds one round's samples (of `calls` calls each) to the variant's row, made on first sight;
  /// the row is correct while every round's output is.
  void record(const std::string& variant, double bytes, std::vector<double> samples,
              std::size_t calls, bool correct) {
    std::vector<Row>& rows = m_result.rows;
    m_last = 0;
    while (m_last < rows.size() && rows[m_last].variant != variant) ++m_last;
    if (m_last == rows.size()) rows.push_back({variant, 0, bytes, true});
    Row& row = rows[m_last];
    row.add_samples(samples, static_cast<double>(calls));
    row.correct = row.correct && correct;
  }

  WorkloadResult& m_result;
  const Sizes& m_sizes;
  const Repetitions& m_reps;
  bool m_explain;
  Progress& m_progress;
  std::string m_step;      ///< "[k/n]"
  std::size_t m_last = 0;  ///< the row measured last
};

}  // namespace strided_report

#endif
