#ifndef STRIDED_BACKENDS_DISPATCH_RUN_MAP_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_MAP_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <string>

#include "strided/backends/bodies/map_body.hpp"
#include "strided/backends/common/kept_plan.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/team/run_teams.hpp"
#include "strided/backends/tiles/run_plan.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"
#include "strided/core/small_call.hpp"

namespace strided::detail {

/// Runs every tile of `plan` through `body` on a host space, where route() said (`where`).
template <class Exec, int N, class Body>
void run_host_tiles(const Exec& exec, const Plan<N>& plan, const Body& body, Route where,
                    const std::string& label) {
  if (where == Route::TileGrid)
    run_tile_grid(exec, plan, body, label);
  else if (where == Route::TileChunks)
    run_tile_chunks(exec, plan, body, label);
  else
    run_tiles(plan, 0, plan.tile_count, body);
}

/// An element-wise kernel's plan on `exec`: the plan's strategy picks the loops (square blocks
/// for transposes, streaming stores for large outputs), route() where they run. `kept`: the
/// copies of a kept plan (the device algorithm copies it to a space's memory once); `one_run`:
/// the operands have one dense layout and do not overlap (a kept plan's small calls).
template <class Exec, int N, class Dst, class F, class... Srcs>
void run_map(const Exec& exec, const Plan<N>& plan, MapBody<Dst, F, Srcs...> body,
             const Options& options, const std::string& label, KeptCopies* kept = nullptr,
             bool one_run = false) {
  if (plan.tile_count == 0) return;
  CallFacts call{plan.count, plan.tile_count, plan.rank, one_run};
  call.grid = true;
  const Route r = route(exec, options, call);
  if (r == Route::OneRun) {
    walk_one_run<N>(body, plan.count);
    return;
  }
  body.stream = plan.stream_stores;
  body.column_bands = plan.column_bands;
  body.by_blocks = moves_by_blocks(plan);
  if (r == Route::Team) {
    run_map_teams(exec, plan, body, label, kept_on(exec, kept, plan));
  } else if constexpr (compat::is_host_space_v<Exec>) {
    run_host_tiles(exec, plan, body, r, label);
  }
}

/// Small calls on one dense layout (the call-overhead case) run as one unit-stride run on the
/// calling thread, without a plan: the checks reduce to pointer comparisons. Returns false
/// when the call is not such a call.
template <class Exec, class Body, class DV, class... SV>
bool run_map_inline(const Exec& exec, const Options& options, const Body& body, const DV& dst,
                    const SV&... srcs) {
  const std::size_t count = dst.size();
  // The cheap test first: the layouts' are O(rank).
  if (route(exec, options, CallFacts{count, 0, 1, true}) != Route::OneRun ||
      !one_dense_layout(dst, srcs...) || !(disjoint_or_same(dst, srcs, count) && ...))
    return false;
  walk_one_run<1 + static_cast<int>(sizeof...(SV))>(body, count);
  return true;
}

}  // namespace strided::detail

#endif
