#ifndef STRIDED_CONTRACT_HPP
#define STRIDED_CONTRACT_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CONTRACT
#endif

// Tensor contraction of two strided operands on Kokkos Kernels' GEMM (the Strided::contract
// component; strided.hpp does not include it):
//   contract(exec, "bik,bkj->bij", c, a, b, [alpha, beta])   c = alpha * a . b + beta * c
//   contract("bik,bkj->bij", c, a, b, [alpha, beta])         on DefaultHostExecutionSpace
//   contract(exec, plan, c, a, b, [alpha, beta])             a kept plan (make_contraction_plan)
//   contract(plan, c, a, b, [alpha, beta])
// Method (TTGT): an operand whose axis groups fuse into a matrix with a unit stride is read in
// place; any other (or one with an element op such as conj(), or with trace axes, which are
// summed out first) is packed by this library's permuted copy into grow-only workspace; the
// GEMMs are KokkosBlas::gemm (or KokkosBatched::SerialGemm for many small batches).
// Errors (strided::Error, before anything is written): InvalidArgument (a malformed spec, a
// label repeated in one operand, an output label in no input), RankMismatch (labels vs rank),
// ShapeMismatch (one label, two extents), NonInjectiveOutput, OverlappingInputOutput,
// PlanMismatch (a kept plan given operands of other layouts or element ops).
// Determinism: the bits depend only on the operands' layouts and values, never on the thread
// count, the host space (Serial, OpenMP, Threads) or the algorithm option.

#include <Kokkos_Core.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "strided/backends/dispatch/run_gemms.hpp"
#include "strided/checks.hpp"
#include "strided/copy.hpp"
#include "strided/core/contraction.hpp"
#include "strided/core/labels.hpp"
#include "strided/core/layout_key.hpp"
#include "strided/map.hpp"
#include "strided/plan.hpp"
#include "strided/reduce_axes.hpp"

namespace strided {

namespace detail {

/// An operand's exact layout, as a kept contraction plan records it.
struct ContractionOperandKey {
  LayoutKey layout;  ///< extents, strides and element size, as kept element-wise plans hold them
  bool has_op = false;

  template <class V>
  static ContractionOperandKey of(const V& v) {
    return {layout_key(v), !std::is_same_v<typename V::op_type, Identity>};
  }
  template <class V>
  bool matches(const V& v) const {
    return has_op == !std::is_same_v<typename V::op_type, Identity> && same_layouts(layout, v);
  }
};

/// A packed operand's buffer, as a view with the operand's (kept) extents.
template <class T, class Memory>
StridedView<T, Identity, Memory> packed_operand(T* data, const ContractionOperand& op,
                                                const std::vector<std::size_t>& extents) {
  return StridedView<T, Identity, Memory>(data, op.packed_size, extents, op.packed_strides);
}

/// Extents of an input without its trace axes.
template <class V>
std::vector<std::size_t> kept_extents(const V& v, const ContractionOperand& op) {
  std::vector<std::size_t> kept;
  for (std::size_t axis = 0; axis < v.rank(); ++axis)
    if (std::find(op.trace_axes.begin(), op.trace_axes.end(), axis) == op.trace_axes.end())
      kept.push_back(v.extent(axis));
  return kept;
}

/// The kept sub-plans of one packed operand: its pack (a copy or a trace sum), and for c the
/// copy back.
struct PackPlans {
  std::vector<std::size_t> extents;  ///< of the packed buffer: the operand's kept axes
  std::optional<KernelPlan<2>> copy_in;
  std::optional<AxesPlan<1>> trace;
  std::optional<KernelPlan<2>> copy_out;
};

struct ContractionState {
  ContractionLayout layout;
  ContractionOperandKey key_a, key_b, key_c;
  PackPlans a, b, c;
};

/// Returns zero whatever it reads: c = 0 * c must not turn a NaN in c into the result.
struct ZeroFn {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T&) const {
    return T(0);
  }
};

template <class T, class CV, class AV, class BV>
void check_contraction_types() {
  static_assert(std::is_same_v<typename CV::op_type, Identity>,
                "strided::contract: the output must be a plain view (no element op)");
  static_assert(!std::is_const_v<typename CV::element_type>,
                "strided::contract: the output view must not be a view of const elements");
  static_assert(
      std::is_same_v<typename AV::value_type, T> && std::is_same_v<typename BV::value_type, T>,
      "strided::contract: a, b and c must have one element type (Kokkos Kernels' "
      "GEMM of this library combines no mixed precisions)");
}

template <class Exec, class... V>
constexpr void check_contraction_access() {
  (check_accessible<Exec, V>(), ...);
}

/// The options of a contraction's sums (trace sums, einsum's one-input sums): the defaults with
/// PlannerOptions{}'s tiles, whatever set_default_options holds. A fold's tiles are its order,
/// and a contraction's bits depend only on its operands (docs/contraction.md).
inline Options fixed_fold_options() {
  Options options = default_options();
  options.planner = PlannerOptions{};
  return options;
}

/// Plans a contraction for these views (already as StridedViews). Errors as contract(), named
/// after `function` (contract or make_contraction_plan).
template <class CV, class AV, class BV>
std::shared_ptr<const ContractionState> plan_contraction_for(const char* function,
                                                             std::string_view spec, const CV& c,
                                                             const AV& a, const BV& b) {
  using T = typename CV::value_type;
  check_contraction_types<T, CV, AV, BV>();
  const ContractionLabels labels = parse_contraction(spec, function);
  auto state = std::make_shared<ContractionState>();
  state->layout = plan_contraction(labels, a.layout(), b.layout(), c.layout(),
                                   !std::is_same_v<typename AV::op_type, Identity>,
                                   !std::is_same_v<typename BV::op_type, Identity>, function);
  check_output(function, c);
  state->key_a = ContractionOperandKey::of(a);
  state->key_b = ContractionOperandKey::of(b);
  state->key_c = ContractionOperandKey::of(c);
  // Sub-plans on placeholder buffers: plans hold layouts, never addresses.
  const Options& options = default_options();
  const Options trace_options = fixed_fold_options();
  using Memory = typename CV::memory_space;
  const ContractionLayout& p = state->layout;
  const auto plan_input = [&](PackPlans& plans, const ContractionOperand& op, const auto& x) {
    if (!op.packed || x.size() == 0) return;
    plans.extents = kept_extents(x, op);
    const auto packed = packed_operand<T, Memory>(nullptr, op, plans.extents);
    if (op.trace_axes.empty())
      plans.copy_in = make_plan(packed, x, options);
    else
      plans.trace = make_axes_plan(packed, x, op.trace_axes, trace_options);
  };
  plan_input(state->a, p.a, a);
  plan_input(state->b, p.b, b);
  if (p.c.packed && c.size() != 0) {
    state->c.extents = kept_extents(c, p.c);
    const auto packed = packed_operand<T, Memory>(nullptr, p.c, state->c.extents);
    state->c.copy_in = make_plan(packed, c, options);
    state->c.copy_out = make_plan(c, packed, options);
  }
  return state;
}

/// Executes a planned contraction; the operands match the plan.
template <class Exec, class CV, class AV, class BV, class T>
void run_contraction(const Exec& exec, const ContractionState& s, const CV& c, const AV& a,
                     const BV& b, const T& alpha, const T& beta) {
  const ContractionLayout& p = s.layout;
  // The GEMM reads a and b while it writes c: no sharing at all, not even element for element.
  if (shares_memory(memory_of(c), memory_of(a)) || shares_memory(memory_of(c), memory_of(b)))
    throw_error(ErrorCode::OverlappingInputOutput, "contract",
                "the output shares memory with an input");
  if (c.size() == 0) return;
  if (alpha == T(0) || p.k == 0 || p.trace == 0) {
    // Nothing to add: c = beta * c, and c = 0 without reading c.
    if (beta == T(0))
      map_into(exec, c, c, ZeroFn{});
    else if (beta != T(1))
      copy_scale(exec, c, c, beta);
    return;
  }
  using Memory = typename Exec::memory_space;
  ContractionWorkspace<Memory> workspace;
  const auto input = [&](auto& buffer, const ContractionOperand& op, const PackPlans& plans,
                         const auto& x) {
    GemmOperand<const T> g{x.data(), op.row_stride, op.col_stride, {}};
    if (op.packed) {
      T* data = reinterpret_cast<T*>(buffer.bytes(op.packed_size * sizeof(T)));
      const auto packed = packed_operand<T, Memory>(data, op, plans.extents);
      if (plans.trace)
        sum_axes(exec, *plans.trace, packed, x);
      else
        copy_into(exec, *plans.copy_in, packed, x);
      g.data = data;
    }
    for (std::size_t d = 0; d < op.batch_strides.size() && d < MAX_BATCH_DIMS; ++d)
      g.batch_strides[d] = op.batch_strides[d];
    return g;
  };
  const GemmOperand<const T> ga = input(workspace.a, p.a, s.a, a);
  const GemmOperand<const T> gb = input(workspace.b, p.b, s.b, b);
  GemmOperand<T> gc{c.data(), p.c.row_stride, p.c.col_stride, {}};
  std::optional<StridedView<T, Identity, Memory>> packed_c;
  if (p.c.packed) {
    T* data = reinterpret_cast<T*>(workspace.c.bytes(p.c.packed_size * sizeof(T)));
    packed_c = packed_operand<T, Memory>(data, p.c, s.c.extents);
    if (beta != T(0)) copy_into(exec, *s.c.copy_in, *packed_c, c);
    gc.data = data;
  }
  for (std::size_t d = 0; d < p.c.batch_strides.size() && d < MAX_BATCH_DIMS; ++d)
    gc.batch_strides[d] = p.c.batch_strides[d];

  run_gemms(exec, p, ga, gb, gc, alpha, beta);
  if (packed_c) copy_into(exec, *s.c.copy_out, c, *packed_c);
  // The workspace is released with this call: its kernels must be done.
  compat::fence(exec, "strided::contract: done");
}

}  // namespace detail

/// A contraction planned once for operands of fixed layouts (extents, strides, element ops):
/// the parsed labels, the axis groups and their order, which operands are packed, the GEMM
/// shapes, the batch loop, and the kept plans of the packing copies. Cheap to copy; safe to
/// use from several threads (calls that share a memory space's workspace run one at a time).
class ContractionPlan {
 public:
  explicit ContractionPlan(std::shared_ptr<const detail::ContractionState> state)
      : m_state(std::move(state)) {}
  const detail::ContractionLayout& layout() const { return m_state->layout; }
  const detail::ContractionState& state() const { return *m_state; }

 private:
  std::shared_ptr<const detail::ContractionState> m_state;
};

/// A plan to keep for contract(exec, plan, c, a, b, [alpha, beta]). Errors: as contract(), the
/// layout checks once here (overlap is checked at each execution: it depends on addresses).
template <class C, class A, class B>
ContractionPlan make_contraction_plan(std::string_view spec, const C& c, const A& a, const B& b) {
  return ContractionPlan(detail::plan_contraction_for(
      "make_contraction_plan", spec, detail::as_view(c), detail::as_view(a), detail::as_view(b)));
}

/// The plan's groups, GEMM shapes, batch loop and which operands are packed.
inline std::string explain(const ContractionPlan& plan) {
  return detail::describe(plan.layout());
}

/// c = alpha * contract(a, b) + beta * c with a kept plan. Errors: PlanMismatch (operands of
/// other layouts or element ops than planned), OverlappingInputOutput. Fences `exec`.
template <class Exec, class C, class A, class B, detail::enable_if_exec<Exec> = 0>
void contract(const Exec& exec, const ContractionPlan& plan, const C& c, const A& a, const B& b,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& alpha = 1,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& beta = 0) {
  const auto& cv = detail::as_view(c);
  const auto& av = detail::as_view(a);
  const auto& bv = detail::as_view(b);
  using CV = std::decay_t<decltype(cv)>;
  using T = typename CV::value_type;
  detail::check_contraction_types<T, CV, std::decay_t<decltype(av)>, std::decay_t<decltype(bv)>>();
  detail::check_contraction_access<Exec, CV, std::decay_t<decltype(av)>,
                                   std::decay_t<decltype(bv)>>();
  compat::ScopedRegion region(detail::labels::contract);
  const detail::ContractionState& s = plan.state();
  if (!s.key_a.matches(av) || !s.key_b.matches(bv) || !s.key_c.matches(cv))
    detail::throw_error(ErrorCode::PlanMismatch, "contract",
                        "the operands do not have the layouts (or element ops) the plan was "
                        "made for");
  detail::run_contraction(exec, s, cv, av, bv, alpha, beta);
}

/// c = alpha * contract(a, b) + beta * c, with einsum labels ("bik,bkj->bij"). beta == 0 never
/// reads c; alpha == 0 (or a contraction over an empty axis) reads neither a nor b. Fences
/// `exec`. Complexity: one planning (O(rank^2)), then packing copies of the operands that need
/// them and O(m n k) GEMM work per batch.
template <class Exec, class C, class A, class B, detail::enable_if_exec<Exec> = 0>
void contract(const Exec& exec, std::string_view spec, const C& c, const A& a, const B& b,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& alpha = 1,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& beta = 0) {
  const auto& cv = detail::as_view(c);
  const auto& av = detail::as_view(a);
  const auto& bv = detail::as_view(b);
  detail::check_contraction_access<Exec, std::decay_t<decltype(cv)>, std::decay_t<decltype(av)>,
                                   std::decay_t<decltype(bv)>>();
  compat::ScopedRegion region(detail::labels::contract);
  const auto state = detail::plan_contraction_for("contract", spec, cv, av, bv);
  detail::run_contraction(exec, *state, cv, av, bv, alpha, beta);
}

template <class C, class A, class B, detail::enable_if_operand<C> = 0>
void contract(std::string_view spec, const C& c, const A& a, const B& b,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& alpha = 1,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& beta = 0) {
  contract(detail::default_host(), spec, c, a, b, alpha, beta);
}
template <class C, class A, class B, detail::enable_if_operand<C> = 0>
void contract(const ContractionPlan& plan, const C& c, const A& a, const B& b,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& alpha = 1,
              const typename std::decay_t<decltype(detail::as_view(c))>::value_type& beta = 0) {
  contract(detail::default_host(), plan, c, a, b, alpha, beta);
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CONTRACT
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_CONTRACT
#endif

#endif
