#ifndef STRIDED_BACKENDS_HOST_SIMD_TRANSPOSE_HPP
#define STRIDED_BACKENDS_HOST_SIMD_TRANSPOSE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// In-register transposes of square blocks, the inner step of every transposed copy: a block of
// B x B elements is loaded as B source rows and stored as B destination rows, so both sides
// move whole vectors (whole cache lines for B = one line). Chosen at compile time from the
// target flags: AVX-512 (8 x 8 doubles in zmm, 4 x 4 16-byte elements as 128-bit lanes), AVX
// (8 x 8 doubles as four 4 x 4 in ymm, 16 x 16 floats as four 8 x 8, 4 x 4 16-byte elements as
// 2 x 2 lane pairs), SSE2 (8 x 8 doubles and 16 x 16 floats as pairs and quads of rows,
// 16-byte elements one per xmm), scalar elsewhere. Every kernel stores each destination line
// whole before the next. Elements are moved as bits (4-, 8- or 16-byte units), never as values,
// so any trivially copyable type of those sizes (complex<double> among them) qualifies and no
// NaN is touched. Host code only: device compilations see the scalar loop.

#include <cstddef>
#include <cstring>
#include <type_traits>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    (defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__))
#include <immintrin.h>
#define STRIDED_SIMD_X86 1
#else
#define STRIDED_SIMD_X86 0
#endif

// The kernels inline into their callers' block loops: a call per block spills the loop's
// vector registers around it (GCC 12 kept transpose_rows out of line in AVX2 builds; an 8192^2
// transpose on an AMD EPYC Zen 4 guest, 1 thread: 16.3 GB/s with the calls, 21.0 inlined).
#if defined(__GNUC__)
#define STRIDED_SIMD_INLINE inline __attribute__((always_inline))
#else
#define STRIDED_SIMD_INLINE inline
#endif

// Every loop over a kernel's vectors unrolls completely, so that its arrays of vectors stay in
// registers. GCC -O2 does not do it by itself (-O3's -funroll-completely-grow-size): the arrays
// went through the stack, and an 8192^2 transpose ran at 0.8x its -O3 speed (AMD Zen 4, 1
// thread). Trip counts are at most 16. GCC only: clang unrolls these loops at -O2 itself, and its
// `#pragma unroll` under -O1 with ASan and UBSan took a fuzz target's compile from minutes past 13.
// Empty under CUDA/HIP compilers, as STRIDED_UNROLL_4.
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__clang__)
#define STRIDED_SIMD_UNROLL
#elif defined(__GNUC__)
#define STRIDED_SIMD_UNROLL _Pragma("GCC unroll 16")
#else
#define STRIDED_SIMD_UNROLL
#endif

namespace strided::detail::simd {

/// The instruction set the transposes were compiled for (the transpose tests check it).
inline constexpr const char* isa_name() {
#if STRIDED_SIMD_X86 && defined(__AVX512F__)
  return "avx512";
#elif STRIDED_SIMD_X86 && defined(__AVX__)
  return "avx";
#elif STRIDED_SIMD_X86
  return "sse2";
#else
  return "scalar";
#endif
}

/// Whether T moves through the vector kernels (4-, 8- or 16-byte trivially copyable elements).
template <class T>
inline constexpr bool transposable_v = STRIDED_SIMD_X86&& std::is_trivially_copyable_v<T> &&
                                       (sizeof(T) == 16 || sizeof(T) == 8 || sizeof(T) == 4);

/// Side of the square blocks a transpose moves: one cache line of T (16 floats, 8 doubles, 4
/// complex doubles), so that each row of a block is one whole line.
template <class T>
inline constexpr std::size_t line_block_side = sizeof(T) >= 16 ? 4 : (sizeof(T) >= 8 ? 8 : 16);

#if STRIDED_SIMD_X86
namespace x86 {

/// A 16-byte element as the kernels move it: two doubles' bits (complex<double>, ...).
struct Pair {
  double lanes[2];
};

/// The unit T's bits move through: float, double or Pair.
template <class T>
using lane_t =
    std::conditional_t<sizeof(T) == 4, float, std::conditional_t<sizeof(T) == 8, double, Pair>>;

STRIDED_SIMD_INLINE const double* doubles(const Pair* p) {
  return reinterpret_cast<const double*>(p);
}
STRIDED_SIMD_INLINE double* doubles(Pair* p) {
  return reinterpret_cast<double*>(p);
}

// K x K kernels: row r of the source block at s[r] + o, row c of the destination block at
// d[c] + o. `Stream` stores with non-temporal stores; the caller guarantees their alignment.

template <bool Stream>
STRIDED_SIMD_INLINE void store(double* d, __m128d v) {
  if constexpr (Stream)
    _mm_stream_pd(d, v);
  else
    _mm_storeu_pd(d, v);
}
template <bool Stream>
STRIDED_SIMD_INLINE void store(float* d, __m128 v) {
  if constexpr (Stream)
    _mm_stream_ps(d, v);
  else
    _mm_storeu_ps(d, v);
}

#if defined(__AVX__)
template <bool Stream>
STRIDED_SIMD_INLINE void store(double* d, __m256d v) {
  if constexpr (Stream)
    _mm256_stream_pd(d, v);
  else
    _mm256_storeu_pd(d, v);
}
template <bool Stream>
STRIDED_SIMD_INLINE void store(float* d, __m256 v) {
  if constexpr (Stream)
    _mm256_stream_ps(d, v);
  else
    _mm256_storeu_ps(d, v);
}
#endif

#if defined(__AVX512F__)
template <bool Stream>
STRIDED_SIMD_INLINE void store(double* d, __m512d v) {
  if constexpr (Stream)
    _mm512_stream_pd(d, v);
  else
    _mm512_storeu_pd(d, v);
}

/// 8 x 8 doubles: pairs (unpack), then pairs of pairs and halves across registers (128-bit
/// lane shuffles), rather than two-source permutes: a loop of these blocks over 8192^2 ran at
/// 24 GB/s against 21 on an AMD EPYC Zen 4 guest (a transpose waits on its loads, and the
/// fewer cycles a block takes, the more blocks' loads are in flight). The maskz forms with a
/// full mask compile to the plain instructions; GCC 12 warns about the plain intrinsics'
/// undefined pass-through.
template <bool Stream>
STRIDED_SIMD_INLINE void kernel8(const double* const* s, std::size_t so, double* const* d,
                                 std::size_t dof) {
  __m512d r[8], t[8], u[8];
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 8; ++k) r[k] = _mm512_loadu_pd(s[k] + so);
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm512_maskz_unpacklo_pd(0xff, r[k], r[k + 1]);      // columns 0 2 4 6 of rows k, k+1
    t[k + 1] = _mm512_maskz_unpackhi_pd(0xff, r[k], r[k + 1]);  // columns 1 3 5 7
  }
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 8; k += 4) STRIDED_SIMD_UNROLL
  for (int c = 0; c < 2; ++c) {
    u[k + c] = _mm512_maskz_shuffle_f64x2(0xff, t[k + c], t[k + 2 + c], 0x88);  // columns c, c + 4
    u[k + 2 + c] = _mm512_maskz_shuffle_f64x2(0xff, t[k + c], t[k + 2 + c], 0xdd);  // c + 2, c + 6
  }
  // u[c]: columns c and c + 4 of rows 0-3; u[c + 4]: the same of rows 4-7.
  STRIDED_SIMD_UNROLL
  for (int c = 0; c < 4; ++c) {
    store<Stream>(d[c] + dof, _mm512_maskz_shuffle_f64x2(0xff, u[c], u[c + 4], 0x88));
    store<Stream>(d[c + 4] + dof, _mm512_maskz_shuffle_f64x2(0xff, u[c], u[c + 4], 0xdd));
  }
}
#endif

#if defined(__AVX512F__)
/// 4 x 4 16-byte elements, one source row (a line) per zmm: pairs of rows' halves, then every
/// row's lane c into destination row c (128-bit lane shuffles, as kernel8's second half). Moving
/// them one by one cost more than the plain loop's scattered reads (complex<double> transposes
/// of 1000^2 at 0.65-0.86x a plain loop on an AMD EPYC Zen 4 guest, 1 thread).
template <bool Stream>
STRIDED_SIMD_INLINE void kernel4_pairs(const Pair* const* s, std::size_t so, Pair* const* d,
                                       std::size_t dof) {
  __m512d r[4];
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 4; ++k) r[k] = _mm512_loadu_pd(doubles(s[k] + so));
  // t0: lanes 0 and 1 of rows 0 and 1, t1: their lanes 2 and 3; t2, t3: the same of rows 2, 3.
  const __m512d t0 = _mm512_maskz_shuffle_f64x2(0xff, r[0], r[1], 0x44);
  const __m512d t1 = _mm512_maskz_shuffle_f64x2(0xff, r[0], r[1], 0xee);
  const __m512d t2 = _mm512_maskz_shuffle_f64x2(0xff, r[2], r[3], 0x44);
  const __m512d t3 = _mm512_maskz_shuffle_f64x2(0xff, r[2], r[3], 0xee);
  store<Stream>(doubles(d[0] + dof), _mm512_maskz_shuffle_f64x2(0xff, t0, t2, 0x88));
  store<Stream>(doubles(d[1] + dof), _mm512_maskz_shuffle_f64x2(0xff, t0, t2, 0xdd));
  store<Stream>(doubles(d[2] + dof), _mm512_maskz_shuffle_f64x2(0xff, t1, t3, 0x88));
  store<Stream>(doubles(d[3] + dof), _mm512_maskz_shuffle_f64x2(0xff, t1, t3, 0xdd));
}
#elif defined(__AVX__)
/// 4 x 4 16-byte elements as 2 x 2 blocks of lane pairs: two source rows' elements (h, h + 1)
/// give destination rows h and h + 1 two elements each; a destination row's two halves (one
/// line) are stored back to back, as kernel_halves does.
template <bool Stream>
STRIDED_SIMD_INLINE void kernel4_pairs(const Pair* const* s, std::size_t so, Pair* const* d,
                                       std::size_t dof) {
  STRIDED_SIMD_UNROLL
  for (int h = 0; h < 4; h += 2) {
    __m256d r[4];
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < 4; ++k) r[k] = _mm256_loadu_pd(doubles(s[k] + so + h));
    store<Stream>(doubles(d[h] + dof), _mm256_permute2f128_pd(r[0], r[1], 0x20));
    store<Stream>(doubles(d[h] + dof + 2), _mm256_permute2f128_pd(r[2], r[3], 0x20));
    store<Stream>(doubles(d[h + 1] + dof), _mm256_permute2f128_pd(r[0], r[1], 0x31));
    store<Stream>(doubles(d[h + 1] + dof + 2), _mm256_permute2f128_pd(r[2], r[3], 0x31));
  }
}
#else
/// 4 x 4 16-byte elements, one per xmm.
template <bool Stream>
STRIDED_SIMD_INLINE void kernel4_pairs(const Pair* const* s, std::size_t so, Pair* const* d,
                                       std::size_t dof) {
  STRIDED_SIMD_UNROLL
  for (int j = 0; j < 4; ++j) STRIDED_SIMD_UNROLL
  for (int i = 0; i < 4; ++i)
    store<Stream>(doubles(d[j] + dof + i), _mm_loadu_pd(doubles(s[i] + so + j)));
}
#endif

#if defined(__AVX__)
/// 4 x 4 doubles in registers: pairs within 128-bit lanes, then the lanes across registers;
/// rows r[k] in, columns c[k] out.
STRIDED_SIMD_INLINE void transpose4(const __m256d* r, __m256d* c) {
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]),
                t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
  c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
  c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/// 8 x 8 floats in registers: pairs, quads within 128-bit lanes, then the lanes across
/// registers; rows r[k] in, columns c[k] out.
STRIDED_SIMD_INLINE void transpose8(const __m256* r, __m256* c) {
  __m256 t[8], u[8];
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 8; k += 4) {
    u[k] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(1, 0, 1, 0));          // columns 0, 4
    u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(3, 2, 3, 2));      // columns 1, 5
    u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(1, 0, 1, 0));  // columns 2, 6
    u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(3, 2, 3, 2));  // columns 3, 7
  }
  STRIDED_SIMD_UNROLL
  for (int k = 0; k < 4; ++k) {
    c[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
    c[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
  }
}

/// The ymm registers of a lane type: the vector, its lanes, a load and the W x W transpose.
template <class U>
struct Ymm;
template <>
struct Ymm<double> {
  using V = __m256d;
  static constexpr int W = 4;
  STRIDED_SIMD_INLINE static V load(const double* p) { return _mm256_loadu_pd(p); }
  STRIDED_SIMD_INLINE static void transpose(const V* r, V* c) { transpose4(r, c); }
};
template <>
struct Ymm<float> {
  using V = __m256;
  static constexpr int W = 8;
  STRIDED_SIMD_INLINE static V load(const float* p) { return _mm256_loadu_ps(p); }
  STRIDED_SIMD_INLINE static void transpose(const V* r, V* c) { transpose8(r, c); }
};

/// 2W x 2W elements (8 x 8 doubles, 16 x 16 floats: one line per row) as four W x W transposes,
/// stored so that the two 32-byte halves of each destination row leave back to back: a streamed
/// line is then completed in its write-combining buffer at once, never flushed as two partial
/// writes. As W x W kernels, each line's halves left one kernel apart (docs/performance.md, CPU
/// pass 4 for doubles; pass 22 for floats: an 8192^2 float transpose at 13.0 GB/s against 16.3
/// for doubles, AMD EPYC Zen 4 guest with AVX2, 1 thread).
template <bool Stream, class U>
STRIDED_SIMD_INLINE void kernel_halves(const U* const* s, std::size_t so, U* const* d,
                                       std::size_t dof) {
  using R = Ymm<U>;
  constexpr int W = R::W;
  STRIDED_SIMD_UNROLL
  for (int h = 0; h < 2 * W; h += W) {  // destination rows h .. h + W - 1
    typename R::V upper[W], lower[W], left[W], right[W];
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < W; ++k) {
      upper[k] = R::load(s[k] + so + h);
      lower[k] = R::load(s[k + W] + so + h);
    }
    R::transpose(upper, left);
    R::transpose(lower, right);
    STRIDED_SIMD_UNROLL
    for (int c = 0; c < W; ++c) {
      store<Stream>(d[h + c] + dof, left[c]);
      store<Stream>(d[h + c] + dof + W, right[c]);
    }
  }
}
#endif

/// 8 x 8 doubles in 16-byte vectors: two destination rows at a time, from a pair of elements
/// of each source row, each destination row (one 64-byte line) stored as four consecutive
/// vectors. Built from the 2 x 2 kernel instead, a streamed line left as four 16-byte stores
/// interleaved with another line's, and write-combining buffers flushed partial lines (HPTT's
/// 300^3 as (0, 2, 1) at -O2 without -march: 72 ms, against 29 with AVX2; docs/performance.md,
/// CPU pass 22).
template <bool Stream>
STRIDED_SIMD_INLINE void kernel8_pairs(const double* const* s, std::size_t so, double* const* d,
                                       std::size_t dof) {
  STRIDED_SIMD_UNROLL
  for (int h = 0; h < 8; h += 2) {  // destination rows h and h + 1
    __m128d r[8];
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < 8; ++k) r[k] = _mm_loadu_pd(s[k] + so + h);
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < 8; k += 2) store<Stream>(d[h] + dof + k, _mm_unpacklo_pd(r[k], r[k + 1]));
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < 8; k += 2)
      store<Stream>(d[h + 1] + dof + k, _mm_unpackhi_pd(r[k], r[k + 1]));
  }
}

/// 16 x 16 floats in 16-byte vectors: four destination rows at a time, from four elements of
/// each source row, each destination row (one line) stored as four consecutive vectors, as
/// kernel8_pairs does for doubles.
template <bool Stream>
STRIDED_SIMD_INLINE void kernel16_quads(const float* const* s, std::size_t so, float* const* d,
                                        std::size_t dof) {
  STRIDED_SIMD_UNROLL
  for (int h = 0; h < 16; h += 4) {  // destination rows h .. h + 3
    __m128 r[16];
    STRIDED_SIMD_UNROLL
    for (int k = 0; k < 16; ++k) r[k] = _mm_loadu_ps(s[k] + so + h);
    STRIDED_SIMD_UNROLL
    for (int g = 0; g < 16; g += 4) _MM_TRANSPOSE4_PS(r[g], r[g + 1], r[g + 2], r[g + 3]);
    // r[g + m]: elements g .. g + 3 of destination row h + m.
    STRIDED_SIMD_UNROLL
    for (int m = 0; m < 4; ++m) STRIDED_SIMD_UNROLL
    for (int g = 0; g < 16; g += 4) store<Stream>(d[h + m] + dof + g, r[g + m]);
  }
}

/// The widest kernel of an element type: its side, and the call.
template <class U>
struct Widest;
template <>
struct Widest<double> {
#if defined(__AVX512F__)
  static constexpr std::size_t K = 8;
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const double* const* s, std::size_t so, double* const* d,
                                      std::size_t dof) {
    kernel8<Stream>(s, so, d, dof);
  }
#elif defined(__AVX__)
  static constexpr std::size_t K = 8;  // whole lines per destination row (kernel_halves)
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const double* const* s, std::size_t so, double* const* d,
                                      std::size_t dof) {
    kernel_halves<Stream>(s, so, d, dof);
  }
#else
  static constexpr std::size_t K = 8;  // whole lines per destination row (kernel8_pairs)
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const double* const* s, std::size_t so, double* const* d,
                                      std::size_t dof) {
    kernel8_pairs<Stream>(s, so, d, dof);
  }
#endif
};
template <>
struct Widest<Pair> {
  static constexpr std::size_t K = 4;  // one line of 16-byte elements per row
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const Pair* const* s, std::size_t so, Pair* const* d,
                                      std::size_t dof) {
    kernel4_pairs<Stream>(s, so, d, dof);
  }
};
template <>
struct Widest<float> {
#if defined(__AVX__)
  static constexpr std::size_t K = 16;  // whole lines per destination row (kernel_halves)
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const float* const* s, std::size_t so, float* const* d,
                                      std::size_t dof) {
    kernel_halves<Stream>(s, so, d, dof);
  }
#else
  static constexpr std::size_t K = 16;  // whole lines per destination row (kernel16_quads)
  template <bool Stream>
  STRIDED_SIMD_INLINE static void run(const float* const* s, std::size_t so, float* const* d,
                                      std::size_t dof) {
    kernel16_quads<Stream>(s, so, d, dof);
  }
#endif
};

}  // namespace x86
#endif

/// Bytes a streamed destination row of the kernels must be aligned to.
template <class T>
inline constexpr std::size_t stream_alignment() {
#if STRIDED_SIMD_X86
  return transposable_v<T> ? x86::Widest<x86::lane_t<T>>::K * sizeof(T) : 16;
#else
  return 16;
#endif
}

/// Side of the widest kernel for T (0: none, the scalar loop).
template <class T>
inline constexpr std::size_t kernel_side() {
#if STRIDED_SIMD_X86
  if constexpr (transposable_v<T>) return x86::Widest<x86::lane_t<T>>::K;
#endif
  return 0;
}

/// Element j of source row i into element i of destination row j, for i, j < B: a B x B block
/// given by its rows. Blocks that are whole kernels (B a multiple of kernel_side<T>(); one cache
/// line of T in the library's callers) go through registers, others through the scalar loop.
/// With `Stream` the kernels store with non-temporal stores, and every destination row must be
/// aligned to stream_alignment<T>(); the scalar loop stores plainly.
template <std::size_t B, bool Stream, class T>
STRIDED_SIMD_INLINE void transpose_rows(const T* const* s, T* const* d) {
#if STRIDED_SIMD_X86
  if constexpr (kernel_side<T>() > 0 && B % kernel_side<T>() == 0) {
    using U = x86::lane_t<T>;
    using Kernel = x86::Widest<U>;
    // Trivially copyable T of U's size: its bits move through U's registers unchanged. The
    // kernels touch memory only through the intrinsics' may_alias vector types; the row pointers
    // themselves are converted one by one (reading the T* array as U* would break aliasing).
    const U* su[B];
    U* du[B];
    STRIDED_SIMD_UNROLL
    for (std::size_t k = 0; k < B; ++k) {
      su[k] = reinterpret_cast<const U*>(s[k]);
      du[k] = reinterpret_cast<U*>(d[k]);
    }
    // Destination rows outer: the kernels that complete one group of destination lines run
    // back to back, so that streamed lines narrower than a kernel row (AVX's 32-byte halves of
    // a 64-byte line) leave the write-combining buffers whole instead of as partial writes.
    STRIDED_SIMD_UNROLL
    for (std::size_t bj = 0; bj < B; bj += Kernel::K) STRIDED_SIMD_UNROLL
    for (std::size_t bi = 0; bi < B; bi += Kernel::K)
      Kernel::template run<Stream>(su + bi, bj, du + bj, bi);
    return;
  }
#endif
  for (std::size_t j = 0; j < B; ++j)
    for (std::size_t i = 0; i < B; ++i) d[j][i] = s[i][j];
}

/// The same for a block of rows s + i * ls and d + j * ld.
template <std::size_t B, bool Stream, class T>
STRIDED_SIMD_INLINE void transpose_block(const T* s, std::ptrdiff_t ls, T* d, std::ptrdiff_t ld) {
  // (Initialized: GCC 12 at -O3 -march=native sees a false maybe-uninitialized in the kernels.)
  const T* from[B] = {};
  T* to[B] = {};
  STRIDED_SIMD_UNROLL
  for (std::size_t k = 0; k < B; ++k) {
    from[k] = s + static_cast<std::ptrdiff_t>(k) * ls;
    to[k] = d + static_cast<std::ptrdiff_t>(k) * ld;
  }
  transpose_rows<B, Stream>(from, to);
}

/// The cache a prefetch fills.
enum class FetchInto { l1, l2 };

/// Hint that the B lines at p + k * stride (k < B) will be read soon (the next block's source,
/// fetched while this block is written), into L1 or only into L2.
template <std::size_t B, FetchInto Level = FetchInto::l1, class T>
STRIDED_SIMD_INLINE void prefetch_rows(const T* p, std::ptrdiff_t stride) {
#if STRIDED_SIMD_X86
  constexpr auto hint = Level == FetchInto::l1 ? _MM_HINT_T0 : _MM_HINT_T1;
  STRIDED_SIMD_UNROLL
  for (std::size_t k = 0; k < B; ++k)
    _mm_prefetch(reinterpret_cast<const char*>(p + static_cast<std::ptrdiff_t>(k) * stride), hint);
#else
  (void)p;
  (void)stride;
#endif
}

/// Hint that the line at p will be read soon, into L2 only, for loops that do nothing but
/// fetch: GCC deletes a loop whose only statements are prefetches (they have no effect it must
/// keep), so each fetch here also makes an empty volatile statement, which the loop must keep.
STRIDED_SIMD_INLINE void fetch_line_l2(const void* p) {
#if STRIDED_SIMD_X86
  _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T1);
#elif defined(__GNUC__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
#if defined(__GNUC__)
  __asm__ volatile("");
#endif
}

}  // namespace strided::detail::simd

#endif
