#ifndef STRIDED_PERF_STREAM_KERNELS_HPP
#define STRIDED_PERF_STREAM_KERNELS_HPP

// STREAM-like kernels that measure the machine's bandwidth limits: copy and a + b with plain
// and with non-temporal stores, and a read-only sum. Shared by strided-bench (limit/*) and
// strided-report, so both judge the library against the same loops. Each call ends with a fence.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace strided_perf {

using StreamExec = Kokkos::DefaultHostExecutionSpace;

/// Elements per work item of the non-temporal and read kernels: a multiple of 8 (a line), large
/// enough that the fence ending each item costs nothing, and small enough that a few hundred
/// items keep every thread busy on the arrays used (256 MiB: 2048 items). A 1-thread
/// non-temporal copy with a fence every 8 KiB (items of 1024) ran at 31.7 GB/s, and at 34.3 with
/// items of 65536 (AMD EPYC Zen 4 guest, 32-byte stores).
inline constexpr std::size_t stream_block = 16384;

namespace detail {
/// One line, c[i .. i + 8) = a (+ b when Add) there, stored around the caches where the ISA
/// allows, with its widest stores back to back; c 64-byte aligned. A line stored as four 16-byte
/// stores held a 1-thread copy at 28 GB/s where 32-byte stores reached 34 (AMD EPYC Zen 4 guest
/// with AVX2; docs/performance.md, CPU pass 23): the limits are the machine's, not an SSE2 loop's.
template <bool Add>
KOKKOS_FORCEINLINE_FUNCTION void stream_line(const double* a, const double* b, double* c,
                                             std::size_t i) {
#if defined(__AVX512F__) && !defined(__CUDA_ARCH__)
  __m512d x = _mm512_loadu_pd(a + i);
  if constexpr (Add) x = _mm512_add_pd(x, _mm512_loadu_pd(b + i));
  _mm512_stream_pd(c + i, x);
#elif defined(__AVX__) && !defined(__CUDA_ARCH__)
  __m256d x = _mm256_loadu_pd(a + i), y = _mm256_loadu_pd(a + i + 4);
  if constexpr (Add) {
    x = _mm256_add_pd(x, _mm256_loadu_pd(b + i));
    y = _mm256_add_pd(y, _mm256_loadu_pd(b + i + 4));
  }
  _mm256_stream_pd(c + i, x);
  _mm256_stream_pd(c + i + 4, y);
#elif defined(__SSE2__) && !defined(__CUDA_ARCH__)
  __m128d x[4];
  for (int h = 0; h < 4; ++h) {
    x[h] = _mm_loadu_pd(a + i + 2 * h);
    if constexpr (Add) x[h] = _mm_add_pd(x[h], _mm_loadu_pd(b + i + 2 * h));
  }
  for (int h = 0; h < 4; ++h) _mm_stream_pd(c + i + 2 * h, x[h]);
#else
  for (std::size_t k = i; k < i + 8; ++k) c[k] = Add ? a[k] + b[k] : a[k];
#endif
}
/// The line stores need a destination on a line boundary (Kokkos' allocations are).
inline void check_line_aligned(const double* c) {
  if (reinterpret_cast<std::uintptr_t>(c) % 64 != 0)
    throw std::invalid_argument(
        "strided_perf: a non-temporal stream kernel's output must be 64-byte aligned");
}
/// Orders this thread's non-temporal stores before whatever synchronizes with other threads.
KOKKOS_FORCEINLINE_FUNCTION void stream_fence() {
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  _mm_sfence();
#endif
}
}  // namespace detail

/// c = a.
inline void stream_copy(const double* a, double* c, std::size_t n) {
  Kokkos::parallel_for(
      "stream::copy", Kokkos::RangePolicy<StreamExec>(0, n),
      KOKKOS_LAMBDA(std::size_t i) { c[i] = a[i]; });
  Kokkos::fence();
}

/// c = a with non-temporal stores; n a multiple of stream_block, c 64-byte aligned.
inline void stream_copy_nt(const double* a, double* c, std::size_t n) {
  detail::check_line_aligned(c);
  Kokkos::parallel_for(
      "stream::copy_nt", Kokkos::RangePolicy<StreamExec>(0, n / stream_block),
      KOKKOS_LAMBDA(std::size_t b) {
        for (std::size_t i = b * stream_block; i < (b + 1) * stream_block; i += 8)
          detail::stream_line<false>(a, nullptr, c, i);
        detail::stream_fence();
      });
  Kokkos::fence();
}

/// Sum of a with 8 independent accumulators per block, so that the loop is bound by memory,
/// not by the latency of one chain of additions; n a multiple of stream_block.
inline double stream_read(const double* a, std::size_t n) {
  double total = 0;
  Kokkos::parallel_reduce(
      "stream::read", Kokkos::RangePolicy<StreamExec>(0, n / stream_block),
      KOKKOS_LAMBDA(std::size_t b, double& acc) {
        double part[8] = {};
        for (std::size_t i = b * stream_block; i < (b + 1) * stream_block; i += 8)
          for (std::size_t l = 0; l < 8; ++l) part[l] += a[i + l];
        acc += ((part[0] + part[1]) + (part[2] + part[3])) +
               ((part[4] + part[5]) + (part[6] + part[7]));
      },
      total);
  return total;
}

/// c = a + b.
inline void stream_add(const double* a, const double* b, double* c, std::size_t n) {
  Kokkos::parallel_for(
      "stream::add", Kokkos::RangePolicy<StreamExec>(0, n),
      KOKKOS_LAMBDA(std::size_t i) { c[i] = a[i] + b[i]; });
  Kokkos::fence();
}

/// c = a + b with non-temporal stores; n a multiple of stream_block, c 64-byte aligned.
inline void stream_add_nt(const double* a, const double* b, double* c, std::size_t n) {
  detail::check_line_aligned(c);
  Kokkos::parallel_for(
      "stream::add_nt", Kokkos::RangePolicy<StreamExec>(0, n / stream_block),
      KOKKOS_LAMBDA(std::size_t k) {
        for (std::size_t i = k * stream_block; i < (k + 1) * stream_block; i += 8)
          detail::stream_line<true>(a, b, c, i);
        detail::stream_fence();
      });
  Kokkos::fence();
}

}  // namespace strided_perf

#endif
