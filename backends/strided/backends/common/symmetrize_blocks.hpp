#ifndef STRIDED_BACKENDS_COMMON_SYMMETRIZE_BLOCKS_HPP
#define STRIDED_BACKENDS_COMMON_SYMMETRIZE_BLOCKS_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/element_ops.hpp"

namespace strided::detail {

/// dst = (A + op(A)^T) / 2 for an n x n matrix, by pairs of BLOCK x BLOCK blocks: work item
/// (I, J) with I <= J reads blocks (I, J) and (J, I) of the source once and writes both blocks
/// of the destination, so the source is read once (not twice, as an element-wise A + A^T
/// would). Both source blocks are read before either destination block is written, so dst may
/// be the source itself (same layout). `Hermitian` conjugates the transposed term. Items with
/// I > J do nothing (a dynamic schedule balances the triangle). The formula is unchanged by
/// transposing both matrices, so callers may swap the axes to put the smaller stride on axis 1.
template <class Dst, class Src, class DstOp, class SrcOp, bool Hermitian>
struct SymmetrizeBlocks {
  Dst* dst;
  const Src* src;
  std::ptrdiff_t d0, d1, s0, s1;  ///< strides of both axes
  std::size_t n;
  std::size_t blocks;  ///< ceil(n / BLOCK)

  /// Four blocks of about 8 KiB each: the pair read and the pair written fit a 32 KiB L1.
  static constexpr std::size_t BLOCK = sizeof(Dst) > 8 || sizeof(Src) > 8 ? 16 : 32;

  KOKKOS_INLINE_FUNCTION static Src mirror(const Src& x) {
    if constexpr (Hermitian)
      return conj_value(x);
    else
      return x;
  }
  KOKKOS_INLINE_FUNCTION static Dst mirror_dst(const Dst& x) {
    if constexpr (Hermitian)
      return conj_value(x);
    else
      return x;
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::size_t item) const {
    const std::size_t bi = item / blocks, bj = item % blocks;
    if (bi > bj) return;
    const bool diagonal = bi == bj;
    const std::size_t i0 = bi * BLOCK, j0 = bj * BLOCK;
    const std::size_t ni = n - i0 < BLOCK ? n - i0 : BLOCK;
    const std::size_t nj = n - j0 < BLOCK ? n - j0 : BLOCK;
    // The far block (J, I) goes through two small buffers, so that every access to the big
    // matrices runs along axis 1 (the callers put the unit stride there): strided columns of a
    // power-of-two matrix would all land in one cache set.
    Src far[BLOCK * BLOCK];  // far[i * BLOCK + j] = op(src(j0 + j, i0 + i))
    Dst out[BLOCK * BLOCK];  // out[j * BLOCK + i] = what dst(j0 + j, i0 + i) receives
    for (std::size_t j = 0; j < nj; ++j) {
      const Src* row = src + at(j0 + j, s0) + at(i0, s1);
      for (std::size_t i = 0; i < ni; ++i) far[i * BLOCK + j] = SrcOp::apply(row[at(i, s1)]);
    }
    for (std::size_t i = 0; i < ni; ++i) {
      const Src* row = src + at(i0 + i, s0) + at(j0, s1);
      Dst* to = dst + at(i0 + i, d0) + at(j0, d1);
      // On a diagonal block only j >= i: the pair (j, i) is the same element pair.
      for (std::size_t j = diagonal ? i : 0; j < nj; ++j) {
        const Src a = SrcOp::apply(row[at(j, s1)]);
        const Dst v = static_cast<Dst>((a + mirror(far[i * BLOCK + j])) / static_cast<Dst>(2));
        to[at(j, d1)] = DstOp::apply(v);
        out[j * BLOCK + i] = DstOp::apply(mirror_dst(v));
      }
    }
    for (std::size_t j = 0; j < nj; ++j) {
      Dst* to = dst + at(j0 + j, d0) + at(i0, d1);
      const std::size_t last = diagonal ? j : ni;  // (the diagonal was written above)
      for (std::size_t i = 0; i < last; ++i) to[at(i, d1)] = out[j * BLOCK + i];
    }
  }

 private:
  KOKKOS_FORCEINLINE_FUNCTION static std::ptrdiff_t at(std::size_t i, std::ptrdiff_t stride) {
    return static_cast<std::ptrdiff_t>(i) * stride;
  }
};

}  // namespace strided::detail

#endif
