// GoogleTest main for tests that use Kokkos: the test binary owns Kokkos' lifetime and takes
// Kokkos' own arguments (--kokkos-threads=N) so ctest can run it at several thread counts.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
