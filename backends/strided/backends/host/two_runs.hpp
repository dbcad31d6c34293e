#ifndef STRIDED_BACKENDS_HOST_TWO_RUNS_HPP
#define STRIDED_BACKENDS_HOST_TWO_RUNS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Host code only: one vector of elements from the end of one unit-stride run and the start of
// the next, for a destination line that two source rows fill. Filled element by element, the
// line went through the stack to its vector store, which then waited on a failed store
// forwarding: rows of 16 doubles streamed 16 bytes past a line took 1.3x the time of the two
// masked loads below (AMD EPYC Zen 4, AVX-512).

#include <cstddef>
#include <type_traits>

#include "strided/backends/host/simd_transpose.hpp"  // the x86 intrinsics, STRIDED_SIMD_INLINE

namespace strided::detail::simd {

/// out[w] = w < k ? a[w] : b[w] for w in [0, W), with 0 < k < W: a's last k elements of a run
/// and then the next run's first W - k (b points k elements before that run). Masked loads
/// touch no element outside the two runs.
template <std::size_t W, class T>
STRIDED_SIMD_INLINE void load_two_runs(const T* a, std::size_t k, const T* b,
                                       std::remove_cv_t<T>* out) {
#if STRIDED_SIMD_X86 && defined(__AVX2__)
  using U = std::remove_cv_t<T>;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<U, double> && W == 8) {
    const auto lo = static_cast<__mmask8>((1u << k) - 1);
    _mm512_storeu_pd(
        out, _mm512_mask_loadu_pd(_mm512_maskz_loadu_pd(lo, a), static_cast<__mmask8>(~lo), b));
    return;
  }
  if constexpr (std::is_same_v<U, float> && W == 16) {
    const auto lo = static_cast<__mmask16>((1u << k) - 1);
    _mm512_storeu_ps(
        out, _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(lo, a), static_cast<__mmask16>(~lo), b));
    return;
  }
#endif
  if constexpr (std::is_same_v<U, double> && W == 4) {
    const __m256i lo = _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(k)),
                                          _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256i hi = _mm256_xor_si256(lo, _mm256_set1_epi64x(-1));
    _mm256_storeu_pd(out, _mm256_or_pd(_mm256_maskload_pd(a, lo), _mm256_maskload_pd(b, hi)));
    return;
  }
  if constexpr (std::is_same_v<U, float> && W == 8) {
    const __m256i lo = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(k)),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i hi = _mm256_xor_si256(lo, _mm256_set1_epi32(-1));
    _mm256_storeu_ps(out, _mm256_or_ps(_mm256_maskload_ps(a, lo), _mm256_maskload_ps(b, hi)));
    return;
  }
#endif
  for (std::size_t w = 0; w < k; ++w) out[w] = a[w];
  for (std::size_t w = k; w < W; ++w) out[w] = b[w];
}

}  // namespace strided::detail::simd

#endif
