#ifndef STRIDED_TESTS_KERNELS_REDUCE_TEST_HPP
#define STRIDED_TESTS_KERNELS_REDUCE_TEST_HPP

// Shared by the reduction tests (reduce_full_test.cpp, reduce_axes_test.cpp,
// reduce_axis_dot_test.cpp): their typed fixture, exactly summable fills and the documented fold
// order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <strided/strided.hpp>

#include "test_layouts.hpp"

namespace strided_test {

/// One fixture for the three files: outside an unnamed namespace, so that their tests of one space
/// form one suite (ReduceTest/OpenMP, ReduceTest/Serial) with one fixture class.
template <class Exec>
class ReduceTest : public ::testing::Test {};

/// Small integers in floating point: every partial sum is exact, so any fold order gives the
/// reference value bit for bit.
template <class T>
void fill_small_integers(const strided::StridedView<T>& v, std::size_t salt) {
  std::size_t n = salt;
  for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(v, i, static_cast<T>(static_cast<int>(n++ * 7 % 13) - 6));
  });
}

/// Bits of a double, to compare results exactly (NaN-safe, -0.0 distinct).
inline std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// The fold order API.md documents, written out for the sum of `x` in order (one run): tiles of
/// at most the grain of `all` elements (65536 below 2^22, from there all / 8192 within [512,
/// 4096]; `all` is x.size() for a full reduction, every output's elements together for an axis
/// reduction), halved from x.size(); 16 lanes per tile (element i to lane i % 16, seeded in
/// order), the lanes' doubling-width tree, then the tiles' pairwise tree (n / 2 against the rest).
inline double documented_fold(const std::vector<double>& x, std::size_t all = 0) {
  const std::size_t n = x.size();
  if (all == 0) all = n;
  const std::size_t grain =
      all < (std::size_t(1) << 22) ? std::size_t(1) << 16 : std::min<std::size_t>(all / 8192, 4096);
  std::size_t tile = n;
  while (tile > grain) tile = (tile + 1) / 2;
  std::vector<double> partials;
  for (std::size_t first = 0; first < n; first += tile) {
    const std::size_t count = std::min(tile, n - first);
    double lane[16];
    int seeded = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (i < 16) {
        lane[i] = x[first + i];
        seeded = static_cast<int>(i) + 1;
      } else {
        lane[i % 16] += x[first + i];
      }
    }
    for (int width = 1; width < seeded; width *= 2)
      for (int l = 0; l + width < seeded; l += 2 * width) lane[l] += lane[l + width];
    partials.push_back(lane[0]);
  }
  const auto tree = [&](const auto& self, std::size_t first, std::size_t size) -> double {
    if (size == 1) return partials[first];
    return self(self, first, size / 2) + self(self, first + size / 2, size - size / 2);
  };
  return tree(tree, 0, partials.size());
}

}  // namespace strided_test

#endif
