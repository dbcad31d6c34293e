// GoogleTest main for tests that use Kokkos: the test binary owns Kokkos' lifetime and takes
// Kokkos' own arguments (--kokkos-threads=N) so ctest can run it at several thread counts.
// `--strided-algorithm=device` runs every kernel through the device algorithm (TeamPolicy) on
// the host spaces, so the GPU code path is tested without a GPU.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <strided/execution.hpp>

int main(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--strided-algorithm=device") == 0)
      strided::execution_options().algorithm = strided::Algorithm::Device;
  Kokkos::initialize(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
