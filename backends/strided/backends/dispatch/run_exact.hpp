#ifndef STRIDED_BACKENDS_DISPATCH_RUN_EXACT_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_EXACT_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Exact reductions on an execution space. The result does not depend on how the tiles are
// split, so one algorithm serves every space: chunks of tiles, each folded into its own exact
// integers in the space's memory, merged by groups where they were folded, then on the host. Axis
// reductions run one output per work item over the reduced axes' plan.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strided/backends/bodies/axis_fold.hpp"
#include "strided/backends/bodies/exact_fold.hpp"
#include "strided/backends/common/kept_plan.hpp"
#include "strided/backends/common/workspace.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/dispatch/run_axes.hpp"
#include "strided/base/compat.hpp"

namespace strided::detail {

/// Most chunks of a full reduction on a device: each holds its integers in the space's memory.
/// Enough threads for every multiprocessor of a large GPU (a chunk is at least a tile).
inline constexpr std::size_t EXACT_DEVICE_CHUNKS = 16384;
/// Chunks whose integers one device thread merges, so that the host reads back and merges a
/// few hundred integers instead of one per chunk (integers: any grouping, the same result).
inline constexpr std::size_t EXACT_MERGE_GROUP = 64;

/// Group g: the integers of chunks [g * EXACT_MERGE_GROUP, ...) (normalized, ExactChunks) merged
/// into heads[g * K, + K), one thread per digit (and one for the flags and counts): a thread per
/// group would walk a few hundred integers of a few hundred digits one after another.
template <class Int, int K>
struct MergeChunks {
  static constexpr std::size_t WIDTH = Int::chunks + 1;  ///< items per integer
  const Int* ints;
  Int* heads;
  std::size_t chunks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t item) const {
    const std::size_t g = item / (WIDTH * K), k = item / WIDTH % K, j = item % WIDTH;
    const std::size_t first = g * EXACT_MERGE_GROUP;
    const std::size_t last =
        chunks - first < EXACT_MERGE_GROUP ? chunks : first + EXACT_MERGE_GROUP;
    Int& head = heads[g * K + k];
    if (j < static_cast<std::size_t>(Int::chunks)) {
      // Normalized digits are below 2^32 in magnitude: a group's sum fits easily.
      std::int64_t sum = 0;
      for (std::size_t c = first; c < last; ++c) sum += ints[c * K + k].digit[j];
      head.digit[j] = sum;
    } else {
      std::uint32_t flags = 0, pending = 0;  // as merge() counts: one per integer merged
      for (std::size_t c = first; c < last; ++c) {
        flags |= ints[c * K + k].flags;
        pending += ints[c * K + k].pending + (c > first ? 1 : 0);
      }
      head.flags = flags;
      head.pending = pending;
    }
  }
};

/// Folds every tile of `plan` into out[0, Fold::K) (the integers of each component).
template <class Fold, class Exec, int N>
void run_exact(const Exec& exec, const Plan<N>& plan, const decltype(Fold::srcs)& srcs,
               typename Fold::Int* out, const Options& options, const std::string& label,
               KeptCopies* kept = nullptr) {
  using Int = typename Fold::Int;
  constexpr int K = Fold::K;
  for (int c = 0; c < K; ++c) out[c] = Int{};
  const std::size_t tiles = plan.tile_count;
  if (tiles == 0) return;
  if constexpr (compat::is_host_space_v<Exec>) {
    if (route(exec, options, CallFacts{plan.count, tiles, plan.rank}) == Route::Inline) {
      ExactChunks<N, Fold>{&plan, srcs, out, 1}(0);
      return;
    }
  }
  const std::size_t per_space = compat::is_host_space_v<Exec>
                                    ? static_cast<std::size_t>(compat::concurrency(exec)) * 4
                                    : EXACT_DEVICE_CHUNKS;
  const std::size_t chunks = tiles < per_space ? tiles : per_space;
  // Groups of chunks merged where they were folded (every space: the host spaces run the same
  // code), then the groups' integers on the host.
  const std::size_t groups = (chunks + EXACT_MERGE_GROUP - 1) / EXACT_MERGE_GROUP;
  Staged<Exec, Plan<N>> staged(exec, (groups + chunks) * K * sizeof(Int),
                               std::tuple<const Plan<N>*>{kept_on(exec, kept, plan)}, plan);
  Int* heads = staged.template extra<Int>();
  Int* partials = heads + groups * K;
  Kokkos::parallel_for(label, compat::range_policy(exec, chunks),
                       ExactChunks<N, Fold>{staged.template get<0>(), srcs, partials, chunks});
  Kokkos::parallel_for(label, compat::range_policy(exec, groups * K * MergeChunks<Int, K>::WIDTH),
                       MergeChunks<Int, K>{partials, heads, chunks});
  const Int* host = staged.template to_host<Int>(groups * K);
  for (std::size_t g = 0; g < groups; ++g)
    for (int k = 0; k < K; ++k) out[k].merge(host[g * K + k]);
}

/// Output o of an exact axis reduction: its sub-tensor folded into its integers.
template <int S, class Fold>
KOKKOS_INLINE_FUNCTION void fold_output(const OutputIndex<S + 1>& index, const Plan<S>& sub,
                                        const decltype(Fold::srcs)& srcs, std::size_t o,
                                        std::ptrdiff_t* off, typename Fold::Int* ints) {
  index.offsets(o, off);
  Fold fold(srcs);
  for_each_tile(sub, 0, sub.tile_count, [&](std::size_t, const TileCursor<S>& tile) {
    walk_tile(sub, tile, fold, off + 1);
  });
  fold.finish(ints);
}

/// ... rounded once into the destination.
template <int S, class Fold, class Dst>
struct ExactOutputs {
  using Int = typename Fold::Int;
  const OutputIndex<S + 1>* index;
  const Plan<S>* sub;
  decltype(Fold::srcs) srcs;
  Dst dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t o) const {
    std::ptrdiff_t off[S + 1];
    Int ints[Fold::K];
    fold_output<S, Fold>(*index, *sub, srcs, o, off, ints);
    dst.store(off[0], exact_value<typename Dst::value_type>(ints));
  }
};

/// ... kept as integers at out[o * K] (to be merged with other ranks' first).
template <int S, class Fold>
struct ExactOutputIntegers {
  using Int = typename Fold::Int;
  const OutputIndex<S + 1>* index;
  const Plan<S>* sub;
  decltype(Fold::srcs) srcs;
  Int* out;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t o) const {
    std::ptrdiff_t off[S + 1];
    fold_output<S, Fold>(*index, *sub, srcs, o, off, out + o * Fold::K);
  }
};

/// Rounds the integers of output o into the destination.
template <int S, int K, class Int, class Dst>
struct RoundOutputs {
  const OutputIndex<S + 1>* index;
  const Int* ints;
  Dst dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t o) const {
    std::ptrdiff_t off[S + 1];
    index->offsets(o, off);
    dst.store(off[0], exact_value<typename Dst::value_type>(ints + o * K));
  }
};

template <class Fold, class Exec, int S, class Dst>
void run_exact_axes(const Exec& exec, const AxesLayout<S>& layout, const Dst& dst,
                    const decltype(Fold::srcs)& srcs, const std::string& label,
                    KeptCopies* kept = nullptr) {
  if (layout.outputs == 0) return;
  const AxesLayout<S>* on = kept_on(exec, kept, layout);
  const Staged<Exec, OutputIndex<S + 1>, Plan<S>> staged(
      exec, 0,
      std::make_tuple(member_of_copy(on, layout, layout.index),
                      member_of_copy(on, layout, layout.sub)),
      layout.index, layout.sub);
  Kokkos::parallel_for(
      label, compat::range_policy(exec, layout.outputs),
      ExactOutputs<S, Fold, Dst>{staged.template get<0>(), staged.template get<1>(), srcs, dst});
  compat::fence(exec, "strided::exact axes: release the staged plans");
}

/// An exact axis reduction whose outputs' integers pass through `combine(host_ints, count)` (an
/// MPI reduction over ranks) before they are rounded; `store` says whether this rank writes dst.
template <class Fold, class Exec, int S, class Dst, class Combine>
void run_exact_axes_combined(const Exec& exec, const AxesLayout<S>& layout, const Dst& dst,
                             const decltype(Fold::srcs)& srcs, const std::string& label,
                             const Combine& combine, bool store) {
  using Int = typename Fold::Int;
  const std::size_t count = layout.outputs * Fold::K;
  Staged<Exec, OutputIndex<S + 1>, Plan<S>> staged(exec, count * sizeof(Int), layout.index,
                                                   layout.sub);
  Int* ints = staged.template extra<Int>();
  if (layout.outputs > 0)
    Kokkos::parallel_for(label, compat::range_policy(exec, layout.outputs),
                         ExactOutputIntegers<S, Fold>{staged.template get<0>(),
                                                      staged.template get<1>(), srcs, ints});
  Int* host = layout.outputs > 0 ? staged.template to_host<Int>(count) : nullptr;
  combine(host, count);
  if (!store || layout.outputs == 0) return;
  if constexpr (!compat::is_host_space_v<Exec>) {
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    Kokkos::deep_copy(exec, Kokkos::View<Int*, typename Exec::memory_space, Unmanaged>(ints, count),
                      Kokkos::View<const Int*, Kokkos::HostSpace, Unmanaged>(host, count));
  }
  Kokkos::parallel_for(label, compat::range_policy(exec, layout.outputs),
                       RoundOutputs<S, Fold::K, Int, Dst>{staged.template get<0>(), ints, dst});
  compat::fence(exec, "strided::exact axes: release the staged plans");
}

}  // namespace strided::detail

#endif
