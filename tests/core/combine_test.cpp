// The tile tree cut at a level (tree_node, tree_depth_for): its nodes folded one by one and then
// together give the bits of combine_pairwise over every partial (the device folds the nodes, the
// host the top).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "strided/core/combine.hpp"

namespace {

using strided::detail::combine_pairwise;
using strided::detail::tree_depth_for;
using strided::detail::tree_node;

/// Neither associative nor commutative: any other tree or order gives another value.
struct Ordered {
  std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return a * 1000003u + b; }
};

std::uint64_t whole_tree(std::vector<std::uint64_t> v) {
  return combine_pairwise(v.data(), 0, v.size(), Ordered{});
}

TEST(TileTree, NodesAtADepthFoldToTheWholeTree) {
  for (std::size_t count = 1; count <= 1500; count += (count < 300 ? 1 : 37)) {
    std::vector<std::uint64_t> partials(count);
    for (std::size_t i = 0; i < count; ++i) partials[i] = i * 7919 + 11;
    const std::uint64_t want = whole_tree(partials);
    for (const std::size_t grain : {1, 2, 3, 64}) {
      const int depth = tree_depth_for(count, grain);
      const std::size_t nodes = std::size_t(1) << depth;
      ASSERT_LE(nodes, count);
      std::vector<std::uint64_t> scratch = partials, tops(nodes);
      std::size_t next = 0;
      for (std::size_t i = 0; i < nodes; ++i) {
        const auto node = tree_node(count, depth, i);
        ASSERT_EQ(node.first, next) << count << " " << depth << " " << i;  // in order, no gap
        ASSERT_GE(node.size, count >= grain ? grain : 1);
        next = node.first + node.size;
        tops[i] = combine_pairwise(scratch.data(), node.first, next, Ordered{});
      }
      ASSERT_EQ(next, count);
      EXPECT_EQ(whole_tree(tops), want) << count << " partials, depth " << depth;
      // One level deeper is too deep for the grain (the deepest level that holds it).
      if (count >= 2 * grain) {
        EXPECT_LT(count >> (depth + 1), grain);
      }
    }
  }
}

TEST(TileTree, AWrongCutGivesOtherBits) {
  // The test above could not fail if Ordered were associative: a cut that halves the other way
  // must differ.
  std::vector<std::uint64_t> p(100);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = i + 1;
  const std::uint64_t want = whole_tree(p);
  std::vector<std::uint64_t> s = p;
  const std::uint64_t left = combine_pairwise(s.data(), 0, 49, Ordered{});
  const std::uint64_t right = combine_pairwise(s.data(), 49, 100, Ordered{});
  EXPECT_NE(Ordered{}(left, right), want);
}

}  // namespace
