#ifndef STRIDED_BACKENDS_DISPATCH_ALGORITHM_HPP
#define STRIDED_BACKENDS_DISPATCH_ALGORITHM_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The two decisions every kernel makes, each made here only: which algorithm runs the tiles,
// and whether a host call is too small for a parallel region.

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

}  // namespace strided::detail

#endif
