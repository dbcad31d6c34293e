#ifndef STRIDED_BACKENDS_HOST_REDUCE_TILES_HPP
#define STRIDED_BACKENDS_HOST_REDUCE_TILES_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "strided/backends/common/combine_partials.hpp"
#include "strided/backends/common/reduce_body.hpp"
#include "strided/backends/host/run_plan.hpp"
#include "strided/compat.hpp"
#include "strided/core/combine.hpp"

namespace strided::detail {

/// Folds every tile of `plan` to a partial, then combines the partials on the host in the fixed
/// pairwise order. Returns false for an empty plan. The tile partition and the in-tile lanes come
/// from the plan, so the bits do not depend on the space, the thread count or the inline path.
template <class U, class Exec, int N, class Fold, class ReduceFn>
bool reduce_tiles(const Exec& exec, const Plan<N>& plan, const Fold& fold, const ReduceFn& red,
                  U& total, const std::string& label) {
  const std::size_t tiles = plan.tile_count;
  if (tiles == 0) return false;
  if constexpr (compat::is_host_space_v<Exec>) {
    if (plan.count <= INLINE_ELEMENTS || tiles == 1 || compat::concurrency(exec) == 1) {
      constexpr std::size_t stack_tiles = 32;
      U on_stack[stack_tiles];
      std::vector<U> on_heap;
      U* partials = on_stack;
      if (tiles > stack_tiles) {
        on_heap.resize(tiles);
        partials = on_heap.data();
      }
      fold_tiles(plan, 0, tiles, fold, partials);
      total = combine_pairwise(partials, 0, tiles, red);
      return true;
    }
  }
  using Partials = Kokkos::View<U*, typename Exec::memory_space>;
  Partials partials(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::tile_partials"),
                    tiles);
  std::size_t chunks = static_cast<std::size_t>(compat::concurrency(exec)) * 8;
  if (chunks > tiles) chunks = tiles;
  Kokkos::parallel_for(label, compat::range_policy(exec, chunks),
                       TilePartials<N, Fold, U>{plan, fold, partials.data(), chunks});
  total = combine_partials(exec, partials, red);
  return true;
}

}  // namespace strided::detail

#endif
