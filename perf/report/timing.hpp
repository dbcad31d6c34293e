#ifndef STRIDED_REPORT_TIMING_HPP
#define STRIDED_REPORT_TIMING_HPP

// Median timing: one warm-up sample, then repetitions; the median resists the outliers of a
// shared machine better than the mean or the minimum. A workload's variants take turns in
// rounds (Repetitions::rounds), so that a machine whose speed drifts during a workload slows
// every variant alike rather than the one that ran at the time.
#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

namespace strided_report {

/// How many timed samples to take: at least `min` and at most `max`, stopping after `min` once
/// `budget_s` seconds have gone into the samples (slow peers take fewer).
struct Repetitions {
  int min = 5;
  int max = 11;
  double budget_s = 1.0;
  int rounds = 1;  ///< turns of a workload's variants that share the samples above

  /// One round's share of the samples and of the budget.
  Repetitions per_round() const {
    const auto share = [this](int n) { return (n + rounds - 1) / rounds; };
    return {share(min), share(max), budget_s / rounds, 1};
  }
};

/// Keeps `value` alive and unknown to the optimizer, so that a timed loop cannot be removed.
template <class T>
inline void do_not_optimize(const T& value) {
#if defined(__GNUC__)
  asm volatile("" : : "r,m"(value) : "memory");
#else
  static const void* volatile sink;
  sink = &value;
#endif
}

/// Makes the compiler assume that any memory may be read here: stores before it must happen.
inline void clobber_memory() {
#if defined(__GNUC__)
  asm volatile("" : : : "memory");
#endif
}

/// The seconds of each timed call of `sample()`, after one untimed warm-up call.
template <class Sample>
std::vector<double> timed_samples(const Repetitions& reps, Sample&& sample) {
  using Clock = std::chrono::steady_clock;
  sample();
  std::vector<double> times;
  double spent = 0;
  while (static_cast<int>(times.size()) < reps.max &&
         (static_cast<int>(times.size()) < reps.min || spent < reps.budget_s)) {
    const auto t0 = Clock::now();
    sample();
    times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    spent += times.back();
  }
  return times;
}

/// The median of `times` (0 when empty).
inline double median(std::vector<double> times) {
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}

/// Median seconds of `sample()` after one untimed warm-up call.
template <class Sample>
double median_seconds(const Repetitions& reps, Sample&& sample) {
  return median(timed_samples(reps, std::forward<Sample>(sample)));
}

}  // namespace strided_report

#endif
