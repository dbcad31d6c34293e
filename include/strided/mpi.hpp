#ifndef STRIDED_MPI_HPP
#define STRIDED_MPI_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MPI
#endif

// Global reductions of a tensor distributed over the ranks of an MPI communicator (the optional
// Strided::mpi component: find_package(Strided COMPONENTS MPI), target Strided::mpi). Each rank
// passes its local part, a strided view of any layout in any memory space its exec reaches (an
// empty view too); the ranks' exact integers are combined by one MPI reduction with a
// user-defined operation, and the sum is rounded once. So sum, dot and sum_squares have the bits
// of the correctly rounded exact result: the same bits on 1, 2 or 1000 ranks, for any split of
// the global tensor and any local layouts, backends and thread counts (strided/exact.hpp).
//
//   strided::mpi::sum<Acc>(exec, local, comm, [options])       every rank gets the result
//   strided::mpi::dot<Acc>(exec, a, b, comm, [options])        a, b: the same local shape
//   strided::mpi::sum_squares<Acc>(exec, local, comm, [options])
//   strided::mpi::max(exec, local, comm, [options]), min(...)  NaN propagates; empty: -inf/+inf
//   strided::mpi::isum<Acc>(exec, local, comm) -> Request<R>   non-blocking (also idot,
//       isum_squares, imax, imin); request.wait() returns the result, request.test() polls
//   strided::mpi::sum_axes(exec, dst, local, axes, comm, [where], [options])
//       dst: the reduced shape (the same on every rank), the reduced axes split over ranks;
//       where: strided::mpi::all_ranks (default) or strided::mpi::Root{r} (only rank r writes
//       dst); also dot_axes(exec, dst, a, b, axes, comm, ...), sum_squares_axes(...)
//   ... each also without exec (DefaultHostExecutionSpace).
//
// One collective per call (an MPI_Allreduce, MPI_Reduce or MPI_Iallreduce), on every rank of
// comm, in the same order on every rank, as for any MPI collective.
// Errors (strided::Error, on the calling rank, before the collective): those of the local
// kernels; InvalidArgument for MPI_COMM_NULL or a root out of range; MpiError when MPI is not
// initialized or an MPI call fails (seen only when comm's error handler returns).
// Cost: the local exact reduction, then one collective on 0.5-1 KiB per result component (per
// output for the axis forms); latency-bound for full reductions.

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <climits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "strided/backends/mpi/collective.hpp"
#include "strided/core/labels.hpp"
#include "strided/exact.hpp"
#include "strided/reduce.hpp"

namespace strided::mpi {

/// Where an axis reduction's result is written: on every rank, or only on the root.
struct AllRanks {
  explicit constexpr AllRanks() = default;
};
inline constexpr AllRanks all_ranks{};
struct Root {
  int rank = 0;
};

/// A reduction in flight (from isum, idot, ...): wait() completes it and returns the result
/// (once); the destructor completes a request still in flight. Move-only.
template <class R>
class Request {
 public:
  Request() = default;
  Request(Request&& other) noexcept { *this = std::move(other); }
  Request& operator=(Request&& other) noexcept {
    if (this != &other) {
      finish_quietly();
      m_request = std::exchange(other.m_request, MPI_REQUEST_NULL);
      m_state = std::move(other.m_state);
    }
    return *this;
  }
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request() { finish_quietly(); }

  /// Whether the reduction is complete (then wait() returns at once).
  bool test() {
    if (m_request == MPI_REQUEST_NULL) return true;
    int done = 0;
    detail::check_mpi(MPI_Test(&m_request, &done, MPI_STATUS_IGNORE), "mpi::Request::test",
                      "MPI_Test");
    return done != 0;
  }
  /// Completes the reduction and returns its result.
  R wait() {
    if (!m_state)
      detail::throw_error(ErrorCode::InvalidArgument, "mpi::Request::wait", "no result");
    detail::check_mpi(MPI_Wait(&m_request, MPI_STATUS_IGNORE), "mpi::Request::wait", "MPI_Wait");
    const R r = m_state->result();
    m_state.reset();
    return r;
  }

  /// The buffer the collective reads and writes, and how it becomes the result.
  struct State {
    virtual ~State() = default;
    virtual R result() const = 0;
  };
  Request(MPI_Request request, std::unique_ptr<State> state)
      : m_request(request), m_state(std::move(state)) {}

 private:
  void finish_quietly() noexcept {
    if (m_request != MPI_REQUEST_NULL) MPI_Wait(&m_request, MPI_STATUS_IGNORE);
  }
  MPI_Request m_request = MPI_REQUEST_NULL;
  std::unique_ptr<State> m_state;
};

namespace detail {

using strided::detail::as_view;
using strided::detail::check_mpi;
using strided::detail::exact_fold_t;
using strided::detail::MpiCombine;

template <class Terms, class... SV>
using integer_of = typename exact_fold_t<Terms, SV...>::Int;
template <class Terms, class... SV>
inline constexpr int components_of = exact_fold_t<Terms, SV...>::K;

/// This rank's exact integers of its local sources (shapes checked).
template <class Terms, class Exec, class... SV>
void local_integers(const char* function, const std::string& label, const Exec& exec,
                    const Options& options, integer_of<Terms, SV...>* ints, const SV&... srcs) {
  (strided::detail::check_accessible<Exec, SV>(), ...);
  const auto& first = std::get<0>(std::forward_as_tuple(srcs...));
  (strided::detail::check_same_shape(function, first, srcs), ...);
  strided::detail::exact_integers<Terms, Exec, static_cast<int>(sizeof...(SV))>(
      exec, nullptr, options, label, ints, srcs...);
}

template <class R, class Terms, class Exec, class... SV>
R global_exact(const char* function, const std::string& label, const Exec& exec, MPI_Comm comm,
               const Options& options, const SV&... srcs) {
  strided::detail::check_exact_types<R, typename SV::value_type...>();
  strided::detail::check_communicator(function, comm);
  compat::ScopedRegion region(label);
  using Int = integer_of<Terms, SV...>;
  constexpr int K = components_of<Terms, SV...>;
  Int ints[K];
  local_integers<Terms>(function, label, exec, options, ints, srcs...);
  using Combine = MpiCombine<Int, strided::detail::MergeExact>;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, ints, K, Combine::type(), Combine::op(), comm), function,
            "MPI_Allreduce");
  return strided::detail::exact_value<R>(ints);
}

template <class R, class Terms, class Exec, class... SV>
Request<R> global_exact_start(const char* function, const std::string& label, const Exec& exec,
                              MPI_Comm comm, const Options& options, const SV&... srcs) {
  strided::detail::check_exact_types<R, typename SV::value_type...>();
  strided::detail::check_communicator(function, comm);
  compat::ScopedRegion region(label);
  using Int = integer_of<Terms, SV...>;
  constexpr int K = components_of<Terms, SV...>;
  struct Exact final : Request<R>::State {
    Int ints[K];
    R result() const override { return strided::detail::exact_value<R>(ints); }
  };
  auto state = std::make_unique<Exact>();
  local_integers<Terms>(function, label, exec, options, state->ints, srcs...);
  using Combine = MpiCombine<Int, strided::detail::MergeExact>;
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(
      MPI_Iallreduce(MPI_IN_PLACE, state->ints, K, Combine::type(), Combine::op(), comm, &request),
      function, "MPI_Iallreduce");
  return Request<R>(request, std::move(state));
}

/// max or min: the local extreme, then one reduction with NaN propagating.
template <class Merge, class T>
T global_extreme(const char* function, T local, MPI_Comm comm) {
  using Combine = MpiCombine<T, Merge>;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &local, 1, Combine::type(), Combine::op(), comm), function,
            "MPI_Allreduce");
  return local;
}
template <class Merge, class T>
Request<T> global_extreme_start(const char* function, T local, MPI_Comm comm) {
  struct Extreme final : Request<T>::State {
    T value;
    T result() const override { return value; }
  };
  auto state = std::make_unique<Extreme>();
  state->value = local;
  using Combine = MpiCombine<T, Merge>;
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &state->value, 1, Combine::type(), Combine::op(), comm,
                           &request),
            function, "MPI_Iallreduce");
  return Request<T>(request, std::move(state));
}

/// An exact axis reduction whose reduced axes are split over the ranks: local integers per
/// output, one MPI reduction, rounded on every rank or on the root only.
template <class Terms, class Exec, class DV, class... SV>
void global_axes(const char* function, const std::string& label, const Exec& exec, MPI_Comm comm,
                 int root, const Options& options, const DV& dst, const strided::AxisList& axes,
                 const SV&... srcs) {
  namespace d = strided::detail;
  d::check_exact_types<typename DV::value_type, typename SV::value_type...>();
  d::check_communicator(function, comm);
  int size = 0, rank = 0;
  check_mpi(MPI_Comm_size(comm, &size), function, "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &rank), function, "MPI_Comm_rank");
  if (root >= size)
    d::throw_error(ErrorCode::InvalidArgument, function, "root ", root, " of a communicator of ",
                   size, " ranks");
  d::check_axes_operands<Exec, DV, SV...>();
  compat::ScopedRegion region(label);
  const d::AxisSplit split = d::check_axes(function, dst, axes, srcs...);
  using Fold = exact_fold_t<Terms, SV...>;
  using Int = typename Fold::Int;
  using Combine = MpiCombine<Int, d::MergeExact>;
  const auto combine = [&](Int* ints, std::size_t count) {
    if (count > static_cast<std::size_t>(INT_MAX))
      d::throw_error(ErrorCode::InvalidArgument, function, count,
                     " outputs are more than one MPI call takes");
    const int n = static_cast<int>(count);
    if (root < 0)
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, ints, n, Combine::type(), Combine::op(), comm),
                function, "MPI_Allreduce");
    else
      check_mpi(MPI_Reduce(rank == root ? MPI_IN_PLACE : ints, ints, n, Combine::type(),
                           Combine::op(), root, comm),
                function, "MPI_Reduce");
  };
  const auto layout =
      d::axes_layout(split, options.planner, d::host_threads(exec, options), dst, srcs...);
  d::run_exact_axes_combined<Fold>(
      exec, layout, d::DstRef<typename DV::value_type, typename DV::op_type>{dst.data()},
      d::exact_sources<Fold>(srcs...), label, combine, root < 0 || rank == root);
}

/// The rank that receives the result (-1: every rank); `function` names the caller in errors.
inline int root_of(const char*, AllRanks) {
  return -1;
}
inline int root_of(const char* function, Root r) {
  if (r.rank < 0)
    strided::detail::throw_error(ErrorCode::InvalidArgument, function, "negative root ", r.rank);
  return r.rank;
}

template <class Exec>
using enable_if_exec = strided::detail::enable_if_exec<Exec>;
template <class V>
using enable_if_operand = strided::detail::enable_if_operand<V>;
template <class S>
using value_of = strided::detail::value_of<S>;
template <class Acc, class S>
using sum_result_t = strided::detail::exact_result_t<Acc, value_of<S>>;

}  // namespace detail

// Each kernel has two forms: on `exec`, and on the default host instance. Macros write them
// once per kind of kernel: RUN is global_exact (blocking) or global_exact_start (non-blocking),
// EXACT the terms of the reduction (strided::detail::ExactSumOf, ExactSquaresOf).
#define STRIDED_IMPL_MPI_EXACT(NAME, EXACT, RUN)                                         \
  template <class Acc = void, class Exec, class S, detail::enable_if_exec<Exec> = 0>     \
  auto NAME(const Exec& exec, const S& local, MPI_Comm comm,                             \
            const Options& options = default_options()) {                                \
    EXACT::template check<S>();                                                          \
    return detail::RUN<detail::sum_result_t<Acc, S>, typename EXACT::template terms<S>>( \
        "mpi::" #NAME, strided::detail::labels::mpi_##NAME, exec, comm, options,         \
        detail::as_view(local));                                                         \
  }                                                                                      \
  template <class Acc = void, class S, detail::enable_if_operand<S> = 0>                 \
  auto NAME(const S& local, MPI_Comm comm, const Options& options = default_options()) { \
    return NAME<Acc>(strided::detail::default_host(), local, comm, options);             \
  }
// dot and idot: RUN as above.
#define STRIDED_IMPL_MPI_DOT(NAME, RUN)                                                          \
  template <class Acc = void, class Exec, class A, class B, detail::enable_if_exec<Exec> = 0>    \
  auto NAME(const Exec& exec, const A& a, const B& b, MPI_Comm comm,                             \
            const Options& options = default_options()) {                                        \
    return detail::RUN<strided::detail::dot_type_t<Acc, A, B>,                                   \
                       strided::detail::dot_terms_t<A, B>>(                                      \
        "mpi::" #NAME, strided::detail::labels::mpi_##NAME, exec, comm, options,                 \
        detail::as_view(a), detail::as_view(b));                                                 \
  }                                                                                              \
  template <class Acc = void, class A, class B, detail::enable_if_operand<A> = 0>                \
  auto NAME(const A& a, const B& b, MPI_Comm comm, const Options& options = default_options()) { \
    return NAME<Acc>(strided::detail::default_host(), a, b, comm, options);                      \
  }
// RUN: global_extreme or global_extreme_start; LOCAL: the full reduction on each rank.
#define STRIDED_IMPL_MPI_EXTREME(NAME, MERGE, LOCAL, RUN)                                         \
  template <class Exec, class S, detail::enable_if_exec<Exec> = 0>                                \
  auto NAME(const Exec& exec, const S& local, MPI_Comm comm,                                      \
            const Options& options = default_options()) {                                         \
    strided::detail::check_communicator("mpi::" #NAME, comm);                                     \
    return detail::RUN<strided::detail::MERGE>("mpi::" #NAME, LOCAL(exec, local, options), comm); \
  }                                                                                               \
  template <class S, detail::enable_if_operand<S> = 0>                                            \
  auto NAME(const S& local, MPI_Comm comm, const Options& options = default_options()) {          \
    return NAME(strided::detail::default_host(), local, comm, options);                           \
  }
#define STRIDED_IMPL_MPI_EXACT_AXES(NAME, EXACT)                                                  \
  template <class Exec, class D, class S, class Where = AllRanks,                                 \
            detail::enable_if_exec<Exec> = 0>                                                     \
  void NAME(const Exec& exec, const D& dst, const S& local, const strided::AxisList& axes,        \
            MPI_Comm comm, Where where = all_ranks, const Options& options = default_options()) { \
    EXACT::template check<S>();                                                                   \
    detail::global_axes<typename EXACT::template terms<S>>(                                       \
        "mpi::" #NAME, strided::detail::labels::mpi_##NAME, exec, comm,                           \
        detail::root_of("mpi::" #NAME, where), options, detail::as_view(dst), axes,               \
        detail::as_view(local));                                                                  \
  }                                                                                               \
  template <class D, class S, class Where = AllRanks, detail::enable_if_operand<D> = 0>           \
  void NAME(const D& dst, const S& local, const strided::AxisList& axes, MPI_Comm comm,           \
            Where where = all_ranks, const Options& options = default_options()) {                \
    NAME(strided::detail::default_host(), dst, local, axes, comm, where, options);                \
  }

// ---- full reductions: the result on every rank ---------------------------------------------

STRIDED_IMPL_MPI_EXACT(sum, strided::detail::ExactSumOf, global_exact)
STRIDED_IMPL_MPI_EXACT(sum_squares, strided::detail::ExactSquaresOf, global_exact)
STRIDED_IMPL_MPI_EXTREME(max, MergeMax, strided::max, global_extreme)
STRIDED_IMPL_MPI_EXTREME(min, MergeMin, strided::min, global_extreme)

STRIDED_IMPL_MPI_DOT(dot, global_exact)

// ---- non-blocking full reductions ----------------------------------------------------------

STRIDED_IMPL_MPI_EXACT(isum, strided::detail::ExactSumOf, global_exact_start)
STRIDED_IMPL_MPI_EXACT(isum_squares, strided::detail::ExactSquaresOf, global_exact_start)
STRIDED_IMPL_MPI_EXTREME(imax, MergeMax, strided::max, global_extreme_start)
STRIDED_IMPL_MPI_EXTREME(imin, MergeMin, strided::min, global_extreme_start)

STRIDED_IMPL_MPI_DOT(idot, global_exact_start)

// ---- axis reductions over axes split across ranks ------------------------------------------

STRIDED_IMPL_MPI_EXACT_AXES(sum_axes, strided::detail::ExactSumOf)
STRIDED_IMPL_MPI_EXACT_AXES(sum_squares_axes, strided::detail::ExactSquaresOf)

template <class Exec, class D, class A, class B, class Where = AllRanks,
          detail::enable_if_exec<Exec> = 0>
void dot_axes(const Exec& exec, const D& dst, const A& a, const B& b, const strided::AxisList& axes,
              MPI_Comm comm, Where where = all_ranks, const Options& options = default_options()) {
  const std::string& label = strided::detail::labels::mpi_dot_axes;
  detail::global_axes<strided::detail::dot_terms_t<A, B>>(
      "mpi::dot_axes", label, exec, comm, detail::root_of("mpi::dot_axes", where), options,
      detail::as_view(dst), axes, detail::as_view(a), detail::as_view(b));
}
template <class D, class A, class B, class Where = AllRanks, detail::enable_if_operand<D> = 0>
void dot_axes(const D& dst, const A& a, const B& b, const strided::AxisList& axes, MPI_Comm comm,
              Where where = all_ranks, const Options& options = default_options()) {
  dot_axes(strided::detail::default_host(), dst, a, b, axes, comm, where, options);
}

#undef STRIDED_IMPL_MPI_EXACT
#undef STRIDED_IMPL_MPI_DOT
#undef STRIDED_IMPL_MPI_EXTREME
#undef STRIDED_IMPL_MPI_EXACT_AXES

}  // namespace strided::mpi

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MPI
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_MPI
#endif

#endif
