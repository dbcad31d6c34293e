#ifndef STRIDED_BACKENDS_COMMON_WORKSPACE_HPP
#define STRIDED_BACKENDS_COMMON_WORKSPACE_HPP

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

#include "strided/base/compat.hpp"

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

#if defined(KOKKOS_ENABLE_CUDA)
#define STRIDED_IMPL_GPU_RUNTIME(name) cuda##name
#elif defined(KOKKOS_ENABLE_HIP)
#define STRIDED_IMPL_GPU_RUNTIME(name) hip##name
#endif

/// A point in a CUDA or HIP queue: recorded after a copy, waited for before the copy's source is
/// written again. Where the runtime refuses an event (or there is none), the queue is fenced
/// instead.
template <class Exec>
class QueueEvent {
 public:
  QueueEvent() = default;
  QueueEvent(const QueueEvent&) = delete;
  QueueEvent& operator=(const QueueEvent&) = delete;
#ifdef STRIDED_IMPL_GPU_RUNTIME
  using Event = STRIDED_IMPL_GPU_RUNTIME(Event_t);
  using Stream = STRIDED_IMPL_GPU_RUNTIME(Stream_t);
  ~QueueEvent() {
    if (m_event) (void)STRIDED_IMPL_GPU_RUNTIME(EventDestroy)(m_event);
  }
  void record(const Exec& exec) {
    if (const void* queue = queue_of(exec)) {
      if (!m_event && STRIDED_IMPL_GPU_RUNTIME(EventCreateWithFlags)(
                          &m_event, STRIDED_IMPL_GPU_RUNTIME(EventDisableTiming)) !=
                          STRIDED_IMPL_GPU_RUNTIME(Success))
        m_event = nullptr;
      m_recorded = m_event && STRIDED_IMPL_GPU_RUNTIME(EventRecord)(
                                  m_event, static_cast<Stream>(const_cast<void*>(queue))) ==
                                  STRIDED_IMPL_GPU_RUNTIME(Success);
    }
    if (!m_recorded) compat::fence(exec, "strided::workspace: staged");
  }
  void wait() {
    if (m_recorded) (void)STRIDED_IMPL_GPU_RUNTIME(EventSynchronize)(m_event);
    m_recorded = false;
  }

 private:
  Event m_event = nullptr;
#else
  void record(const Exec& exec) {
    compat::fence(exec, "strided::workspace: staged");
  }
  void wait() {}

 private:
#endif
  bool m_recorded = false;
};
#undef STRIDED_IMPL_GPU_RUNTIME

/// Grow-only scratch for the calls enqueued on one queue of `Exec`: the plans their kernels read
/// (in the space's memory, sent from host staging) and the partials of reductions. Allocating
/// per call would cost a cudaMalloc/cudaFree pair, and cudaFree waits for the whole device.
template <class Exec>
class QueueWorkspace {
  using Memory = typename Exec::memory_space;
  /// Page-locked host memory of the GPU backend: copies from it to the device run
  /// asynchronously on the queue (a copy from pageable memory first waits for the queue's earlier
  /// work).
  using Pinned = compat::HostPinnedSpace;
  static constexpr bool pinned =
      !compat::is_host_space_v<Exec> && !std::is_same_v<Pinned, Kokkos::HostSpace>;

 public:
  using bytes_view = Kokkos::View<unsigned char*, Memory>;

  explicit QueueWorkspace(bool ordered) : m_ordered(ordered) {}

  /// Held by a call from its first use of the workspace until its last kernel is enqueued.
  std::mutex& mutex() { return m_mutex; }
  /// Whether the queue orders the calls that share this workspace (else each call fences).
  bool ordered() const { return m_ordered; }

  /// At least `n` bytes in `Memory`. Growing waits for `exec` first: earlier kernels on the
  /// queue may still read the old buffer.
  unsigned char* device_bytes(const Exec& exec, std::size_t n) {
    if (m_device.extent(0) < n) {
      compat::fence(exec, "strided::workspace: grow");
      m_device = bytes_view();
      m_device = bytes_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::workspace"),
                            n + n / 2);
    }
    return m_device.data();
  }
  /// Host bytes to fill with `n` bytes for the next send(). Pinned where the backend has it: a
  /// ring of STAGING_SLOTS buffers, each reused once its last copy has left it (its event), so
  /// that a call does not wait for the kernels of the calls before it.
  unsigned char* staging(std::size_t n) {
    if constexpr (pinned) {
      Slot& slot = m_slots[m_next];
      slot.sent.wait();
      if (slot.bytes.extent(0) < n) {
        slot.bytes = Kokkos::View<unsigned char*, Pinned>();
        slot.bytes = Kokkos::View<unsigned char*, Pinned>(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::staging"), n + n / 2);
      }
      return slot.bytes.data();
    } else {
      return host_bytes(n);
    }
  }
  /// Copies the `n` bytes filled at staging() to `device`, in order on `exec`'s queue.
  void send(const Exec& exec, unsigned char* device, std::size_t n) {
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    const Kokkos::View<unsigned char*, Memory, Unmanaged> to(device, n);
    if constexpr (pinned) {
      Slot& slot = m_slots[m_next];
      m_next = (m_next + 1) % STAGING_SLOTS;
      Kokkos::deep_copy(
          exec, to, Kokkos::View<const unsigned char*, Pinned, Unmanaged>(slot.bytes.data(), n));
      slot.sent.record(exec);
    } else {
      // From pageable memory: the copy has consumed the bytes when it returns.
      Kokkos::deep_copy(
          exec, to,
          Kokkos::View<const unsigned char*, Kokkos::HostSpace, Unmanaged>(m_host.data(), n));
    }
  }
  /// Pageable host scratch (partials brought back before a fence).
  unsigned char* host_bytes(std::size_t n) {
    if (m_host.size() < n) m_host.resize(n + n / 2);
    return m_host.data();
  }

 private:
  static constexpr unsigned STAGING_SLOTS = 8;
  struct Slot {
    Kokkos::View<unsigned char*, Pinned> bytes;
    QueueEvent<Exec> sent;
  };

  std::mutex m_mutex;
  bool m_ordered;
  bytes_view m_device;
  std::vector<unsigned char> m_host;
  Slot m_slots[pinned ? STAGING_SLOTS : 1];
  unsigned m_next = 0;
};

/// The workspace of `exec`'s queue, made on first use, released at Kokkos::finalize.
template <class Exec>
QueueWorkspace<Exec>& workspace_of(const Exec& exec) {
  static std::mutex registry_mutex;
  static std::map<const void*, std::unique_ptr<QueueWorkspace<Exec>>>* registry = nullptr;
  const std::lock_guard<std::mutex> lock(registry_mutex);
  if (!registry) {
    registry = new std::map<const void*, std::unique_ptr<QueueWorkspace<Exec>>>();
    Kokkos::push_finalize_hook([] {
      const std::lock_guard<std::mutex> release(registry_mutex);
      delete registry;
      registry = nullptr;
    });
  }
  const void* queue = queue_of(exec);
  auto& slot = (*registry)[queue];
  if (!slot) slot = std::make_unique<QueueWorkspace<Exec>>(queue != nullptr);
  return *slot;
}

inline constexpr std::size_t WORKSPACE_ALIGN = 128;
inline constexpr std::size_t align_up(std::size_t n) {
  return (n + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

/// Plain values (plans, output indices) copied to `exec`'s memory for the kernels of one call,
/// followed by room for `extra_bytes` of the call's own (partials). Kernels hold pointers to
/// them, so functors stay small (Kokkos passes functors under 512 bytes as kernel arguments;
/// larger ones go through constant memory, one launch at a time on the whole device). A value a
/// kept plan already holds in that memory (`kept`, from kept_on) is not copied again. On host
/// spaces the pointers are the values' own addresses: host kernels finish before the call
/// returns. Keep the object alive until the call's last kernel is enqueued.
template <class Exec, class... T>
class Staged {
  static constexpr bool on_host = compat::is_host_space_v<Exec>;

 public:
  Staged(const Exec& exec, std::size_t extra_bytes, const T&... values)
      : Staged(exec, extra_bytes, std::tuple<const T*...>{}, values...) {}
  Staged(const Exec& exec, std::size_t extra_bytes, const std::tuple<const T*...>& kept,
         const T&... values)
      : m_exec(exec) {
    static_assert((std::is_trivially_copyable_v<T> && ...), "strided: staged values are plain");
    if constexpr (on_host) {
      m_pointers = std::make_tuple(&values...);
      if (extra_bytes > 0) {
        m_host_extra.resize(extra_bytes + WORKSPACE_ALIGN);
        m_extra = m_host_extra.data();
      }
    } else {
      stage(std::index_sequence_for<T...>{}, extra_bytes, kept, values...);
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
  /// Values [first, first + count) of extra<U>() on the host, once every kernel enqueued on
  /// `exec` so far is done (host scratch, valid while this object lives).
  template <class U>
  U* to_host(std::size_t count, std::size_t first = 0) {
    if constexpr (on_host) {
      compat::fence(m_exec, "strided::workspace: partials");
      return extra<U>() + first;
    } else {
      using Memory = typename Exec::memory_space;
      U* host = reinterpret_cast<U*>(m_workspace->host_bytes(count * sizeof(U)));
      using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
      Kokkos::deep_copy(m_exec, Kokkos::View<U*, Kokkos::HostSpace, Unmanaged>(host, count),
                        Kokkos::View<const U*, Memory, Unmanaged>(extra<U>() + first, count));
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
  template <std::size_t... I>
  void stage(std::index_sequence<I...>, std::size_t extra_bytes,
             const std::tuple<const T*...>& kept, const T&... values) {
    std::size_t total = 0;
    ((total += std::get<I>(kept) ? 0 : align_up(sizeof(T))), ...);
    if (total == 0 && extra_bytes == 0) {  // all kept: nothing of this call's own
      m_pointers = kept;
      return;
    }
    m_workspace = &workspace_of(m_exec);
    m_lock = std::unique_lock<std::mutex>(m_workspace->mutex());
    unsigned char* device = m_workspace->device_bytes(m_exec, total + extra_bytes);
    unsigned char* host = total > 0 ? m_workspace->staging(total) : nullptr;
    std::size_t at = 0;
    const auto place = [&](const auto* keep, const auto& value) {
      using V = std::decay_t<decltype(value)>;
      if (keep) return keep;
      std::memcpy(host + at, &value, sizeof(V));
      const V* on_device = reinterpret_cast<const V*>(device + at);
      at += align_up(sizeof(V));
      return on_device;
    };
    m_pointers = std::tuple<const T*...>{place(std::get<I>(kept), values)...};
    if (total > 0) m_workspace->send(m_exec, device, total);
    m_extra = device + total;
  }

  Exec m_exec;
  QueueWorkspace<Exec>* m_workspace = nullptr;
  std::unique_lock<std::mutex> m_lock;
  std::tuple<const T*...> m_pointers;
  std::vector<unsigned char> m_host_extra;
  unsigned char* m_extra = nullptr;
};

}  // namespace strided::detail

#endif
