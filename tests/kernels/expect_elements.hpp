#ifndef STRIDED_TESTS_KERNELS_EXPECT_ELEMENTS_HPP
#define STRIDED_TESTS_KERNELS_EXPECT_ELEMENTS_HPP

// A kernel's result against a reference at every multi-index, reported as ONE readable failure:
// how many elements differ, the first few with their multi-index and both values, the layouts
// (extents, strides) of the destination and of each source, and the plan the element-wise kernels
// make for them. Use it as
//   EXPECT_TRUE(strided_test::elements_equal(dst.view, [&](const Index& i) { ... }, src.view));

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <strided/plan.hpp>
#include <strided/strided.hpp>

#include "test_layouts.hpp"

namespace strided_test {

using Index = std::vector<std::size_t>;

template <class T>
struct is_complex_value : std::false_type {};
template <class R>
struct is_complex_value<std::complex<R>> : std::true_type {};
template <class R>
struct is_complex_value<Kokkos::complex<R>> : std::true_type {};

/// A value as text: floating point with enough digits to tell any two values apart, complex
/// numbers (std:: or Kokkos::) as (re, im), character types as numbers.
template <class T>
std::string to_string(const T& x) {
  std::ostringstream out;
  if constexpr (is_complex_value<T>::value) {
    out << '(' << to_string(x.real()) << ", " << to_string(x.imag()) << ')';
  } else if constexpr (std::is_floating_point_v<T>) {
    out << std::setprecision(std::numeric_limits<T>::max_digits10) << x;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
    out << static_cast<int>(x);
  } else {
    out << x;
  }
  return out.str();
}

/// EXPECT_EQ's comparison: operator== (a NaN differs from every value, itself included).
struct Equal {
  static constexpr const char* name = "==";
  template <class T>
  bool operator()(const T& actual, const T& expected) const {
    return actual == expected;
  }
};

/// The same object representation (NaN equals a NaN with the same bits; -0.0 differs from 0.0).
struct SameBits {
  static constexpr const char* name = "same bits";
  template <class T>
  bool operator()(const T& actual, const T& expected) const {
    return std::memcmp(&actual, &expected, sizeof(T)) == 0;
  }
};

/// "[a, b, c]"
template <class List>
std::string list_to_string(const List& list) {
  std::ostringstream out;
  out << '[';
  bool first = true;
  for (const auto& x : list) {
    out << (first ? "" : ", ") << x;
    first = false;
  }
  out << ']';
  return out.str();
}

template <class V>
std::string layout_to_string(const V& v) {
  return "extents " + list_to_string(v.extents()) + " strides " + list_to_string(v.strides());
}

/// strided::explain(strided::plan(dst, srcs...)) where every source has dst's shape.
template <class Dst, class... Srcs>
std::string plan_to_string(const Dst& dst, const Srcs&... srcs) {
  const bool same_shape =
      ((srcs.rank() == dst.rank() &&
        std::equal(srcs.extents().begin(), srcs.extents().end(), dst.extents().begin())) &&
       ...);
  if (!same_shape) return "no element-wise plan: a source's shape differs from the destination's";
  try {
    return strided::explain(strided::plan(dst, srcs...));
  } catch (const strided::Error& e) {
    return std::string("no plan: ") + e.what();
  }
}

/// Compares `dst` at every multi-index i (for_each_index order) with `expected(i)` (converted to
/// dst's value type) by `compare`. `srcs` are the views the kernel read; they are only described
/// in the message. At most `shown` mismatches are listed.
template <class Compare, class Dst, class Expected, class... Srcs>
::testing::AssertionResult elements_match(Compare compare, const Dst& dst, const Expected& expected,
                                          const Srcs&... srcs) {
  using T = typename Dst::value_type;
  constexpr std::size_t shown = 5;
  std::size_t mismatches = 0, compared = 0;
  std::ostringstream first;
  for_each_index(dst.extents(), [&](const Index& i) {
    ++compared;
    const T want = expected(i);
    const T got = read(dst, i);
    if (compare(got, want)) return;
    if (++mismatches <= shown)
      first << "\n  at " << list_to_string(i) << ": expected " << to_string(want) << ", actual "
            << to_string(got);
  });
  if (mismatches == 0) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << mismatches << " of " << compared << " elements differ (compared by " << Compare::name
          << ")" << (mismatches > shown ? "; the first " + std::to_string(shown) + ":" : ":")
          << first.str() << "\ndestination: " << layout_to_string(dst);
  std::size_t k = 0;
  ((failure << "\nsource " << k++ << ": " << layout_to_string(srcs)), ...);
  (void)k;  // unused without sources
  failure << "\nplan(destination, sources): " << plan_to_string(dst, srcs...);
  return failure;
}

/// `dst` equals `expected(i)` everywhere by operator== (EXPECT_EQ's semantics).
template <class Dst, class Expected, class... Srcs>
::testing::AssertionResult elements_equal(const Dst& dst, const Expected& expected,
                                          const Srcs&... srcs) {
  return elements_match(Equal{}, dst, expected, srcs...);
}

/// `dst` has the bits of `expected(i)` everywhere.
template <class Dst, class Expected, class... Srcs>
::testing::AssertionResult elements_same_bits(const Dst& dst, const Expected& expected,
                                              const Srcs&... srcs) {
  return elements_match(SameBits{}, dst, expected, srcs...);
}

/// Every buffer element of `operand` outside its view still holds the sentinel (operator==).
template <class T>
::testing::AssertionResult outside_untouched(const Operand<T>& operand) {
  std::vector<char> inside(operand.buffer.size(), 0);
  const std::ptrdiff_t origin = operand.view.data() - operand.buffer.data();
  for_each_index(operand.view.extents(), [&](const Index& i) {
    inside[static_cast<std::size_t>(origin + offset_of(operand.view, i))] = 1;
  });
  std::size_t written = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < operand.buffer.size(); ++k)
    if (!inside[k] && !(operand.buffer[k] == sentinel<T>()) && ++written <= 5)
      first << "\n  buffer element " << k << ": " << to_string(operand.buffer[k]);
  if (written == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << written << " buffer elements outside the view no longer hold the sentinel "
         << to_string(sentinel<T>()) << " (buffer of " << operand.buffer.size() << " elements)"
         << (written > 5 ? "; the first 5:" : ":") << first.str()
         << "\nview: " << layout_to_string(operand.view) << " from buffer element " << origin;
}

}  // namespace strided_test

#endif
