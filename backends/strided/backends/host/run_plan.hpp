#ifndef STRIDED_BACKENDS_HOST_RUN_PLAN_HPP
#define STRIDED_BACKENDS_HOST_RUN_PLAN_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "strided/backends/common/tile_walk.hpp"
#include "strided/compat.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// Below this many elements a host space runs the tiles on the calling thread: a parallel region
/// costs more than the work (Strided.jl's MINTHREADLENGTH).
inline constexpr std::size_t INLINE_ELEMENTS = std::size_t(1) << 15;

/// Runs tiles [first, last) of `plan` through one copy of `body`.
template <int N, class Body>
KOKKOS_INLINE_FUNCTION void run_tiles(const Plan<N>& plan, std::size_t first, std::size_t last,
                                      const Body& body) {
  Body local = body;
  for_each_tile(plan, first, last,
                [&](std::size_t, const TileCursor<N>& tile) { walk_tile(plan, tile, local); });
  local.done();
}

/// Tiles [c * T / C, (c + 1) * T / C) for chunk c: consecutive tiles stay on one thread.
template <int N, class Body>
struct TileChunks {
  Plan<N> plan;
  Body body;
  std::size_t chunks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t c) const {
    run_tiles(plan, c * plan.tile_count / chunks, (c + 1) * plan.tile_count / chunks, body);
  }
};

/// The tile grid as the index space of a rank-R MDRangePolicy: policy axis k < R-1 is tile axis
/// k, and the last policy axis folds the plan's outer tile axes R-1, R-2+1, ... together.
template <int N, class Body, int R>
struct TileGrid {
  Plan<N> plan;
  Body body;
  template <class... I>
  KOKKOS_INLINE_FUNCTION void operator()(I... index) const {
    const std::int64_t at[R] = {static_cast<std::int64_t>(index)...};
    TileCursor<N> tile;
    for (int k = 0; k < R - 1; ++k) tile.coord[k] = static_cast<std::size_t>(at[k]);
    std::size_t rest = static_cast<std::size_t>(at[R - 1]);
    for (int k = R - 1; k < plan.rank; ++k) {
      tile.coord[k] = rest % plan.tiles[k];
      rest /= plan.tiles[k];
    }
    Body local = body;
    walk_tile(plan, tile, local);
    local.done();
  }
};

template <int R, class Exec, int N, class Body>
void run_tile_grid(const Exec& exec, const Plan<N>& plan, const Body& body,
                   const std::string& label) {
  using Policy =
      Kokkos::MDRangePolicy<Exec, Kokkos::Rank<R, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                            Kokkos::IndexType<std::int64_t>>;
  typename Policy::point_type lower, upper;
  for (int k = 0; k < R; ++k) {
    lower[k] = 0;
    upper[k] = static_cast<std::int64_t>(plan.tiles[k]);
  }
  for (int k = R; k < plan.rank; ++k) upper[R - 1] *= static_cast<std::int64_t>(plan.tiles[k]);
  Kokkos::parallel_for(label, Policy(exec, lower, upper), TileGrid<N, Body, R>{plan, body});
}

/// How tiles are handed to threads: a flat RangePolicy over chunks of consecutive tiles, or the
/// tile grid as an MDRangePolicy (up to 6 axes). Both give the same results.
enum class TilePolicy { Range, MDRange };

/// The process-wide choice (tests run both; benchmarks compare them).
inline TilePolicy& tile_policy() {
  static TilePolicy policy = TilePolicy::Range;
  return policy;
}

/// Runs every tile of `plan` through `body` on `exec`. Results never depend on where a tile runs.
/// `work` counts element visits when a body does more than one per plan element (axis
/// reductions fold a sub-tensor per output); it only decides whether to go parallel.
template <class Exec, int N, class Body>
void run_plan(const Exec& exec, const Plan<N>& plan, const Body& body, const std::string& label,
              std::size_t work = 0) {
  if (plan.tile_count == 0) return;
  if (work == 0) work = plan.count;
  if constexpr (compat::is_host_space_v<Exec>) {
    if (work <= INLINE_ELEMENTS || plan.tile_count == 1 || compat::concurrency(exec) == 1) {
      run_tiles(plan, 0, plan.tile_count, body);
      return;
    }
  }
  if (tile_policy() == TilePolicy::MDRange && plan.rank >= 2) {
    switch (plan.rank < 6 ? plan.rank : 6) {
      case 2:
        return run_tile_grid<2>(exec, plan, body, label);
      case 3:
        return run_tile_grid<3>(exec, plan, body, label);
      case 4:
        return run_tile_grid<4>(exec, plan, body, label);
      case 5:
        return run_tile_grid<5>(exec, plan, body, label);
      default:
        return run_tile_grid<6>(exec, plan, body, label);
    }
  }
  const std::size_t per_thread = 8;
  std::size_t chunks = static_cast<std::size_t>(compat::concurrency(exec)) * per_thread;
  if (chunks > plan.tile_count) chunks = plan.tile_count;
  Kokkos::parallel_for(label, compat::range_policy(exec, chunks),
                       TileChunks<N, Body>{plan, body, chunks});
}

}  // namespace strided::detail

#endif
