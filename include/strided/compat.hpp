#ifndef STRIDED_COMPAT_HPP
#define STRIDED_COMPAT_HPP

// The few places where Kokkos 3.4 and Kokkos 4.x/5.x differ, in one header. Everything else in
// Strided uses public Kokkos API common to all of them.

#include <Kokkos_Core.hpp>
#include <optional>
#include <string>
#include <type_traits>

namespace strided::compat {

template <class T>
inline constexpr bool is_execution_space_v = Kokkos::is_execution_space<T>::value;

/// Profiling region for the lifetime of the object (Kokkos::Profiling::ScopedRegion is 4.x only).
/// The label is a reference so that callers can keep static strings: no allocation per call.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& label) { Kokkos::Profiling::pushRegion(label); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

/// Labelled fence of an instance (labels arrived in Kokkos 3.6).
template <class Exec>
void fence(const Exec& exec, [[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30600
  exec.fence(label);
#else
  exec.fence();
#endif
}

/// The calling thread may run work of `Exec` directly (a host execution space).
template <class Exec>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;

/// A default instance created once per Kokkos session: creating instances allocates in Kokkos 4+,
/// and calls without an instance promise no allocation. Released at Kokkos::finalize.
template <class Exec>
const Exec& default_instance() {
  static std::optional<Exec> instance;
  if (!instance) {
    instance.emplace();
    Kokkos::push_finalize_hook([] { instance.reset(); });
  }
  return *instance;
}

/// The thread count selected by the user's Kokkos initialization arguments.
template <class Exec>
int concurrency(const Exec& exec) {
  return static_cast<int>(exec.concurrency());
}

}  // namespace strided::compat

#endif
