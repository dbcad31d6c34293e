#ifndef STRIDED_EXECUTION_HPP
#define STRIDED_EXECUTION_HPP

// How a plan's tiles are executed. Results never depend on the choice: reductions give the same
// bits on either algorithm, any space and any thread count.

#include "strided/compat.hpp"

namespace strided {

/// Which algorithm runs the tiles of a plan.
enum class Algorithm {
  Auto,   ///< Host on host execution spaces, Device on the others (CUDA, HIP, ...)
  Host,   ///< chunks of consecutive tiles per thread (RangePolicy); small calls run inline;
          ///< host execution spaces only (a device space runs Device)
  Device  ///< one tile per team (TeamPolicy), scratch-memory transposes, lanes across threads
};

/// Process-wide execution settings. Set them between calls, not while a kernel runs.
struct ExecutionOptions {
  /// Algorithm::Device on a host space runs the GPU algorithm there, so that it can be tested
  /// (and compared bit for bit with the host algorithm) without a GPU.
  Algorithm algorithm = Algorithm::Auto;
  /// Sends every copy_into through copy_across (pack, one contiguous transfer, unpack), even
  /// when one execution space reaches both operands: tests the cross-space path on the host.
  bool stage_copies = false;
};

inline ExecutionOptions& execution_options() {
  static ExecutionOptions options;
  return options;
}

/// Sets execution_options() for a scope and restores the previous settings when it ends (also
/// when an exception leaves the scope).
class ScopedExecutionOptions {
 public:
  explicit ScopedExecutionOptions(const ExecutionOptions& options) : m_saved(execution_options()) {
    execution_options() = options;
  }
  /// Only the algorithm changes; the other settings stay as they are.
  explicit ScopedExecutionOptions(Algorithm algorithm) : m_saved(execution_options()) {
    execution_options().algorithm = algorithm;
  }
  ~ScopedExecutionOptions() { execution_options() = m_saved; }
  ScopedExecutionOptions(const ScopedExecutionOptions&) = delete;
  ScopedExecutionOptions& operator=(const ScopedExecutionOptions&) = delete;

 private:
  ExecutionOptions m_saved;
};

namespace detail {

/// The device algorithm runs on `Exec` for this call. Spaces that the host cannot run on always
/// take it: the host algorithm's kernels are not even compiled for them.
template <class Exec>
bool uses_device_algorithm() {
  if constexpr (!compat::is_host_space_v<Exec>) return true;
  const Algorithm a = execution_options().algorithm;
  if (a == Algorithm::Auto) return !compat::is_host_space_v<Exec>;
  return a == Algorithm::Device;
}

/// Host spaces may run small calls on the calling thread (not under the device algorithm).
template <class Exec>
bool may_run_inline() {
  return compat::is_host_space_v<Exec> && !uses_device_algorithm<Exec>();
}

}  // namespace detail
}  // namespace strided

#endif
