#ifndef STRIDED_TESTS_EXEC_SPACES_HPP
#define STRIDED_TESTS_EXEC_SPACES_HPP

// Every enabled host execution space: a typed test written once runs on each of them; and the
// spaces of the memory-space suite, a GPU included.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

namespace strided_test {

/// `Leading...`, then every enabled host space. A leg that repeats the suite for another
/// backend or other flags (STRIDED_TESTS_SKIP_SERIAL) leaves Serial to a leg that runs the whole
/// suite on it: the Serial instantiations were half of such a leg's build.
#if defined(STRIDED_TESTS_SKIP_SERIAL) && \
    (defined(KOKKOS_ENABLE_OPENMP) || defined(KOKKOS_ENABLE_THREADS))
template <class... Leading>
using HostSpacesAfter = ::testing::Types<Leading...,
#if defined(KOKKOS_ENABLE_OPENMP)
                                         Kokkos::OpenMP
#else
                                         Kokkos::Threads
#endif
                                         >;
#else
template <class... Leading>
using HostSpacesAfter = ::testing::Types<Leading...,
#if defined(KOKKOS_ENABLE_OPENMP)
                                         Kokkos::OpenMP,
#endif
#if defined(KOKKOS_ENABLE_THREADS)
                                         Kokkos::Threads,
#endif
                                         Kokkos::Serial>;
#endif

using ExecSpaces = HostSpacesAfter<>;

/// The spaces the memory-space suite (kernels/space_test.cpp) runs on with operands in the
/// space's own memory: Kokkos::DefaultExecutionSpace first when it is a device, then every host
/// space.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
using KernelSpaces = HostSpacesAfter<Kokkos::DefaultExecutionSpace>;
#else
using KernelSpaces = HostSpacesAfter<>;
#endif

/// Prints the space's name in test names instead of TypeParam indices.
struct ExecSpaceNames {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};

}  // namespace strided_test

#endif
