#ifndef STRIDED_BACKENDS_COMMON_STREAM_STORE_HPP
#define STRIDED_BACKENDS_COMMON_STREAM_STORE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Non-temporal ("streaming") stores for outputs larger than the caches: whole lines are written
// without first being read (no read-for-ownership), which saves a third of a copy's traffic.
// x86 hosts only; everywhere else (and in device code) ordinary stores are used.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#include <emmintrin.h>
#define STRIDED_HAVE_STREAM_STORES 1
#else
#define STRIDED_HAVE_STREAM_STORES 0
#endif

namespace strided::detail {

template <class T>
inline constexpr bool can_stream_v = STRIDED_HAVE_STREAM_STORES &&
                                     (std::is_same_v<T, double> || std::is_same_v<T, float>);

/// Elements one 16-byte streaming store writes.
template <class T>
inline constexpr std::size_t stream_width = 16 / sizeof(T);

template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool stream_aligned(const T* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0;
}

/// Stores v[0 .. stream_width) at the 16-byte aligned p, bypassing the caches.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void stream_store(T* p, const T* v) {
#if STRIDED_HAVE_STREAM_STORES
  if constexpr (std::is_same_v<T, double>)
    _mm_stream_pd(p, _mm_set_pd(v[1], v[0]));
  else if constexpr (std::is_same_v<T, float>)
    _mm_stream_ps(p, _mm_set_ps(v[3], v[2], v[1], v[0]));
  else
#endif
    for (std::size_t k = 0; k < 16 / sizeof(T); ++k) p[k] = v[k];
}

/// Orders this thread's streaming stores before anything that follows.
KOKKOS_FORCEINLINE_FUNCTION void stream_fence() {
#if STRIDED_HAVE_STREAM_STORES
  _mm_sfence();
#endif
}

}  // namespace strided::detail

#endif
