#ifndef STRIDED_BACKENDS_COMMON_KEPT_PLAN_HPP
#define STRIDED_BACKENDS_COMMON_KEPT_PLAN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "strided/base/compat.hpp"
#include "strided/core/kept_copies.hpp"

namespace strided::detail {

/// A key per memory space: the address of a variable of its own.
template <class Memory>
const void* memory_space_key() {
  static const char key = 0;
  return &key;
}

/// Kept plans that hold copies in a space's memory drop them at Kokkos::finalize: the memory
/// goes away with the spaces, and a plan may outlive them (a static, say).
inline void release_at_finalize(KeptCopies& copies) {
  static std::mutex mutex;
  static std::vector<std::weak_ptr<KeptCopies>>* live = nullptr;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!live) {
    live = new std::vector<std::weak_ptr<KeptCopies>>();
    Kokkos::push_finalize_hook([] {
      std::vector<std::shared_ptr<KeptCopies>> alive;
      {
        const std::lock_guard<std::mutex> release(mutex);
        for (const auto& weak : *live)
          if (auto held = weak.lock()) alive.push_back(std::move(held));
        delete live;
        live = nullptr;
      }
      for (const auto& held : alive) held->release();
    });
  }
  std::vector<std::weak_ptr<KeptCopies>> still;
  for (auto& weak : *live)
    if (!weak.expired()) still.push_back(std::move(weak));
  live->swap(still);
  live->push_back(copies.weak_from_this());
}

/// Where `exec`'s kernels read `value`, a part of a kept plan: in place on host spaces; in the
/// space's memory otherwise, copied there once, at the plan's first run on that space (the copy
/// is complete before this returns, so kernels on any queue may read it). Null when the plan
/// keeps no copies (`copies` null): the caller stages the value for its call.
template <class Exec, class T>
const T* kept_on(const Exec& exec, KeptCopies* copies, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>, "strided: kept values are plain");
  if constexpr (compat::is_host_space_v<Exec>) {
    return &value;
  } else {
    if (!copies) return nullptr;
    using Memory = typename Exec::memory_space;
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    const void* address = copies->find_or_make(memory_space_key<Memory>(), &value, [&] {
      using Bytes = Kokkos::View<unsigned char*, Memory>;
      auto bytes = std::make_shared<Bytes>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::kept_plan"), sizeof(T));
      Kokkos::deep_copy(exec,
                        Kokkos::View<unsigned char*, Memory, Unmanaged>(bytes->data(), sizeof(T)),
                        Kokkos::View<const unsigned char*, Kokkos::HostSpace, Unmanaged>(
                            reinterpret_cast<const unsigned char*>(&value), sizeof(T)));
      compat::fence(exec, "strided::kept_plan: copied once");
      release_at_finalize(*copies);
      const void* on_space = bytes->data();
      return std::pair<std::shared_ptr<void>, const void*>(std::move(bytes), on_space);
    });
    return static_cast<const T*>(address);
  }
}

/// The address of `value`'s member `member` in the copy of `value` at `copy` (a pointer into a
/// space's memory, which the host must not dereference).
template <class T, class M>
const M* member_of_copy(const T* copy, const T& value, const M& member) {
  if (!copy) return nullptr;
  const auto offset = reinterpret_cast<const unsigned char*>(&member) -
                      reinterpret_cast<const unsigned char*>(&value);
  return reinterpret_cast<const M*>(reinterpret_cast<const unsigned char*>(copy) + offset);
}

}  // namespace strided::detail

#endif
