#ifndef STRIDED_BACKENDS_DEVICE_WORKSPACE_HPP
#define STRIDED_BACKENDS_DEVICE_WORKSPACE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strided/compat.hpp"

namespace strided::detail {

template <class Exec, class = void>
struct has_cuda_stream : std::false_type {};
template <class Exec>
struct has_cuda_stream<Exec, std::void_t<decltype(std::declval<const Exec&>().cuda_stream())>>
    : std::true_type {};
template <class Exec, class = void>
struct has_hip_stream : std::false_type {};
template <class Exec>
struct has_hip_stream<Exec, std::void_t<decltype(std::declval<const Exec&>().hip_stream())>>
    : std::true_type {};

/// The queue `exec` enqueues on (a CUDA or HIP stream), or null where Kokkos exposes none. Work
/// on one queue runs in order, so a buffer kept per queue can be refilled by the next call on
/// that queue without waiting for the previous call's kernels.
template <class Exec>
const void* queue_of([[maybe_unused]] const Exec& exec) {
  if constexpr (has_cuda_stream<Exec>::value)
    return static_cast<const void*>(exec.cuda_stream());
  else if constexpr (has_hip_stream<Exec>::value)
    return static_cast<const void*>(exec.hip_stream());
  else
    return nullptr;
}

/// Grow-only scratch in `Memory` for the calls enqueued on one queue: the plans their kernels
/// read and the partials of reductions. Allocating per call would cost a cudaMalloc/cudaFree
/// pair, and cudaFree waits for the whole device.
template <class Memory>
class QueueWorkspace {
 public:
  using bytes_view = Kokkos::View<unsigned char*, Memory>;

  explicit QueueWorkspace(bool ordered) : m_ordered(ordered) {}

  /// Held by a call from its first use of the workspace until its last kernel is enqueued.
  std::mutex& mutex() { return m_mutex; }
  /// Whether the queue orders the calls that share this workspace (else each call fences).
  bool ordered() const { return m_ordered; }

  /// At least `n` bytes in `Memory`. Growing waits for `exec` first: earlier kernels on the
  /// queue may still read the old buffer.
  template <class Exec>
  unsigned char* device_bytes(const Exec& exec, std::size_t n) {
    if (m_device.extent(0) < n) {
      compat::fence(exec, "strided::workspace: grow");
      m_device = bytes_view();
      m_device = bytes_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::workspace"),
                            n + n / 2);
    }
    return m_device.data();
  }
  /// Host-side staging for the plans (pageable: a copy from it has consumed it on return).
  unsigned char* host_bytes(std::size_t n) {
    if (m_host.size() < n) m_host.resize(n + n / 2);
    return m_host.data();
  }

 private:
  std::mutex m_mutex;
  bool m_ordered;
  bytes_view m_device;
  std::vector<unsigned char> m_host;
};

/// The workspace of `exec`'s queue in `Memory`, made on first use, released at Kokkos::finalize.
template <class Memory, class Exec>
QueueWorkspace<Memory>& workspace_of(const Exec& exec) {
  static std::mutex registry_mutex;
  static std::map<const void*, std::unique_ptr<QueueWorkspace<Memory>>>* registry = nullptr;
  const std::lock_guard<std::mutex> lock(registry_mutex);
  if (!registry) {
    registry = new std::map<const void*, std::unique_ptr<QueueWorkspace<Memory>>>();
    Kokkos::push_finalize_hook([] {
      const std::lock_guard<std::mutex> release(registry_mutex);
      delete registry;
      registry = nullptr;
    });
  }
  const void* queue = queue_of(exec);
  auto& slot = (*registry)[queue];
  if (!slot) slot = std::make_unique<QueueWorkspace<Memory>>(queue != nullptr);
  return *slot;
}

/// A grow-only buffer in `Memory` for calls that hold its mutex until they are done (copy_across:
/// synchronous), one per (Memory, Slot), released at Kokkos::finalize.
template <class Memory, int Slot>
class CachedBuffer {
 public:
  static CachedBuffer& get() {
    static CachedBuffer* buffer = nullptr;
    static std::mutex made;
    const std::lock_guard<std::mutex> lock(made);
    if (!buffer) {
      buffer = new CachedBuffer();
      Kokkos::push_finalize_hook([] {
        delete buffer;
        buffer = nullptr;
      });
    }
    return *buffer;
  }
  std::mutex& mutex() { return m_mutex; }
  /// At least `n` bytes; the caller holds mutex() and nothing it enqueued still uses them.
  unsigned char* bytes(std::size_t n) {
    if (m_bytes.extent(0) < n) {
      m_bytes = Kokkos::View<unsigned char*, Memory>();
      m_bytes = Kokkos::View<unsigned char*, Memory>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::staging"), n + n / 2);
    }
    return m_bytes.data();
  }

 private:
  std::mutex m_mutex;
  Kokkos::View<unsigned char*, Memory> m_bytes;
};

inline constexpr std::size_t WORKSPACE_ALIGN = 128;
inline constexpr std::size_t align_up(std::size_t n) {
  return (n + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

/// Plain values (plans, output indices) copied to `exec`'s memory for the kernels of one call,
/// followed by room for `extra_bytes` of the call's own (partials). Kernels hold pointers to
/// them, so functors stay small (Kokkos passes functors under 512 bytes as kernel arguments;
/// larger ones go through constant memory, one launch at a time on the whole device). On host
/// spaces the pointers are the values' own addresses: host kernels finish before the call
/// returns. Keep the object alive until the call's last kernel is enqueued.
template <class Exec, class... T>
class Staged {
  static constexpr bool on_host = compat::is_host_space_v<Exec>;
  using Memory = typename Exec::memory_space;

 public:
  Staged(const Exec& exec, std::size_t extra_bytes, const T&... values) : m_exec(exec) {
    static_assert((std::is_trivially_copyable_v<T> && ...), "strided: staged values are plain");
    if constexpr (on_host) {
      m_pointers = std::make_tuple(&values...);
      if (extra_bytes > 0) {
        m_host_extra.resize(extra_bytes + WORKSPACE_ALIGN);
        m_extra = m_host_extra.data();
      }
    } else {
      m_workspace = &workspace_of<Memory>(exec);
      m_lock = std::unique_lock<std::mutex>(m_workspace->mutex());
      const std::size_t sizes[] = {align_up(sizeof(T))...};
      std::size_t total = 0;
      for (std::size_t s : sizes) total += s;
      unsigned char* host = m_workspace->host_bytes(total);
      unsigned char* device = m_workspace->device_bytes(exec, total + extra_bytes);
      std::size_t at = 0;
      const auto place = [&](const auto& value) {
        using V = std::decay_t<decltype(value)>;
        std::memcpy(host + at, &value, sizeof(V));
        const V* on_device = reinterpret_cast<const V*>(device + at);
        at += align_up(sizeof(V));
        return on_device;
      };
      m_pointers = std::tuple<const T*...>{place(values)...};
      using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
      Kokkos::deep_copy(
          exec, Kokkos::View<unsigned char*, Memory, Unmanaged>(device, total),
          Kokkos::View<const unsigned char*, Kokkos::HostSpace, Unmanaged>(host, total));
      m_extra = device + total;
    }
  }
  ~Staged() {
    // A queue that does not order calls: the next call may overwrite the values any time.
    if (m_workspace && !m_workspace->ordered())
      compat::fence(m_exec, "strided::workspace: release");
  }
  Staged(const Staged&) = delete;
  Staged& operator=(const Staged&) = delete;

  template <std::size_t I>
  auto get() const {
    return std::get<I>(m_pointers);
  }
  /// The first `count` values of extra<U>() on the host, once every kernel enqueued on `exec`
  /// so far is done (host scratch, valid while this object lives).
  template <class U>
  U* to_host(std::size_t count) {
    if constexpr (on_host) {
      compat::fence(m_exec, "strided::workspace: partials");
      return extra<U>();
    } else {
      U* host = reinterpret_cast<U*>(m_workspace->host_bytes(count * sizeof(U)));
      using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
      Kokkos::deep_copy(m_exec, Kokkos::View<U*, Kokkos::HostSpace, Unmanaged>(host, count),
                        Kokkos::View<const U*, Memory, Unmanaged>(extra<U>(), count));
      compat::fence(m_exec, "strided::workspace: partials on the host");
      return host;
    }
  }
  /// The call's own bytes (at least extra_bytes, aligned), in `exec`'s memory.
  template <class U>
  U* extra() const {
    return reinterpret_cast<U*>(m_extra);
  }

 private:
  Exec m_exec;
  QueueWorkspace<Memory>* m_workspace = nullptr;
  std::unique_lock<std::mutex> m_lock;
  std::tuple<const T*...> m_pointers;
  std::vector<unsigned char> m_host_extra;
  unsigned char* m_extra = nullptr;
};

}  // namespace strided::detail

#endif
