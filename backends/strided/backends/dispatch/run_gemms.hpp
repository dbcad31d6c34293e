#ifndef STRIDED_BACKENDS_DISPATCH_RUN_GEMMS_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_GEMMS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The GEMM step of a contraction (contract.hpp packs the operands with the library's kernels,
// then calls here): the packed operands' buffers, and the GEMMs in the orientation and batch
// loop the contraction layout chose.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <mutex>

#include "strided/backends/common/staging_buffer.hpp"
#include "strided/backends/kokkoskernels/gemm.hpp"
#include "strided/core/contraction.hpp"
#include "strided/core/labels.hpp"

namespace strided::detail {

/// The buffers of one contraction's packed operands, in `Memory`, grow-only, held for the call.
template <class Memory>
struct ContractionWorkspace {
  CachedBuffer<Memory, 10>& a = CachedBuffer<Memory, 10>::get();
  CachedBuffer<Memory, 11>& b = CachedBuffer<Memory, 11>::get();
  CachedBuffer<Memory, 12>& c = CachedBuffer<Memory, 12>::get();
  std::scoped_lock<std::mutex, std::mutex, std::mutex> hold{a.mutex(), b.mutex(), c.mutex()};
};

/// c = alpha * a . b + beta * c for the operands as the GEMMs see them (packed or in place).
template <class Exec, class T>
void run_gemms(const Exec& exec, const ContractionLayout& p, const GemmOperand<const T>& ga,
               const GemmOperand<const T>& gb, const GemmOperand<T>& gc, const T& alpha,
               const T& beta) {
  // In the GEMM's orientation (c^T = b^T a^T when swapped).
  const GemmOperand<const T>& first = p.swapped ? gb : ga;
  const GemmOperand<const T>& second = p.swapped ? ga : gb;
  const std::size_t rows = p.swapped ? p.n : p.m, cols = p.swapped ? p.m : p.n;
  const ContractionOperand& first_op = p.swapped ? p.b : p.a;
  const ContractionOperand& second_op = p.swapped ? p.a : p.b;
  const int dims = static_cast<int>(p.batch_extents.size());
  if (dims <= MAX_BATCH_DIMS) {
    batched_gemm_on(exec, labels::contract_gemm, p.batched_serial, rows, cols, p.k, dims,
                    p.batch_extents.data(), p.batches, alpha, first, second, beta, gc);
    return;
  }
  // More batch dimensions than a kernel argument holds: one GEMM per batch, offsets here.
  const auto offset = [&](const ContractionOperand& op, std::size_t batch) {
    return batch_offset(op.batch_strides.data(), dims, p.batch_extents.data(), batch);
  };
  for (std::size_t batch = 0; batch < p.batches; ++batch)
    gemm_on(exec, rows, cols, p.k, alpha, first, second, beta, gc, offset(first_op, batch),
            offset(second_op, batch), offset(p.c, batch));
}

}  // namespace strided::detail

#endif
