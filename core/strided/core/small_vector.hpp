#ifndef STRIDED_CORE_SMALL_VECTOR_HPP
#define STRIDED_CORE_SMALL_VECTOR_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace strided::detail {

/// A vector of trivially copyable values that stores up to `N` of them inline and only goes to
/// the heap beyond that: view metadata of rank <= N costs no allocation.
template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(std::size_t n, T value = T{}) {
    resize(n);
    std::fill(begin(), end(), value);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  SmallVector(It first, It last) {
    resize(static_cast<std::size_t>(std::distance(first, last)));
    std::size_t k = 0;
    for (; first != last; ++first) data()[k++] = static_cast<T>(*first);
  }
  SmallVector(const SmallVector& other) { assign(other.data(), other.size()); }
  SmallVector(SmallVector&& other) noexcept { *this = std::move(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.data(), other.size());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this == &other) return *this;
    if (other.m_heap) {
      m_heap = std::move(other.m_heap);
      m_capacity = other.m_capacity;
    } else {
      m_heap.reset();
      m_capacity = N;
      std::copy(other.m_inline, other.m_inline + other.m_size, m_inline);
    }
    m_size = other.m_size;
    other.m_size = 0;
    other.m_capacity = N;
    return *this;
  }

  std::size_t size() const noexcept { return m_size; }
  bool empty() const noexcept { return m_size == 0; }
  T* data() noexcept { return m_heap ? m_heap.get() : m_inline; }
  const T* data() const noexcept { return m_heap ? m_heap.get() : m_inline; }
  T& operator[](std::size_t k) noexcept { return data()[k]; }
  const T& operator[](std::size_t k) const noexcept { return data()[k]; }
  T* begin() noexcept { return data(); }
  T* end() noexcept { return data() + m_size; }
  const T* begin() const noexcept { return data(); }
  const T* end() const noexcept { return data() + m_size; }
  T& back() noexcept { return data()[m_size - 1]; }

  void resize(std::size_t n) {
    reserve(n);
    m_size = n;
  }
  void reserve(std::size_t n) {
    if (n <= m_capacity) return;
    std::unique_ptr<T[]> grown(new T[n]);
    std::copy(begin(), end(), grown.get());
    m_heap = std::move(grown);
    m_capacity = n;
  }
  void push_back(T value) {
    if (m_size == m_capacity) reserve(std::max<std::size_t>(2 * m_capacity, 1));
    data()[m_size++] = value;
  }
  void erase(std::size_t k) {
    std::copy(begin() + k + 1, end(), begin() + k);
    --m_size;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  void assign(const T* values, std::size_t n) {
    resize(n);
    std::copy(values, values + n, data());
  }

  T m_inline[N] = {};
  std::unique_ptr<T[]> m_heap;
  std::size_t m_size = 0;
  std::size_t m_capacity = N;
};

}  // namespace strided::detail

#endif
