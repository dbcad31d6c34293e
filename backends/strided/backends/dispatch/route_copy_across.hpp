#ifndef STRIDED_BACKENDS_DISPATCH_ROUTE_COPY_ACROSS_HPP
#define STRIDED_BACKENDS_DISPATCH_ROUTE_COPY_ACROSS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// How a copy between two memory spaces runs: which side reorders, where each side stages, and
// which instance carries the transfer. The caller (copy.hpp's copy_across) has checked the
// operands and supplies the two element-wise copies (pack and unpack).

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <mutex>
#include <type_traits>

#include "strided/backends/common/staging_buffer.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"

namespace strided::detail {

/// Where one side of copy_across stages: pinned host memory when that side is the host and the
/// other is not, else the side's own memory.
template <class Memory, class Other>
using staging_memory_t = std::conditional_t<
    Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, Memory>::accessible &&
        !Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, Other>::accessible,
    compat::HostPinnedSpace, Memory>;

/// The side that reorders: the source's when the destination's instance is a host space or the
/// source's is not (the permuted copy then runs on the device side of a host <-> device copy).
template <class DstExec, class SrcExec>
Staging staging_side(Staging asked) {
  if (asked != Staging::Auto) return asked;
  return compat::is_host_space_v<DstExec> || !compat::is_host_space_v<SrcExec>
             ? Staging::OnSource
             : Staging::OnDestination;
}

/// Runs a copy of `n` elements of T from SrcMemory to DstMemory through two staging buffers (the
/// library's, grow-only, held until the copy is done): `pack(packed)` fills the source side's
/// buffer (a raw T* in SrcStage), the transfer runs on the side that is not the host (Kokkos
/// copies through that device), then `unpack(arrived)` reads the destination side's buffer.
template <class T, class SrcMemory, class DstMemory, class DstExec, class SrcExec, class Pack,
          class Unpack>
void route_copy_across(const DstExec& dst_exec, const SrcExec& src_exec, std::size_t n,
                       const Pack& pack, const Unpack& unpack) {
  using SrcStage = staging_memory_t<SrcMemory, DstMemory>;
  using DstStage = staging_memory_t<DstMemory, SrcMemory>;
  auto& packed_buffer = CachedBuffer<SrcStage, 0>::get();
  auto& arrived_buffer = CachedBuffer<DstStage, 1>::get();
  const std::scoped_lock hold(packed_buffer.mutex(), arrived_buffer.mutex());
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  const Kokkos::View<T*, SrcStage, Unmanaged> packed(
      reinterpret_cast<T*>(packed_buffer.bytes(n * sizeof(T))), n);
  const Kokkos::View<T*, DstStage, Unmanaged> arrived(
      reinterpret_cast<T*>(arrived_buffer.bytes(n * sizeof(T))), n);
  pack(packed.data(), SrcStage());
  compat::fence(src_exec, "strided::copy_across: packed");
  if constexpr (compat::is_host_space_v<DstExec>) {
    Kokkos::deep_copy(src_exec, arrived, packed);
    compat::fence(src_exec, "strided::copy_across: transferred");
  } else {
    Kokkos::deep_copy(dst_exec, arrived, packed);
  }
  unpack(arrived.data(), DstStage());
  compat::fence(dst_exec, "strided::copy_across: unpacked");
}

}  // namespace strided::detail

#endif
