#ifndef STRIDED_TESTS_FUZZ_REFERENCE_MODEL_HPP
#define STRIDED_TESTS_FUZZ_REFERENCE_MODEL_HPP

// The fuzzer's oracle: element addresses enumerated one by one with 128-bit arithmetic, and the
// contract's rules (bounds, injectivity, overlap) decided from those addresses alone, never from
// the library's own layout code.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <strided/strided.hpp>

namespace strided_fuzz {

__extension__ typedef __int128 Wide;

/// The program's element types: complex numbers (16 bytes, conjugation) and doubles (8 bytes:
/// the in-register transposes, streaming stores and vectorized folds).
using Complex = Kokkos::complex<double>;

/// A view kept by the program, with the conjugation its kernels read (and write) it through.
template <class T>
struct Operand {
  strided::StridedView<T> view;
  bool conj = false;
};

/// Reports a contract violation (with the input that caused it) and aborts.
[[noreturn]] void fail(const std::string& what);

inline Complex through(bool conj, const Complex& v) {
  return conj ? Kokkos::conj(v) : v;
}
inline double through(bool, double v) {
  return v;
}
inline double real_part(const Complex& v) {
  return v.real();
}
inline double real_part(double v) {
  return v;
}
inline double imag_part(const Complex& v) {
  return v.imag();
}
inline double imag_part(double) {
  return 0;
}

/// The product of the extents, saturated at 2^100: large enough to tell "fits 64 bits" apart.
inline Wide exact_count(const std::vector<std::size_t>& extents) {
  const Wide cap = Wide(1) << 100;
  Wide count = 1;
  for (std::size_t e : extents) {
    if (e == 0) return 0;
    count = count > cap / Wide(e) ? cap : count * Wide(e);
  }
  return count;
}

template <class View>
inline std::vector<std::size_t> extents_of(const View& v) {
  return std::vector<std::size_t>(v.extents().begin(), v.extents().end());
}

/// Calls f(index) for every multi-index of `extents`, the last axis fastest.
template <class F>
void for_each_index(const std::vector<std::size_t>& extents, F&& f) {
  if (exact_count(extents) == 0) return;
  std::vector<std::size_t> index(extents.size(), 0);
  while (true) {
    f(index);
    std::size_t k = extents.size();
    while (k > 0 && ++index[k - 1] == extents[k - 1]) index[--k] = 0;
    if (k == 0) return;
  }
}

/// The buffer position of `v`'s element at `index`; fails when it lies outside [0, length).
template <class T>
inline std::size_t position(const strided::StridedView<T>& v, const T* buffer, std::size_t length,
                            const std::vector<std::size_t>& index) {
  Wide at = Wide(v.data() - buffer);
  for (std::size_t k = 0; k < index.size(); ++k) at += Wide(index[k]) * Wide(v.stride(k));
  if (at < 0 || at >= Wide(length))
    fail("a view reaches position " + std::to_string(static_cast<long long>(at)) +
         " outside its buffer of " + std::to_string(length) + " elements");
  return static_cast<std::size_t>(at);
}

/// Every element's buffer position, in for_each_index order.
template <class T>
inline std::vector<std::size_t> positions(const strided::StridedView<T>& v, const T* buffer,
                                          std::size_t length) {
  std::vector<std::size_t> out;
  for_each_index(extents_of(v), [&](const std::vector<std::size_t>& i) {
    out.push_back(position(v, buffer, length, i));
  });
  return out;
}

/// Checks what every view must satisfy, whatever its size: size() is the exact element count
/// (at most PTRDIFF_MAX), and the lowest and highest reachable positions lie in the buffer.
template <class T>
inline void check_view_invariants(const strided::StridedView<T>& v, const T* buffer,
                                  std::size_t length) {
  const Wide count = exact_count(extents_of(v));
  if (count >= (Wide(1) << 63)) fail("a view holds more than PTRDIFF_MAX elements");
  if (Wide(v.size()) != count) fail("size() is not the product of the extents");
  if (count == 0) return;
  Wide low = Wide(v.data() - buffer), high = low;
  for (std::size_t k = 0; k < v.rank(); ++k) {
    const Wide reach = Wide(v.extent(k) - 1) * Wide(v.stride(k));  // |reach| < 2^127
    if (reach > Wide(length) || -reach > Wide(length)) fail("a view reaches outside its buffer");
    (reach < 0 ? low : high) += reach;
  }
  if (low < 0 || high >= Wide(length)) fail("a view reaches outside its buffer");
}

/// No two indices of `at` share an element.
inline bool injective(const std::vector<std::size_t>& at, std::size_t length) {
  std::vector<unsigned char> seen(length, 0);
  for (std::size_t p : at) {
    if (seen[p]) return false;
    seen[p] = 1;
  }
  return true;
}

inline bool share_an_element(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b,
                             std::size_t length) {
  std::vector<unsigned char> seen(length, 0);
  for (std::size_t p : a) seen[p] = 1;
  for (std::size_t p : b)
    if (seen[p]) return true;
  return false;
}

/// The contract's exception to the overlap rule: same origin, extents, and strides on the axes
/// of extent > 1.
template <class View>
inline bool same_layout(const View& a, const View& b) {
  if (a.rank() != b.rank() || a.data() != b.data()) return false;
  for (std::size_t k = 0; k < a.rank(); ++k)
    if (a.extent(k) != b.extent(k) || (a.extent(k) > 1 && a.stride(k) != b.stride(k))) return false;
  return true;
}

}  // namespace strided_fuzz

#endif
