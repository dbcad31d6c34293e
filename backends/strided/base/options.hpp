#ifndef STRIDED_BASE_OPTIONS_HPP
#define STRIDED_BASE_OPTIONS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Per-call settings. Every kernel, plan and make_plan takes an optional `Options` as its last
// argument; a call without one uses default_options(). Nothing a kernel reads while it runs is
// process-wide mutable state.

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strided/core/planner.hpp"

namespace strided {

/// Which algorithm runs the tiles of a plan. Results never depend on the choice.
enum class Algorithm {
  Auto,   ///< Host on host execution spaces, Device on the others (CUDA, HIP, ...)
  Host,   ///< chunks of consecutive tiles per thread; small calls run on the calling thread;
          ///< host execution spaces only (a device space runs Device)
  Device  ///< one tile per team (TeamPolicy), scratch-memory transposes, lanes across threads;
          ///< on a host space it runs the GPU algorithm there, so that it is tested without a GPU
};

/// How the host algorithm hands tiles to threads: chunks of consecutive tiles over a
/// RangePolicy, or the tile grid as a rank-3 MDRangePolicy. Same results either way.
enum class TilePolicy { Range, MDRange };

/// Where copy_across reorders the elements: the other side only streams a contiguous buffer.
enum class Staging {
  Auto,           ///< on the device side (the faster one); on the source side between hosts
  OnSource,       ///< pack permutes into the destination's memory order; unpack streams
  OnDestination,  ///< pack streams the source's memory order; unpack permutes
};

/// Expert planner settings (tile budget, cache line, largest tile, transpose rows, streaming
/// stores, gathering, a tile-shape override): see core/strided/core/planner.hpp. Tile shapes
/// decide the fold order of reductions, so reductions change bits with every field except
/// `stream_bytes`.
using PlannerOptions = detail::PlannerOptions;

/// Everything a call may be told. A plain value: copy it, keep it, pass it to any thread.
struct Options {
  Algorithm algorithm = Algorithm::Auto;
  PlannerOptions planner{};
  TilePolicy tile_policy = TilePolicy::Range;
  /// Sends every copy_into through copy_across (pack, one contiguous transfer, unpack), even
  /// when one execution space reaches both operands: tests the cross-space path on the host.
  bool stage_copies = false;
  /// Where copy_across (and copy_into through it) reorders the elements.
  Staging staging = Staging::Auto;
};

namespace detail {

/// The process defaults: an atomic pointer to an immutable Options. Every value ever set stays
/// alive until exit, so a reader's snapshot never dangles and reading takes no lock.
class DefaultOptions {
 public:
  static DefaultOptions& instance() {
    static DefaultOptions defaults;
    return defaults;
  }
  Options get() const {
    const Options* current = m_current.load(std::memory_order_acquire);
    return current ? *current : Options{};
  }
  void set(const Options& options) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_kept.push_back(std::make_unique<const Options>(options));
    m_current.store(m_kept.back().get(), std::memory_order_release);
  }

 private:
  std::atomic<const Options*> m_current{nullptr};
  std::mutex m_mutex;
  std::vector<std::unique_ptr<const Options>> m_kept;
};

}  // namespace detail

/// The options of calls made without an `Options` argument: `Options{}` until
/// set_default_options. Thread-safe (one atomic load); returns a copy.
inline Options default_options() {
  return detail::DefaultOptions::instance().get();
}

/// Replaces the defaults for calls that start after it returns; calls already running keep the
/// options they started with. Thread-safe. Each call keeps its value until the program exits
/// (set it once at start-up, not per call). A `planner.block_override` array must outlive every
/// call that uses these defaults.
inline void set_default_options(const Options& options) {
  detail::DefaultOptions::instance().set(options);
}

namespace detail {

/// Whether the last of `A...` is an Options (variadic kernels take it last, after the operands).
template <class... A>
constexpr bool ends_with_options() {
  if constexpr (sizeof...(A) == 0)
    return false;
  else
    return std::is_same_v<std::decay_t<std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>>,
                          Options>;
}

template <class F, class Tuple, std::size_t... I>
decltype(auto) call_with_front(F&& f, const Options& options, const Tuple& args,
                               std::index_sequence<I...>) {
  return f(options, std::get<I>(args)...);
}

/// Calls f(options, operands...) where `args` is `operands..., [options]` (default_options()
/// when the last argument is not an Options).
template <class F, class... A>
decltype(auto) with_trailing_options(F&& f, const A&... args) {
  if constexpr (ends_with_options<A...>()) {
    const auto all = std::forward_as_tuple(args...);
    return call_with_front(f, std::get<sizeof...(A) - 1>(all), all,
                           std::make_index_sequence<sizeof...(A) - 1>{});
  } else {
    return f(default_options(), args...);
  }
}

}  // namespace detail
}  // namespace strided

#endif
