#ifndef STRIDED_TESTS_KERNELS_MAP_TEST_HPP
#define STRIDED_TESTS_KERNELS_MAP_TEST_HPP

// Shared by the element-wise kernel tests (map_copy_test.cpp, map_zip_test.cpp, map_ops_test.cpp):
// their typed fixture, the element check, and the copy and symmetrize checks against the reference
// loop.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "expect_elements.hpp"
#include "test_layouts.hpp"

namespace strided_test {

/// One fixture for the three files: outside an unnamed namespace, so that their tests of one space
/// form one suite (MapTest/OpenMP, MapTest/Serial) with one fixture class.
template <class Exec>
class MapTest : public ::testing::Test {};

/// Expects dst == expected(index) everywhere (operator==, as EXPECT_EQ) and the buffer outside
/// the view untouched; `srcs`, the views the kernel read, are described in a failure.
template <class T, class Expected, class... Srcs>
void expect_elements(const Operand<T>& dst, const Expected& expected, const Srcs&... srcs) {
  EXPECT_TRUE(strided_test::elements_equal(dst.view, expected, srcs...));
  EXPECT_TRUE(strided_test::outside_untouched(dst));
}

template <class T, class Exec>
void check_copy(const Exec& exec, const std::vector<std::size_t>& extents, std::mt19937& rng,
                const strided::Options& options = strided::default_options()) {
  auto src = random_operand<T>(extents, rng);
  auto dst = random_operand<T>(extents, rng);
  strided_test::fill(src.view, 3);
  strided::copy_into(exec, dst.view, src.view, options);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return read(src.view, i); }, src.view);
}

/// Symmetrizes a random n x n matrix in and out of place against the reference.
template <bool Hermitian, class T, class Exec>
void check_symmetrize(const Exec& exec, std::size_t n, std::mt19937& rng,
                      const strided::Options& options = strided::default_options()) {
  auto a = random_operand<T>({n, n}, rng);
  strided_test::fill(a.view, 3);
  const auto mirror = [](const T& x) { return Hermitian ? strided::detail::conj_value(x) : x; };
  const auto expected = [&](const strided::StridedView<T>& s, const std::vector<std::size_t>& i) {
    return static_cast<T>((read(s, i) + mirror(read(s, {i[1], i[0]}))) / static_cast<T>(2));
  };
  auto dst = random_operand<T>({n, n}, rng);
  if (Hermitian)
    strided::symmetrize_conj_into(exec, dst.view, a.view, options);
  else
    strided::symmetrize_into(exec, dst.view, a.view, options);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return expected(a.view, i); }, a.view);
  // In place: the result equals the out-of-place one.
  if (Hermitian)
    strided::symmetrize_conj_into(exec, a.view, a.view, options);
  else
    strided::symmetrize_into(exec, a.view, a.view, options);
  EXPECT_TRUE(strided_test::elements_equal(
      a.view, [&](const std::vector<std::size_t>& i) { return read(dst.view, i); }, a.view));
}

}  // namespace strided_test

#endif
