#ifndef STRIDED_TESTS_KERNELS_REDUCE_TEST_HPP
#define STRIDED_TESTS_KERNELS_REDUCE_TEST_HPP

// Shared by the reduction tests (reduce_full_test.cpp, reduce_axes_test.cpp,
// reduce_axis_dot_test.cpp): their typed fixture and exactly summable fills.
#include <gtest/gtest.h>

#include <cstddef>
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

}  // namespace strided_test

#endif
