#ifndef STRIDED_TESTS_KERNELS_TEST_LAYOUTS_HPP
#define STRIDED_TESTS_KERNELS_TEST_LAYOUTS_HPP

// Random layouts over owned buffers and a reference loop over every multi-index: the kernels
// are checked element by element against plain reads through StridedView::operator().

#include <algorithm>
#include <complex>
#include <numeric>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <strided/strided.hpp>

namespace strided_test {

struct LayoutOptions {
  bool permute = true;   ///< random memory order of the axes
  bool negative = true;  ///< some axes walk backwards
  bool gaps = true;      ///< padding between axes
};

/// An owned buffer (with a guard area, filled with a sentinel) and a view of it. Move-only: a
/// copy's view would still point into the original's buffer, and dangle once the original dies.
/// Moves keep the view valid: a moved std::vector hands over its heap block, whose address stays.
template <class T>
struct Operand {
  std::vector<T> buffer;
  strided::StridedView<T> view;

  Operand(std::vector<T> owned, const strided::StridedView<T>& of_owned)
      : buffer(std::move(owned)), view(of_owned) {}
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  Operand(Operand&&) = default;
  Operand& operator=(Operand&&) = default;
  ~Operand() = default;
};

template <class T>
T make_value(std::size_t seed) {
  const double x = static_cast<double>(static_cast<long long>(seed % 2003) - 1001);
  if constexpr (strided::detail::is_complex_v<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(x), static_cast<R>(static_cast<double>(seed % 17) - 8));
  } else {
    return static_cast<T>(x);
  }
}

template <class T>
T sentinel() {
  return make_value<T>(777777);
}

/// A random layout for `extents`: axes stored in random order, optional gaps and reversed axes.
template <class T>
Operand<T> random_operand(const std::vector<std::size_t>& extents, std::mt19937& rng,
                          LayoutOptions options = {}) {
  const std::size_t rank = extents.size();
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (options.permute) std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::ptrdiff_t> strides(rank, 0);
  std::ptrdiff_t step = 1, offset = 0;
  for (std::size_t k : order) {
    strides[k] = step;
    // Gaps stay small in total so high-rank buffers stay small.
    const std::size_t gap = options.gaps && step < 4096 ? rng() % 3 : 0;
    step *= static_cast<std::ptrdiff_t>(std::max<std::size_t>(extents[k], 1) + gap);
  }
  for (std::size_t k = 0; k < rank; ++k)
    if (options.negative && rng() % 3 == 0 && extents[k] > 0) {
      offset += static_cast<std::ptrdiff_t>(extents[k] - 1) * strides[k];
      strides[k] = -strides[k];
    }
  const std::size_t len = static_cast<std::size_t>(step) + 3;
  std::vector<T> buffer(len, sentinel<T>());
  const strided::StridedView<T> view(buffer.data(), len, extents, strides, offset);
  return Operand<T>(std::move(buffer), view);  // moving keeps the buffer's address
}

template <class Extents, class F>
void for_each_index(const Extents& extents, F&& f) {
  const std::size_t rank = extents.size();
  for (std::size_t k = 0; k < rank; ++k)
    if (extents[k] == 0) return;
  std::vector<std::size_t> index(rank, 0);
  while (true) {
    f(static_cast<const std::vector<std::size_t>&>(index));
    std::size_t k = rank;
    while (k > 0) {
      --k;
      if (++index[k] < extents[k]) break;
      index[k] = 0;
      if (k == 0) return;
    }
    if (rank == 0) return;
  }
}

template <class V>
std::ptrdiff_t offset_of(const V& v, const std::vector<std::size_t>& i) {
  std::ptrdiff_t o = 0;
  for (std::size_t k = 0; k < i.size(); ++k) o += static_cast<std::ptrdiff_t>(i[k]) * v.stride(k);
  return o;
}

/// Element of `v` at `i` with the view's op applied.
template <class V>
typename V::value_type read(const V& v, const std::vector<std::size_t>& i) {
  return V::op_type::apply(static_cast<typename V::value_type>(v.data()[offset_of(v, i)]));
}

template <class T>
void write(const strided::StridedView<T>& v, const std::vector<std::size_t>& i, const T& x) {
  v.data()[offset_of(v, i)] = x;
}

/// Fills the logical elements of `v` with distinct values derived from `salt`.
template <class T>
void fill(const strided::StridedView<T>& v, std::size_t salt) {
  std::size_t n = 0;
  for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    write(v, i, make_value<T>(salt * 7919 + n++));
  });
}

/// Random extents with the given rank and at most `max_elements` elements (0 and 1 included
/// when `allow_degenerate`).
inline std::vector<std::size_t> random_extents(std::size_t rank, std::size_t max_elements,
                                               std::mt19937& rng, bool allow_degenerate = false) {
  std::vector<std::size_t> e(rank, 1);
  std::size_t total = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t room = max_elements / total;
    std::size_t pick = 1 + rng() % std::max<std::size_t>(1, std::min<std::size_t>(room, 9));
    if (allow_degenerate && rng() % 7 == 0) pick = rng() % 2;
    e[k] = std::min(pick, std::max<std::size_t>(room, 1));
    total *= std::max<std::size_t>(e[k], 1);
  }
  return e;
}

}  // namespace strided_test

#endif
