#ifndef STRIDED_CORE_LAYOUT_KEY_HPP
#define STRIDED_CORE_LAYOUT_KEY_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
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
      : m_rank(rank), m_operands(operands) {
    // One block: extents, then each operand's element size and strides.
    m_data.reserve(rank + static_cast<std::size_t>(operands) * (1 + rank));
    for (std::size_t a = 0; a < rank; ++a)
      m_data.push_back(static_cast<std::ptrdiff_t>(extents[a]));
    for (int k = 0; k < operands; ++k) {
      m_data.push_back(static_cast<std::ptrdiff_t>(sizes[k]));
      m_data.insert(m_data.end(), strides[k], strides[k] + rank);
    }
  }

  std::size_t rank() const { return m_rank; }
  int operands() const { return m_operands; }
  /// Operand k's element size in bytes.
  std::size_t element_size(int k) const {
    return static_cast<std::size_t>(m_data[m_rank + static_cast<std::size_t>(k) * (1 + m_rank)]);
  }
  /// The bytes of one element of every operand together.
  std::size_t element_bytes() const {
    std::size_t bytes = 0;
    for (int k = 0; k < m_operands; ++k) bytes += element_size(k);
    return bytes;
  }

  /// Whether operand k (of rank rank()) has the planned extents, strides and element size.
  /// Strides of extent-1 axes are compared too: a plan's layouts are exact, not equivalent.
  bool operand_matches(int k, const std::size_t* extents, const std::ptrdiff_t* strides,
                       std::size_t size) const {
    const std::ptrdiff_t* d = m_data.data();
    for (std::size_t a = 0; a < m_rank; ++a)
      if (static_cast<std::ptrdiff_t>(extents[a]) != d[a]) return false;
    const std::ptrdiff_t* mine = d + m_rank + static_cast<std::size_t>(k) * (1 + m_rank);
    if (static_cast<std::ptrdiff_t>(size) != mine[0]) return false;
    for (std::size_t a = 0; a < m_rank; ++a)
      if (strides[a] != mine[1 + a]) return false;
    return true;
  }

 private:
  std::size_t m_rank = 0;
  int m_operands = 0;
  std::vector<std::ptrdiff_t> m_data;
};

}  // namespace strided::detail

#endif
