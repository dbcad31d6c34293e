#ifndef STRIDED_MAP_HPP
#define STRIDED_MAP_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "strided/arithmetic.hpp"
#include "strided/backends/common/map_body.hpp"
#include "strided/backends/common/symmetrize_blocks.hpp"
#include "strided/backends/device/run_teams.hpp"
#include "strided/backends/device/team_symmetrize.hpp"
#include "strided/backends/host/run_plan.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/core/planner.hpp"
#include "strided/execution.hpp"
#include "strided/plan.hpp"

namespace strided {
namespace detail {

/// Every element-wise kernel ends here: checks (nothing written on error), plan, run.
template <class Exec, class DV, class F, class... SV>
void zip_map_checked(const char* function, const std::string& label, const Exec& exec,
                     const DV& dst, const F& f, const SV&... srcs) {
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  check_accessible<Exec, DV>();
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  (check_same_shape(function, dst, srcs), ...);
  // A function is held as its pointer.
  using Body = MapBody<DstRef<typename DV::value_type, typename DV::op_type>, std::decay_t<F>,
                       OperandRef<typename SV::element_type, typename SV::op_type>...>;
  Body body{{dst.data()},
            Tuple<OperandRef<typename SV::element_type, typename SV::op_type>...>(
                OperandRef<typename SV::element_type, typename SV::op_type>{srcs.data()}...),
            f,
            false};
  if constexpr (compat::is_host_space_v<Exec>) {
    // Small calls on one dense layout (the call-overhead case): the checks reduce to pointer
    // comparisons and the plan to one run on the calling thread.
    const std::size_t count = dst.size();
    if (count <= INLINE_ELEMENTS && may_run_inline<Exec>() && one_dense_layout(dst, srcs...) &&
        (disjoint_or_same(dst, srcs) && ...)) {
      constexpr int N = 1 + static_cast<int>(sizeof...(SV));
      std::ptrdiff_t zeros[N] = {}, ones[N];
      for (int k = 0; k < N; ++k) ones[k] = 1;
      body(zeros, count, 1, ones, zeros);
      return;
    }
  }
  check_output(function, dst);
  int index = 0;
  (check_no_overlap(function, dst, srcs, index++), ...);
  const auto plan = plan_for(dst, srcs...);
  if (uses_device_algorithm<Exec>()) {
    run_map_teams(exec, plan, body, label);
    return;
  }
  if constexpr (compat::is_host_space_v<Exec>) {
    body.stream = plan.count * sizeof(typename DV::value_type) >= planner_options().stream_bytes;
    run_plan(exec, plan, body, label);
  }
}

struct CopyFn {
  static constexpr bool is_plain_copy = true;  // lets unit-stride runs of one type use memcpy
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return x;
  }
};
struct ConjFn {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return conj_value(x);
  }
};
struct AddFn {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return add(a, b);
  }
};
struct MulFn {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return mul(a, b);
  }
};
template <class Alpha>
struct AxpyFn {
  Alpha alpha;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return add(a, rounded_mul(alpha, b));
  }
};
template <class Alpha>
struct ScaleFn {
  Alpha alpha;
  template <class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const B& b) const {
    return mul(alpha, b);
  }
};

/// A kernel of one source; `ReadsDst` kernels (add, mul) read the destination as a first source.
template <bool ReadsDst, class Exec, class D, class S, class F>
void elementwise(const char* function, const std::string& label, const Exec& exec, const D& dst,
                 const S& src, const F& f) {
  const auto& d = as_view(dst);
  if constexpr (ReadsDst)
    zip_map_checked(function, label, exec, d, f, d, as_view(src));
  else
    zip_map_checked(function, label, exec, d, f, as_view(src));
}

/// (src + src^T) / 2, or (src + conj(src^T)) / 2 when `Hermitian`, by pairs of blocks (each
/// source element read once); in place when dst and src share their layout (the one overlap
/// that reads a transposed layout).
template <bool Hermitian, class Exec, class D, class S>
void symmetrize(const char* function, const std::string& label, const Exec& exec, const D& dst,
                const S& src) {
  const auto& d = as_view(dst);
  const auto& s = as_view(src);
  using DV = std::decay_t<decltype(d)>;
  using SV = std::decay_t<decltype(s)>;
  using T = typename DV::value_type;
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  static_assert(std::is_same_v<T, typename SV::value_type>,
                "strided::symmetrize: needs one element type");
  check_accessible<Exec, DV>();
  check_accessible<Exec, SV>();
  compat::ScopedRegion region(label);
  if (s.rank() != 2)
    throw_error(ErrorCode::RankMismatch, function, "needs a rank-2 source, got rank ", s.rank());
  if (s.extent(0) != s.extent(1))
    throw_error(ErrorCode::NonSquare, function, "source is ", s.extent(0), " x ", s.extent(1));
  check_same_shape(function, d, s);
  check_output(function, d);
  check_no_overlap(function, d, s, 0);
  const std::size_t n = d.extent(0);
  if (n == 0) return;
  using Kernel = SymmetrizeBlocks<T, typename DV::op_type, typename SV::op_type, Hermitian>;
  const std::size_t tiles = (n + Kernel::TILE - 1) / Kernel::TILE;
  // The kernel streams along axis 1: give it the source's smaller stride there.
  const int a1 = magnitude(s.stride(0)) < magnitude(s.stride(1)) ? 0 : 1, a0 = 1 - a1;
  const bool stream = d.size() * sizeof(T) >= planner_options().stream_bytes;
  const Kernel kernel{d.data(),     s.data(), d.stride(a0), d.stride(a1), s.stride(a0),
                      s.stride(a1), n,        tiles,        stream};
  if (uses_device_algorithm<Exec>()) {
    using Team = TeamSymmetrize<Exec, T, typename DV::op_type, typename SV::op_type, Hermitian>;
    const std::size_t blocks = (n + Team::BLOCK - 1) / Team::BLOCK;
    launch_teams(exec, blocks * blocks,
                 Team{d.data(), s.data(), d.stride(a0), d.stride(a1), s.stride(a0), s.stride(a1), n,
                      blocks, 0},
                 label);
    return;
  }
  if constexpr (compat::is_host_space_v<Exec>) {
    if (may_run_inline<Exec>() && (d.size() <= INLINE_ELEMENTS || compat::concurrency(exec) == 1)) {
      for (std::size_t item = 0; item < tiles * tiles; ++item) kernel(item);
      return;
    }
    Kokkos::parallel_for(
        label, compat::range_policy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(exec, tiles * tiles),
        kernel);
  }
}

template <class Exec>
using enable_if_exec = std::enable_if_t<compat::is_execution_space_v<Exec>, int>;
template <class V>
using enable_if_operand = std::enable_if_t<is_operand_v<V>, int>;

}  // namespace detail

/// dst[i] = f(src1[i], src2[i], ...) with each source's op applied; any number of sources.
template <class Exec, class D, class F, class... S, detail::enable_if_exec<Exec> = 0>
void zip_map_into(const Exec& exec, const D& dst, const F& f, const S&... srcs) {
  static_assert(sizeof...(S) >= 1, "strided::zip_map_into: needs at least one source");
  static const std::string label("strided::zip_map_into");
  detail::zip_map_checked("zip_map_into", label, exec, detail::as_view(dst), f,
                          detail::as_view(srcs)...);
}
template <class D, class F, class... S, detail::enable_if_operand<D> = 0>
void zip_map_into(const D& dst, const F& f, const S&... srcs) {
  zip_map_into(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, f, srcs...);
}

/// dst[i] = f(op(src[i])).
template <class Exec, class D, class S, class F, detail::enable_if_exec<Exec> = 0>
void map_into(const Exec& exec, const D& dst, const S& src, const F& f) {
  static const std::string label("strided::map_into");
  detail::zip_map_checked("map_into", label, exec, detail::as_view(dst), f, detail::as_view(src));
}
template <class D, class S, class F, detail::enable_if_operand<D> = 0>
void map_into(const D& dst, const S& src, const F& f) {
  map_into(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src, f);
}

/// dst = conj(op(src)): `copy_conj(d, a.conj())` copies `a`.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void copy_conj(const Exec& exec, const D& dst, const S& src) {
  static const std::string label("strided::copy_conj");
  detail::elementwise<false>("copy_conj", label, exec, dst, src, detail::ConjFn{});
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void copy_conj(const D& dst, const S& src) {
  copy_conj(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src);
}

/// dst += op(src).
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void add(const Exec& exec, const D& dst, const S& src) {
  static const std::string label("strided::add");
  detail::elementwise<true>("add", label, exec, dst, src, detail::AddFn{});
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void add(const D& dst, const S& src) {
  add(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src);
}

/// dst *= op(src).
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void mul(const Exec& exec, const D& dst, const S& src) {
  static const std::string label("strided::mul");
  detail::elementwise<true>("mul", label, exec, dst, src, detail::MulFn{});
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void mul(const D& dst, const S& src) {
  mul(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src);
}

/// dst += alpha * op(src).
template <class Exec, class D, class S, class A, detail::enable_if_exec<Exec> = 0>
void axpy(const Exec& exec, const D& dst, const S& src, const A& alpha) {
  static const std::string label("strided::axpy");
  detail::elementwise<true>("axpy", label, exec, dst, src, detail::AxpyFn<A>{alpha});
}
template <class D, class S, class A, detail::enable_if_operand<D> = 0>
void axpy(const D& dst, const S& src, const A& alpha) {
  axpy(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src, alpha);
}

/// dst = alpha * op(src).
template <class Exec, class D, class S, class A, detail::enable_if_exec<Exec> = 0>
void copy_scale(const Exec& exec, const D& dst, const S& src, const A& alpha) {
  static const std::string label("strided::copy_scale");
  detail::elementwise<false>("copy_scale", label, exec, dst, src, detail::ScaleFn<A>{alpha});
}
template <class D, class S, class A, detail::enable_if_operand<D> = 0>
void copy_scale(const D& dst, const S& src, const A& alpha) {
  copy_scale(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src, alpha);
}

/// dst = (op(src) + op(src)^T) / 2 for a square matrix; dst may be src itself.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void symmetrize_into(const Exec& exec, const D& dst, const S& src) {
  static const std::string label("strided::symmetrize_into");
  detail::symmetrize<false>("symmetrize_into", label, exec, dst, src);
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void symmetrize_into(const D& dst, const S& src) {
  symmetrize_into(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src);
}

/// dst = (op(src) + conj(op(src)^T)) / 2 (Hermitian part); dst may be src itself.
template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>
void symmetrize_conj_into(const Exec& exec, const D& dst, const S& src) {
  static const std::string label("strided::symmetrize_conj_into");
  detail::symmetrize<true>("symmetrize_conj_into", label, exec, dst, src);
}
template <class D, class S, detail::enable_if_operand<D> = 0>
void symmetrize_conj_into(const D& dst, const S& src) {
  symmetrize_conj_into(compat::default_instance<Kokkos::DefaultHostExecutionSpace>(), dst, src);
}

}  // namespace strided

#endif
