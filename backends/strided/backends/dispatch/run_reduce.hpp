#ifndef STRIDED_BACKENDS_DISPATCH_RUN_REDUCE_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_REDUCE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <string>

#include "strided/backends/bodies/reduce_body.hpp"
#include "strided/backends/common/kept_plan.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/team/run_teams.hpp"
#include "strided/backends/tiles/reduce_tiles.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"
#include "strided/core/planner.hpp"
#include "strided/core/small_call.hpp"

namespace strided::detail {

/// The fold of `count` elements of one dense layout as one run: the bits of a one-tile plan.
/// Folds `fold` itself (fresh from the caller, used once): a copy of a fold just built loads
/// what was stored a few cycles before in other widths, and the store forwarding fails (a third
/// of a 16-element sum's time).
template <int N, class U, class Fold, class ReduceFn>
U reduce_one_run(Fold& fold, const ReduceFn& red, const U& init, std::size_t count) {
  walk_one_run<N>(fold, count);
  return red(init, fold.result());
}

/// A full reduction's plan on `exec`: init enters once, after the fixed-order combine of the
/// tile partials, whatever ran the tiles. `kept`: the copies of a kept plan.
template <class U, class Exec, int N, class Fold, class ReduceFn>
U run_reduce(const Exec& exec, const Plan<N>& plan, Fold& fold, const ReduceFn& red, const U& init,
             const Options& options, const std::string& label, KeptCopies* kept = nullptr,
             bool one_dense = false) {
  if (plan.tile_count == 0) return init;
  // A one-tile plan of one dense layout folds as one run: the same lanes, so the same bits.
  CallFacts call{plan.count, plan.tile_count, plan.rank,
                 one_dense && plan.rank == 1 && plan.tile_count == 1};
  call.one_run_capped = false;
  const Route r = route(exec, options, call);
  if (r == Route::OneRun) return reduce_one_run<N>(fold, red, init, plan.count);
  U total{};
  if (r == Route::Team) {
    total = reduce_tiles_teams<U>(exec, plan, fold, red, label, kept_on(exec, kept, plan));
  } else if constexpr (compat::is_host_space_v<Exec>) {
    if (r == Route::Inline)
      total = reduce_tiles_inline<U>(plan, fold, red);
    else
      total = reduce_tiles<U>(exec, plan, fold, red, label);
  }
  return red(init, total);
}

/// A small dense input is one tile of its plan: folded here without planning, with the same
/// bits. Returns false when the call is not such a call.
template <class U, class Exec, class Fold, class ReduceFn, class... SV>
bool run_reduce_inline(const Exec& exec, const Options& options, Fold& fold, const ReduceFn& red,
                       const U& init, U& result, const SV&... srcs) {
  const auto& first = std::get<0>(std::forward_as_tuple(srcs...));
  const std::size_t count = first.size();
  if (count == 0 || count > tile_grain(count, options.planner) || options.planner.block_override ||
      route(exec, options, CallFacts{count, 0, 1, true}) != Route::OneRun ||
      !one_dense_layout(srcs...))
    return false;
  result = reduce_one_run<static_cast<int>(sizeof...(SV))>(fold, red, init, count);
  return true;
}

}  // namespace strided::detail

#endif
