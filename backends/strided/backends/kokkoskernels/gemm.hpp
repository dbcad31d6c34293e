#ifndef STRIDED_BACKENDS_KOKKOSKERNELS_GEMM_HPP
#define STRIDED_BACKENDS_KOKKOSKERNELS_GEMM_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The GEMMs of a contraction on Kokkos Kernels, for matrices given by pointer and strides.
//
// Which GEMM runs is fixed, so the bits are too: KokkosBlas::gemm is always called with "N","N"
// on LayoutStride a and b (c is LayoutRight when its rows are contiguous, by layout alone). No
// TPL (BLAS, cuBLAS) takes a LayoutStride operand, and the dot-based kernel of
// Kokkos Kernels 4 (k split across threads with atomics, on GPUs) is used only for a transposed
// A. So the native blocked kernel runs: each block of c is one team's, summed over k in a fixed
// order whatever the thread count. Many small GEMMs run one per thread through
// KokkosBatched::SerialGemm, which sums each c element in a fixed order too.

#include <KokkosBatched_Gemm_Decl.hpp>
#include <KokkosBatched_Gemm_Serial_Impl.hpp>
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <utility>

#include "strided/base/compat.hpp"

namespace strided::detail {

/// One matrix operand: origin, strides of its rows and columns (elements, positive) and the
/// strides of up to MAX_BATCH_DIMS batch dimensions.
inline constexpr int MAX_BATCH_DIMS = 8;

template <class T>
struct GemmOperand {
  T* data;
  std::ptrdiff_t row_stride, col_stride;
  std::ptrdiff_t batch_strides[MAX_BATCH_DIMS];
};

template <class T, class Exec>
using StridedMatrix =
    Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::Device<Exec, typename Exec::memory_space>,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class T, class Exec>
KOKKOS_INLINE_FUNCTION StridedMatrix<T, Exec> strided_matrix(T* data, std::size_t rows,
                                                             std::size_t cols,
                                                             std::ptrdiff_t row_stride,
                                                             std::ptrdiff_t col_stride) {
  return StridedMatrix<T, Exec>(
      data, Kokkos::LayoutStride(rows, static_cast<std::size_t>(row_stride), cols,
                                 static_cast<std::size_t>(col_stride)));
}

/// Whether c's rows are contiguous lines with a leading dimension (its row stride).
inline bool rows_contiguous(std::size_t m, std::size_t n, std::ptrdiff_t row_stride,
                            std::ptrdiff_t col_stride) {
  return (col_stride == 1 || n <= 1) &&
         (m <= 1 || (row_stride > 0 && static_cast<std::size_t>(row_stride) >= n));
}

/// c = alpha * a * b + beta * c for Kokkos views (Kokkos Kernels 4 takes the instance; 3.4 runs
/// on the space's default instance, so the call is fenced on both sides there).
template <class Exec, class T, class VA, class VB, class VC>
void gemm_views(const Exec& exec, const T& alpha, const VA& va, const VB& vb, const T& beta,
                const VC& vc) {
#if defined(KOKKOSKERNELS_VERSION_MAJOR) && KOKKOSKERNELS_VERSION_MAJOR >= 4
  KokkosBlas::gemm(exec, "N", "N", alpha, va, vb, beta, vc);
#else
  compat::fence(exec, "strided::contract: before a Kokkos Kernels 3 GEMM");
  KokkosBlas::gemm("N", "N", alpha, va, vb, beta, vc);
  compat::fence(Exec(), "strided::contract: after a Kokkos Kernels 3 GEMM");
#endif
}

/// c = alpha * a * b + beta * c on `exec`. A c of contiguous rows goes to the GEMM as a
/// LayoutRight view (a subview keeps its leading dimension): Kokkos Kernels' blocked GEMM reads
/// and writes c's blocks with compile-time unit strides then, measurably faster than through
/// LayoutStride (docs/contraction.md); a and b's layouts made no difference there, so they stay
/// LayoutStride (fewer instantiations).
template <class Exec, class T>
void gemm_on(const Exec& exec, std::size_t m, std::size_t n, std::size_t k, const T& alpha,
             const GemmOperand<const T>& a, const GemmOperand<const T>& b, const T& beta,
             const GemmOperand<T>& c, std::ptrdiff_t offset_a = 0, std::ptrdiff_t offset_b = 0,
             std::ptrdiff_t offset_c = 0) {
  const auto va =
      strided_matrix<const T, Exec>(a.data + offset_a, m, k, a.row_stride, a.col_stride);
  const auto vb =
      strided_matrix<const T, Exec>(b.data + offset_b, k, n, b.row_stride, b.col_stride);
  if (rows_contiguous(m, n, c.row_stride, c.col_stride)) {
    using RowMajor =
        Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::Device<Exec, typename Exec::memory_space>,
                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const std::size_t lead = m <= 1 ? n : static_cast<std::size_t>(c.row_stride);
    const RowMajor lines(c.data + offset_c, m, lead);
    gemm_views(exec, alpha, va, vb, beta,
               Kokkos::subview(lines, Kokkos::ALL, std::make_pair(std::size_t(0), n)));
    return;
  }
  gemm_views(exec, alpha, va, vb, beta,
             strided_matrix<T, Exec>(c.data + offset_c, m, n, c.row_stride, c.col_stride));
}

/// Offset of batch `index` (row-major over `extents`) in an operand of those batch strides.
KOKKOS_INLINE_FUNCTION std::ptrdiff_t batch_offset(const std::ptrdiff_t* strides, int dims,
                                                   const std::size_t* extents, std::size_t index) {
  std::ptrdiff_t offset = 0;
  for (int d = dims - 1; d >= 0; --d) {
    const std::size_t i = index % extents[d];
    index /= extents[d];
    offset += static_cast<std::ptrdiff_t>(i) * strides[d];
  }
  return offset;
}
template <class T>
KOKKOS_INLINE_FUNCTION std::ptrdiff_t batch_offset(const GemmOperand<T>& x, int dims,
                                                   const std::size_t* extents, std::size_t index) {
  return batch_offset(x.batch_strides, dims, extents, index);
}

/// Many small GEMMs, one per thread (KokkosBatched::SerialGemm, unblocked: each c element summed
/// over k in order).
template <class Exec, class T>
struct SmallGemms {
  int m, n, k, dims;
  std::size_t extents[MAX_BATCH_DIMS];
  T alpha, beta;
  GemmOperand<const T> a, b;
  GemmOperand<T> c;

  KOKKOS_INLINE_FUNCTION void operator()(std::size_t batch) const {
    const auto va = strided_matrix<const T, Exec>(a.data + batch_offset(a, dims, extents, batch), m,
                                                  k, a.row_stride, a.col_stride);
    const auto vb = strided_matrix<const T, Exec>(b.data + batch_offset(b, dims, extents, batch), k,
                                                  n, b.row_stride, b.col_stride);
    const auto vc = strided_matrix<T, Exec>(c.data + batch_offset(c, dims, extents, batch), m, n,
                                            c.row_stride, c.col_stride);
    KokkosBatched::SerialGemm<KokkosBatched::Trans::NoTranspose, KokkosBatched::Trans::NoTranspose,
                              KokkosBatched::Algo::Gemm::Unblocked>::invoke(alpha, va, vb, beta,
                                                                            vc);
  }
};

/// The batched GEMMs of a contraction: one parallel launch of small GEMMs, or one Kokkos Kernels
/// GEMM per batch (batches in order, so c's bits never depend on how they are spread).
template <class Exec, class T>
void batched_gemm_on(const Exec& exec, const std::string& label, bool small, std::size_t m,
                     std::size_t n, std::size_t k, int dims, const std::size_t* extents,
                     std::size_t batches, const T& alpha, const GemmOperand<const T>& a,
                     const GemmOperand<const T>& b, const T& beta, const GemmOperand<T>& c) {
  if (!small) {
    for (std::size_t batch = 0; batch < batches; ++batch)
      gemm_on(exec, m, n, k, alpha, a, b, beta, c, batch_offset(a, dims, extents, batch),
              batch_offset(b, dims, extents, batch), batch_offset(c, dims, extents, batch));
    return;
  }
  SmallGemms<Exec, T> body{static_cast<int>(m),
                           static_cast<int>(n),
                           static_cast<int>(k),
                           dims,
                           {},
                           alpha,
                           beta,
                           a,
                           b,
                           c};
  for (int d = 0; d < dims; ++d) body.extents[d] = extents[d];
  Kokkos::parallel_for(label, compat::range_policy(exec, batches), body);
}

}  // namespace strided::detail

#endif
