#ifndef STRIDED_PLAN_HPP
#define STRIDED_PLAN_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_PLAN
#endif

// Plans: how a kernel runs for given layouts. `plan` returns the printable value; `make_plan`
// and `make_axes_plan` return plans to keep and execute many times (plan once, execute many, as
// FFTW, HPTT and cuTENSOR do).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/checks.hpp"
#include "strided/core/axes_plan.hpp"
#include "strided/core/explain.hpp"
#include "strided/core/kept_copies.hpp"
#include "strided/core/layout_key.hpp"
#include "strided/core/plan_cache.hpp"
#include "strided/core/planner.hpp"
#include "strided/index_list.hpp"
#include "strided/options.hpp"

namespace strided {

/// How one element-wise kernel or full reduction runs: fused axes, strides per operand, tiles,
/// strategy. A plain value with public fields: print it with `explain`, compare it, keep it.
template <int N>
using Plan = detail::Plan<N>;

namespace detail {

template <class... V>
Plan<static_cast<int>(sizeof...(V))> plan_for(const PlannerOptions& options, const V&... views) {
  constexpr int N = static_cast<int>(sizeof...(V));
  const auto& first = std::get<0>(std::forward_as_tuple(views...));
  const std::ptrdiff_t* strides[N] = {views.strides().data()...};
  const std::size_t sizes[N] = {sizeof(typename V::value_type)...};
  const bool on_lines = N < 2 || reinterpret_cast<std::uintptr_t>(first.data()) % 64 == 0;
  return make_plan_cached<N>(first.rank(), first.extents().data(), strides, sizes, options,
                             on_lines);
}

/// plan_for after the shape checks: the planner reads every operand's strides up to the first
/// operand's rank.
template <class... V>
auto checked_plan_for(const PlannerOptions& options, const V&... views) {
  const auto& first = std::get<0>(std::forward_as_tuple(views...));
  (check_same_shape("plan", first, views), ...);
  return plan_for(options, views...);
}

/// The layouts of `views`, as a kept plan records them.
template <class... V>
LayoutKey layout_key(const V&... views) {
  constexpr int N = static_cast<int>(sizeof...(V));
  const auto& first = std::get<0>(std::forward_as_tuple(views...));
  const std::ptrdiff_t* strides[N] = {views.strides().data()...};
  const std::size_t sizes[N] = {sizeof(typename V::value_type)...};
  return LayoutKey(first.rank(), first.extents().data(), N, strides, sizes);
}

/// Whether `views` (as many as the key's operands) have the key's layouts: O(rank) each.
template <class... V>
bool same_layouts(const LayoutKey& key, const V&... views) {
  if (static_cast<int>(sizeof...(V)) != key.operands() || ((views.rank() != key.rank()) || ...))
    return false;
  int k = 0;
  bool same = true;
  ((same = same && key.operand_matches(k++, views.extents().data(), views.strides().data(),
                                       sizeof(typename V::value_type))),
   ...);
  return same;
}

/// What a KernelPlan shares between its copies.
template <int N>
struct KernelPlanState {
  Plan<N> plan;
  Options options;
  LayoutKey key;
  bool injective_first = false;  ///< operand 0 may be written (no two indices share an element)
  bool one_dense = false;        ///< every operand has one dense layout (the small-call path)
  /// The plan's copies in device memory, made at its first run on each space.
  std::shared_ptr<KeptCopies> copies = std::make_shared<KeptCopies>();
};

}  // namespace detail

/// A plan kept for operands of fixed layouts (extents, strides, element sizes) and options.
/// Copies share one immutable state, so it is cheap to copy and to pass to a kernel, and safe to
/// use from several threads at once. Kernels given a plan check in O(rank) that their operands
/// have the planned layouts (ErrorCode::PlanMismatch otherwise) and never plan again.
template <int N>
class KernelPlan {
 public:
  static constexpr int operands = N;
  explicit KernelPlan(std::shared_ptr<const detail::KernelPlanState<N>> state)
      : m_state(std::move(state)) {}

  /// The printable plan the kernels run.
  const Plan<N>& plan() const noexcept { return m_state->plan; }
  /// The options the plan was made with; kernels given the plan run with them.
  const Options& options() const noexcept { return m_state->options; }
  /// Whether `views` (N of them) have the layouts this plan was made for.
  template <class... V>
  bool matches(const V&... views) const {
    static_assert(sizeof...(V) == N, "strided::KernelPlan::matches: one view per operand");
    return detail::same_layouts(m_state->key, detail::as_view(views)...);
  }
  const detail::KernelPlanState<N>& state() const noexcept { return *m_state; }

 private:
  std::shared_ptr<const detail::KernelPlanState<N>> m_state;
};

/// A plan kept for an axis reduction of S sources: the reduced axes, the destination's and the
/// sources' layouts and the options. Cheap to copy; kernels given it check the layouts in
/// O(rank) and never plan again.
template <int S>
class AxesPlan {
 public:
  struct State {
    detail::AxesLayout<S> layout;
    Options options;
    AxisList axes;
    detail::LayoutKey dst_key, src_key;
    /// The layout's copies in device memory, made at the plan's first run on each space.
    std::shared_ptr<detail::KeptCopies> copies = std::make_shared<detail::KeptCopies>();
  };
  explicit AxesPlan(std::shared_ptr<const State> state) : m_state(std::move(state)) {}

  /// The axes reduced, as given to make_axes_plan.
  const AxisList& axes() const noexcept { return m_state->axes; }
  const Options& options() const noexcept { return m_state->options; }
  /// The plan of the reduced axes (operands: the sources).
  const Plan<S>& reduced_plan() const noexcept { return m_state->layout.sub; }
  /// The plan of the kept axes (operand 0: the destination, then the sources).
  const Plan<S + 1>& kept_plan() const noexcept { return m_state->layout.out; }
  const State& state() const noexcept { return *m_state; }

 private:
  std::shared_ptr<const State> m_state;
};

/// The plan an element-wise kernel or a full reduction uses for these operands (destination
/// first; same shape), made with `options.planner`: `plan(operands..., [options])`.
/// Errors: RankMismatch, ShapeMismatch (operands of different shapes), as make_plan.
template <class... A>
auto plan(const A&... args) {
  return detail::with_trailing_options(
      [](const Options& options, const auto&... operands) {
        return detail::checked_plan_for(options.planner, detail::as_view(operands)...);
      },
      args...);
}

namespace detail {
template <class... V>
auto make_kernel_plan(const Options& options, const V&... views) {
  constexpr int N = static_cast<int>(sizeof...(V));
  const auto& first = std::get<0>(std::forward_as_tuple(views...));
  (check_same_shape("make_plan", first, views), ...);
  auto state = std::make_shared<KernelPlanState<N>>();
  state->plan = plan_for(options.planner, views...);
  state->options = options;
  state->key = layout_key(views...);
  const LayoutRef layout = first.layout();
  state->one_dense = one_dense_layout(views...);
  state->injective_first = is_dense(layout.rank, layout.extents, layout.strides) ||
                           first.size() == 0 || is_injective(layout);
  return KernelPlan<N>(std::move(state));
}
}  // namespace detail

/// A plan to keep: `make_plan(operands..., [options])` for the operands of one element-wise
/// kernel (destination first; `make_plan(dst, dst, src)` for add, mul and axpy, which read their
/// destination) or of one full reduction (its sources). Execute it with the kernel's overload
/// that takes a plan after the execution space, e.g. `copy_into(exec, p, dst, src)`, on any
/// execution-space instance and any data of those layouts.
/// Errors: RankMismatch, ShapeMismatch (operands of different shapes).
/// Complexity: one planning (O(rank^2) per operand); each execution then checks in O(rank).
template <class... A>
auto make_plan(const A&... args) {
  return detail::with_trailing_options(
      [](const Options& options, const auto&... operands) {
        return detail::make_kernel_plan(options, detail::as_view(operands)...);
      },
      args...);
}

/// Human-readable plan: strategy, fused dims and their source axes, strides, blocks, tiles.
template <int N>
std::string explain(const Plan<N>& p) {
  return detail::describe(p);
}
/// A kept plan also shows the device algorithm's launches (the launch-shape model, for an H200
/// unless `device` is given) when it runs under it: options().algorithm is Device, or Auto in a
/// build whose default execution space is a GPU.
template <int N>
std::string explain(const KernelPlan<N>& p, const DeviceModel& device) {
  return detail::describe(p.plan()) +
         detail::describe_device(p.plan(), p.state().key.element_bytes(), device);
}
template <int N>
std::string explain(const KernelPlan<N>& p) {
  if (!detail::runs_on_device(p.options())) return detail::describe(p.plan());
  return explain(p, DeviceModel{});
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_PLAN
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_PLAN
#endif

#endif
