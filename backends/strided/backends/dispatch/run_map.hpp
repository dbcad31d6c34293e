#ifndef STRIDED_BACKENDS_DISPATCH_RUN_MAP_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_MAP_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <string>

#include "strided/backends/common/map_body.hpp"
#include "strided/backends/device/kept_plan.hpp"
#include "strided/backends/device/run_teams.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/host/run_plan.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"
#include "strided/core/small_call.hpp"

namespace strided::detail {

/// Runs every tile of `plan` through `body` with the host algorithm: on the calling thread when
/// the call is small (`work` element visits), else over the tile policy of `options`.
template <class Exec, int N, class Body>
void run_host_tiles(const Exec& exec, const Plan<N>& plan, const Body& body, const Options& options,
                    const std::string& label, std::size_t work) {
  if (plan.tile_count == 0) return;
  if (plan.tile_count == 1 || runs_inline(exec, options, work)) {
    run_tiles(plan, 0, plan.tile_count, body);
  } else if (options.tile_policy == TilePolicy::MDRange && plan.rank >= 2) {
    run_tile_grid(exec, plan, body, label);
  } else {
    run_tile_chunks(exec, plan, body, label);
  }
}

/// An element-wise kernel's plan on `exec`: the plan's strategy picks the loops (square blocks
/// for transposes, streaming stores for large outputs), `options` the algorithm. `kept`: the
/// copies of a kept plan (the device algorithm copies it to a space's memory once).
template <class Exec, int N, class Dst, class F, class... Srcs>
void run_map(const Exec& exec, const Plan<N>& plan, MapBody<Dst, F, Srcs...> body,
             const Options& options, const std::string& label, KeptCopies* kept = nullptr) {
  if (plan.tile_count == 0) return;
  body.stream = plan.stream_stores;
  body.by_blocks = moves_by_blocks(plan);
  if (uses_device_algorithm<Exec>(options)) {
    run_map_teams(exec, plan, body, label, kept_on(exec, kept, plan));
  } else if constexpr (compat::is_host_space_v<Exec>) {
    run_host_tiles(exec, plan, body, options, label, plan.count);
  }
}

/// Small calls on one dense layout (the call-overhead case) run as one unit-stride run on the
/// calling thread, without a plan: the checks reduce to pointer comparisons. Returns false
/// when the call is not such a call.
template <class Exec, class Body, class DV, class... SV>
bool run_map_inline(const Exec& exec, const Options& options, const Body& body, const DV& dst,
                    const SV&... srcs) {
  const std::size_t count = dst.size();
  if (!runs_as_one_run(exec, options, count) || !one_dense_layout(dst, srcs...) ||
      !(disjoint_or_same(dst, srcs) && ...))
    return false;
  walk_one_run<1 + static_cast<int>(sizeof...(SV))>(body, count);
  return true;
}

}  // namespace strided::detail

#endif
