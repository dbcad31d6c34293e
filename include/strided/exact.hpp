#ifndef STRIDED_EXACT_HPP
#define STRIDED_EXACT_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EXACT
#endif

// The exact tier: sum, dot and sum_squares (and their axis forms) given `strided::exact` return
// the correctly rounded value (to nearest, ties to even) of the exact mathematical result:
// every element and every product enters exactly, and the sum is rounded once, to the result
// type. Such a result depends on nothing but the values: the same bits on every backend,
// thread count, plan, layout, device and (strided/mpi.hpp) MPI rank count.
//
//   sum<Acc>(exec, src, exact, [options])      Acc: the result type (default: the element type)
//   dot<Acc>(exec, a, b, exact, [options])     (default: the product type)
//   sum_squares<Acc>(exec, src, exact, [options])
//   ... each also without exec (DefaultHostExecutionSpace) and with a kept plan:
//   sum<Acc>(exec, plan, src, exact)
//   sum_axes(exec, dst, src, axes, exact, [options])    rounded once to dst's element type
//   dot_axes(exec, dst, a, b, axes, exact, [options]), sum_squares_axes(exec, dst, src, axes,
//   exact)
//
// Element types: float and double, real or Kokkos::complex (per component; a complex product
// is exact before its components are added). IEEE rules: a NaN, or +inf with -inf, gives NaN;
// an infinity gives itself; a finite sum beyond the result type's range rounds to an infinity;
// an exact zero is +0 unless every term was -0 (an empty tensor gives +0).
// Errors: those of the fixed-fold kernels of the same name.
// Complexity: O(elements) work with a few flops per element and one extra flush per 4096 of
// them, O(chunks) exact merges on the host; memory O(chunks) accumulators of 0.5 to 1 KiB.

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "strided/backends/dispatch/run_exact.hpp"
#include "strided/checks.hpp"
#include "strided/core/labels.hpp"
#include "strided/map.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"
#include "strided/reduce.hpp"
#include "strided/reduce_axes.hpp"

namespace strided {

/// The tag that selects the exact tier: `strided::sum(exec, v, strided::exact)`.
struct Exact {
  explicit constexpr Exact() = default;
};
inline constexpr Exact exact{};

namespace detail {

template <class T>
inline constexpr bool exact_element_v =
    std::is_same_v<real_of_t<T>, float> || std::is_same_v<real_of_t<T>, double>;

template <class Acc, class T>
using exact_result_t = std::conditional_t<std::is_void_v<Acc>, std::remove_cv_t<T>, Acc>;

template <class R, class... T>
constexpr void check_exact_types() {
  static_assert((exact_element_v<T> && ...),
                "strided: the exact tier takes float, double and their Kokkos::complex");
  static_assert(exact_element_v<R>, "strided: an exact result is float, double or their complex");
  static_assert(is_complex_v<R> == (is_complex_v<T> || ...),
                "strided: an exact result is complex exactly when an operand is");
}

template <class Terms, class... SV>
using exact_fold_t =
    ExactFold<Terms, OperandRef<typename SV::element_type, typename SV::op_type>...>;

template <class Fold, class... SV>
decltype(Fold::srcs) exact_sources(const SV&... srcs) {
  return decltype(Fold::srcs)(
      OperandRef<typename SV::element_type, typename SV::op_type>{srcs.data()}...);
}

/// The exact integers (one per component) of same-shape sources, planned here or with a kept
/// plan (`kept`, with its copies): what a rank contributes to an MPI reduction, and what a full
/// reduction rounds.
template <class Terms, class Exec, int N, class... SV>
void exact_integers(const Exec& exec, const KernelPlanState<N>* kept, const Options& options,
                    const std::string& label, typename exact_fold_t<Terms, SV...>::Int* ints,
                    const SV&... srcs) {
  using Fold = exact_fold_t<Terms, SV...>;
  const auto sources = exact_sources<Fold>(srcs...);
  const std::size_t count = std::get<0>(std::forward_as_tuple(srcs...)).size();
  // Exact integers do not depend on the walk: any dense call small enough for the calling thread
  // goes as one run, whatever its size.
  const CallFacts call{count, 0, 1, true, false};
  if (!kept && count > 0 && route(exec, options, call) == Route::OneRun &&
      one_dense_layout(srcs...)) {
    Fold fold(sources);  // one dense run on the calling thread: no plan needed
    walk_one_run<N>(fold, count);
    fold.finish(ints);
  } else if (kept) {
    run_exact<Fold>(exec, kept->plan, sources, ints, options, label, kept->copies.get());
  } else {
    run_exact<Fold>(exec, plan_for(options.planner, srcs...), sources, ints, options, label);
  }
}

template <class R, class Terms, class Exec, int N, class... SV>
R exact_reduce(const Exec& exec, const KernelPlanState<N>* kept, const Options& options,
               const std::string& label, const SV&... srcs) {
  check_exact_types<R, typename SV::value_type...>();
  typename exact_fold_t<Terms, SV...>::Int ints[exact_fold_t<Terms, SV...>::K];
  exact_integers<Terms, Exec, N>(exec, kept, options, label, ints, srcs...);
  return exact_value<R>(ints);
}

template <class R, class Terms, class Exec, class... SV>
R exact_checked(const char* function, const std::string& label, const Exec& exec,
                const Options& options, const SV&... srcs) {
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  const auto& first = std::get<0>(std::forward_as_tuple(srcs...));
  (check_same_shape(function, first, srcs), ...);
  return exact_reduce<R, Terms, Exec, static_cast<int>(sizeof...(SV))>(exec, nullptr, options,
                                                                       label, srcs...);
}

template <class R, class Terms, class Exec, int N, class... SV>
R exact_planned(const char* function, const std::string& label, const Exec& exec,
                const KernelPlan<N>& p, const SV&... srcs) {
  (check_accessible<Exec, SV>(), ...);
  compat::ScopedRegion region(label);
  check_plan(function, p, srcs...);
  return exact_reduce<R, Terms>(exec, &p.state(), p.state().options, label, srcs...);
}

/// An exact axis reduction into dst, planned here or with a kept plan's layout (and its copies).
template <class Terms, class Exec, class DV, int S, class... SV>
void exact_axes_run(const Exec& exec, const AxesLayout<S>& layout, KeptCopies* kept, const DV& dst,
                    const std::string& label, const SV&... srcs) {
  check_exact_types<typename DV::value_type, typename SV::value_type...>();
  using Fold = exact_fold_t<Terms, SV...>;
  run_exact_axes<Fold>(exec, layout,
                       DstRef<typename DV::value_type, typename DV::op_type>{dst.data()},
                       exact_sources<Fold>(srcs...), label, kept);
}

template <class Terms, class Exec, class DV, class... SV>
void exact_axes_checked(const char* function, const std::string& label, const Exec& exec,
                        const Options& options, const DV& dst, const IndexList<std::size_t>& axes,
                        const SV&... srcs) {
  check_axes_operands<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  const AxisSplit split = check_axes(function, dst, axes, srcs...);
  if (dst.size() == 0) return;
  exact_axes_run<Terms>(
      exec, axes_layout(split, options.planner, host_threads(exec, options), dst, srcs...), nullptr,
      dst, label, srcs...);
}

template <class Terms, class Exec, int S, class DV, class... SV>
void exact_axes_planned(const char* function, const std::string& label, const Exec& exec,
                        const AxesPlan<S>& p, const DV& dst, const SV&... srcs) {
  static_assert(sizeof...(SV) == S, "strided: the plan was made for another number of sources");
  check_axes_operands<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  if (!check_axes_plan(function, p, dst, srcs...)) return;
  exact_axes_run<Terms>(exec, p.state().layout, p.state().copies.get(), dst, label, srcs...);
}

template <class S>
using sum_terms_t = SumTerms<value_of<S>>;
template <class A, class B>
using dot_terms_t = DotTerms<value_of<A>, value_of<B>>;
template <class S>
using square_terms_t = SquareTerms<value_of<S>>;

template <class S>
constexpr void check_exact_squares() {
  static_assert(!is_complex_v<value_of<S>>,
                "strided::sum_squares: for real types (use dot(a.conj(), a, exact))");
}

/// The exact reductions of one source: the terms each element gives, and the check of its type.
struct ExactSumOf {
  template <class S>
  using terms = sum_terms_t<S>;
  template <class S>
  static constexpr void check() {}
};
struct ExactSquaresOf {
  template <class S>
  using terms = square_terms_t<S>;
  template <class S>
  static constexpr void check() {
    check_exact_squares<S>();
  }
};

}  // namespace detail

// ---- full reductions ------------------------------------------------------------------------

// The four forms of an exact reduction NAME of one source (EXACT: ExactSumOf, ExactSquaresOf),
// written once: on `exec` with options or a kept plan, and the same on the default host instance.
#define STRIDED_IMPL_EXACT_REDUCTION(NAME, EXACT)                                                \
  template <class Acc = void, class Exec, class S, detail::enable_if_exec<Exec> = 0>             \
  auto NAME(const Exec& exec, const S& src, Exact, const Options& options = default_options()) { \
    EXACT::template check<S>();                                                                  \
    using R = detail::exact_result_t<Acc, detail::value_of<S>>;                                  \
    return detail::exact_checked<R, typename EXACT::template terms<S>>(                          \
        #NAME, detail::labels::NAME##_exact, exec, options, detail::as_view(src));               \
  }                                                                                              \
  template <class Acc = void, class Exec, int N, class S, detail::enable_if_exec<Exec> = 0>      \
  auto NAME(const Exec& exec, const KernelPlan<N>& plan, const S& src, Exact) {                  \
    EXACT::template check<S>();                                                                  \
    using R = detail::exact_result_t<Acc, detail::value_of<S>>;                                  \
    return detail::exact_planned<R, typename EXACT::template terms<S>>(                          \
        #NAME, detail::labels::NAME##_exact, exec, plan, detail::as_view(src));                  \
  }                                                                                              \
  template <class Acc = void, class S, detail::enable_if_operand<S> = 0>                         \
  auto NAME(const S& src, Exact e, const Options& options = default_options()) {                 \
    return NAME<Acc>(detail::default_host(), src, e, options);                                   \
  }                                                                                              \
  template <class Acc = void, int N, class S>                                                    \
  auto NAME(const KernelPlan<N>& plan, const S& src, Exact e) {                                  \
    return NAME<Acc>(detail::default_host(), plan, src, e);                                      \
  }
// ... and of an exact axis reduction NAME of one source, each output rounded once to dst's type.
#define STRIDED_IMPL_EXACT_AXES_REDUCTION(NAME, EXACT)                                      \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>                 \
  void NAME(const Exec& exec, const D& dst, const S& src, const AxisList& axes, Exact,      \
            const Options& options = default_options()) {                                   \
    EXACT::template check<S>();                                                             \
    detail::exact_axes_checked<typename EXACT::template terms<S>>(                          \
        #NAME, detail::labels::NAME##_exact, exec, options, detail::as_view(dst), axes,     \
        detail::as_view(src));                                                              \
  }                                                                                         \
  template <class Exec, class D, class S, detail::enable_if_exec<Exec> = 0>                 \
  void NAME(const Exec& exec, const AxesPlan<1>& plan, const D& dst, const S& src, Exact) { \
    EXACT::template check<S>();                                                             \
    detail::exact_axes_planned<typename EXACT::template terms<S>>(                          \
        #NAME, detail::labels::NAME##_exact, exec, plan, detail::as_view(dst),              \
        detail::as_view(src));                                                              \
  }                                                                                         \
  template <class D, class S, detail::enable_if_operand<D> = 0>                             \
  void NAME(const D& dst, const S& src, const AxisList& axes, Exact e,                      \
            const Options& options = default_options()) {                                   \
    NAME(detail::default_host(), dst, src, axes, e, options);                               \
  }                                                                                         \
  template <class D, class S>                                                               \
  void NAME(const AxesPlan<1>& plan, const D& dst, const S& src, Exact e) {                 \
    NAME(detail::default_host(), plan, dst, src, e);                                        \
  }

/// The exact sum of op(src[i]), rounded once to Acc (default: the element type).
STRIDED_IMPL_EXACT_REDUCTION(sum, detail::ExactSumOf)

/// The exact sum of op(src[i])^2 of a real tensor, rounded once to Acc (default: the element
/// type).
STRIDED_IMPL_EXACT_REDUCTION(sum_squares, detail::ExactSquaresOf)

/// The exact sum of op(a[i]) * op(b[i]) (no conjugation), every product exact, rounded once to
/// Acc (default: the product type).
template <class Acc = void, class Exec, class A, class B, detail::enable_if_exec<Exec> = 0>
auto dot(const Exec& exec, const A& a, const B& b, Exact,
         const Options& options = default_options()) {
  using R = detail::dot_type_t<Acc, A, B>;
  const std::string& label = detail::labels::dot_exact;
  return detail::exact_checked<R, detail::dot_terms_t<A, B>>(
      "dot", label, exec, options, detail::as_view(a), detail::as_view(b));
}
template <class Acc = void, class Exec, int N, class A, class B, detail::enable_if_exec<Exec> = 0>
auto dot(const Exec& exec, const KernelPlan<N>& plan, const A& a, const B& b, Exact) {
  using R = detail::dot_type_t<Acc, A, B>;
  const std::string& label = detail::labels::dot_exact;
  return detail::exact_planned<R, detail::dot_terms_t<A, B>>(
      "dot", label, exec, plan, detail::as_view(a), detail::as_view(b));
}
template <class Acc = void, class A, class B, detail::enable_if_operand<A> = 0>
auto dot(const A& a, const B& b, Exact e, const Options& options = default_options()) {
  return dot<Acc>(detail::default_host(), a, b, e, options);
}
template <class Acc = void, int N, class A, class B>
auto dot(const KernelPlan<N>& plan, const A& a, const B& b, Exact e) {
  return dot<Acc>(detail::default_host(), plan, a, b, e);
}

// ---- axis reductions (each output rounded once to dst's element type) ----------------------

STRIDED_IMPL_EXACT_AXES_REDUCTION(sum_axes, detail::ExactSumOf)
STRIDED_IMPL_EXACT_AXES_REDUCTION(sum_squares_axes, detail::ExactSquaresOf)

template <class Exec, class D, class A, class B, detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const D& dst, const A& a, const B& b, const AxisList& axes, Exact,
              const Options& options = default_options()) {
  const std::string& label = detail::labels::dot_axes_exact;
  detail::exact_axes_checked<detail::dot_terms_t<A, B>>("dot_axes", label, exec, options,
                                                        detail::as_view(dst), axes,
                                                        detail::as_view(a), detail::as_view(b));
}
template <class Exec, class D, class A, class B, detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const AxesPlan<2>& plan, const D& dst, const A& a, const B& b,
              Exact) {
  const std::string& label = detail::labels::dot_axes_exact;
  detail::exact_axes_planned<detail::dot_terms_t<A, B>>(
      "dot_axes", label, exec, plan, detail::as_view(dst), detail::as_view(a), detail::as_view(b));
}
template <class D, class A, class B, detail::enable_if_operand<D> = 0>
void dot_axes(const D& dst, const A& a, const B& b, const AxisList& axes, Exact e,
              const Options& options = default_options()) {
  dot_axes(detail::default_host(), dst, a, b, axes, e, options);
}
template <class D, class A, class B>
void dot_axes(const AxesPlan<2>& plan, const D& dst, const A& a, const B& b, Exact e) {
  dot_axes(detail::default_host(), plan, dst, a, b, e);
}

#undef STRIDED_IMPL_EXACT_REDUCTION
#undef STRIDED_IMPL_EXACT_AXES_REDUCTION

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EXACT
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EXACT
#endif

#endif
