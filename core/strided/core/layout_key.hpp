#ifndef STRIDED_CORE_LAYOUT_KEY_HPP
#define STRIDED_CORE_LAYOUT_KEY_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> or a public header of include/strided/"
#endif

#include <cstddef>
#include <vector>

namespace strided::detail {

/// What a kept plan was made for: the rank and extents, and each operand's strides and element
/// size. Executing the plan compares the operands against it, in O(rank * operands) and without
/// allocating; the plan itself depends on nothing else.
class LayoutKey {
 public:
  LayoutKey() = default;
  LayoutKey(std::size_t rank, const std::size_t* extents, int operands,
            const std::ptrdiff_t* const* strides, const std::size_t* sizes)
      : m_rank(rank), m_extents(extents, extents + rank), m_sizes(sizes, sizes + operands) {
    m_strides.reserve(rank * static_cast<std::size_t>(operands));
    for (int k = 0; k < operands; ++k)
      m_strides.insert(m_strides.end(), strides[k], strides[k] + rank);
  }

  std::size_t rank() const { return m_rank; }
  int operands() const { return static_cast<int>(m_sizes.size()); }

  bool same_extents(const std::size_t* extents) const {
    for (std::size_t a = 0; a < m_rank; ++a)
      if (extents[a] != m_extents[a]) return false;
    return true;
  }

  /// Whether operands of these layouts (same count as the key's) are the ones planned for.
  /// Strides of extent-1 axes are compared too: a plan's layouts are exact, not equivalent.
  bool matches(std::size_t rank, const std::size_t* extents, const std::ptrdiff_t* const* strides,
               const std::size_t* sizes) const {
    if (rank != m_rank) return false;
    for (std::size_t a = 0; a < rank; ++a)
      if (extents[a] != m_extents[a]) return false;
    for (int k = 0; k < operands(); ++k) {
      if (sizes[k] != m_sizes[static_cast<std::size_t>(k)]) return false;
      const std::ptrdiff_t* mine = m_strides.data() + static_cast<std::size_t>(k) * rank;
      for (std::size_t a = 0; a < rank; ++a)
        if (strides[k][a] != mine[a]) return false;
    }
    return true;
  }

 private:
  std::size_t m_rank = 0;
  std::vector<std::size_t> m_extents;
  std::vector<std::ptrdiff_t> m_strides;  ///< operand k's strides at [k * rank, (k + 1) * rank)
  std::vector<std::size_t> m_sizes;
};

}  // namespace strided::detail

#endif
