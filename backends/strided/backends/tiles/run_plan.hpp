#ifndef STRIDED_BACKENDS_TILES_RUN_PLAN_HPP
#define STRIDED_BACKENDS_TILES_RUN_PLAN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/host/rows_ahead.hpp"
#include "strided/base/compat.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// Bodies that may stage a whole tile (MapBody::walk_staged).
template <class Body, class = void>
struct stages_tiles : std::false_type {};
template <class Body>
struct stages_tiles<Body, std::void_t<decltype(&Body::template walk_staged<1>)>> : std::true_type {
};

/// Bodies that fetch a tile's lines ahead of it (MapBody::fetch_tile), a paced plan's through
/// the RowsAhead their `next_tile_rows` points to.
template <class Body>
using fetch_tile_call = decltype(std::declval<const Body&>().fetch_tile(
    std::declval<const Plan<1>&>(), std::declval<const TileCursor<1>&>()));
template <class Body, class = void>
struct fetches_tiles : std::false_type {};
template <class Body>
struct fetches_tiles<Body, std::void_t<fetch_tile_call<Body>>> : std::true_type {};

/// One tile of a host kernel: staged when its body stages it, else walked.
template <int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_host_tile(const Plan<N>& p, const TileCursor<N>& tile,
                                           Body& body) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  if constexpr (stages_tiles<Body>::value)
    if (body.walk_staged(p, tile)) return;
#endif
  walk_tile(p, tile, body);
}

/// Tiles [first, last) of `plan` through `local`, each next tile's lines fetched while this one
/// runs: all before it, or, when Paced, queued in `ahead` for this tile's blocks to fetch, and
/// what they leave fetched after it.
template <bool Paced, int N, class Body>
KOKKOS_INLINE_FUNCTION void walk_tiles(const Plan<N>& plan, std::size_t first, std::size_t last,
                                       Body& local, [[maybe_unused]] RowsAhead* ahead) {
  for_each_tile(plan, first, last, [&](std::size_t t, const TileCursor<N>& tile) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (fetches_tiles<Body>::value) {
      if (t + 1 < last) {  // the next tile's lines arrive while this one runs
        TileCursor<N> next = tile;
        next.next(plan);
        local.fetch_tile(plan, next);
      }
    }
    walk_host_tile(plan, tile, local);
    if constexpr (Paced) ahead->step(ahead->lines_left());
#else
    (void)t;
    walk_host_tile(plan, tile, local);
#endif
  });
}

/// Runs tiles [first, last) of `plan` through one copy of `body`.
template <int N, class Body>
KOKKOS_INLINE_FUNCTION void run_tiles(const Plan<N>& plan, std::size_t first, std::size_t last,
                                      const Body& body) {
  Body local = body;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  if constexpr (fetches_tiles<Body>::value) {
    if (plan.paced_fetch) {  // (the queue only then: unpaced tiles run as they did without it)
      RowsAhead ahead;
      local.next_tile_rows = &ahead;
      walk_tiles<true>(plan, first, last, local, &ahead);
      local.done();
      return;
    }
  }
#endif
  walk_tiles<false>(plan, first, last, local, nullptr);
  local.done();
}

/// Tiles [c * T / C, (c + 1) * T / C) for chunk c: consecutive tiles stay on one thread.
/// Host kernels return only when every thread is done, so the plan stays where the caller keeps
/// it (a kept plan, or the caller's stack) and is not copied into the functor.
template <int N, class Body>
struct TileChunks {
  const Plan<N>* plan;
  Body body;
  std::size_t chunks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t c) const {
    const std::size_t tiles = plan->tile_count;
    run_tiles(*plan, c * tiles / chunks, (c + 1) * tiles / chunks, body);
  }
};

/// The tile grid as the index space of a rank-3 MDRangePolicy: policy axes 0 and 1 are tile axes
/// 0 and 1, and policy axis 2 folds the outer tile axes together (one instantiation per body).
template <int N, class Body>
struct TileGrid {
  const Plan<N>* plan;
  Body body;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i0, std::int64_t i1,
                                         std::int64_t rest) const {
    const Plan<N>& p = *plan;
    TileCursor<N> tile;
    tile.coord[0] = static_cast<std::size_t>(i0);
    tile.coord[1] = static_cast<std::size_t>(i1);
    std::size_t outer = static_cast<std::size_t>(rest);
    for (int k = 2; k < p.rank; ++k) {
      tile.coord[k] = outer % p.tiles[k];
      outer /= p.tiles[k];
    }
    Body local = body;
    walk_host_tile(p, tile, local);
    local.done();
  }
};

/// Runs every tile of `plan` (rank >= 2) through `body` on `exec`, from the tile grid. Results
/// never depend on where a tile runs.
template <class Exec, int N, class Body>
void run_tile_grid(const Exec& exec, const Plan<N>& plan, const Body& body,
                   const std::string& label) {
  using Policy =
      Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                            Kokkos::IndexType<std::int64_t>>;
  std::int64_t outer = 1;
  for (int k = 2; k < plan.rank; ++k) outer *= static_cast<std::int64_t>(plan.tiles[k]);
  const typename Policy::point_type lower{{0, 0, 0}};
  const typename Policy::point_type upper{
      {static_cast<std::int64_t>(plan.tiles[0]), static_cast<std::int64_t>(plan.tiles[1]), outer}};
  Kokkos::parallel_for(label, Policy(exec, lower, upper), TileGrid<N, Body>{&plan, body});
}

/// Runs every tile of `plan` through `body` on `exec` over a RangePolicy: a few chunks of
/// consecutive tiles per thread.
template <class Exec, int N, class Body>
void run_tile_chunks(const Exec& exec, const Plan<N>& plan, const Body& body,
                     const std::string& label) {
  const std::size_t per_thread = 8;
  std::size_t chunks = static_cast<std::size_t>(compat::concurrency(exec)) * per_thread;
  if (chunks > plan.tile_count) chunks = plan.tile_count;
  Kokkos::parallel_for(label, compat::range_policy(exec, chunks),
                       TileChunks<N, Body>{&plan, body, chunks});
}

}  // namespace strided::detail

#endif
