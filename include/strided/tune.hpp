#ifndef STRIDED_TUNE_HPP
#define STRIDED_TUNE_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_TUNE
#endif

// Measured plans: tune_copy_plan times a few tile shapes on the caller's operands and keeps the
// fastest (FFTW_MEASURE, HPTT's measured plans). Never a default: a call asks for it.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "strided/compat.hpp"
#include "strided/copy.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"

namespace strided {

/// The tile shapes tune_copy_plan tries: every block_bytes (the L1 budget of a tile) with every
/// transpose_row_bytes (the side of a transposed tile); the defaults are 32768 and 512.
inline constexpr std::size_t tuned_block_bytes[] = {8192, 16384, 32768, 65536};
inline constexpr std::size_t tuned_transpose_row_bytes[] = {512, 1024, 2048, 4096};

namespace detail {

/// The planner settings chosen per layout, exec space, thread count and untuned options: one per
/// process, filled by tune_copy_plan, read by later calls with the same key.
class TunedPlans {
 public:
  static TunedPlans& instance() {
    static TunedPlans plans;
    return plans;
  }
  bool find(const std::string& key, PlannerOptions& out) const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = m_chosen.find(key);
    if (it == m_chosen.end()) return false;
    out = it->second;
    return true;
  }
  void keep(const std::string& key, const PlannerOptions& chosen) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_chosen[key] = chosen;
  }

 private:
  mutable std::mutex m_mutex;
  std::map<std::string, PlannerOptions> m_chosen;
};

/// What a tuned choice depends on: the operands' layouts and element sizes, the execution space
/// and its thread count, and every option that tune_copy_plan does not vary.
template <class Exec, class... V>
std::string tuning_key(const Exec& exec, const Options& o, const V&... views) {
  std::ostringstream key;
  key << Exec::name() << ' ' << compat::concurrency(exec) << ' ' << static_cast<int>(o.algorithm)
      << ' ' << static_cast<int>(o.tile_policy) << ' ' << o.planner.cache_line << ' '
      << o.planner.max_tile_elements << ' ' << o.planner.weight_first_operand << ' '
      << o.planner.stream_bytes << ' ' << o.planner.gather << ' ' << o.planner.l2_bytes;
  const auto one = [&key](const auto& v) {
    key << " |" << sizeof(typename std::decay_t<decltype(v)>::value_type);
    for (std::size_t k = 0; k < v.rank(); ++k) key << ' ' << v.extent(k) << ':' << v.stride(k);
  };
  (one(views), ...);
  return key.str();
}

}  // namespace detail

/// A plan for `copy_into(exec, plan, dst, src)` whose tile shape was measured: each distinct plan
/// among the tuned_block_bytes x tuned_transpose_row_bytes settings copies src into dst
/// `repetitions` times on `exec`, and the one with the smallest median time wins. The choice is
/// kept for the process: a later call with the same layouts, exec space, thread count and other
/// options returns at once. With `options.planner.block_override` set, nothing is measured.
/// Writes dst (with src's values, as copy_into would). The choice changes the order in which
/// elements are copied, never their values; it may differ between runs (it is a timing).
/// Errors: RankMismatch, ShapeMismatch (named tune_copy_plan); the others of copy_into (named
/// copy_into: overlap, a destination that repeats elements, ...). All before anything is written.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
KernelPlan<2> tune_copy_plan(const Exec& exec, const D& dst, const S& src,
                             const Options& options = default_options(), int repetitions = 3) {
  const compat::ScopedRegion region("strided::tune_copy_plan");
  const auto d = detail::as_view(dst);
  const auto s = detail::as_view(src);
  detail::check_same_shape("tune_copy_plan", d, s);
  // copy_into's checks, also where nothing is measured (an override, a kept choice).
  detail::check_output("copy_into", d);
  detail::check_no_overlap("copy_into", d, s, 0);
  if (options.planner.block_override) return make_plan(d, s, options);
  const std::string key = detail::tuning_key(exec, options, d, s);
  Options chosen = options;
  if (detail::TunedPlans::instance().find(key, chosen.planner)) return make_plan(d, s, chosen);

  using clock = std::chrono::steady_clock;
  std::vector<std::string> tried;
  double best = -1;
  for (const std::size_t block : tuned_block_bytes)
    for (const std::size_t row : tuned_transpose_row_bytes) {
      Options candidate = options;
      candidate.planner.block_bytes = block;
      candidate.planner.transpose_row_bytes = row;
      const KernelPlan<2> plan = make_plan(d, s, candidate);
      const std::string shape = explain(plan);
      if (std::find(tried.begin(), tried.end(), shape) != tried.end()) continue;
      tried.push_back(shape);
      copy_into(exec, plan, d, s);  // warm-up: caches, pages, first-touch
      compat::fence(exec, "strided::tune_copy_plan: warm-up");
      std::vector<double> seconds;
      for (int r = 0; r < std::max(1, repetitions); ++r) {
        const auto start = clock::now();
        copy_into(exec, plan, d, s);
        compat::fence(exec, "strided::tune_copy_plan: timed copy");
        seconds.push_back(std::chrono::duration<double>(clock::now() - start).count());
      }
      std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
      const double median = seconds[seconds.size() / 2];
      if (best < 0 || median < best) {
        best = median;
        chosen = candidate;
      }
    }
  detail::TunedPlans::instance().keep(key, chosen.planner);
  return make_plan(d, s, chosen);
}
template <class D, class S, detail::enable_if_operand<D> = 0>
KernelPlan<2> tune_copy_plan(const D& dst, const S& src, const Options& options = default_options(),
                             int repetitions = 3) {
  return tune_copy_plan(detail::default_host(), dst, src, options, repetitions);
}
/// The default options with `repetitions` timed copies per candidate.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
KernelPlan<2> tune_copy_plan(const Exec& exec, const D& dst, const S& src, int repetitions) {
  return tune_copy_plan(exec, dst, src, default_options(), repetitions);
}
template <class D, class S, detail::enable_if_operand<D> = 0>
KernelPlan<2> tune_copy_plan(const D& dst, const S& src, int repetitions) {
  return tune_copy_plan(detail::default_host(), dst, src, default_options(), repetitions);
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_TUNE
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_TUNE
#endif

#endif
