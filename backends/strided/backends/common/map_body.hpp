#ifndef STRIDED_BACKENDS_COMMON_MAP_BODY_HPP
#define STRIDED_BACKENDS_COMMON_MAP_BODY_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "strided/backends/common/tuple.hpp"

namespace strided::detail {

/// One operand of a kernel as the loops see it: pointer to the logical origin and its element op.
template <class T, class Op>
struct OperandRef {
  using value_type = std::remove_cv_t<T>;
  T* ptr;
  KOKKOS_FORCEINLINE_FUNCTION value_type read(std::ptrdiff_t i) const {
    return Op::apply(static_cast<value_type>(ptr[i]));
  }
};

/// dst = f(src...) over an n0 x n1 block. The unit-stride case is a plain indexed loop the
/// compiler vectorizes; other strides step by their own stride (broadcast included).
template <class Dst, class F, class... Srcs>
struct MapBody {
  static constexpr int S = static_cast<int>(sizeof...(Srcs));
  Dst dst;
  Tuple<Srcs...> srcs;
  F f;

  KOKKOS_INLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                         const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) const {
    run(off, n0, n1, s0, s1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

 private:
  using value_type = typename Dst::value_type;

  /// Side of the square blocks of the transposed path: one cache line of the destination.
  static constexpr std::size_t B =
      sizeof(value_type) >= 16 ? 4 : (sizeof(value_type) >= 8 ? 8 : 16);

  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                       const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                       std::index_sequence<I...> seq) const {
    bool unit = s0[0] == 1;
    ((unit = unit && s0[I + 1] == 1), ...);
    // The destination streams along axis 0 but a source streams along axis 1: go through
    // B x B register/L1 blocks so that both sides read and write whole cache lines.
    bool transposed = false;
    ((transposed = transposed || (s0[I + 1] != 1 && (s1[I + 1] == 1 || s1[I + 1] == -1))), ...);
    if (s0[0] == 1 && transposed && n0 >= B && n1 >= B) {
      run_transposed(off, n0, n1, s0, s1, seq);
      return;
    }
    for (std::size_t j = 0; j < n1; ++j) {
      const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j);
      value_type* d = dst.ptr + (off[0] + jj * s1[0]);
      if (unit) {
        for (std::size_t i = 0; i < n0; ++i) {
          const std::ptrdiff_t ii = static_cast<std::ptrdiff_t>(i);
          d[ii] = write(f(get<I>(srcs).read(off[I + 1] + jj * s1[I + 1] + ii)...));
        }
      } else {
        const std::ptrdiff_t sd = s0[0];
        for (std::size_t i = 0; i < n0; ++i) {
          const std::ptrdiff_t ii = static_cast<std::ptrdiff_t>(i);
          d[ii * sd] = write(f(get<I>(srcs).read(off[I + 1] + jj * s1[I + 1] + ii * s0[I + 1])...));
        }
      }
    }
  }

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run_transposed(const std::ptrdiff_t* off, std::size_t n0,
                                             std::size_t n1, const std::ptrdiff_t* s0,
                                             const std::ptrdiff_t* s1,
                                             std::index_sequence<I...> seq) const {
    for (std::size_t j0 = 0; j0 < n1; j0 += B) {
      const std::size_t bj = n1 - j0 < B ? n1 - j0 : B;
      for (std::size_t i0 = 0; i0 < n0; i0 += B) {
        const std::size_t bi = n0 - i0 < B ? n0 - i0 : B;
        if (bi == B && bj == B)
          block<true>(off, i0, j0, B, B, s0, s1, seq);
        else
          block<false>(off, i0, j0, bi, bj, s0, s1, seq);
      }
    }
  }

  /// One block: compute in the sources' order (axis 1 fastest) into a buffer, then store it in
  /// the destination's order (axis 0 fastest). `Full` blocks have compile-time bounds.
  template <bool Full, std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void block(const std::ptrdiff_t* off, std::size_t i0, std::size_t j0,
                                         std::size_t bi, std::size_t bj, const std::ptrdiff_t* s0,
                                         const std::ptrdiff_t* s1,
                                         std::index_sequence<I...>) const {
    const std::size_t ni = Full ? B : bi, nj = Full ? B : bj;
    value_type buffer[B * B];
    for (std::size_t i = 0; i < ni; ++i) {
      const std::ptrdiff_t ii = static_cast<std::ptrdiff_t>(i0 + i);
      for (std::size_t j = 0; j < nj; ++j) {
        const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j0 + j);
        buffer[j * B + i] =
            write(f(get<I>(srcs).read(off[I + 1] + ii * s0[I + 1] + jj * s1[I + 1])...));
      }
    }
    for (std::size_t j = 0; j < nj; ++j) {
      value_type* d = dst.ptr + (off[0] + static_cast<std::ptrdiff_t>(j0 + j) * s1[0] +
                                 static_cast<std::ptrdiff_t>(i0));
      for (std::size_t i = 0; i < ni; ++i) d[i] = buffer[j * B + i];
    }
  }

  // Ops are involutions: writing v through a view with op `Op` stores Op(v).
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION value_type write(const V& v) const {
    return Dst::op_type::apply(static_cast<value_type>(v));
  }
};

template <class T, class Op>
struct DstRef {
  using value_type = T;
  using op_type = Op;
  T* ptr;
};

}  // namespace strided::detail

#endif
