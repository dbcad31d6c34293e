#ifndef STRIDED_BACKENDS_HOST_THREAD_STAGE_HPP
#define STRIDED_BACKENDS_HOST_THREAD_STAGE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <memory>

namespace strided::detail {

/// The calling host thread's stage of `Elements` elements of T, 64-byte aligned: allocated on
/// that thread's first use and kept (staged tiles are too large for a worker's stack). `Slot`
/// tells apart stages one kernel uses at once. Host code only.
template <class T, std::size_t Elements, std::size_t Slot = 0>
T* thread_stage() {
  struct alignas(64) Stage {
    T data[Elements];
  };
  thread_local const std::unique_ptr<Stage> stage = std::make_unique<Stage>();
  return stage->data;
}

}  // namespace strided::detail

#endif
