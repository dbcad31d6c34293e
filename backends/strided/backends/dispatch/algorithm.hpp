#ifndef STRIDED_BACKENDS_DISPATCH_ALGORITHM_HPP
#define STRIDED_BACKENDS_DISPATCH_ALGORITHM_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// How a call runs, decided here only: route() picks one of the Route cases from the call's facts
// (work, tiles, whether its operands may go as one run), the options and the execution space.
// Every family (maps, full, axis and exact reductions, symmetrize) branches on its answer.

#include <cstddef>

#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"

namespace strided::detail {

/// Below this many element visits a host space runs the tiles on the calling thread: a parallel
/// region costs more than the work (Strided.jl's MINTHREADLENGTH).
inline constexpr std::size_t INLINE_ELEMENTS = std::size_t(1) << 15;

/// The device algorithm runs on `Exec` for this call. Spaces that the host cannot run on always
/// take it: the host algorithm's kernels are not even compiled for them.
template <class Exec>
bool uses_device_algorithm(const Options& options) {
  if constexpr (!compat::is_host_space_v<Exec>) {
    (void)options;
    return true;
  } else {
    return options.algorithm == Algorithm::Device;
  }
}

/// Whether a plan made with `options` runs under the device algorithm when executed on
/// Kokkos::DefaultExecutionSpace (what explain() shows launches for).
inline bool runs_on_device(const Options& options) {
  return uses_device_algorithm<Kokkos::DefaultExecutionSpace>(options);
}

/// The threads of `exec` that a host-algorithm call spreads over; 0 under the device algorithm.
/// Sizes the output tiles of column sweeps (plan_axes), which change no bits.
template <class Exec>
int host_threads(const Exec& exec, const Options& options) {
  if constexpr (!compat::is_host_space_v<Exec>) {
    (void)exec, (void)options;
    return 0;
  } else {
    return uses_device_algorithm<Exec>(options) ? 0 : compat::concurrency(exec);
  }
}

/// A host call of `work` element visits runs on the calling thread (host algorithm only).
template <class Exec>
bool runs_inline(const Exec& exec, const Options& options, std::size_t work) {
  if constexpr (!compat::is_host_space_v<Exec>) {
    (void)exec, (void)options, (void)work;
    return false;
  } else {
    return !uses_device_algorithm<Exec>(options) &&
           (work <= INLINE_ELEMENTS || compat::concurrency(exec) == 1);
  }
}

/// A call small enough to run as one run on the calling thread, without its tiles.
template <class Exec>
bool runs_as_one_run(const Exec& exec, const Options& options, std::size_t count) {
  return count <= INLINE_ELEMENTS && runs_inline(exec, options, count);
}

/// Where a call's work runs.
enum class Route {
  OneRun,      ///< one unit-stride run on the calling thread, without tiles (small dense calls)
  Inline,      ///< the tiles one after another on the calling thread
  TileChunks,  ///< host threads over chunks of tiles (RangePolicy)
  TileGrid,    ///< host threads over the grid of tiles (MDRangePolicy; maps only)
  Team,        ///< the team algorithm (GPUs; host spaces under Algorithm::Device)
};

/// What route() needs to know of a call.
struct CallFacts {
  std::size_t work = 0;   ///< element visits
  std::size_t tiles = 0;  ///< the plan's tiles (0 before planning: only OneRun is decided then)
  int rank = 1;           ///< the plan's rank (a grid needs 2 or more)
  /// The operands may go as one run (one dense layout, no overlap, and for a fold one tile):
  /// the same elements or bits as the tiles.
  bool one_run = false;
  /// A one run is only for calls of at most INLINE_ELEMENTS (element-wise: larger outputs
  /// want the plan's streaming stores); exact integers do not depend on the walk at all.
  bool one_run_capped = true;
  bool grid = false;  ///< the family has a grid form (maps)
};

/// The one routing decision. Device spaces, and host spaces under Algorithm::Device, take the
/// team algorithm; a host call too small for a parallel region runs on the calling thread (as
/// one run when its facts allow); larger ones spread their tiles over the host threads.
template <class Exec>
Route route(const Exec& exec, const Options& options, const CallFacts& call) {
  if (uses_device_algorithm<Exec>(options)) return Route::Team;
  const bool small = runs_inline(exec, options, call.work);
  if (call.one_run && small && (!call.one_run_capped || call.work <= INLINE_ELEMENTS))
    return Route::OneRun;
  if (call.tiles <= 1 || small) return Route::Inline;
  if (call.grid && options.tile_policy == TilePolicy::MDRange && call.rank >= 2)
    return Route::TileGrid;
  return Route::TileChunks;
}

}  // namespace strided::detail

#endif
