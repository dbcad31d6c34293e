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
#include <immintrin.h>
#define STRIDED_HAVE_STREAM_STORES 1
#else
#define STRIDED_HAVE_STREAM_STORES 0
#endif

// Bytes of one streaming store: the widest vector the target has. A line written by several
// narrower stores with loads between them streamed at 0.6x the speed of whole-line stores in
// rows of 2 KiB on AMD Zen 5 (docs/performance.md, CPU pass 9).
#if STRIDED_HAVE_STREAM_STORES && defined(__AVX512F__)
#define STRIDED_STREAM_BYTES 64
#elif STRIDED_HAVE_STREAM_STORES && defined(__AVX__)
#define STRIDED_STREAM_BYTES 32
#else
#define STRIDED_STREAM_BYTES 16
#endif

namespace strided::detail {

template <class T>
inline constexpr bool can_stream_v = STRIDED_HAVE_STREAM_STORES &&
                                     (std::is_same_v<T, double> || std::is_same_v<T, float>);

/// Elements one streaming store writes.
template <class T>
inline constexpr std::size_t stream_width = sizeof(T) < STRIDED_STREAM_BYTES
                                                ? STRIDED_STREAM_BYTES / sizeof(T)
                                                : 1;

/// Whether p can take a streaming store (aligned to its width).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool stream_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % STRIDED_STREAM_BYTES == 0;
}

#if STRIDED_HAVE_STREAM_STORES
/// Stores the 16 bytes at v to p (16-byte aligned), bypassing the caches; T is float or double.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void stream_store16(T* p, const T* v) {
  if constexpr (std::is_same_v<T, double>)
    _mm_stream_pd(p, _mm_loadu_pd(v));
  else
    _mm_stream_ps(p, _mm_loadu_ps(v));
}
#endif

/// Stores v[0 .. stream_width) at p (stream_aligned), bypassing the caches.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void stream_store(T* p, const T* v) {
#if STRIDED_HAVE_STREAM_STORES && STRIDED_STREAM_BYTES == 64
  if constexpr (std::is_same_v<T, double>)
    _mm512_stream_pd(p, _mm512_loadu_pd(v));
  else if constexpr (std::is_same_v<T, float>)
    _mm512_stream_ps(p, _mm512_loadu_ps(v));
  else
#elif STRIDED_HAVE_STREAM_STORES && STRIDED_STREAM_BYTES == 32
  if constexpr (std::is_same_v<T, double>)
    _mm256_stream_pd(p, _mm256_loadu_pd(v));
  else if constexpr (std::is_same_v<T, float>)
    _mm256_stream_ps(p, _mm256_loadu_ps(v));
  else
#elif STRIDED_HAVE_STREAM_STORES
  if constexpr (can_stream_v<T>)
    stream_store16(p, v);
  else
#endif
    for (std::size_t k = 0; k < stream_width<T>; ++k) p[k] = v[k];
}

/// Stores v[0 .. N) at d (one block row), bypassing the caches where d allows: stores of the
/// widest width where d is aligned to it, 16-byte ones where d is only 16-byte aligned (rows of
/// a std::vector), plain ones elsewhere and for other types.
template <std::size_t N, class T>
KOKKOS_FORCEINLINE_FUNCTION void stream_row(T* d, const T* v) {
#if STRIDED_HAVE_STREAM_STORES
  if constexpr (can_stream_v<T> && N % stream_width<T> == 0) {
    if (stream_aligned(d)) {
      for (std::size_t k = 0; k < N; k += stream_width<T>) stream_store(d + k, v + k);
      return;
    }
    if (reinterpret_cast<std::uintptr_t>(d) % 16 == 0) {
      for (std::size_t k = 0; k < N; k += 16 / sizeof(T)) stream_store16(d + k, v + k);
      return;
    }
  }
#endif
  for (std::size_t k = 0; k < N; ++k) d[k] = v[k];
}

/// Orders this thread's streaming stores before anything that follows.
KOKKOS_FORCEINLINE_FUNCTION void stream_fence() {
#if STRIDED_HAVE_STREAM_STORES
  _mm_sfence();
#endif
}

}  // namespace strided::detail

#endif
