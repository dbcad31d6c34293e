#ifndef STRIDED_BACKENDS_BODIES_SYMMETRIZE_BLOCKS_HPP
#define STRIDED_BACKENDS_BODIES_SYMMETRIZE_BLOCKS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "strided/backends/common/stream_store.hpp"
#include "strided/backends/host/rows_ahead.hpp"
#include "strided/backends/host/simd_transpose.hpp"
#include "strided/backends/host/thread_stage.hpp"
#include "strided/base/element_ops.hpp"
#include "strided/core/magnitude.hpp"

namespace strided::detail {

/// The transposed term's op: conj for the Hermitian part, nothing for the symmetric one.
template <bool Hermitian, class T>
KOKKOS_FORCEINLINE_FUNCTION T symmetrize_mirror(const T& x) {
  if constexpr (Hermitian)
    return conj_value(x);
  else
    return x;
}

/// x / 2, a complex one component by component: a complex divisor (2, 0) goes through the
/// compiler's complex division, whose cross terms (b * 2 - a * 0) may be contracted, so the sign of
/// a zero imaginary part (the Hermitian diagonal) depended on the flags and the inlining.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T symmetrize_half(const T& x) {
  if constexpr (is_complex_v<T>) {
    using R = std::remove_cv_t<std::remove_reference_t<decltype(x.real())>>;
    return T(x.real() / static_cast<R>(2), x.imag() / static_cast<R>(2));
  } else {
    return static_cast<T>(x / static_cast<T>(2));
  }
}

/// (near + mirror(far)) / 2: one element of the result, the same formula on every path.
template <bool Hermitian, class T>
KOKKOS_FORCEINLINE_FUNCTION T symmetrize_half_sum(const T& near, const T& far) {
  return symmetrize_half(static_cast<T>(near + symmetrize_mirror<Hermitian>(far)));
}

/// Element (j, i) of a pair whose element (i, j) is v = symmetrize_half_sum(near, far), by its
/// own formula (far + mirror(near)) / 2. For the symmetric part that is v (addition commutes);
/// for the Hermitian part conj(v) would differ in one bit: where the imaginary parts cancel, the
/// formula gives +0 and conj(v) gives -0.
template <bool Hermitian, class T>
KOKKOS_FORCEINLINE_FUNCTION T symmetrize_mirror_element(const T& near, const T& far, const T& v) {
  if constexpr (Hermitian)
    return symmetrize_half_sum<Hermitian>(far, near);
  else
    return v;
}

/// Offset of index i along an axis of stride `stride`.
KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t symmetrize_at(std::size_t i, std::ptrdiff_t stride) {
  return static_cast<std::ptrdiff_t>(i) * stride;
}

/// dst = (A + op(A)^T) / 2 for an n x n matrix, by pairs of tiles: work item (I, J) with I <= J
/// reads tiles (I, J) and (J, I) of the source once and writes both tiles of the destination,
/// so the source is read once (an element-wise A + A^T reads it twice). Inside a pair of tiles,
/// pairs of M x M micro-blocks (one cache line per row) are read whole, combined in registers
/// and written whole, walking the tiles along axis 1 (callers put the smaller stride there) so
/// that every row is a sequential stream. Both micro-blocks are read before either is written,
/// so dst may be the source itself (same layout). `Hermitian` conjugates the transposed term.
/// Items with I > J do nothing (a dynamic schedule balances the triangle). The formula is
/// unchanged by transposing both matrices, which is why callers may swap the axes.
template <class T, class DstOp, class SrcOp, bool Hermitian>
struct SymmetrizeBlocks {
  T* dst;
  const T* src;
  std::ptrdiff_t d0, d1, s0, s1;  ///< strides of both axes
  std::size_t n;
  std::size_t tiles;  ///< ceil(n / TILE) per axis
  bool stream;        ///< write whole destination lines with non-temporal stores

  /// Micro-blocks of one 64-byte line per row.
  static constexpr std::size_t M = simd::line_block_side<T>;
  /// Whether full tiles go through staged_pair (real elements of 4 or 8 bytes: the in-register
  /// transposes where the target has them, their scalar loop elsewhere). Not from the target
  /// flags, so that the tiling is the same in every compilation pass.
  static constexpr bool STAGED = std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
  /// Staged tiles: 128 x 128, a stage of 64 or 128 KiB, well inside any L2 of 512 KiB or more
  /// beside the near tile's rows. Tiles of 64, 128 and 256 ran alike on an Intel Xeon with 2 MiB
  /// of L2 (docs/performance.md, CPU pass 3); on an AMD EPYC guest with 1 MiB, 256 x 256 (a stage
  /// of 512 KiB) took 1.4x the time of 128 x 128 (CPU pass 8). Other tiles: rows of 1 KiB (four
  /// tiles stay in L2).
  static constexpr std::size_t TILE = STAGED ? 128 : (1024 / sizeof(T) < M ? M : 1024 / sizeof(T));

  KOKKOS_INLINE_FUNCTION void operator()(std::size_t item) const {
    const std::size_t ti = item / tiles, tj = item % tiles;
    if (ti > tj) return;
    const std::size_t i0 = ti * TILE, j0 = tj * TILE;
    const std::size_t i1 = n - i0 < TILE ? n : i0 + TILE;
    const std::size_t j1 = n - j0 < TILE ? n : j0 + TILE;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (STAGED) {
      if (i1 - i0 == TILE && j1 - j0 == TILE && s1 == 1 && d1 == 1) {
        staged_pair(i0, j0);
        if (stream) stream_fence();
        return;
      }
    }
#endif
    for (std::size_t i = i0; i < i1; i += M)
      for (std::size_t j = ti == tj ? i : j0; j < j1; j += M) {
        const std::size_t mi = i1 - i < M ? i1 - i : M, mj = j1 - j < M ? j1 - j : M;
        if (i == j)
          pair<false, true, false>(i, j, mi, mj);
        else if (mi == M && mj == M && s1 == 1 && d1 == 1)
          unit_pair(i, j);  // the common case
        else if (mi == M && mj == M)
          pair<true, false, false>(i, j, M, M);
        else
          pair<false, false, false>(i, j, mi, mj);
      }
    if (stream) stream_fence();
  }

 private:
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// A pair of full tiles (r, c) and (c, r), r <= c, of real elements with unit stride on axis
  /// 1, every line read and written in row order: tile (c, r) is staged transposed (read by
  /// bands of M rows, through the in-register transposes), rows of tile (r, c) are computed
  /// against it and written, and kept in the stage, which is then written transposed to tile
  /// (c, r). Reading across the tile's rows instead (the micro-block pairs) pulls one line from
  /// each of TILE rows a power-of-two stride apart: they share a few cache sets, and no
  /// hardware prefetcher follows them. On the diagonal (r == c) the stage is the tile itself
  /// transposed, and the rows are the whole result. Every source line is staged or read before
  /// its destination line is written, so dst may be src.
  KOKKOS_FORCEINLINE_FUNCTION void staged_pair(std::size_t r, std::size_t c) const {
    T* stage = thread_stage<T, TILE * TILE>();
    constexpr auto ld = static_cast<std::ptrdiff_t>(TILE);
    const T* far = src + at(c, s0) + at(r, 1);
    // Each band of M rows starts M pages on (rows a power of two apart), where the hardware
    // prefetchers start over: fetch the next band's lines (into L2, as map bodies' staged
    // sources do: CPU pass 15), and the near tile's rows, read next, meanwhile (CPU pass 22).
    constexpr auto l2 = simd::FetchInto::l2;
    RowsAhead near_rows;
    near_rows.add(src + at(r, s0) + at(c, 1), s0 * at(sizeof(T), 1), TILE * sizeof(T), TILE);
    for (std::size_t i = 0; i < TILE; i += M)
      for (std::size_t j = 0; j < TILE; j += M) {
        if (i + M < TILE) simd::prefetch_rows<M, l2>(far + at(i + M, s0) + at(j, 1), s0);
        simd::transpose_block<M, false>(far + at(i, s0) + at(j, 1), s0, stage + j * TILE + i, ld);
        near_rows.step(M * M * sizeof(T) / 64);  // as many lines as the block's
      }
    for (std::size_t i = 0; i < TILE; ++i) {
      const T* near = src + at(r + i, s0) + at(c, 1);
      if (i + 1 < TILE) simd::prefetch_rows<TILE / M>(near + s0, static_cast<std::ptrdiff_t>(M));
      T* row = stage + i * TILE;
      for (std::size_t j = 0; j < TILE; ++j)
        row[j] = DstOp::apply(
            symmetrize_half_sum<Hermitian>(SrcOp::apply(near[j]), SrcOp::apply(row[j])));
      T* out = dst + at(r + i, d0) + at(c, 1);
      if (stream)
        for (std::size_t j = 0; j < TILE; j += M) store_line(out + j, row + j);
      else
        for (std::size_t j = 0; j < TILE; ++j) out[j] = row[j];
    }
    if (r == c) return;
    // For real elements mirror and the ops commute with the sum: tile (c, r) is the result
    // transposed.
    constexpr std::size_t A = simd::stream_alignment<T>();
    T* lower = dst + at(c, d0) + at(r, 1);
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(lower) % A == 0 && magnitude(d0) * sizeof(T) % A == 0;
    for (std::size_t j = 0; j < TILE; j += M)
      for (std::size_t i = 0; i < TILE; i += M) {
        if (stream && aligned)
          simd::transpose_block<M, true>(stage + i * TILE + j, ld, lower + at(j, d0) + at(i, 1),
                                         d0);
        else
          simd::transpose_block<M, false>(stage + i * TILE + j, ld, lower + at(j, d0) + at(i, 1),
                                          d0);
      }
  }
#endif

  /// Micro-blocks (r, c) and (c, r). `Full` blocks have compile-time bounds; on the diagonal
  /// only the upper triangle's pairs exist (and the diagonal itself). `Unit`: both matrices
  /// have unit stride on axis 1, known at compile time so rows load and store as vectors.
  template <bool Full, bool Diagonal, bool Unit>
  KOKKOS_FORCEINLINE_FUNCTION void pair(std::size_t r, std::size_t c, std::size_t mi,
                                        std::size_t mj) const {
    const std::size_t ni = Full ? M : mi, nj = Full ? M : mj;
    const std::ptrdiff_t s1 = Unit ? 1 : this->s1, d1 = Unit ? 1 : this->d1;
    T near[M][M], far[M][M], up[M][M], low[M][M];
    for (std::size_t j = 0; j < nj; ++j)
      for (std::size_t i = 0; i < ni; ++i)
        far[j][i] = SrcOp::apply(src[at(c + j, s0) + at(r + i, s1)]);
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = 0; j < nj; ++j)
        near[i][j] = SrcOp::apply(src[at(r + i, s0) + at(c + j, s1)]);
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = Diagonal ? i : 0; j < nj; ++j) {
        const T v = symmetrize_half_sum<Hermitian>(near[i][j], far[j][i]);
        up[i][j] = DstOp::apply(v);
        low[j][i] = DstOp::apply(symmetrize_mirror_element<Hermitian>(near[i][j], far[j][i], v));
      }
    if constexpr (Full && Unit && !Diagonal && can_stream_v<T>) {
      if (stream) {  // every row is one whole line
        for (std::size_t i = 0; i < M; ++i) store_line(dst + at(r + i, d0) + at(c, d1), up[i]);
        for (std::size_t j = 0; j < M; ++j) store_line(dst + at(c + j, d0) + at(r, d1), low[j]);
        return;
      }
    }
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = Diagonal ? i : 0; j < nj; ++j)
        dst[at(r + i, d0) + at(c + j, d1)] = up[i][j];
    for (std::size_t j = 0; j < nj; ++j)
      for (std::size_t i = 0; i < (Diagonal ? j : ni); ++i)
        dst[at(c + j, d0) + at(r + i, d1)] = low[j][i];
  }

  /// A pair of full micro-blocks with unit stride on axis 1. Real elements go through the
  /// in-register transposes (host only): the far block is transposed as it is read, the result
  /// computed along rows, and the lower block is the upper one transposed (for real numbers
  /// mirror and the ops are the identity). Other types take the generic pair.
  KOKKOS_FORCEINLINE_FUNCTION void unit_pair(std::size_t r, std::size_t c) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (std::is_arithmetic_v<T> && simd::transposable_v<T>) {
      alignas(64) T far[M * M], up[M * M];
      simd::transpose_block<M, false>(src + at(c, s0) + at(r, 1), s0, far,
                                      static_cast<std::ptrdiff_t>(M));
      for (std::size_t i = 0; i < M; ++i) {
        const T* near = src + at(r + i, s0) + at(c, 1);
        for (std::size_t j = 0; j < M; ++j)
          up[i * M + j] = DstOp::apply(
              symmetrize_half_sum<Hermitian>(SrcOp::apply(near[j]), SrcOp::apply(far[i * M + j])));
      }
      const T* rows[M] = {};
      T* upper[M] = {};
      T* lower[M] = {};
      for (std::size_t k = 0; k < M; ++k) {
        rows[k] = up + k * M;
        upper[k] = dst + at(r + k, d0) + at(c, 1);
        lower[k] = dst + at(c + k, d0) + at(r, 1);
      }
      for (std::size_t i = 0; i < M; ++i) {
        if (stream)
          store_line(upper[i], rows[i]);
        else
          for (std::size_t j = 0; j < M; ++j) upper[i][j] = rows[i][j];
      }
      constexpr std::size_t A = simd::stream_alignment<T>();
      if (stream && reinterpret_cast<std::uintptr_t>(lower[0]) % A == 0 &&
          magnitude(d0) * sizeof(T) % A == 0)
        simd::transpose_rows<M, true>(rows, lower);
      else
        simd::transpose_rows<M, false>(rows, lower);
      return;
    }
#endif
    pair<true, false, true>(r, c, M, M);
  }

  /// M contiguous elements (one line), streamed as far as their alignment allows.
  KOKKOS_FORCEINLINE_FUNCTION static void store_line(T* d, const T* v) {
    stream_row<M>(d, v);
  }

  KOKKOS_FORCEINLINE_FUNCTION static std::ptrdiff_t at(std::size_t i, std::ptrdiff_t stride) {
    return symmetrize_at(i, stride);
  }
};

}  // namespace strided::detail

#endif
