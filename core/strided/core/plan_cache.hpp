#ifndef STRIDED_CORE_PLAN_CACHE_HPP
#define STRIDED_CORE_PLAN_CACHE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The last plan each thread made for N operands, beside what it was made from. A call that
// repeats the layouts of its thread's previous call with as many operands (a time loop, a
// benchmark's repetitions) takes that plan instead of planning again: planning was two thirds of
// a one-shot copy of a 4-d permutation of 256 doubles (350 of 530 ns on an AMD EPYC guest). A
// plan depends only on what the key holds (shapes, strides, element sizes, planner options; the
// machine's L2 is fixed for the process), so a hit returns what make_plan would. Host code only.

#include <cstddef>
#include <tuple>

#include "strided/core/config.hpp"
#include "strided/core/plan.hpp"
#include "strided/core/planner.hpp"

namespace strided::detail {

/// Plan p's fields that its kernels read: its axes, and its gather tables up to the groups'
/// extents (a Plan<2> is 11 KiB; copying it whole costs more than a small call's elements).
template <int N>
void assign_plan(Plan<N>& to, const Plan<N>& from) {
  assign_axes<N>(to, from);
  if (!from.gathered) return;
  for (int a = 0; a < 2; ++a)
    for (int k = 0; k < N; ++k)
      for (std::size_t e = 0; e < from.dims[a]; ++e) to.table[a][k][e] = from.table[a][k][e];
}

/// The fields of planner settings that decide their plans, without the tile override (read
/// through its pointer, whose array may change between calls: make_plan_cached never keeps
/// those).
inline auto plan_deciding_fields(const PlannerOptions& o) {
  // Every field by name: a field added to PlannerOptions stops this compiling until it is
  // handled here.
  const auto& [block_bytes, cache_line, max_tile_elements, weight_first_operand,
               transpose_row_bytes, stream_bytes, gather, block_override, l2_bytes] = o;
  (void)block_override;
  return std::make_tuple(block_bytes, cache_line, max_tile_elements, weight_first_operand,
                         transpose_row_bytes, stream_bytes, gather, l2_bytes);
}

/// Whether two planner settings without a tile override make the same plans for every layout.
inline bool same_planner_options(const PlannerOptions& a, const PlannerOptions& b) {
  return plan_deciding_fields(a) == plan_deciding_fields(b);
}

/// A thread's last plan of N operands and its key.
template <int N>
struct LastPlan {
  bool valid = false;
  std::size_t rank = 0;
  std::size_t extents[MAX_PLAN_RANK];
  std::ptrdiff_t strides[N][MAX_PLAN_RANK];
  std::size_t element_size[N];
  PlannerOptions options;
  bool on_lines = true;
  Plan<N> plan;

  bool matches(std::size_t r, const std::size_t* e, const std::ptrdiff_t* const* s,
               const std::size_t* size, const PlannerOptions& opt, bool lines) const {
    if (!valid || r != rank || lines != on_lines || !same_planner_options(opt, options))
      return false;
    for (int k = 0; k < N; ++k)
      if (size[k] != element_size[k]) return false;
    for (std::size_t i = 0; i < r; ++i) {
      if (e[i] != extents[i]) return false;
      for (int k = 0; k < N; ++k)
        if (s[k][i] != strides[k][i]) return false;
    }
    return true;
  }

  void keep(std::size_t r, const std::size_t* e, const std::ptrdiff_t* const* s,
            const std::size_t* size, const PlannerOptions& opt, bool lines, const Plan<N>& p) {
    rank = r;
    on_lines = lines;
    for (std::size_t i = 0; i < r; ++i) {
      extents[i] = e[i];
      for (int k = 0; k < N; ++k) strides[k][i] = s[k][i];
    }
    for (int k = 0; k < N; ++k) element_size[k] = size[k];
    options = opt;
    assign_plan<N>(plan, p);
    valid = true;
  }
};

/// The calling thread's LastPlan<N> (threads plan concurrently; none waits for another).
template <int N>
LastPlan<N>& thread_last_plan() {
  static thread_local LastPlan<N> last;
  return last;
}

/// A copy of a kept plan (one object, returned in place).
template <int N>
Plan<N> copy_of_plan(const Plan<N>& kept) {
  Plan<N> p;
  assign_plan<N>(p, kept);
  return p;
}

/// make_plan, kept as `last` (one object, returned in place).
template <int N>
Plan<N> plan_and_keep(LastPlan<N>& last, std::size_t rank, const std::size_t* extents,
                      const std::ptrdiff_t* const* strides, const std::size_t* element_size,
                      const PlannerOptions& opt, bool on_lines) {
  Plan<N> p = make_plan<N>(rank, extents, strides, element_size, opt, on_lines);
  last.keep(rank, extents, strides, element_size, opt, on_lines, p);
  return p;
}

/// make_plan through the calling thread's LastPlan<N>. Layouts of more than MAX_PLAN_RANK axes,
/// and tile overrides, always plan. (Every path returns a prvalue: the 11 KiB plan is built in
/// the caller's object, never copied whole.) Out of line: inlined into a reduction's entry, it
/// left GCC 12 folding a 2^20-element sum's 16 lanes as scalars (147 us against 84 vectorized,
/// AMD EPYC Zen 4, 1 thread).
template <int N>
STRIDED_NOINLINE Plan<N> make_plan_cached(std::size_t rank, const std::size_t* extents,
                                          const std::ptrdiff_t* const* strides,
                                          const std::size_t* element_size,
                                          const PlannerOptions& opt, bool on_lines = true) {
  if (rank > static_cast<std::size_t>(MAX_PLAN_RANK) || opt.block_override)
    return make_plan<N>(rank, extents, strides, element_size, opt, on_lines);
  LastPlan<N>& last = thread_last_plan<N>();
  return last.matches(rank, extents, strides, element_size, opt, on_lines)
             ? copy_of_plan<N>(last.plan)
             : plan_and_keep<N>(last, rank, extents, strides, element_size, opt, on_lines);
}

}  // namespace strided::detail

#endif
