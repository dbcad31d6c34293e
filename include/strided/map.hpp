#ifndef STRIDED_MAP_HPP
#define STRIDED_MAP_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MAP
#endif

// Element-wise kernels: map, zip, copy, conj, add, mul, axpy, scale, symmetrize. Each checks its
// operands (nothing is written on error), then makes one call to the dispatch layer
// (backends/strided/backends/dispatch/).
//
// Every kernel has four forms, e.g. copy_into:
//   copy_into(exec, dst, src, [options])   on the execution-space instance `exec`
//   copy_into(dst, src, [options])         on the default DefaultHostExecutionSpace instance
//   copy_into(exec, plan, dst, src)        a kept plan (make_plan): no planning, O(rank) checks
//   copy_into(plan, dst, src)
// Errors (strided::Error, before anything is written): RankMismatch and ShapeMismatch (operands
// of different shapes), NonInjectiveOutput (a destination that maps two indices to one
// element), OverlappingInputOutput (a source that overlaps the destination without being the
// same element-for-element layout), PlanMismatch (operands of other layouts than the plan's).
// Complexity: O(elements) work; planning O(rank^2) per operand unless a plan is given.

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "strided/backends/dispatch/run_map.hpp"
#include "strided/backends/dispatch/run_symmetrize.hpp"
#include "strided/builtin_functions.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/core/labels.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"

namespace strided {
namespace detail {

template <class Exec>
using enable_if_exec = std::enable_if_t<compat::is_execution_space_v<Exec>, int>;
template <class V>
using enable_if_operand = std::enable_if_t<is_operand_v<V>, int>;

inline const Kokkos::DefaultHostExecutionSpace& default_host() {
  return compat::default_instance<Kokkos::DefaultHostExecutionSpace>();
}

template <class Exec, class DV, class... SV>
constexpr void check_map_types() {
  static_assert(!std::is_const_v<typename DV::element_type>,
                "strided: the destination view must not be a view of const elements");
  check_accessible<Exec, DV>();
  (check_accessible<Exec, SV>(), ...);
}

/// The loops of dst = f(srcs...); a function is held as its pointer.
template <class DV, class F, class... SV>
auto map_body(const DV& dst, const F& f, const SV&... srcs) {
  using Body = MapBody<DstRef<typename DV::value_type, typename DV::op_type>, std::decay_t<F>,
                       OperandRef<typename SV::element_type, typename SV::op_type>...>;
  return Body{{dst.data()},
              Tuple<OperandRef<typename SV::element_type, typename SV::op_type>...>(
                  OperandRef<typename SV::element_type, typename SV::op_type>{srcs.data()}...),
              f};
}

template <class DV, class... SV>
void check_no_overlaps(const char* function, const DV& dst, const SV&... srcs) {
  int index = 0;
  (check_no_overlap(function, dst, srcs, index++), ...);
}

/// Out of line: the message (with the plan printed) stays off the path of every planned call.
template <int N>
[[noreturn]] STRIDED_NOINLINE void plan_mismatch(const char* function, const Plan<N>& plan) {
  throw_error(ErrorCode::PlanMismatch, function,
              "the operands' extents, strides or element sizes differ from the plan's (",
              explain(plan), ")");
}

[[noreturn]] inline STRIDED_NOINLINE void non_injective_plan(const char* function) {
  throw_error(ErrorCode::NonInjectiveOutput, function,
              "the plan's destination maps two indices to one element");
}

/// A kept plan's layouts against the operands'.
template <int N, class... V>
void check_plan(const char* function, const KernelPlan<N>& p, const V&... views) {
  static_assert(sizeof...(V) == N, "strided: the plan was made for another number of operands");
  if (!same_layouts(p.state().key, views...)) plan_mismatch(function, p.plan());
}

/// Every element-wise kernel without a plan ends here: checks, plan, one dispatch.
template <class Exec, class DV, class F, class... SV>
void zip_map_checked(const char* function, const std::string& label, const Exec& exec,
                     const Options& options, const DV& dst, const F& f, const SV&... srcs) {
  check_map_types<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  (check_same_shape(function, dst, srcs), ...);
  const auto body = map_body(dst, f, srcs...);
  if (run_map_inline(exec, options, body, dst, srcs...)) return;
  check_output(function, dst);
  check_no_overlaps(function, dst, srcs...);
  run_map(exec, plan_for(options.planner, dst, srcs...), body, options, label);
}

/// ... and with a kept plan: its layouts are checked, nothing is planned.
template <class Exec, int N, class DV, class F, class... SV>
void zip_map_planned(const char* function, const std::string& label, const Exec& exec,
                     const KernelPlan<N>& p, const DV& dst, const F& f, const SV&... srcs) {
  check_map_types<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  check_plan(function, p, dst, srcs...);
  const auto& state = p.state();
  if (!state.injective_first) non_injective_plan(function);
  const bool one_run = state.one_dense && (disjoint_or_same(dst, srcs, state.plan.count) && ...);
  if (!one_run) check_no_overlaps(function, dst, srcs...);
  run_map(exec, state.plan, map_body(dst, f, srcs...), state.options, label, state.copies.get(),
          one_run);
}

/// A kernel of one source; `ReadsDst` kernels (add, mul, axpy) read the destination as a first
/// source (their plans are make_plan(dst, dst, src)).
template <bool ReadsDst, class Exec, class D, class S, class F>
void elementwise(const char* function, const std::string& label, const Exec& exec,
                 const Options& options, const D& dst, const S& src, const F& f) {
  const auto& d = as_view(dst);
  if constexpr (ReadsDst)
    zip_map_checked(function, label, exec, options, d, f, d, as_view(src));
  else
    zip_map_checked(function, label, exec, options, d, f, as_view(src));
}
template <bool ReadsDst, class Exec, int N, class D, class S, class F>
void elementwise(const char* function, const std::string& label, const Exec& exec,
                 const KernelPlan<N>& p, const D& dst, const S& src, const F& f) {
  const auto& d = as_view(dst);
  if constexpr (ReadsDst)
    zip_map_planned(function, label, exec, p, d, f, d, as_view(src));
  else
    zip_map_planned(function, label, exec, p, d, f, as_view(src));
}

template <bool Hermitian, class Exec, class D, class S>
void symmetrize(const char* function, const std::string& label, const Exec& exec,
                const Options& options, const D& dst, const S& src) {
  const auto& d = as_view(dst);
  const auto& s = as_view(src);
  using DV = std::decay_t<decltype(d)>;
  using SV = std::decay_t<decltype(s)>;
  static_assert(std::is_same_v<typename DV::value_type, typename SV::value_type>,
                "strided::symmetrize: needs one element type");
  check_map_types<Exec, DV, SV>();
  compat::ScopedRegion region(label);
  if (s.rank() != 2)
    throw_error(ErrorCode::RankMismatch, function, "needs a rank-2 source, got rank ", s.rank());
  if (s.extent(0) != s.extent(1))
    throw_error(ErrorCode::NonSquare, function, "source is ", s.extent(0), " x ", s.extent(1));
  check_same_shape(function, d, s);
  check_output(function, d);
  check_no_overlap(function, d, s, 0);
  if (d.extent(0) == 0) return;
  run_symmetrize<Hermitian>(exec, d, s, options, label);
}

}  // namespace detail

/// dst[i] = f(op(src1[i]), op(src2[i]), ...): any number of sources (at least one), each with its
/// own element type and op; an Options may follow the sources.
template <class Exec, class D, class F, class... S, detail::enable_if_exec<Exec> = 0,
          detail::enable_if_operand<D> = 0>
void zip_map_into(const Exec& exec, const D& dst, const F& f, const S&... srcs) {
  static_assert(sizeof...(S) - (detail::ends_with_options<S...>() ? 1 : 0) >= 1,
                "strided::zip_map_into: needs at least one source");
  const std::string& label = detail::labels::zip_map_into;
  detail::with_trailing_options(
      [&](const Options& options, const auto&... sources) {
        detail::zip_map_checked("zip_map_into", label, exec, options, detail::as_view(dst), f,
                                detail::as_view(sources)...);
      },
      srcs...);
}
template <class Exec, int N, class D, class F, class... S, detail::enable_if_exec<Exec> = 0>
void zip_map_into(const Exec& exec, const KernelPlan<N>& plan, const D& dst, const F& f,
                  const S&... srcs) {
  const std::string& label = detail::labels::zip_map_into;
  detail::zip_map_planned("zip_map_into", label, exec, plan, detail::as_view(dst), f,
                          detail::as_view(srcs)...);
}
template <class D, class F, class... S, detail::enable_if_operand<D> = 0>
void zip_map_into(const D& dst, const F& f, const S&... srcs) {
  zip_map_into(detail::default_host(), dst, f, srcs...);
}
template <int N, class D, class F, class... S>
void zip_map_into(const KernelPlan<N>& plan, const D& dst, const F& f, const S&... srcs) {
  zip_map_into(detail::default_host(), plan, dst, f, srcs...);
}

// The four forms of an element-wise kernel NAME of one source, written once: on `exec` with
// options or a kept plan, and the same on the default host instance. READS_DST: NAME reads the
// destination as a first source (its plans are make_plan(dst, dst, src)); FN: its element
// function. The _ARG form takes one more argument after the source, ARG; FN(ARG) is the function.
#define STRIDED_IMPL_ELEMENTWISE(NAME, READS_DST, FN)                                           \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>                     \
  void NAME(const Exec& exec, const D& dst, const S& src,                                       \
            const Options& options = default_options()) {                                       \
    detail::elementwise<READS_DST>(#NAME, detail::labels::NAME, exec, options, dst, src, FN{}); \
  }                                                                                             \
  template <class Exec, int N, class D, class S, detail::enable_if_exec<Exec> = 0>              \
  void NAME(const Exec& exec, const KernelPlan<N>& plan, const D& dst, const S& src) {          \
    detail::elementwise<READS_DST>(#NAME, detail::labels::NAME, exec, plan, dst, src, FN{});    \
  }                                                                                             \
  template <class D, class S, detail::enable_if_operand<D> = 0>                                 \
  void NAME(const D& dst, const S& src, const Options& options = default_options()) {           \
    NAME(detail::default_host(), dst, src, options);                                            \
  }                                                                                             \
  template <int N, class D, class S>                                                            \
  void NAME(const KernelPlan<N>& plan, const D& dst, const S& src) {                            \
    NAME(detail::default_host(), plan, dst, src);                                               \
  }
#define STRIDED_IMPL_ELEMENTWISE_ARG(NAME, READS_DST, FN, ARG)                                     \
  template <class Exec, class D, class S, class A, detail::enable_if_exec<Exec> = 0>               \
  void NAME(const Exec& exec, const D& dst, const S& src, const A& ARG,                            \
            const Options& options = default_options()) {                                          \
    detail::elementwise<READS_DST>(#NAME, detail::labels::NAME, exec, options, dst, src, FN(ARG)); \
  }                                                                                                \
  template <class Exec, int N, class D, class S, class A, detail::enable_if_exec<Exec> = 0>        \
  void NAME(const Exec& exec, const KernelPlan<N>& plan, const D& dst, const S& src,               \
            const A& ARG) {                                                                        \
    detail::elementwise<READS_DST>(#NAME, detail::labels::NAME, exec, plan, dst, src, FN(ARG));    \
  }                                                                                                \
  template <class D, class S, class A, detail::enable_if_operand<D> = 0>                           \
  void NAME(const D& dst, const S& src, const A& ARG,                                              \
            const Options& options = default_options()) {                                          \
    NAME(detail::default_host(), dst, src, ARG, options);                                          \
  }                                                                                                \
  template <int N, class D, class S, class A>                                                      \
  void NAME(const KernelPlan<N>& plan, const D& dst, const S& src, const A& ARG) {                 \
    NAME(detail::default_host(), plan, dst, src, ARG);                                             \
  }

/// dst = conj(op(src)): `copy_conj(d, a.conj())` copies `a`.
STRIDED_IMPL_ELEMENTWISE(copy_conj, false, detail::ConjFn)

/// dst += op(src).
STRIDED_IMPL_ELEMENTWISE(add, true, detail::AddFn)

/// dst *= op(src).
STRIDED_IMPL_ELEMENTWISE(mul, true, detail::MulFn)

/// dst += alpha * op(src); each product is rounded before the add (no fused multiply-add).
STRIDED_IMPL_ELEMENTWISE_ARG(axpy, true, detail::axpy_fn, alpha)

/// dst = alpha * op(src).
STRIDED_IMPL_ELEMENTWISE_ARG(copy_scale, false, detail::scale_fn, alpha)

/// dst[i] = f(op(src[i])).
STRIDED_IMPL_ELEMENTWISE_ARG(map_into, false, detail::user_fn, f)

#undef STRIDED_IMPL_ELEMENTWISE
#undef STRIDED_IMPL_ELEMENTWISE_ARG

// symmetrize_into and symmetrize_conj_into (HERMITIAN), on `exec` and on the default host.
#define STRIDED_IMPL_SYMMETRIZE(NAME, HERMITIAN)                                         \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>              \
  void NAME(const Exec& exec, const D& dst, const S& src,                                \
            const Options& options = default_options()) {                                \
    detail::symmetrize<HERMITIAN>(#NAME, detail::labels::NAME, exec, options, dst, src); \
  }                                                                                      \
  template <class D, class S, detail::enable_if_operand<D> = 0>                          \
  void NAME(const D& dst, const S& src, const Options& options = default_options()) {    \
    NAME(detail::default_host(), dst, src, options);                                     \
  }

/// dst = (op(src) + op(src)^T) / 2 for a square matrix (RankMismatch, NonSquare otherwise); dst
/// may be src itself. By pairs of 32 x 32 blocks, each source element read once.
STRIDED_IMPL_SYMMETRIZE(symmetrize_into, false)

/// dst = (op(src) + conj(op(src)^T)) / 2 (the Hermitian part); dst may be src itself.
STRIDED_IMPL_SYMMETRIZE(symmetrize_conj_into, true)

#undef STRIDED_IMPL_SYMMETRIZE

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MAP
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MAP
#endif

#endif
