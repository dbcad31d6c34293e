#ifndef STRIDED_CORE_COMBINE_HPP
#define STRIDED_CORE_COMBINE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <cstdint>

#include "strided/core/config.hpp"

namespace strided::detail {

/// The tile tree: folds partials[first, last) in a fixed pairwise tree that depends only on the
/// count, a node of n leaves being red(node of the first n / 2, node of the rest). The lanes
/// inside a tile use the other tree (Lanes::combine, widths doubling; docs/determinism.md).
/// `last > first`.
///
/// In place and without recursion (it also runs inside device kernels, where the stack size
/// must be known statically): each node's value goes to its first slot, and the post-order
/// walk keeps only two bit stacks, whether the node at each depth is a right child and whether
/// its parent's size is odd, from which the parent's first slot and size are recomputed.
template <class U, class ReduceFn>
STRIDED_HOST_DEVICE U combine_pairwise_walk(U* partials, std::size_t first, std::size_t last,
                                            const ReduceFn& red) {
  std::size_t size = last - first;
  std::uint64_t right = 0, odd = 0;  // bit d: the node below depth d is a right child / d is odd
  int depth = 0;
  while (true) {
    for (; size > 1; ++depth) {  // down to the leftmost leaf
      right &= ~(std::uint64_t(1) << depth);
      odd = (odd & ~(std::uint64_t(1) << depth)) | (std::uint64_t(size & 1) << depth);
      size /= 2;
    }
    // Up through every parent whose right child is now complete.
    while (depth > 0 && ((right >> (depth - 1)) & 1)) {
      --depth;
      const std::size_t parent = 2 * size - ((odd >> depth) & 1);
      const std::size_t parent_first = first - parent / 2;
      partials[parent_first] = red(partials[parent_first], partials[first]);
      first = parent_first;
      size = parent;
    }
    if (depth == 0) return partials[first];
    // A complete left child: on to its right sibling.
    const std::size_t parent = 2 * size + ((odd >> (depth - 1)) & 1);
    right |= std::uint64_t(1) << (depth - 1);
    first += size;
    size = parent - size;
  }
}

/// The same tree over partials[first, last) on the host, recursively: a node of 2^k leaves (every
/// node of the GPU-scale counts, 8192 or 16384 tiles) folds level by level, widths doubling over
/// its first slots, in plain loops; any other node splits as the tree does. Each node gets the same
/// two operands in the same order as in the walk, so the bits are the walk's. The walk's
/// data-dependent branches made the combine a visible part of a GPU-scale sum on the host
/// (docs/performance.md).
template <class U, class ReduceFn>
U combine_pairwise_host(U* partials, std::size_t first, std::size_t last, const ReduceFn& red) {
  const std::size_t size = last - first;
  if ((size & (size - 1)) == 0) {
    for (std::size_t width = 1; width < size; width *= 2)
      for (std::size_t i = first; i + width < last; i += 2 * width)
        partials[i] = red(partials[i], partials[i + width]);
    return partials[first];
  }
  const std::size_t middle = first + size / 2;
  const U left = combine_pairwise_host(partials, first, middle, red);
  const U right = combine_pairwise_host(partials, middle, last, red);
  return red(left, right);
}

/// The tile tree over partials[first, last) (combine_pairwise_walk), in place: the host
/// recursion on the host, the walk in device code (its stack size must be known statically).
template <class U, class ReduceFn>
STRIDED_HOST_DEVICE U combine_pairwise(U* partials, std::size_t first, std::size_t last,
                                       const ReduceFn& red) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return combine_pairwise_walk(partials, first, last, red);
#else
  return combine_pairwise_host(partials, first, last, red);
#endif
}

/// A node of the tile tree: partials [first, first + size).
struct TreeNode {
  std::size_t first;
  std::size_t size;
};

/// Node `index` (left to right) at depth `depth` of the tile tree over `count` partials (the
/// root is depth 0). Needs count >= 2^depth, so that no node above is a single leaf.
STRIDED_HOST_DEVICE inline TreeNode tree_node(std::size_t count, int depth, std::size_t index) {
  TreeNode node{0, count};
  for (int d = depth - 1; d >= 0; --d) {
    const std::size_t half = node.size / 2;
    if ((index >> d) & 1) {
      node.first += half;
      node.size -= half;
    } else {
      node.size = half;
    }
  }
  return node;
}

/// The deepest level of the tile tree over `count` partials whose nodes all hold at least
/// `grain` of them. The 2^depth nodes there, folded each with combine_pairwise and then folded
/// together with combine_pairwise (a perfect tree), give the bits of combine_pairwise over all
/// `count`: the same tree, cut at that level.
inline int tree_depth_for(std::size_t count, std::size_t grain) {
  int depth = 0;
  while (depth < 62 && (count >> (depth + 1)) >= grain) ++depth;
  return depth;
}

}  // namespace strided::detail

#endif
