#ifndef STRIDED_REDUCE_HPP
#define STRIDED_REDUCE_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE
#endif

// Full reductions: reduce, zip_reduce, sum, product, sum_squares, max, min, dot. Each checks its
// operands, then makes one call to the dispatch layer. Bits depend only on the shape, strides,
// element sizes and planner options (the determinism contract: docs/determinism.md).
//
// Every kernel has four forms (written once for the built-in ones, by
// STRIDED_IMPL_BUILTIN_REDUCTION), e.g. sum:
//   sum(exec, src, [options])   on the execution-space instance `exec` (fenced: returns a value)
//   sum(src, [options])         on the default DefaultHostExecutionSpace instance
//   sum(exec, plan, src)        a kept plan (make_plan(src)): no planning, O(rank) checks
//   sum(plan, src)
// Errors (strided::Error): RankMismatch and ShapeMismatch (zip_reduce, dot: sources of different
// shapes), PlanMismatch (operands of other layouts than the plan's).
// Complexity: O(elements) work, O(tiles) host combine; planning O(rank^2) unless a plan is given.

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "strided/backends/dispatch/run_reduce.hpp"
#include "strided/builtin_functions.hpp"
#include "strided/checks.hpp"
#include "strided/compat.hpp"
#include "strided/core/labels.hpp"
#include "strided/map.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"

namespace strided {
namespace detail {

/// Full reduction of one or more same-shape sources without a plan.
template <class Exec, class U, class MapFn, class ReduceFn, class... SV>
U reduce_checked(const char* function, const std::string& label, const Exec& exec,
                 const Options& options, const MapFn& map_fn, const ReduceFn& reduce_fn,
                 const U& init, const SV&... srcs) {
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  const auto& first = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape(function, first, srcs), ...);
  auto fold = make_fold<U>(map_fn, reduce_fn, srcs...);  // folded in place by a one-run call
  U result;
  if (run_reduce_inline(exec, options, fold, reduce_fn, init, result, srcs...)) return result;
  return run_reduce(exec, plan_for(options.planner, srcs...), fold, reduce_fn, init, options,
                    label);
}

/// ... and with a kept plan.
template <class Exec, int N, class U, class MapFn, class ReduceFn, class... SV>
U reduce_planned(const char* function, const std::string& label, const Exec& exec,
                 const KernelPlan<N>& p, const MapFn& map_fn, const ReduceFn& reduce_fn,
                 const U& init, const SV&... srcs) {
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  check_plan(function, p, srcs...);
  auto fold = make_fold<U>(map_fn, reduce_fn, srcs...);  // folded in place by a one-run call
  const auto& state = p.state();
  return run_reduce(exec, state.plan, fold, reduce_fn, init, state.options, label,
                    state.copies.get(), state.one_dense);
}

template <class V>
using value_of = typename std::decay_t<decltype(as_view(std::declval<const V&>()))>::value_type;

/// The product type of dot(a, b), or Acc when given.
template <class Acc, class A, class B>
using dot_type_t =
    std::conditional_t<std::is_void_v<Acc>,
                       decltype(std::declval<value_of<A>>() * std::declval<value_of<B>>()), Acc>;

/// A built-in reduction (SumReduction, ...) of src, checked against `options` or run by a kept
/// plan.
template <class Reduction, class Exec, class SV>
auto builtin_reduce(const char* function, const std::string& label, const Exec& exec,
                    const Options& options, const SV& src) {
  const auto fold = Reduction::template of<typename SV::value_type>();
  return reduce_checked(function, label, exec, options, fold.map_fn, fold.reduce_fn, fold.init,
                        src);
}
template <class Reduction, class Exec, int N, class SV>
auto builtin_reduce(const char* function, const std::string& label, const Exec& exec,
                    const KernelPlan<N>& plan, const SV& src) {
  const auto fold = Reduction::template of<typename SV::value_type>();
  return reduce_planned(function, label, exec, plan, fold.map_fn, fold.reduce_fn, fold.init, src);
}

}  // namespace detail

// The four forms of a built-in full reduction NAME, written once: on `exec` with options or a
// kept plan, and the same on the default host instance.
#define STRIDED_IMPL_BUILTIN_REDUCTION(NAME, REDUCTION)                                   \
  template <class Exec, class S, detail::enable_if_exec<Exec> = 0>                        \
  auto NAME(const Exec& exec, const S& src, const Options& options = default_options()) { \
    return detail::builtin_reduce<REDUCTION>(#NAME, detail::labels::NAME, exec, options,  \
                                             detail::as_view(src));                       \
  }                                                                                       \
  template <class Exec, int N, class S, detail::enable_if_exec<Exec> = 0>                 \
  auto NAME(const Exec& exec, const KernelPlan<N>& plan, const S& src) {                  \
    return detail::builtin_reduce<REDUCTION>(#NAME, detail::labels::NAME, exec, plan,     \
                                             detail::as_view(src));                       \
  }                                                                                       \
  template <class S, detail::enable_if_operand<S> = 0>                                    \
  auto NAME(const S& src, const Options& options = default_options()) {                   \
    return NAME(detail::default_host(), src, options);                                    \
  }                                                                                       \
  template <int N, class S>                                                               \
  auto NAME(const KernelPlan<N>& plan, const S& src) {                                    \
    return NAME(detail::default_host(), plan, src);                                       \
  }

/// reduce_fn over map_fn(op(src[i])), in the caller's accumulator type U (the type of init).
/// reduce_fn must be associative and commutative and init its identity; init enters once.
template <class Exec, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U reduce(const Exec& exec, const S& src, const MapFn& map_fn, const ReduceFn& reduce_fn,
         const U& init, const Options& options = default_options()) {
  const std::string& label = detail::labels::reduce;
  return detail::reduce_checked("reduce", label, exec, options, map_fn, reduce_fn, init,
                                detail::as_view(src));
}
template <class Exec, int N, class S, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U reduce(const Exec& exec, const KernelPlan<N>& plan, const S& src, const MapFn& map_fn,
         const ReduceFn& reduce_fn, const U& init) {
  const std::string& label = detail::labels::reduce;
  return detail::reduce_planned("reduce", label, exec, plan, map_fn, reduce_fn, init,
                                detail::as_view(src));
}
template <class S, class MapFn, class ReduceFn, class U, detail::enable_if_operand<S> = 0>
U reduce(const S& src, const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init,
         const Options& options = default_options()) {
  return reduce(detail::default_host(), src, map_fn, reduce_fn, init, options);
}
template <int N, class S, class MapFn, class ReduceFn, class U>
U reduce(const KernelPlan<N>& plan, const S& src, const MapFn& map_fn, const ReduceFn& reduce_fn,
         const U& init) {
  return reduce(detail::default_host(), plan, src, map_fn, reduce_fn, init);
}

/// reduce_fn over map_fn(op(a[i]), op(b[i])).
template <class Exec, class A, class B, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U zip_reduce(const Exec& exec, const A& a, const B& b, const MapFn& map_fn,
             const ReduceFn& reduce_fn, const U& init, const Options& options = default_options()) {
  const std::string& label = detail::labels::zip_reduce;
  return detail::reduce_checked("zip_reduce", label, exec, options, map_fn, reduce_fn, init,
                                detail::as_view(a), detail::as_view(b));
}
template <class Exec, int N, class A, class B, class MapFn, class ReduceFn, class U,
          detail::enable_if_exec<Exec> = 0>
U zip_reduce(const Exec& exec, const KernelPlan<N>& plan, const A& a, const B& b,
             const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init) {
  const std::string& label = detail::labels::zip_reduce;
  return detail::reduce_planned("zip_reduce", label, exec, plan, map_fn, reduce_fn, init,
                                detail::as_view(a), detail::as_view(b));
}
template <class A, class B, class MapFn, class ReduceFn, class U, detail::enable_if_operand<A> = 0>
U zip_reduce(const A& a, const B& b, const MapFn& map_fn, const ReduceFn& reduce_fn, const U& init,
             const Options& options = default_options()) {
  return zip_reduce(detail::default_host(), a, b, map_fn, reduce_fn, init, options);
}
template <int N, class A, class B, class MapFn, class ReduceFn, class U>
U zip_reduce(const KernelPlan<N>& plan, const A& a, const B& b, const MapFn& map_fn,
             const ReduceFn& reduce_fn, const U& init) {
  return zip_reduce(detail::default_host(), plan, a, b, map_fn, reduce_fn, init);
}

/// Sum of op(src[i]) in the element type; an empty tensor gives 0.
STRIDED_IMPL_BUILTIN_REDUCTION(sum, detail::SumReduction)

/// Product of op(src[i]); an empty tensor gives 1.
STRIDED_IMPL_BUILTIN_REDUCTION(product, detail::ProductReduction)

/// Sum of squares of a real or integer tensor; each square is rounded before it is added.
STRIDED_IMPL_BUILTIN_REDUCTION(sum_squares, detail::SumSquaresReduction)

/// Largest element; NaN propagates; an empty tensor gives -inf (lowest for integers).
STRIDED_IMPL_BUILTIN_REDUCTION(max, detail::MaxReduction)

/// Smallest element; NaN propagates; an empty tensor gives +inf (highest for integers).
STRIDED_IMPL_BUILTIN_REDUCTION(min, detail::MinReduction)

/// sum(op(a[i]) * op(b[i])) without conjugation (write dot(a.conj(), b) for the Hermitian
/// form), accumulated in `Acc` (default: the product type), e.g. an f32 dot in f64; each product
/// is rounded before it is added.
template <class Acc = void, class Exec, class A, class B, detail::enable_if_exec<Exec> = 0>
auto dot(const Exec& exec, const A& a, const B& b, const Options& options = default_options()) {
  using U = detail::dot_type_t<Acc, A, B>;
  const std::string& label = detail::labels::dot;
  return detail::reduce_checked("dot", label, exec, options, detail::Product<U>{}, detail::Plus{},
                                U(0), detail::as_view(a), detail::as_view(b));
}
template <class Acc = void, class Exec, int N, class A, class B, detail::enable_if_exec<Exec> = 0>
auto dot(const Exec& exec, const KernelPlan<N>& plan, const A& a, const B& b) {
  using U = detail::dot_type_t<Acc, A, B>;
  const std::string& label = detail::labels::dot;
  return detail::reduce_planned("dot", label, exec, plan, detail::Product<U>{}, detail::Plus{},
                                U(0), detail::as_view(a), detail::as_view(b));
}
template <class Acc = void, class A, class B, detail::enable_if_operand<A> = 0>
auto dot(const A& a, const B& b, const Options& options = default_options()) {
  return dot<Acc>(detail::default_host(), a, b, options);
}
template <class Acc = void, int N, class A, class B>
auto dot(const KernelPlan<N>& plan, const A& a, const B& b) {
  return dot<Acc>(detail::default_host(), plan, a, b);
}

}  // namespace strided

#undef STRIDED_IMPL_BUILTIN_REDUCTION

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_REDUCE
#endif

#endif
