#ifndef STRIDED_BACKENDS_COMMON_STAGING_BUFFER_HPP
#define STRIDED_BACKENDS_COMMON_STAGING_BUFFER_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Grow-only buffers that synchronous calls stage through: copy_across's packed and arrived
// copies, the contraction's packed operands. Allocating per call would cost a cudaMalloc and a
// cudaFree, which waits for the whole device.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <mutex>

namespace strided::detail {

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

}  // namespace strided::detail

#endif
