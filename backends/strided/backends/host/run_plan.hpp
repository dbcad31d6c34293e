#ifndef STRIDED_BACKENDS_HOST_RUN_PLAN_HPP
#define STRIDED_BACKENDS_HOST_RUN_PLAN_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
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

/// Runs every tile of `plan` through `body` on `exec`. Results never depend on where a tile runs.
template <class Exec, int N, class Body>
void run_plan(const Exec& exec, const Plan<N>& plan, const Body& body, const std::string& label) {
  if (plan.tile_count == 0) return;
  if constexpr (compat::is_host_space_v<Exec>) {
    if (plan.count <= INLINE_ELEMENTS || plan.tile_count == 1 || compat::concurrency(exec) == 1) {
      run_tiles(plan, 0, plan.tile_count, body);
      return;
    }
  }
  const std::size_t per_thread = 8;
  std::size_t chunks = static_cast<std::size_t>(compat::concurrency(exec)) * per_thread;
  if (chunks > plan.tile_count) chunks = plan.tile_count;
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::size_t>>(exec, 0, chunks),
                       TileChunks<N, Body>{plan, body, chunks});
}

}  // namespace strided::detail

#endif
