#ifndef STRIDED_PLAN_HPP
#define STRIDED_PLAN_HPP

#include <string>
#include <tuple>

#include "strided/checks.hpp"
#include "strided/core/explain.hpp"
#include "strided/core/planner.hpp"

namespace strided {

/// A plan is a plain value: print it with `explain`, compare it, keep it.
template <int N>
using Plan = detail::Plan<N>;

using PlannerOptions = detail::PlannerOptions;

/// Process-wide planner settings for experts (block budget in bytes, cache line, largest tile
/// in elements, transpose tile rows, output size from which stores stream; defaults: 32 KiB,
/// 64 B, 65536, 1 KiB, 16 MiB). Set them before running kernels, not while other threads call
/// Strided. Tile shapes decide the fold order of reductions, so reductions change bits with them.
inline PlannerOptions& planner_options() {
  static PlannerOptions options;
  return options;
}

namespace detail {
template <class... V>
Plan<static_cast<int>(sizeof...(V))> plan_for(const V&... views) {
  constexpr int N = static_cast<int>(sizeof...(V));
  const auto& first = std::get<0>(std::forward_as_tuple(views...));
  const std::ptrdiff_t* strides[N] = {views.strides().data()...};
  const std::size_t sizes[N] = {sizeof(typename V::value_type)...};
  return make_plan<N>(first.rank(), first.extents().data(), strides, sizes, planner_options());
}
}  // namespace detail

/// The plan an element-wise kernel uses for these operands (destination first; same shape).
template <class... V>
auto plan(const V&... operands) {
  return detail::plan_for(detail::as_view(operands)...);
}

/// Human-readable plan: strategy, fused dims and their source axes, strides, blocks, tiles.
template <int N>
std::string explain(const Plan<N>& p) {
  return detail::explain(p);
}

}  // namespace strided

#endif
