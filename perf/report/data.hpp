#ifndef STRIDED_REPORT_DATA_HPP
#define STRIDED_REPORT_DATA_HPP

// Test data and result checks shared by the workloads. Values are chosen so that every check is
// exact: elements are multiples of 1/4 below 2^18, so products and sums of up to 2^35 of them
// are exact in any order, and neighbours differ, so that a misplaced element shows.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <random>
#include <strided/strided.hpp>
#include <vector>

namespace strided_report {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Array = strided::StridedArray<double>;

/// The value of flat element n of the pattern `salt` (a second operand uses another salt).
KOKKOS_INLINE_FUNCTION double pattern(std::size_t n, std::size_t salt = 0) {
  return static_cast<double>((n + salt * 7919) % 1000003) * 0.25;
}

/// Exact sum of pattern(n) for n < count.
inline double pattern_sum(std::size_t count) {
  const std::size_t p = 1000003, q = count / p, r = count % p;
  return 0.25 * static_cast<double>(q * (p * (p - 1) / 2) + r * (r - 1) / 2);
}

/// A row-major f64 array holding the pattern `salt`, filled in parallel.
inline Array make_pattern_array(const std::vector<std::size_t>& dims, std::size_t salt = 0) {
  Array a = Array::row_major(dims);
  double* p = a.data();
  Kokkos::parallel_for(
      "report::fill", Kokkos::RangePolicy<Exec>(0, a.size()),
      KOKKOS_LAMBDA(std::size_t n) { p[n] = pattern(n, salt); });
  Kokkos::fence();
  return a;
}

/// Fills an output with -1, a value no workload produces, so that a variant that writes
/// nothing cannot pass on what the previous variant left.
inline void poison(double* p, std::size_t n) {
  Kokkos::parallel_for(
      "report::poison", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(std::size_t i) { p[i] = -1; });
  Kokkos::fence();
}

/// The element of a strided view (StridedView or anything with data/rank/stride) at `index`.
template <class View>
auto element(const View& v, const std::vector<std::size_t>& index) {
  std::ptrdiff_t offset = 0;
  for (std::size_t k = 0; k < index.size(); ++k)
    offset += static_cast<std::ptrdiff_t>(index[k]) * v.stride(k);
  return v.data()[offset];
}

/// Compares 2000 random elements of `got` with `expected(multi-index)`.
template <class View, class Expected>
bool check_sample(const View& got, Expected&& expected) {
  std::mt19937 rng(1234);
  std::vector<std::size_t> index(got.rank());
  for (int s = 0; s < 2000; ++s) {
    for (std::size_t k = 0; k < got.rank(); ++k) index[k] = rng() % got.extent(k);
    if (element(got, index) != expected(index)) return false;
  }
  return true;
}

/// A sample of `dst` equals `src` element for element (a copy through any view).
template <class Dst, class Src>
bool check_copy(const Dst& dst, const Src& src) {
  return check_sample(dst, [&](const std::vector<std::size_t>& i) { return element(src, i); });
}

}  // namespace strided_report

#endif
