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

  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                       const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                       std::index_sequence<I...>) const {
    bool unit = s0[0] == 1;
    ((unit = unit && s0[I + 1] == 1), ...);
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
