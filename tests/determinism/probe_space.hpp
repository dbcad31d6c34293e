#ifndef STRIDED_TESTS_DETERMINISM_PROBE_SPACE_HPP
#define STRIDED_TESTS_DETERMINISM_PROBE_SPACE_HPP

// The probes' first argument (compare_runs.cmake passes it): "serial", "parallel" (the default),
// "device" (the host-parallel space running the device algorithm) or "default" (Kokkos' default
// execution space with the data in its memory: the GPU on a device build).
#include <strided/strided.hpp>
#include <string>

namespace strided_test {

/// The space the probe was asked for; "device" also makes the device algorithm the default.
inline std::string probe_space(int argc, char* argv[]) {
  const std::string space = argc > 1 ? argv[1] : "parallel";
  if (space == "device") {
    strided::Options device;
    device.algorithm = strided::Algorithm::Device;
    strided::set_default_options(device);
  }
  return space;
}

}  // namespace strided_test

#endif
