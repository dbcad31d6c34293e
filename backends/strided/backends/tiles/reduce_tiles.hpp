#ifndef STRIDED_BACKENDS_TILES_REDUCE_TILES_HPP
#define STRIDED_BACKENDS_TILES_REDUCE_TILES_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "strided/backends/bodies/reduce_body.hpp"
#include "strided/backends/common/combine_partials.hpp"
#include "strided/backends/common/lanes.hpp"
#include "strided/base/compat.hpp"

namespace strided::detail {

// Both fold every tile of a non-empty plan to a partial and combine the partials on the host in
// the fixed pairwise order. The tile partition and the in-tile lanes come from the plan, so the
// bits are the same on the calling thread and in parallel, at any thread count.

/// On the calling thread.
template <class U, int N, class Fold, class ReduceFn>
U reduce_tiles_inline(const Plan<N>& plan, const Fold& fold, const ReduceFn& red) {
  const std::size_t tiles = plan.tile_count;
  constexpr std::size_t stack_tiles = 32;
  U on_stack[stack_tiles];
  std::vector<U> on_heap;
  U* partials = on_stack;
  if (tiles > stack_tiles) {
    on_heap.resize(tiles);
    partials = on_heap.data();
  }
  fold_tiles(plan, 0, tiles, fold, partials);
  return FoldRule::tile_tree(partials, 0, tiles, red);
}

/// Chunks of consecutive tiles per thread of `exec` (a host space).
template <class U, class Exec, int N, class Fold, class ReduceFn>
U reduce_tiles(const Exec& exec, const Plan<N>& plan, const Fold& fold, const ReduceFn& red,
               const std::string& label) {
  const std::size_t tiles = plan.tile_count;
  using Partials = Kokkos::View<U*, typename Exec::memory_space>;
  Partials partials(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::tile_partials"),
                    tiles);
  std::size_t chunks = static_cast<std::size_t>(compat::concurrency(exec)) * 8;
  if (chunks > tiles) chunks = tiles;
  Kokkos::parallel_for(label, compat::range_policy(exec, chunks),
                       TilePartials<N, Fold, U>{&plan, fold, partials.data(), chunks});
  return combine_partials(exec, partials, red);
}

}  // namespace strided::detail

#endif
