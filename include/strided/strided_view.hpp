#ifndef STRIDED_STRIDED_VIEW_HPP
#define STRIDED_STRIDED_VIEW_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_VIEW
#endif

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "strided/core/layout.hpp"
#include "strided/element_ops.hpp"
#include "strided/error.hpp"
#include "strided/index_list.hpp"

namespace strided {
namespace detail {

/// Stride arithmetic of the transforms, in two's complement. On a non-empty validated view the
/// results are exact (each is the difference of two reachable offsets), but an axis of extent <= 1,
/// or any axis of an empty view, may carry any stride, and there plain signed arithmetic could
/// overflow (undefined behaviour) although the stride is never used to reach an element.
inline std::ptrdiff_t wrapping_mul(std::ptrdiff_t a, std::ptrdiff_t b) noexcept {
  return static_cast<std::ptrdiff_t>(static_cast<std::size_t>(a) * static_cast<std::size_t>(b));
}
inline std::ptrdiff_t wrapping_add(std::ptrdiff_t a, std::ptrdiff_t b) noexcept {
  return static_cast<std::ptrdiff_t>(static_cast<std::size_t>(a) + static_cast<std::size_t>(b));
}

}  // namespace detail

/// A non-owning view of an N-d strided tensor: origin pointer, extents and signed element strides,
/// plus an element op applied on every read. Rank is dynamic and unbounded; metadata up to
/// INLINE_RANK is stored inline. `MemorySpace` says where the elements live (kernels check at
/// compile time that their execution space can reach it).
template <class T, class Op = Identity, class MemorySpace = Kokkos::HostSpace>
class StridedView {
  static_assert(is_element_op_v<Op>, "strided::StridedView: Op must be an element op");

 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using op_type = Op;
  using memory_space = MemorySpace;

  /// Checks that every reachable element lies in [0, buffer_len) of `base`.
  StridedView(T* base, std::size_t buffer_len, IndexList<std::size_t> dims,
              IndexList<std::ptrdiff_t> strides, std::ptrdiff_t offset = 0)
      : m_extents(std::move(dims)), m_strides(std::move(strides)) {
    if (m_extents.size() != m_strides.size())
      detail::throw_error(ErrorCode::StrideLengthMismatch, "StridedView", "rank of dims (",
                          m_extents.size(), ") differs from rank of strides (", m_strides.size(),
                          ")");
    if (!detail::fits_buffer(layout(), buffer_len, offset))
      detail::throw_error(ErrorCode::OffsetOverflow, "StridedView", "offset ", offset,
                          " with the given dims and strides reaches outside a buffer of ",
                          buffer_len, " elements (or overflows)");
    m_data = layout().has_zero_extent() ? base : base + offset;
  }

  /// A view of `T` converts to a view of `const T` with the same op.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  StridedView(const StridedView<U, Op, MemorySpace>& other)
      : m_data(other.data()), m_extents(other.extents()), m_strides(other.strides()) {}

  std::size_t rank() const noexcept { return m_extents.size(); }
  std::size_t extent(std::size_t k) const noexcept { return m_extents[k]; }
  std::ptrdiff_t stride(std::size_t k) const noexcept { return m_strides[k]; }
  const detail::Extents& extents() const noexcept { return m_extents; }
  const detail::Strides& strides() const noexcept { return m_strides; }
  std::size_t size() const noexcept {
    std::size_t n = 1;
    for (std::size_t e : m_extents) n *= e;
    return n;
  }
  bool empty() const noexcept { return size() == 0; }
  /// The logical origin: the address of element (0, ..., 0).
  T* data() const noexcept { return m_data; }
  detail::LayoutRef layout() const noexcept {
    return {m_extents.size(), m_extents.data(), m_strides.data()};
  }

  /// Element read with the op applied (host only; use kernels for bulk work).
  template <class... I>
  value_type operator()(I... index) const {
    static_assert((std::is_integral_v<I> && ...), "strided::StridedView: indices must be integers");
    if (sizeof...(I) != rank())
      detail::throw_error(ErrorCode::RankMismatch, "StridedView::operator()", sizeof...(I),
                          " indices for a view of rank ", rank());
    std::ptrdiff_t offset = 0;
    std::size_t k = 0;
    ((offset += static_cast<std::ptrdiff_t>(index) * m_strides[k++]), ...);
    return Op::apply(static_cast<value_type>(m_data[offset]));
  }
  /// Mutable element reference (op not applied; only for the Identity op).
  template <class... I>
  T& at(I... index) const {
    static_assert(std::is_same_v<Op, Identity>,
                  "strided::StridedView::at: a reference is only available without an op");
    static_assert((std::is_integral_v<I> && ...), "strided::StridedView: indices must be integers");
    // Same check as operator(): with too many indices the loop would read strides past rank().
    if (sizeof...(I) != rank())
      detail::throw_error(ErrorCode::RankMismatch, "StridedView::at", sizeof...(I),
                          " indices for a view of rank ", rank());
    std::ptrdiff_t offset = 0;
    std::size_t k = 0;
    ((offset += static_cast<std::ptrdiff_t>(index) * m_strides[k++]), ...);
    return m_data[offset];
  }

  // ---- metadata-only transforms ---------------------------------------------------------------

  /// numpy `transpose` semantics: result.extent(k) == extent(perm[k]).
  StridedView permute(const IndexList<std::size_t>& perm) const {
    if (perm.size() != rank())
      detail::throw_error(ErrorCode::RankMismatch, "permute", "permutation of length ", perm.size(),
                          " for a view of rank ", rank());
    detail::SmallVector<unsigned char, INLINE_RANK> seen(rank(), 0);
    StridedView result = *this;
    for (std::size_t k = 0; k < rank(); ++k) {
      if (perm[k] >= rank() || seen[perm[k]])
        detail::throw_error(ErrorCode::InvalidAxis, "permute", "axis ", perm[k],
                            perm[k] >= rank() ? " is out of range for rank " : " repeats; rank ",
                            rank());
      seen[perm[k]] = 1;
      result.m_extents[k] = m_extents[perm[k]];
      result.m_strides[k] = m_strides[perm[k]];
    }
    return result;
  }

  StridedView<T, compose_t<Op, Transpose>, MemorySpace> transpose() const {
    require_rank2("transpose");
    return retag<compose_t<Op, Transpose>>(permute({1, 0}));
  }
  StridedView<T, compose_t<Op, Conj>, MemorySpace> conj() const {
    return retag<compose_t<Op, Conj>>(*this);
  }
  StridedView<T, compose_t<Op, Adjoint>, MemorySpace> adjoint() const {
    require_rank2("adjoint");
    return retag<compose_t<Op, Adjoint>>(permute({1, 0}));
  }

  /// Extents of 1 grow to `dims` with stride 0; other extents must match, and the element count
  /// must stay representable (OffsetOverflow, as at construction).
  StridedView broadcast(const IndexList<std::size_t>& dims) const {
    if (dims.size() != rank())
      detail::throw_error(ErrorCode::RankMismatch, "broadcast", "target rank ", dims.size(),
                          " differs from view rank ", rank());
    StridedView result = *this;
    for (std::size_t k = 0; k < rank(); ++k) {
      if (m_extents[k] == dims[k]) continue;
      if (m_extents[k] != 1)
        detail::throw_error(ErrorCode::ShapeMismatch, "broadcast", "axis ", k, " has extent ",
                            m_extents[k], ", cannot broadcast to ", dims[k]);
      result.m_extents[k] = dims[k];
      result.m_strides[k] = 0;
    }
    if (!detail::representable_count(result.layout()))
      detail::throw_error(ErrorCode::OffsetOverflow, "broadcast", "broadcasting to these extents ",
                          "gives more than PTRDIFF_MAX elements");
    return result;
  }

  /// Each pair (a, b) merges axis b into axis a along the diagonal: extent min, stride sum.
  StridedView diagonal(std::initializer_list<std::pair<std::size_t, std::size_t>> pairs) const {
    return diagonal_impl(pairs.begin(), pairs.end());
  }
  template <class Pairs>
  StridedView diagonal(const Pairs& pairs) const {
    return diagonal_impl(std::begin(pairs), std::end(pairs));
  }

  /// Python-like slice of one axis: begin inclusive, end exclusive, negative step walks down.
  StridedView slice(std::size_t axis, std::size_t begin, std::size_t end,
                    std::ptrdiff_t step = 1) const {
    require_axis("slice", axis);
    const std::size_t n = m_extents[axis];
    if (step == 0) detail::throw_error(ErrorCode::InvalidArgument, "slice", "step must not be 0");
    const bool up = step > 0;
    // A negative step reads `begin` first, so it must be < n, except for an empty slice
    // (begin == end <= n), which is valid as it is with a positive step (Python's a[n:n:-1]);
    // otherwise an axis of extent 0 could not be sliced with a negative step at all.
    if ((up && (begin > end || end > n)) ||
        (!up && (end > begin || begin > n || (begin == n && end != begin))))
      detail::throw_error(ErrorCode::InvalidArgument, "slice", "bounds [", begin, ", ", end,
                          ") with step ", step, " do not fit extent ", n, " of axis ", axis);
    const std::size_t distance = up ? end - begin : begin - end;
    // |step| without negating PTRDIFF_MIN; the stride product wraps (see wrapping_mul).
    const std::size_t magnitude =
        up ? static_cast<std::size_t>(step) : std::size_t(0) - static_cast<std::size_t>(step);
    StridedView result = *this;
    result.m_extents[axis] = distance / magnitude + (distance % magnitude != 0 ? 1 : 0);
    result.m_strides[axis] = detail::wrapping_mul(m_strides[axis], step);
    if (result.m_extents[axis] != 0 && !has_zero_extent())
      result.m_data = m_data + static_cast<std::ptrdiff_t>(begin) * m_strides[axis];
    return result;
  }

  StridedView reverse(std::size_t axis) const {
    require_axis("reverse", axis);
    StridedView result = *this;
    if (!has_zero_extent())
      result.m_data = m_data + static_cast<std::ptrdiff_t>(m_extents[axis] - 1) * m_strides[axis];
    result.m_strides[axis] =
        detail::wrapping_mul(m_strides[axis], -1);  // PTRDIFF_MIN is legal on extent <= 1
    return result;
  }

 private:
  template <class, class, class>
  friend class StridedView;
  StridedView() = default;

  bool has_zero_extent() const noexcept { return layout().has_zero_extent(); }
  void require_rank2(const char* function) const {
    if (rank() != 2)
      detail::throw_error(ErrorCode::RankMismatch, function, "needs rank 2, the view has rank ",
                          rank());
  }
  void require_axis(const char* function, std::size_t axis) const {
    if (axis >= rank())
      detail::throw_error(ErrorCode::InvalidAxis, function, "axis ", axis,
                          " is out of range for rank ", rank());
  }
  template <class NewOp>
  static StridedView<T, NewOp, MemorySpace> retag(const StridedView& v) {
    StridedView<T, NewOp, MemorySpace> result;
    result.m_data = v.m_data;
    result.m_extents = v.m_extents;
    result.m_strides = v.m_strides;
    return result;
  }
  template <class It>
  StridedView diagonal_impl(It first, It last) const {
    StridedView result = *this;
    detail::SmallVector<unsigned char, INLINE_RANK> removed(rank(), 0);
    for (It it = first; it != last; ++it) {
      // The lower axis of a pair keeps its place and the higher one is removed, whatever the order
      // inside the pair (strided-rs `diagonal_view`): (2, 0) and (0, 2) give the same view.
      const std::size_t a = std::min<std::size_t>(it->first, it->second);
      const std::size_t b = std::max<std::size_t>(it->first, it->second);
      if (b >= rank() || a == b || removed[a] || removed[b])
        detail::throw_error(ErrorCode::InvalidAxis, "diagonal", "pair (", it->first, ", ",
                            it->second, ") is invalid for rank ", rank(),
                            " (axes must be distinct, in range and not already merged)");
      result.m_extents[a] = std::min(result.m_extents[a], result.m_extents[b]);
      result.m_strides[a] = detail::wrapping_add(result.m_strides[a], result.m_strides[b]);
      removed[b] = 1;
    }
    std::size_t kept = 0;
    for (std::size_t k = 0; k < rank(); ++k) {
      if (removed[k]) continue;
      result.m_extents[kept] = result.m_extents[k];
      result.m_strides[kept] = result.m_strides[k];
      ++kept;
    }
    result.m_extents.resize(kept);
    result.m_strides.resize(kept);
    return result;
  }

  T* m_data = nullptr;
  detail::Extents m_extents;
  detail::Strides m_strides;
};

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_VIEW
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED_VIEW
#endif

#endif
