#ifndef STRIDED_BASE_COMPAT_HPP
#define STRIDED_BASE_COMPAT_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The few places where Kokkos 3.4 and Kokkos 4.x/5.x differ, in one header. Everything else in
// Strided uses public Kokkos API common to all of them.

#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace strided::compat {

template <class T>
inline constexpr bool is_execution_space_v = Kokkos::is_execution_space<T>::value;

/// Profiling region for the lifetime of the object (Kokkos::Profiling::ScopedRegion is 4.x only).
/// The label is a reference so that callers can keep static strings: no allocation per call.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& label) { Kokkos::Profiling::pushRegion(label); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

/// Labelled fence of an instance (labels arrived in Kokkos 3.6).
template <class Exec>
void fence(const Exec& exec, [[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30600
  exec.fence(label);
#else
  exec.fence();
#endif
}

/// The calling thread may run work of `Exec` directly (a host execution space).
template <class Exec>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;

/// A default instance created once per Kokkos session: creating instances allocates in Kokkos 4+,
/// and calls without an instance promise no allocation. Released at Kokkos::finalize. Threads
/// may make their first instance-less calls at once: creation is under a lock, and later calls
/// read one acquire flag.
template <class Exec>
const Exec& default_instance() {
  struct Holder {
    std::mutex mutex;
    std::atomic<bool> ready{false};
    std::optional<Exec> instance;
  };
  static Holder holder;
  if (!holder.ready.load(std::memory_order_acquire)) {
    const std::lock_guard<std::mutex> lock(holder.mutex);
    if (!holder.ready.load(std::memory_order_relaxed)) {
      holder.instance.emplace();
      Kokkos::push_finalize_hook([] {
        const std::lock_guard<std::mutex> reset_lock(holder.mutex);
        holder.ready.store(false, std::memory_order_relaxed);
        holder.instance.reset();
      });
      holder.ready.store(true, std::memory_order_release);
    }
  }
  return *holder.instance;
}

/// Kokkos 4 with deprecated code keeps `static int concurrency(const OpenMP& = OpenMP())`; called
/// as exec.concurrency(), it builds a default instance, which allocates. Pass the instance there.
template <class Exec, class = void>
struct concurrency_takes_instance : std::false_type {};
template <class Exec>
struct concurrency_takes_instance<
    Exec, std::void_t<decltype(Exec::concurrency(std::declval<const Exec&>()))>> : std::true_type {
};

/// The thread count selected by the user's Kokkos initialization arguments; never allocates.
template <class Exec>
int concurrency(const Exec& exec) {
  if constexpr (concurrency_takes_instance<Exec>::value)
    return static_cast<int>(Exec::concurrency(exec));
  else
    return static_cast<int>(exec.concurrency());
}

/// Kokkos' automatic chunk size of a RangePolicy over [0, n) (Kokkos 3.4 through 4.x), computed
/// from `concurrency` above: Kokkos' own computation asks a default-constructed instance, which
/// allocates in Kokkos 4.
inline int auto_chunk_size(std::size_t n, int concurrency) {
  const std::int64_t work = static_cast<std::int64_t>(n),
                     threads = concurrency > 0 ? concurrency : 1;
  std::int64_t chunk = 1;
  while (chunk * 100 * threads < work) chunk *= 2;
  if (chunk < 128) {
    chunk = 1;
    while (chunk * 40 * threads < work && chunk < 128) chunk *= 2;
  }
  return static_cast<int>(chunk);
}

/// RangePolicy<Exec, Traits...> over [0, n) on `exec` with Kokkos' automatic chunk size, without
/// the per-call allocation of Kokkos 4's own.
template <class Exec, class... Traits>
auto range_policy(const Exec& exec, std::size_t n) {
  using Policy = Kokkos::RangePolicy<Exec, Traits..., Kokkos::IndexType<std::size_t>>;
  return Policy(exec, std::size_t(0), n, Kokkos::ChunkSize(auto_chunk_size(n, concurrency(exec))));
}

/// Page-locked host memory of the enabled GPU backend (host transfers from it are asynchronous
/// DMA), or HostSpace without one.
#if defined(KOKKOS_ENABLE_CUDA)
using HostPinnedSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
using HostPinnedSpace = Kokkos::HIPHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP)
using HostPinnedSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#else
using HostPinnedSpace = Kokkos::HostSpace;
#endif

}  // namespace strided::compat

#endif
