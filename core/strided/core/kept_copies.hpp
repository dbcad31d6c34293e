#ifndef STRIDED_CORE_KEPT_COPIES_HPP
#define STRIDED_CORE_KEPT_COPIES_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace strided::detail {

/// The copies a kept plan has of its values in memory spaces other than the host's: made at its
/// first run on each space, read by every later run. Kokkos-free: a copy is any owner (a
/// shared_ptr<void>) with the address its kernels read, filed under the host value's address
/// and a key the backend chooses (one per memory space). Safe to use from several threads at
/// once: the first caller of a key makes the copy, the others wait for it.
class KeptCopies : public std::enable_shared_from_this<KeptCopies> {
 public:
  /// The copy of `value` kept under `space`; `make()` returns {owner, address} the first time
  /// only.
  template <class Make>
  const void* find_or_make(const void* space, const void* value, Make&& make) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    for (const Copy& copy : m_copies)
      if (copy.space == space && copy.value == value) return copy.address;
    auto made = make();
    m_copies.push_back(Copy{space, value, std::move(made.first), made.second});
    return m_copies.back().address;
  }
  /// How many copies are kept (one per space the plan has run on).
  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_copies.size();
  }
  /// Drops every copy (the spaces' memory is about to go away); later runs make them again.
  void release() {
    std::vector<Copy> dropped;
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      dropped.swap(m_copies);
    }
  }

 private:
  struct Copy {
    const void* space;
    const void* value;
    std::shared_ptr<void> owner;
    const void* address;
  };
  mutable std::mutex m_mutex;
  std::vector<Copy> m_copies;
};

}  // namespace strided::detail

#endif
