#ifndef STRIDED_PERF_STREAM_KERNELS_HPP
#define STRIDED_PERF_STREAM_KERNELS_HPP

// STREAM-like kernels that measure the machine's bandwidth limits: copy and a + b with plain
// and with non-temporal stores, and a read-only sum. Shared by strided-bench (limit/*) and
// strided-report, so both judge the library against the same loops. Each call ends with a fence.
#include <Kokkos_Core.hpp>
#include <cstddef>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace strided_perf {

using StreamExec = Kokkos::DefaultHostExecutionSpace;

/// Elements per work item of the non-temporal and read kernels: a multiple of 8, and small
/// enough that a few hundred items keep every thread busy on the smallest arrays used.
inline constexpr std::size_t stream_block = 1024;

namespace detail {
/// c[i], c[i+1] = a (+ b when Add) at i, i+1, stored around the caches where the ISA allows;
/// the pointers are 16-byte aligned.
template <bool Add>
KOKKOS_FORCEINLINE_FUNCTION void stream_pair(const double* a, const double* b, double* c,
                                             std::size_t i) {
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)  // SSE2 on the host pass only
  __m128d x = _mm_load_pd(a + i);
  if constexpr (Add) x = _mm_add_pd(x, _mm_load_pd(b + i));
  _mm_stream_pd(c + i, x);
#else
  for (std::size_t k = i; k < i + 2; ++k) c[k] = Add ? a[k] + b[k] : a[k];
#endif
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

/// c = a with non-temporal stores; n a multiple of stream_block, a and c 16-byte aligned.
inline void stream_copy_nt(const double* a, double* c, std::size_t n) {
  Kokkos::parallel_for(
      "stream::copy_nt", Kokkos::RangePolicy<StreamExec>(0, n / stream_block),
      KOKKOS_LAMBDA(std::size_t b) {
        for (std::size_t i = b * stream_block; i < (b + 1) * stream_block; i += 2)
          detail::stream_pair<false>(a, nullptr, c, i);
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

/// c = a + b with non-temporal stores; n a multiple of stream_block, a, b, c 16-byte aligned.
inline void stream_add_nt(const double* a, const double* b, double* c, std::size_t n) {
  Kokkos::parallel_for(
      "stream::add_nt", Kokkos::RangePolicy<StreamExec>(0, n / stream_block),
      KOKKOS_LAMBDA(std::size_t k) {
        for (std::size_t i = k * stream_block; i < (k + 1) * stream_block; i += 2)
          detail::stream_pair<true>(a, b, c, i);
        detail::stream_fence();
      });
  Kokkos::fence();
}

}  // namespace strided_perf

#endif
